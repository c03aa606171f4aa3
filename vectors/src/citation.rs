//! Citations: where a vector's `source` says its expectation comes from.
//!
//! A `source` starts with a citation of a file below the corpus root, then a
//! colon and the words it rests on:
//!
//! ```text
//! NOTES.md#truncated-input-is-an-error: the mask promises more bytes than there are
//! ```
//!
//! The path is relative to the corpus root (the directory that holds
//! `packed_guid/` and `named_guid/`), `/`-separated, and may not leave it: the
//! corpus, its notes and everything a vector cites travel together, in the
//! repository and in the packaged crate. The anchor, when given, names a
//! heading of a Markdown file the way Markdown renderers derive it ([`slug`]),
//! so a citation is also a working link.
//!
//! [`check`] finds every citation in a corpus that does not resolve. The
//! vectors crate's tests run it on the checked-in corpus; this module reads
//! the cited files and nothing else.

use std::collections::HashMap;
use std::path::Path;

use crate::model::{Location, Vector};

/// A parsed `source`: the cited file, the heading in it, and the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Citation<'a> {
    /// The cited file, relative to the corpus root, `/`-separated.
    pub path: &'a str,
    /// The heading's anchor (without `#`), if the citation names one.
    pub anchor: Option<&'a str>,
    /// What the source says, after the citation.
    pub text: &'a str,
}

/// Why a `source` is not a citation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotACitation {
    /// There is no `: ` after the citation (or nothing before it).
    #[error(
        "does not start with a citation: write `FILE#HEADING: text`, \
         for example `NOTES.md#truncated-input-is-an-error: ...`"
    )]
    NoColon,
    /// The path is absolute, a URL, empty, or has a character outside
    /// `A-Z a-z 0-9 . _ - /`.
    #[error(
        "cites `{0}`, which is not a relative path below the corpus root \
         (letters, digits, `.`, `_`, `-` and `/` only)"
    )]
    BadPath(String),
    /// The path has an empty, `.` or `..` component: it would leave the corpus root.
    #[error(
        "cites `{0}`, which leaves the corpus root: cite a file below it, \
         such as `NOTES.md`"
    )]
    LeavesRoot(String),
    /// `#` is not followed by an anchor of `a-z 0-9 - _`.
    #[error(
        "has the anchor `#{0}`; an anchor is a heading's slug: \
         lowercase letters, digits, `-` and `_`"
    )]
    BadAnchor(String),
}

impl<'a> Citation<'a> {
    /// Splits `source` into its citation and its text.
    ///
    /// # Errors
    /// Why `source` does not start with a well-formed citation.
    pub fn parse(source: &'a str) -> Result<Citation<'a>, NotACitation> {
        let Some((cited, text)) = source.split_once(": ").filter(|(c, _)| !c.is_empty()) else {
            return Err(NotACitation::NoColon);
        };
        let (path, anchor) = cited
            .split_once('#')
            .map_or((cited, None), |(path, anchor)| (path, Some(anchor)));
        let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/');
        if path.is_empty() || !path.chars().all(path_char) {
            return Err(NotACitation::BadPath(path.to_owned()));
        }
        if path
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
        {
            return Err(NotACitation::LeavesRoot(path.to_owned()));
        }
        if let Some(anchor) = anchor {
            let anchor_char =
                |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_');
            if anchor.is_empty() || !anchor.chars().all(anchor_char) {
                return Err(NotACitation::BadAnchor(anchor.to_owned()));
            }
        }
        Ok(Citation { path, anchor, text })
    }
}

/// The anchor a Markdown renderer gives a heading: lowercase, spaces turned
/// into `-`, and every character other than letters, digits, `-` and `_`
/// dropped (so `` The spec's `C` snippet `` becomes `the-specs-c-snippet`).
#[must_use]
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a Markdown text, in order: each heading's slug (a
/// repeated slug gets `-1`, `-2`, ... as renderers number them) and each
/// explicit `<a id="...">`. Headings inside fenced code blocks are not
/// headings.
#[must_use]
pub fn anchors(markdown: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in outside_fences(markdown) {
        push_explicit(line, &mut found);
        if !line.starts_with('#') {
            continue;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        let rest = &line[level..];
        if level > 6 || !(rest.is_empty() || rest.starts_with(' ')) {
            continue;
        }
        let base = slug(rest.trim().trim_end_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.push(anchor);
    }
    found
}

/// The explicit anchors of a Markdown text (`<a id="...">`), in order,
/// outside fenced code blocks: the anchors that stay when a heading is
/// reworded, unlike the slugs of [`anchors`].
#[must_use]
pub fn explicit_anchors(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    outside_fences(markdown).for_each(|line| push_explicit(line, &mut found));
    found
}

/// The lines of `markdown` outside fenced code blocks (```` ``` ```` or
/// `~~~`, closed by the same marker), where anchors and headings count.
#[must_use = "an iterator does nothing unless consumed"]
pub fn outside_fences(markdown: &str) -> impl Iterator<Item = &str> {
    markdown.lines().filter(outside_fence())
}

/// Fed a text's lines in order, whether each is outside fenced code blocks
/// (as [`outside_fences`] keeps them).
fn outside_fence() -> impl FnMut(&&str) -> bool {
    let mut fence: Option<&str> = None;
    move |line| {
        let trimmed = line.trim_start();
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                fence = match fence {
                    None => Some(marker),
                    Some(open) if open == marker => None,
                    open => open,
                };
            }
        }
        fence.is_none()
    }
}

/// Appends the ids of the `<a id="...">` anchors on `line` to `found`.
fn push_explicit(line: &str, found: &mut Vec<String>) {
    for (at, _) in line.match_indices("<a id=\"") {
        let rest = &line[at + "<a id=\"".len()..];
        if let Some(end) = rest.find('"') {
            found.push(rest[..end].to_owned());
        }
    }
}

/// The sections of a Markdown text, in order: each heading's title (without
/// the `#` marks) with its anchor, the first explicit `<a id="...">` on the
/// lines just above it when there is one, else its slug. Headings inside
/// fenced code blocks are not headings.
#[must_use]
pub fn sections(markdown: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut found = Vec::new();
    let mut outside = outside_fence();
    for (at, line) in lines.iter().enumerate() {
        let level = line.chars().take_while(|&c| c == '#').count();
        if !outside(line) || level == 0 || level > 6 || !line[level..].starts_with(' ') {
            continue;
        }
        let title = line[level..].trim().trim_end_matches('#').trim().to_owned();
        let explicit = lines[..at]
            .iter()
            .rev()
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| l.starts_with("<a id=\""))
            .last()
            .and_then(|l| explicit_anchors(l).into_iter().next());
        found.push((explicit.unwrap_or_else(|| slug(&title)), title));
    }
    found
}

