//! Expected-failure lists: the vectors an implementation is known to fail.
//!
//! ```text
//! # The spec's C snippet sign-extends byte 3 (see NOTES.md).
//! packed.decode.doc-example
//! packed.decode.high-bytes   # shifts past 32 bits are undefined behaviour
//! ```
//!
//! One id per line; `#` starts a comment. A comment on the id's own line is
//! its reason, else the comment lines just above it are (comment lines after
//! an id start the block of the ids below; the ids under one block share one
//! copy of its text). Blank lines separate groups. Every id must exist in
//! the corpus and appear once, and a listed vector that passes fails the
//! run as stale, so a list cannot silently go out of date. Parsing is pure.
//!
//! `run --id-file FILE` reads the same format as a plain list of ids to
//! select, so an expected-failure list selects exactly its vectors.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::terminal::escape_bounded;

mod suggest;

use suggest::Suggestions;
pub use suggest::{did_you_mean, similar_ids};

/// How many problems of one list an error message shows before it only
/// counts the rest.
pub const SHOWN_ERRORS: usize = 20;

/// Characters of an id or line an error message quotes before cutting it.
const SHOWN_CHARS: usize = 80;

/// One listed vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line of the id in the file.
    pub line: usize,
    /// The reason given in comments, if any, one copy shared by the ids
    /// under one block (a long block costs its length once).
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
        let shown = |text: &str| escape_bounded(text, SHOWN_CHARS);
        match &self.kind {
            ListErrorKind::NotOneId(text) => write!(
                f,
                "expected one vector id per line (with an optional `# comment`), found `{}`{FIX}",
                shown(text)
            ),
            ListErrorKind::Duplicate { id, first } => {
                write!(f, "`{}` is already listed on line {first}", shown(id))
            }
            ListErrorKind::Unknown { id, similar } => write!(
                f,
                "no vector has the id `{}`{}",
                shown(id),
                did_you_mean(similar)
            ),
        }
    }
}

/// Every problem found in one list, one per line when shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListErrors(pub Vec<ListError>);

/// How to mend a line that holds more than an id.
const FIX: &str = "; put `# ` before a reason";

impl fmt::Display for ListErrors {
    /// Several lines holding more than an id (reasons without `# `) as one
    /// line with their count and the fix, then the first [`SHOWN_ERRORS`]
    /// other problems and a count of the rest: a million unknown ids make a
    /// screenful.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let not_one = |e: &&ListError| matches!(e.kind, ListErrorKind::NotOneId(_));
        let words: Vec<&ListError> = self.0.iter().filter(not_one).collect();
        let mut shown: Vec<&ListError> = self.0.iter().collect();
        let mut lines = 0;
        if let [first @ ListError {
            kind: ListErrorKind::NotOneId(text),
            ..
        }, _, ..] = words.as_slice()
        {
            let (file, line, n) = (&first.file, first.line, words.len());
            let text = escape_bounded(text, SHOWN_CHARS);
            write!(f, "{file}: {n} lines hold more than one vector id, the first line {line}: `{text}`{FIX} (`ID # reason`)")?;
            shown.retain(|e| !not_one(e));
            lines = 1;
        }
        for e in shown.iter().take(SHOWN_ERRORS) {
            if lines > 0 {
                writeln!(f)?;
            }
            e.fmt(f)?;
            lines += 1;
        }
        if let Some(more) = shown.len().checked_sub(SHOWN_ERRORS).filter(|&n| n > 0) {
            let file = &shown[SHOWN_ERRORS].file;
            write!(f, "\n{file}: {more} more problem(s) like these, not shown")?;
        }
        Ok(())
    }
}

impl std::error::Error for ListErrors {}

impl ExpectedFailures {
    /// Parses `text`, the contents of `file`, checking every id against
    /// `corpus_ids` (the whole corpus's, not only the selected part), in
    /// linear time: only when some id is unknown are the corpus's ids
    /// sorted, once, to suggest near misses.
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
        let mut block = CommentBlock::default();
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
                block.without_id(comment);
                continue;
            }
            block.after_id = true;
            if content.split_whitespace().count() != 1 {
                errors.push(error(line, ListErrorKind::NotOneId(content.to_owned())));
                continue;
            }
            let reason = block.reason(comment);
            if let Some(first) = entries.get(content).map(|e| e.line) {
                let id = content.to_owned();
                errors.push(error(line, ListErrorKind::Duplicate { id, first }));
                continue;
            }
            entries.insert(content.to_owned(), Entry { line, reason });
        }
        errors.extend(
            unknown_ids(&entries, corpus_ids)
                .into_iter()
                .map(|(line, kind)| error(line, kind)),
        );
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

/// The comment lines above the ids being read: the reason of each id under
/// them without one of its own.
#[derive(Default)]
struct CommentBlock {
    lines: Vec<String>,
    /// The block joined once, for every id under it.
    reason: Option<Arc<str>>,
    /// A comment line after an id starts the block of the ids below it.
    after_id: bool,
}

