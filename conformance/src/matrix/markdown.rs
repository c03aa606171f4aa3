//! `matrix.md`: the matrix for people reading a repository: which versions
//! it covers, each implementation's counts (overall and by request kind),
//! and its distinct failure causes, each with one minimal example.
//!
//! The text depends only on the verdicts, never on timings or on where the
//! files are, so a run on another machine writes the same file, and a
//! results document made from it can be checked for staleness.

use std::fmt::Write as _;
use std::io;

use super::implementations::Launch;
use super::model::{Column, Matrix, Page, CELL_OUTCOMES};
use wow_guid_harness::report::Format;
use wow_guid_harness::run::{Counts, RunOutcome};

/// Untrusted text (an implementation's name, language, version, note,
/// source) as inline Markdown that renders as exactly that text: a control
/// character (a line break above all, which would end the table row and
/// start any Markdown) becomes a space, HTML's `&`, `<` and `>` become
/// entities, and every character that opens inline Markdown (emphasis,
/// links, images, code, strike-through, a table cell's end) is escaped.
/// Used for table cells and headings alike: the one escape of this page.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_control() => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '!' | '~' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Untrusted text as an inline code span: control characters become
/// spaces, and the span's fence is one backtick longer than the longest run
/// of backticks inside, so nothing in the text can close it.
fn code(text: &str) -> String {
    // In a table even a code span ends at `|`, unless it is escaped (GitHub
    // then shows the `|` alone).
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A repository: a plain `https://` address as an autolink, anything else
/// as escaped text.
fn repository(text: &str) -> String {
    let plain = text.strip_prefix("https://").is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "./_~:-".contains(c))
    });
    if plain {
        format!("<{text}>")
    } else {
        cell(text)
    }
}

fn source(column: &Column) -> String {
    let s = &column.entry.source;
    let mut parts = Vec::new();
    if let Some(package) = &s.package {
        parts.push(cell(package));
    }
    match (&s.repository, &s.path) {
        (Some(r), Some(path)) => parts.push(format!("{}: {}", repository(r), code(path))),
        (Some(r), None) => parts.push(repository(r)),
        (None, Some(path)) => parts.push(code(path)),
        (None, None) => {}
    }
    parts.join(", ")
}

/// `passed/total`, and the other outcomes that occurred.
fn kind_cell(counts: &Counts) -> String {
    let total: usize = CELL_OUTCOMES.iter().map(|o| counts.get(*o)).sum();
    if total == 0 {
        return "none".to_owned();
    }
    if counts.get(RunOutcome::Skipped) == total {
        return "skipped".to_owned();
    }
    let mut text = format!("{}/{}", counts.get(RunOutcome::Passed), total);
    let others: Vec<String> = CELL_OUTCOMES[1..]
        .iter()
        .filter(|o| counts.get(**o) > 0)
        .map(|o| format!("{} {}", counts.get(*o), o.heading()))
        .collect();
    if !others.is_empty() {
        let _ = write!(text, " ({})", others.join(", "));
    }
    text
}

/// `matrix.md`: the matrix as Markdown.
#[derive(Clone, Copy, Debug)]
pub struct Markdown;

impl Format<Page<'_>> for Markdown {
    fn write(&self, page: &Page<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        let (matrix, command) = (page.matrix, page.command);
        let mut text = String::new();
        let o = &mut text;
        let _ = writeln!(o, "# Conformance matrix\n");
        let _ = writeln!(
            o,
            "The whole corpus ({} vectors, {}) against {} implementations, error codes judged {}, \
             as `run` judges them. Implementations disagree on {} vectors. Written by\n\n```sh\n{command}\n```\n\n\
             from `{}`. Run it again after building the implementations to bring this page up to date; \
             the same command writes `matrix.json` (every verdict), its schema, and `index.html`, \
             a page with every vector and every answer.\n",
            matrix.header.corpus_size,
            matrix.header.corpus,
            matrix.columns.len(),
            if matrix.header.strict_errors { "strictly" } else { "leniently (any error code passes)" },
            matrix.disagreements(),
            matrix.header.implementations_file,
        );
        implementations(o, matrix);
        results(o, matrix);
        causes(o, matrix);
        out.write_all(text.as_bytes())
    }
}

