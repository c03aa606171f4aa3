//! Expected-failure lists: the vectors an implementation is known to fail.
//!
//! ```text
//! # The spec's C snippet sign-extends byte 3 (see NOTES.md).
//! packed.decode.doc-example
//! packed.decode.high-bytes   # shifts past 32 bits are undefined behaviour
//! ```
//!
//! One id per line; `#` starts a comment. A comment on the id's own line is
//! its reason; otherwise the comment lines just above it are. Blank lines
//! separate groups. Every id must exist in the corpus and appear once, so a
//! list cannot silently go out of date; a listed vector that passes fails the
//! run as stale for the same reason. Parsing is pure; the caller reads the file.

use std::collections::BTreeMap;
use std::fmt;

/// One listed vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line of the id in the file.
    pub line: usize,
    /// The reason given in comments, if any.
    pub reason: Option<String>,
}

/// A parsed expected-failure list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    /// The file's name as given, for messages.
    pub file: String,
    /// Listed ids and where they are.
    pub entries: BTreeMap<String, Entry>,
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
                "expected one vector id per line (with an optional `# reason`), found `{text}`"
            ),
            ListErrorKind::Duplicate { id, first } => {
                write!(f, "`{id}` is already listed on line {first}")
            }
            ListErrorKind::Unknown { id, similar } => {
                write!(f, "no vector has the id `{id}`")?;
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            e.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for ListErrors {}

impl ExpectedFailures {
    /// Parses `text`, the contents of `file`, checking every id against
    /// `known` (the ids of the whole corpus, not only the selected part).
    ///
    /// # Errors
    /// [`ListErrors`] with every bad line.
    pub fn parse<'a>(
        file: &str,
        text: &str,
        known: impl Fn(&str) -> bool,
        all_ids: impl Iterator<Item = &'a str> + Clone,
    ) -> Result<Self, ListErrors> {
        let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
        let mut errors = Vec::new();
        let mut comment_block: Vec<String> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let (content, comment) = match raw.split_once('#') {
                Some((c, comment)) => (c.trim(), Some(comment.trim())),
                None => (raw.trim(), None),
            };
            if content.is_empty() {
                match comment {
                    Some(c) if !c.is_empty() => comment_block.push(c.to_owned()),
                    Some(_) => {}
                    None => comment_block.clear(),
                }
                continue;
            }
            let error = |kind| ListError {
                file: file.to_owned(),
                line,
                kind,
            };
            if content.split_whitespace().count() != 1 {
                errors.push(error(ListErrorKind::NotOneId(content.to_owned())));
                continue;
            }
            let reason = match comment {
                Some(c) if !c.is_empty() => Some(c.to_owned()),
                _ if !comment_block.is_empty() => Some(comment_block.join(" ")),
                _ => None,
            };
            if !known(content) {
                errors.push(error(ListErrorKind::Unknown {
                    id: content.to_owned(),
                    similar: similar_ids(content, all_ids.clone()),
                }));
                continue;
            }
            if let Some(first) = entries.get(content) {
                errors.push(error(ListErrorKind::Duplicate {
                    id: content.to_owned(),
                    first: first.line,
                }));
                continue;
            }
            entries.insert(content.to_owned(), Entry { line, reason });
        }
        if errors.is_empty() {
            Ok(Self {
                file: file.to_owned(),
                entries,
            })
        } else {
            Err(ListErrors(errors))
        }
    }

    /// The entry for `id`, if listed.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.get(id)
    }
}

/// Up to three ids that share the longest dotted prefix with `id`, as
/// suggestions for a typo.
pub(crate) fn similar_ids<'a>(id: &str, all: impl Iterator<Item = &'a str>) -> Vec<String> {
    let shared = |other: &str| {
        id.bytes()
            .zip(other.bytes())
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut scored: Vec<(usize, &str)> = all.map(|other| (shared(other), other)).collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let best = scored.first().map_or(0, |s| s.0);
    // A shared prefix shorter than the first dotted part is no hint at all.
    let min = id.find('.').map_or(id.len(), |i| i + 1).min(best);
    scored
        .into_iter()
        .take_while(|(score, _)| *score >= min.max(1) && *score + 3 >= best)
        .take(3)
        .map(|(_, other)| other.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: &[&str] = &["packed.decode.a", "packed.decode.b", "named.encode.c"];

    fn parse(text: &str) -> Result<ExpectedFailures, ListErrors> {
        ExpectedFailures::parse(
            "xfail.txt",
            text,
            |id| IDS.contains(&id),
            IDS.iter().copied(),
        )
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
                "xfail.txt:4: expected one vector id per line (with an optional `# reason`), found `two ids`",
            ]
        );
    }
}