impl CommentBlock {
    /// Takes a line without an id: a comment (`None`: no `#`) adds to the
    /// block, an empty one changes nothing, and a blank line ends it.
    fn without_id(&mut self, comment: Option<&str>) {
        if self.after_id {
            self.lines.clear();
            self.after_id = false;
        }
        match comment {
            Some(c) if !c.is_empty() => self.lines.push(c.to_owned()),
            Some(_) => {}
            None => self.lines.clear(),
        }
        self.reason = None;
    }

    /// The reason of an id whose line has `comment`: that, or the block's.
    fn reason(&mut self, comment: Option<&str>) -> Option<Arc<str>> {
        match comment {
            Some(c) if !c.is_empty() => Some(Arc::from(c)),
            _ if !self.lines.is_empty() => Some(
                self.reason
                    .get_or_insert_with(|| Arc::from(self.lines.join(" ")))
                    .clone(),
            ),
            _ => None,
        }
    }
}

/// The listed ids no vector has, each with its line and look-alikes.
fn unknown_ids<'a>(
    entries: &HashMap<String, Entry>,
    corpus_ids: impl Iterator<Item = &'a str> + Clone,
) -> Vec<(usize, ListErrorKind)> {
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
    if unknown.is_empty() {
        return Vec::new();
    }
    let suggest = Suggestions::new(corpus_ids);
    unknown
        .into_iter()
        .map(|(id, line)| {
            let similar = suggest.similar(id);
            let id = id.to_owned();
            (line, ListErrorKind::Unknown { id, similar })
        })
        .collect()
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

    /// An empty comment is no reason: a bare `#` in a block of comments
    /// adds nothing to the reason (nor ends the block), and a bare `#` after
    /// an id leaves the reason to the comment lines above.
    #[test]
    fn reasons_come_from_the_same_line_or_the_comments_above() {
        for (text, line) in [
            (
                "# header about the file\n\n# sign extension\n# in the C snippet\npacked.decode.a\n\
                 packed.decode.b   # count, not bits\n\nnamed.encode.c\n",
                5,
            ),
            (
                "# sign extension\n#\n# in the C snippet\npacked.decode.a\n\n\
                 # count, not bits\npacked.decode.b #\n\nnamed.encode.c #\n",
                4,
            ),
        ] {
            let list = parse(text).unwrap();
            assert_eq!(list.entries.len(), 3);
            let reason = |id| list.get(id).unwrap().reason.as_deref();
            assert_eq!(list.get("packed.decode.a").unwrap().line, line);
            assert_eq!(reason("packed.decode.a"), Some("sign extension in the C snippet"));
            assert_eq!(reason("packed.decode.b"), Some("count, not bits"));
            assert_eq!(reason("named.encode.c"), None);
        }
    }

    #[test]
    fn every_problem_shows_on_its_own_line() {
        let errors = parse("two ids\npacked.decode.a\npacked.decode.a\n").unwrap_err();
        assert_eq!(
            errors.to_string(),
            "xfail.txt:1: expected one vector id per line (with an optional `# comment`), found `two ids`; put `# ` before a reason\n\
             xfail.txt:3: `packed.decode.a` is already listed on line 2"
        );
        // A list that wrote its reasons without `# `: one line for all.
        let reasons = parse("packed.decode.a why\npacked.decode.b why not\nx\n").unwrap_err();
        assert_eq!(
            reasons.to_string(),
            "xfail.txt: 2 lines hold more than one vector id, the first line 1: `packed.decode.a \
             why`; put `# ` before a reason (`ID # reason`)\n\
             xfail.txt:3: no vector has the id `x`"
        );
        let one = parse("packed.decode.a\npacked.decode.a\n").unwrap_err();
        assert_eq!(
            one.to_string(),
            "xfail.txt:2: `packed.decode.a` is already listed on line 1"
        );
    }

    #[test]
    fn every_bad_line_is_reported_in_line_order_with_suggestions() {
        let cases: [(&str, &[&str]); 2] = [
            (
                "packed.decode.a\npacked.decode.x\npacked.decode.a\ntwo ids\n",
                &[
                    "xfail.txt:2: no vector has the id `packed.decode.x`; did you mean packed.decode.a, packed.decode.b?",
                    "xfail.txt:3: `packed.decode.a` is already listed on line 1",
                    "xfail.txt:4: expected one vector id per line (with an optional `# comment`), found `two ids`; put `# ` before a reason",
                ],
            ),
            (
                "named.encode.x\npacked.decode.a\nzzz\npacked.decode.c\n",
                &[
                    "xfail.txt:1: no vector has the id `named.encode.x`; did you mean named.encode.c?",
                    "xfail.txt:3: no vector has the id `zzz`",
                    "xfail.txt:4: no vector has the id `packed.decode.c`; did you mean packed.decode.a, packed.decode.b?",
                ],
            ),
        ];
        for (text, expected) in cases {
            let errors = parse(text).unwrap_err();
            let shown: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
            assert_eq!(shown, expected);
        }
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