/// The section that lists the implementations: name, language, version,
/// where each comes from and how it runs.
fn implementations(o: &mut String, matrix: &Matrix) {
    let _ = writeln!(o, "## Implementations and versions\n");
    let _ = writeln!(
        o,
        "| implementation | language | version | from | how it runs | note |"
    );
    let _ = writeln!(o, "| --- | --- | --- | --- | --- | --- |");
    for c in &matrix.columns {
        let e = &c.entry;
        let how = match &e.launch {
            Launch::Command { written, .. } => code(&written.join(" ")),
            Launch::Builtin(b) => format!("built in: {}", b.as_str()),
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&e.name),
            cell(&e.language),
            cell(&e.version),
            source(c),
            how,
            cell(e.note.as_deref().unwrap_or("")),
        );
    }
}

/// The section of counts: each implementation's outcomes, over the corpus
/// and by request kind.
fn results(o: &mut String, matrix: &Matrix) {
    let _ = writeln!(o, "\n## Results\n");
    let headings: Vec<&str> = CELL_OUTCOMES.iter().map(|o| o.heading()).collect();
    table(o, &headings, " ---: |", matrix, |c| {
        CELL_OUTCOMES
            .map(|outcome| c.counts.get(outcome).to_string())
            .to_vec()
    });
    let _ = writeln!(o, "\n### By request kind\n");
    let kinds = matrix.columns.first().map_or(&[][..], |c| &c.by_kind[..]);
    let headings: Vec<String> = kinds.iter().map(|(kind, _)| kind.to_string()).collect();
    table(o, &headings, " --- |", matrix, |c| {
        c.by_kind
            .iter()
            .map(|(_, counts)| kind_cell(counts))
            .collect()
    });
}

/// A table with a row per implementation: its name, then `cells` of it
/// under `headings`, each column's separator `rule`.
fn table<H: std::fmt::Display>(
    o: &mut String,
    headings: &[H],
    rule: &str,
    matrix: &Matrix,
    cells: impl Fn(&Column) -> Vec<String>,
) {
    let _ = write!(o, "| implementation |");
    for heading in headings {
        let _ = write!(o, " {heading} |");
    }
    let _ = writeln!(o, "\n| --- |{}", rule.repeat(headings.len()));
    for c in &matrix.columns {
        let _ = write!(o, "| {} |", cell(&c.entry.name));
        for text in cells(c) {
            let _ = write!(o, " {text} |");
        }
        let _ = writeln!(o);
    }
}

/// The section of failure causes: for each implementation, its failures
/// grouped by signature, each with its smallest vector and, where the
/// shrinker found one, a smaller request.
fn causes(o: &mut String, matrix: &Matrix) {
    let _ = writeln!(o, "\n## Failure causes\n");
    let _ = writeln!(
        o,
        "Failures are grouped by request kind and what differed (the differential fuzzer's \
         signatures). Each cause shows its smallest vector; where that one is longer than \
         16 bytes, the fuzzer's shrinker looked for a smaller request that fails the same way.\n"
    );
    for c in &matrix.columns {
        let _ = writeln!(
            o,
            "### {} {}\n",
            cell(&c.entry.name),
            cell(&c.entry.version)
        );
        if c.causes.is_empty() {
            let _ = writeln!(o, "No failures.\n");
            continue;
        }
        for cause in &c.causes {
            let n = cause.vectors.len();
            let listed: Vec<String> = cause
                .vectors
                .iter()
                .take(8)
                .map(|v| format!("`{v}`"))
                .collect();
            let more = if n > 8 {
                format!(" and {} more", n - 8)
            } else {
                String::new()
            };
            let _ = writeln!(
                o,
                "- **{}**: {n} vector{} ({}{more}). Smallest: `{}`\n",
                cause.signature,
                if n == 1 { "" } else { "s" },
                listed.join(", "),
                cause.example.id,
            );
            let _ = writeln!(o, "  ```text");
            let _ = writeln!(o, "  request  {}", cause.example.request);
            if let Some(got) = &cause.example.got {
                let _ = writeln!(o, "  got      {got}");
            }
            let _ = writeln!(o, "  why      {}", cause.example.why);
            let _ = writeln!(o, "  ```\n");
            if let Some(shrunk) = &cause.shrunk {
                let _ = writeln!(
                    o,
                    "  Shrunk to a smaller request that fails the same way:\n"
                );
                let _ = writeln!(o, "  ```text");
                let _ = writeln!(o, "  request  {}", shrunk.request);
                let _ = writeln!(o, "  expected {}", shrunk.expected);
                if let Some(got) = &shrunk.got {
                    let _ = writeln!(o, "  got      {got}");
                }
                let _ = writeln!(o, "  why      {}", shrunk.why);
                let _ = writeln!(o, "  ```\n");
            }
        }
    }
}