/// A vector whose `source` does not resolve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: vector `{id}`: `source` {problem}")]
pub struct BrokenCitation {
    /// The vector's id.
    pub id: String,
    /// Where the vector starts.
    pub location: Location,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with a citation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The `source` does not start with a citation.
    #[error("{0}")]
    NotACitation(NotACitation),
    /// The cited file is not below the corpus root.
    #[error("cites `{path}`, which is not a file below the corpus root")]
    NoSuchFile {
        /// The cited path.
        path: String,
    },
    /// The cited file exists but cannot be read as UTF-8 text.
    #[error("cites `{path}`, which cannot be read as text: {reason}")]
    Unreadable {
        /// The cited path.
        path: String,
        /// The reason, as the operating system gave it.
        reason: String,
    },
    /// The cited Markdown file has no heading with that anchor.
    #[error("cites `{path}#{anchor}`, but `{path}` has no heading with that anchor")]
    NoSuchHeading {
        /// The cited path.
        path: String,
        /// The anchor that is not there.
        anchor: String,
    },
    /// An anchor was given for a file that is not Markdown.
    #[error("gives an anchor for `{path}`, which is not a Markdown (`.md`) file")]
    AnchorOutsideMarkdown {
        /// The cited path.
        path: String,
    },
}

/// Every vector of `vectors` whose `source` is not a citation, or cites a
/// file or heading that does not exist below `root`, in order. Vectors
/// without a `source` are not checked.
#[must_use]
pub fn check(vectors: &[Vector], root: &Path) -> Vec<BrokenCitation> {
    // Each cited file is read once: the whole corpus cites a handful of files.
    let mut files: HashMap<&str, Result<Vec<String>, Problem>> = HashMap::new();
    let mut problem = |source| match Citation::parse(source) {
        Err(why) => Some(Problem::NotACitation(why)),
        Ok(citation) => {
            let headings = files
                .entry(citation.path)
                .or_insert_with(|| read_anchors(root, citation.path));
            match (headings, citation.anchor) {
                (Err(problem), _) => Some(problem.clone()),
                (Ok(_), None) => None,
                (Ok(_), Some(_)) if !citation.path.ends_with(".md") => {
                    Some(Problem::AnchorOutsideMarkdown {
                        path: citation.path.to_owned(),
                    })
                }
                (Ok(anchors), Some(anchor)) => {
                    (!anchors.iter().any(|a| a == anchor)).then(|| Problem::NoSuchHeading {
                        path: citation.path.to_owned(),
                        anchor: anchor.to_owned(),
                    })
                }
            }
        }
    };
    let broken = vectors.iter().filter_map(|vector| {
        Some(BrokenCitation {
            problem: problem(vector.source.as_deref()?)?,
            id: vector.id.clone(),
            location: vector.location.clone(),
        })
    });
    broken.collect()
}

/// The heading anchors of the file at `path` below `root` (none for a file
/// that is not Markdown).
fn read_anchors(root: &Path, path: &str) -> Result<Vec<String>, Problem> {
    let full = root.join(path);
    if !full.is_file() {
        return Err(Problem::NoSuchFile {
            path: path.to_owned(),
        });
    }
    match crate::files::read_text(&full) {
        Ok(text) if path.ends_with(".md") => Ok(anchors(&text)),
        Ok(_) => Ok(Vec::new()),
        Err(err) => Err(Problem::Unreadable {
            path: path.to_owned(),
            reason: err.to_string(),
        }),
    }
}
