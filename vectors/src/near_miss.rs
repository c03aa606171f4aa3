//! Near misses: the known word a mistyped one was probably meant to be, for
//! the "did you mean" of unknown field names and unknown words (flags,
//! error codes, versions). Pure; one home for the rule, so every
//! suggestion in the crate is made the same way.

/// The word of `known` closest to `word`, if one is close enough to be a
/// typo of it: equal ignoring ASCII case, or at most two edits away.
pub(crate) fn closest(word: &str, known: &[&'static str]) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    known
        .iter()
        .copied()
        .filter(|k| *k == lower || edit_distance(&lower, k) <= 2)
        .min_by_key(|k| edit_distance(&lower, k))
}

fn edit_distance(a: &str, b: &str) -> usize {
    // Known words are short; give up early on anything long (and hostile).
    if a.len() > 64 {
        return usize::MAX;
    }
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    const INPUT_FIELDS: &[&str] = &["bytes", "guid", "name"];
    const VECTOR_FIELDS: &[&str] = &["id", "description", "flags", "versions"];

    #[test]
    fn suggests_near_misses_only() {
        assert_eq!(closest("bytse", INPUT_FIELDS), Some("bytes"));
        assert_eq!(closest("Bytes", INPUT_FIELDS), Some("bytes"));
        assert_eq!(closest("descripton", VECTOR_FIELDS), Some("description"));
        assert_eq!(closest("frobnicate", VECTOR_FIELDS), None);
        assert_eq!(closest(&"x".repeat(10_000), VECTOR_FIELDS), None);
        assert_eq!(
            closest("nul-in-gid", &["nul-in-guid", "utf8"]),
            Some("nul-in-guid")
        );
    }
}
