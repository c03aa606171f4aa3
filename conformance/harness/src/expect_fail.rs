//! Expected-failure lists: the vectors an implementation is known to fail.
//!
//! ```text
//! # The spec's C snippet sign-extends byte 3 (see NOTES.md).
//! packed.decode.doc-example
//! packed.decode.high-bytes   # shifts past 32 bits are undefined behaviour
//! ```
//!
//! One id per line; `#` starts a comment. A comment on the id's own line is
//! its reason; otherwise the comment lines just above it are (comment lines
//! that follow an id start the block of the ids below them, and every id
//! under one block shares one copy of its text). Blank lines separate
//! groups. Every id must exist in the corpus and appear once, so a
//! list cannot silently go out of date; a listed vector that passes fails the
//! run as stale for the same reason. Parsing is pure; the caller reads the file.
//!
//! `run --id-file FILE` reads the same format as a plain list of ids to
//! select (its comments are just comments), so an expected-failure list, or
//! the list `--write-expect-fail` writes, selects exactly its vectors.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::terminal::escape_bounded;

/// How many problems of one list an error message shows before it only
/// counts the rest.
pub const SHOWN_ERRORS: usize = 20;

/// How many characters of an id or a line an error message quotes; a longer
/// one is cut, with its length.
const SHOWN_CHARS: usize = 80;

/// One listed vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line of the id in the file.
    pub line: usize,
    /// The reason given in comments, if any. The ids under one block of
    /// comment lines share one copy of it, so a long block above many ids
    /// costs its length once, not once per id.
    pub reason: Option<Arc<str>>,
}

/// A parsed expected-failure list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    /// The file's name as given, for messages.
    pub file: String,
    /// Listed ids and where they are.
    pub entries: HashMap<String, Entry>,
}

/// A problem with one line of an expected-failure list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    /// The file's name as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub kind: ListErrorKind,
}

/// What is wrong with a line of an expected-failure list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListErrorKind {
    /// The line holds more than one word before its comment.
    NotOneId(String),
    /// The id is listed a second time.
    Duplicate {
        /// The id.
        id: String,
        /// Line of its first listing.
        first: usize,
    },
    /// No vector in the corpus has this id.
    Unknown {
        /// The id.
        id: String,
        /// Up to three ids in the corpus that look alike.
        similar: Vec<String>,
    },
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        match &self.kind {
            ListErrorKind::NotOneId(text) => write!(
                f,
                "expected one vector id per line (with an optional `# comment`), found `{}`",
                escape_bounded(text, SHOWN_CHARS)
            ),
            ListErrorKind::Duplicate { id, first } => write!(
                f,
                "`{}` is already listed on line {first}",
                escape_bounded(id, SHOWN_CHARS)
            ),
            ListErrorKind::Unknown { id, similar } => {
                write!(
                    f,
                    "no vector has the id `{}`",
                    escape_bounded(id, SHOWN_CHARS)
                )?;
                if !similar.is_empty() {
                    write!(f, "; did you mean {}?", similar.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

/// Every problem found in one list, one per line when shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListErrors(pub Vec<ListError>);

impl fmt::Display for ListErrors {
    /// The first [`SHOWN_ERRORS`] problems, one per line, then how many
    /// more there are: a list of a million unknown ids is a screenful of
    /// output, not a million lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().take(SHOWN_ERRORS).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            e.fmt(f)?;
        }
        if let Some(more) = self.0.len().checked_sub(SHOWN_ERRORS).filter(|&n| n > 0) {
            let file = &self.0[SHOWN_ERRORS].file;
            write!(f, "\n{file}: {more} more problem(s) like these, not shown")?;
        }
        Ok(())
    }
}

impl std::error::Error for ListErrors {}

impl ExpectedFailures {
    /// Parses `text`, the contents of `file`, checking every id against
    /// `corpus_ids` (the ids of the whole corpus, not only the selected part).
    ///
    /// The cost is linear: listed ids go into a hash map, and one pass over
    /// the corpus's ids marks the ones that exist. Only when some do not are
    /// the corpus's ids sorted, once, to suggest near misses.
    ///
    /// # Errors
    /// [`ListErrors`] with every bad line, in line order.
    pub fn parse<'a>(
        file: &str,
        text: &str,
        corpus_ids: impl Iterator<Item = &'a str> + Clone,
    ) -> Result<Self, ListErrors> {
        // A byte-order mark, as some editors write, is not part of the first id.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut entries: HashMap<String, Entry> = HashMap::new();
        let mut errors = Vec::new();
        let mut comment_block: Vec<String> = Vec::new();
        // The block joined once, for every id under it.
        let mut block_reason: Option<Arc<str>> = None;
        // A comment line after an id starts the block of the ids below it.
        let mut after_id = false;
        let error = |line, kind| ListError {
            file: file.to_owned(),
            line,
            kind,
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let (content, comment) = match raw.split_once('#') {
                Some((c, comment)) => (c.trim(), Some(comment.trim())),
                None => (raw.trim(), None),
            };
            if content.is_empty() {
                if after_id {
                    comment_block.clear();
                    after_id = false;
                }
                match comment {
                    Some(c) if !c.is_empty() => comment_block.push(c.to_owned()),
                    Some(_) => {}
                    None => comment_block.clear(),
                }
                block_reason = None;
                continue;
            }
            after_id = true;
            if content.split_whitespace().count() != 1 {
                errors.push(error(line, ListErrorKind::NotOneId(content.to_owned())));
                continue;
            }
            let reason = match comment {
                Some(c) if !c.is_empty() => Some(Arc::from(c)),
                _ if !comment_block.is_empty() => Some(
                    block_reason
                        .get_or_insert_with(|| Arc::from(comment_block.join(" ")))
                        .clone(),
                ),
                _ => None,
            };
            if let Some(first) = entries.get(content) {
                errors.push(error(
                    line,
                    ListErrorKind::Duplicate {
                        id: content.to_owned(),
                        first: first.line,
                    },
                ));
                continue;
            }
            entries.insert(content.to_owned(), Entry { line, reason });
        }
        let mut unknown: HashMap<&str, usize> = entries
            .iter()
            .map(|(id, e)| (id.as_str(), e.line))
            .collect();
        for id in corpus_ids.clone() {
            if unknown.is_empty() {
                break;
            }
            unknown.remove(id);
        }
        if !unknown.is_empty() {
            let suggest = Suggestions::new(corpus_ids);
            for (id, line) in unknown {
                errors.push(error(
                    line,
                    ListErrorKind::Unknown {
                        id: id.to_owned(),
                        similar: suggest.similar(id),
                    },
                ));
            }
        }
        if errors.is_empty() {
            Ok(Self {
                file: file.to_owned(),
                entries,
            })
        } else {
            errors.sort_by_key(|e| e.line);
            Err(ListErrors(errors))
        }
    }

    /// The entry for `id`, if listed.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.get(id)
    }
}

