//! Suggestions for an id that names no vector: the ids of the corpus that
//! share the longest prefix with it. Apart from the list's parser, which
//! asks for them only when an id is unknown, and public through
//! [`similar_ids`] (with their wording, [`did_you_mean`]) for every other
//! command that takes an id.

/// Up to three ids that share the longest prefix with `id`, as suggestions
/// for a typo (see `Suggestions::similar`).
pub fn similar_ids<'a>(id: &str, all: impl Iterator<Item = &'a str>) -> Vec<String> {
    Suggestions::new(all).similar(id)
}

/// `; did you mean A, B?` for the suggestions in `similar`, or nothing:
/// the one spelling of them for every message about an unknown id.
#[must_use]
pub fn did_you_mean(similar: &[String]) -> String {
    if similar.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", similar.join(", "))
    }
}

/// The corpus's ids sorted by their bytes, to find near misses of many ids
/// at a logarithmic cost each.
pub(super) struct Suggestions<'a> {
    sorted: Vec<&'a str>,
}

impl<'a> Suggestions<'a> {
    pub(super) fn new(all: impl Iterator<Item = &'a str>) -> Self {
        let mut sorted: Vec<&str> = all.collect();
        sorted.sort_unstable();
        Self { sorted }
    }

    /// The ids starting with `prefix`: a contiguous range of the sorted ids.
    fn with_prefix(&self, prefix: &[u8]) -> std::ops::Range<usize> {
        let start = self.sorted.partition_point(|x| x.as_bytes() < prefix);
        let len = self.sorted[start..].partition_point(|x| x.as_bytes().starts_with(prefix));
        start..start + len
    }

    /// Up to three ids, by the length of the prefix they share with `id`
    /// (longest first, then in byte order), within three bytes of the best
    /// and sharing at least `id`'s first dotted part (or the whole best
    /// prefix, if shorter): a shorter shared prefix is no hint at all.
    pub(super) fn similar(&self, id: &str) -> Vec<String> {
        let bytes = id.as_bytes();
        let shared = |other: &str| {
            bytes
                .iter()
                .zip(other.as_bytes())
                .take_while(|(a, b)| a == b)
                .count()
        };
        // The longest shared prefix is with a neighbour of where `id` would
        // be inserted.
        let at = self.sorted.partition_point(|x| x.as_bytes() < bytes);
        let best = [at.checked_sub(1), Some(at)]
            .into_iter()
            .flatten()
            .filter_map(|i| self.sorted.get(i))
            .map(|other| shared(other))
            .max()
            .unwrap_or(0);
        let min = id.find('.').map_or(id.len(), |i| i + 1).min(best).max(1);
        let mut out = Vec::new();
        let mut inner = at..at;
        for score in (min.max(best.saturating_sub(3))..=best).rev() {
            let outer = self.with_prefix(&bytes[..score]);
            // The ids sharing exactly `score` bytes, in byte order: those
            // before the ones sharing more, then those after.
            let exactly = (outer.start..inner.start).chain(inner.end..outer.end);
            for i in exactly {
                if out.len() == 3 {
                    return out;
                }
                out.push(self.sorted[i].to_owned());
            }
            inner = outer;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: &[&str] = &["packed.decode.a", "packed.decode.b", "named.encode.c"];

    /// What `repro` suggests for an id it does not know: the closest ids, and
    /// nothing for an id like none of them.
    #[test]
    fn similar_ids_suggests_the_closest() {
        assert_eq!(
            similar_ids("packed.decode.c", IDS.iter().copied()),
            ["packed.decode.a", "packed.decode.b"]
        );
        assert_eq!(
            similar_ids("named.encode", IDS.iter().copied()),
            ["named.encode.c"]
        );
        assert!(similar_ids("zzz", IDS.iter().copied()).is_empty());
        // Sharing the first dotted part means sharing its dot too: `packed`
        // is no hint for `packed.x`, though it is within three bytes of the
        // best.
        assert_eq!(
            similar_ids("packed.x", ["packed", "packed.decode.a"].into_iter()),
            ["packed.decode.a"]
        );
    }

    /// The straightforward model of the suggestions: score every id by the
    /// prefix it shares, sort, take the best few.
    fn naive_similar(id: &str, all: &[&str]) -> Vec<String> {
        let shared = |other: &str| {
            id.bytes()
                .zip(other.bytes())
                .take_while(|(a, b)| a == b)
                .count()
        };
        let mut scored: Vec<(usize, &str)> = all.iter().map(|o| (shared(o), *o)).collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let best = scored.first().map_or(0, |s| s.0);
        let min = id.find('.').map_or(id.len(), |i| i + 1).min(best);
        scored
            .into_iter()
            .take_while(|(score, _)| *score >= min.max(1) && *score + 3 >= best)
            .take(3)
            .map(|(_, other)| other.to_owned())
            .collect()
    }

    /// The sorted look-up suggests exactly what scoring every id would, for
    /// ids near, inside, before and after a corpus of look-alike ids.
    #[test]
    fn suggestions_match_the_naive_model() {
        let mut all: Vec<String> = Vec::new();
        for kind in ["packed.decode", "packed.encode", "named.decode", "p"] {
            for i in [0, 1, 2, 9, 10, 11, 19, 100, 101, 110, 999] {
                all.push(format!("{kind}.v{i}"));
                all.push(format!("{kind}.v{i}-x"));
            }
        }
        all.push("packed".into());
        all.push("z".into());
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let suggest = Suggestions::new(refs.iter().copied());
        let mut queries: Vec<String> = all.iter().map(|id| format!("{id}y")).collect();
        for id in &all {
            for cut in 0..id.len() {
                queries.push(id[..cut].to_owned());
                queries.push(format!("{}q", &id[..cut]));
                queries.push(format!("{}.", &id[..cut]));
            }
        }
        queries
            .extend(["", "a", "zz", "packed.decode.v1000", "packed.decode.v0-"].map(String::from));
        for q in &queries {
            assert_eq!(suggest.similar(q), naive_similar(q, &refs), "for `{q}`");
        }
    }
}