/// Up to three ids that share the longest prefix with `id`, as suggestions
/// for a typo (see `Suggestions::similar`).
pub fn similar_ids<'a>(id: &str, all: impl Iterator<Item = &'a str>) -> Vec<String> {
    Suggestions::new(all).similar(id)
}

/// The corpus's ids sorted by their bytes, to find near misses of many ids
/// at a logarithmic cost each.
struct Suggestions<'a> {
    sorted: Vec<&'a str>,
}

impl<'a> Suggestions<'a> {
    fn new(all: impl Iterator<Item = &'a str>) -> Self {
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
    fn similar(&self, id: &str) -> Vec<String> {
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

    fn parse(text: &str) -> Result<ExpectedFailures, ListErrors> {
        ExpectedFailures::parse("xfail.txt", text, IDS.iter().copied())
    }

    #[test]
    fn ids_under_one_comment_block_share_one_copy_of_it() {
        // A long block over many ids used to be copied once per id: a 1 MB
        // file could take a gigabyte.
        let block = format!("# {}\n", "x".repeat(100_000));
        let ids: Vec<String> = (0..200).map(|i| format!("packed.decode.{i}")).collect();
        let text = format!(
            "{block}{block}{}\n# another\n# block\n{}\n",
            ids[..199].join("\n"),
            ids[199]
        );
        let list =
            ExpectedFailures::parse("xfail.txt", &text, ids.iter().map(String::as_str)).unwrap();
        let first = list.get(&ids[0]).unwrap().reason.clone().unwrap();
        assert_eq!(
            first.len(),
            2 * 100_000 + 1,
            "both lines, joined by a space"
        );
        for id in &ids[1..199] {
            let reason = list.get(id).unwrap().reason.as_ref().unwrap();
            assert!(Arc::ptr_eq(&first, reason), "{id} has a copy of its own");
        }
        // Comment lines after an id are the next ids' block, a new reason.
        let last = list
            .get(&ids[199])
            .unwrap()
            .reason
            .clone()
            .unwrap_or_default();
        assert!(
            &*last == "another block",
            "a reason of {} bytes",
            last.len()
        );
    }

    #[test]
    fn reasons_come_from_the_same_line_or_the_comments_above() {
        let list = parse(
            "# header about the file\n\n# sign extension\n# in the C snippet\npacked.decode.a\n\
             packed.decode.b   # count, not bits\n\nnamed.encode.c\n",
        )
        .unwrap();
        assert_eq!(list.entries.len(), 3);
        assert_eq!(
            list.get("packed.decode.a"),
            Some(&Entry {
                line: 5,
                reason: Some("sign extension in the C snippet".into())
            })
        );
        assert_eq!(
            list.get("packed.decode.b").unwrap().reason.as_deref(),
            Some("count, not bits")
        );
        assert_eq!(list.get("named.encode.c").unwrap().reason, None);
    }

    /// An empty comment is no reason: a bare `#` in a block of comments
    /// adds nothing to the reason (nor ends the block), and a bare `#` after
    /// an id leaves the reason to the comment lines above.
    #[test]
    fn empty_comments_give_no_reason() {
        let list = parse(
            "# sign extension\n#\n# in the C snippet\npacked.decode.a\n\n\
             # count, not bits\npacked.decode.b #\n\nnamed.encode.c #\n",
        )
        .unwrap();
        assert_eq!(
            list.get("packed.decode.a").unwrap().reason.as_deref(),
            Some("sign extension in the C snippet")
        );
        assert_eq!(
            list.get("packed.decode.b").unwrap().reason.as_deref(),
            Some("count, not bits")
        );
        assert_eq!(list.get("named.encode.c").unwrap().reason, None);
    }

    #[test]
    fn every_problem_shows_on_its_own_line() {
        let errors = parse("two ids\npacked.decode.a\npacked.decode.a\n").unwrap_err();
        assert_eq!(
            errors.to_string(),
            "xfail.txt:1: expected one vector id per line (with an optional `# comment`), found `two ids`\n\
             xfail.txt:3: `packed.decode.a` is already listed on line 2"
        );
        let one = parse("packed.decode.a\npacked.decode.a\n").unwrap_err();
        assert_eq!(
            one.to_string(),
            "xfail.txt:2: `packed.decode.a` is already listed on line 1"
        );
    }

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

    #[test]
    fn every_bad_line_is_reported() {
        let errors =
            parse("packed.decode.a\npacked.decode.x\npacked.decode.a\ntwo ids\n").unwrap_err();
        let shown: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "xfail.txt:2: no vector has the id `packed.decode.x`; did you mean packed.decode.a, packed.decode.b?",
                "xfail.txt:3: `packed.decode.a` is already listed on line 1",
                "xfail.txt:4: expected one vector id per line (with an optional `# comment`), found `two ids`",
            ]
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

    #[test]
    fn unknown_ids_come_back_in_line_order_with_suggestions() {
        let errors = parse("named.encode.x\npacked.decode.a\nzzz\npacked.decode.c\n").unwrap_err();
        let shown: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "xfail.txt:1: no vector has the id `named.encode.x`; did you mean named.encode.c?",
                "xfail.txt:3: no vector has the id `zzz`",
                "xfail.txt:4: no vector has the id `packed.decode.c`; did you mean packed.decode.a, packed.decode.b?",
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_id() {
        let list = parse("\u{feff}packed.decode.a\npacked.decode.b\n").unwrap();
        assert_eq!(list.get("packed.decode.a").map(|e| e.line), Some(1));
    }

    #[test]
    fn unknown_ids_are_shown_cut_escaped_and_a_few_at_a_time() {
        let long = "\0".repeat(100_000);
        let errors = parse(&format!("{long}\n")).unwrap_err();
        let message = errors.to_string();
        assert!(message.len() < 1_000, "{} bytes", message.len());
        assert!(message.contains("(100000 bytes in all)"), "{message}");
        assert!(!message.contains('\0'), "{message:?}");

        let many: String = (0..100_000).map(|i| format!("unknown.{i}\n")).collect();
        let errors = parse(&many).unwrap_err();
        assert_eq!(errors.0.len(), 100_000);
        let message = errors.to_string();
        assert_eq!(message.lines().count(), SHOWN_ERRORS + 1, "{message}");
        assert!(
            message.ends_with("xfail.txt: 99980 more problem(s) like these, not shown"),
            "{message}"
        );
    }

    #[test]
    fn comments_and_ids_in_messages_cannot_act_on_a_terminal() {
        let errors = parse("a\x1b]0;title\x07 b\n").unwrap_err();
        let message = errors.to_string();
        assert!(
            !message.contains('\x1b') && !message.contains('\x07'),
            "{message:?}"
        );
        assert!(message.contains(r"a\x1b]0;title\x07 b"), "{message}");
    }
}
