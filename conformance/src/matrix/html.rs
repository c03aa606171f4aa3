//! `index.html`: the matrix as one self-contained page.
//!
//! A summary header with each implementation's failure causes (each with
//! its count and smallest vector, folded until opened), then every vector
//! down the side (grouped by corpus file and first flag) and every
//! implementation across the top, one coloured cell each with a symbol, so
//! colour is never the only cue. The
//! table is plain HTML: it reads with scripts disabled, and each cell's
//! `title` shows the vector's description and source, the request, the
//! expected answer and the answer received on hover, and each vector's id
//! has links beside it to its row of `vectors/REFERENCE.md` and to the note
//! it cites (for the embedded corpus, in the repository). The inline script ([`SCRIPT`]) adds what needs one: a click
//! shows a cell's full details in a panel, a filter keeps only the vectors
//! where implementations disagree, one per request kind hides the others,
//! and the state lives in the address's fragment (`#disagree`,
//! `#kinds=decode-packed_guid,...`, `#show=ID@COLUMN`), so a view can be
//! shared; no element has one of those words as its id, so opening such an
//! address starts at the top of the page. The page loads nothing: no
//! network, no external script or style.

use std::fmt::Write as _;
use std::io;

use super::causes::Cause;
use super::implementations::Launch;
use super::model::{Cell, Column, Matrix, Page, Row, CELL_OUTCOMES};
use wow_guid_harness::report::Format;
use wow_guid_harness::run::RunOutcome;
use wow_guid_vectors::citation::Citation;
use wow_guid_vectors::RequestKind;

/// The repository the embedded corpus comes from (the workspace's
/// `repository`), which the page links into for a vector's row and note.
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The page's style sheet, inlined.
pub const STYLE: &str = include_str!("page.css");

/// The page's script, inlined.
pub const SCRIPT: &str = include_str!("page.js");

/// Longest value shown in a hover text; the click panel shows it whole.
const TITLE_CHARS: usize = 160;

/// An outcome in words on the page; a skip says why there is no answer.
fn label(outcome: RunOutcome) -> &'static str {
    match outcome {
        RunOutcome::Skipped => "skipped (unsupported)",
        other => other.label(),
    }
}

/// `text` escaped for HTML text and attribute values: the page's one
/// escaper. Markup characters become references; every character HTML
/// calls a parse error and XML 1.0 does not allow (controls other than
/// tab, newline and carriage return, the C1 controls, noncharacters such as
/// U+FFFE and U+FFFF) is spelled out as the terminal's escapes spell it
/// (`\x01`, `\u{fffe}`), since no reference to it is valid either.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let noncharacter = matches!(c, '\u{fdd0}'..='\u{fdef}') || u32::from(c) & 0xfffe == 0xfffe;
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\0'..='\x1f' | '\x7f' => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            '\u{80}'..='\u{9f}' => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            _ if noncharacter => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            _ => out.push(c),
        }
    }
    out
}

/// `text`, cut to [`TITLE_CHARS`] with its length noted.
fn short(text: &str) -> String {
    if text.chars().count() <= TITLE_CHARS {
        return text.to_owned();
    }
    let head: String = text.chars().take(TITLE_CHARS).collect();
    format!(
        "{head}… ({} characters; click for all)",
        text.chars().count()
    )
}

/// A row's id attribute: `v-` and the vector id (ids are `[a-z0-9._-]`).
fn row_id(row: &Row) -> String {
    format!("v-{}", row.id)
}

/// `index.html`: the matrix as one page.
#[derive(Clone, Copy, Debug)]
pub struct Html;

impl Format<Page<'_>> for Html {
    fn write(&self, page: &Page<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        let (matrix, command) = (page.matrix, page.command);
        let mut text = String::with_capacity(1 << 20);
        let o = &mut text;
        let _ = write!(
            o,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>PackedGuid and NamedGuid conformance matrix</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n"
        );
        summary(o, matrix, command);
        causes(o, matrix);
        let _ = writeln!(o, "</header>");
        filters(o, matrix);
        table(o, matrix);
        let _ = writeln!(
            o,
            "<aside id=\"detail\" hidden><button type=\"button\">close</button><dl></dl></aside>\n<script>\n{SCRIPT}</script>\n</body>\n</html>"
        );
        out.write_all(text.as_bytes())
    }
}

/// The page's header up to the failure causes: what was run, and one line
/// of counts per implementation, then the legend.
fn summary(o: &mut String, matrix: &Matrix, command: &str) {
    let _ = writeln!(
        o,
        "<header>\n<h1>PackedGuid and NamedGuid conformance matrix</h1>"
    );
    let _ = writeln!(
        o,
        "<p id=\"summary\" data-vectors=\"{}\" data-implementations=\"{}\" data-disagreements=\"{}\">\
         {} vectors ({}) against {} implementations, error codes judged {}; \
         the implementations disagree on {} vectors.</p>",
        matrix.rows.len(),
        matrix.columns.len(),
        matrix.disagreements(),
        matrix.rows.len(),
        esc(&matrix.header.corpus),
        matrix.columns.len(),
        if matrix.header.strict_errors { "strictly" } else { "leniently" },
        matrix.disagreements(),
    );
    let _ = writeln!(o, "<p>Made by <code>{}</code>.</p>", esc(command));
    let _ = write!(
        o,
        "<table class=\"summary\">\n<thead><tr><th>implementation</th><th>language</th><th>version</th><th>from</th>"
    );
    for outcome in CELL_OUTCOMES {
        let _ = write!(o, "<th>{}</th>", label(outcome));
    }
    let _ = writeln!(o, "</tr></thead>\n<tbody>");
    for c in &matrix.columns {
        summary_row(o, c);
    }
    let _ = writeln!(o, "</tbody>\n</table>");
    let _ = write!(o, "<p class=\"legend\">");
    for outcome in CELL_OUTCOMES {
        // An outcome's CSS class is its name: `page.css` has a rule for each.
        let (symbol, class) = (outcome.symbol(), outcome.as_str());
        let _ = write!(
            o,
            "<span><b class=\"{class}\">{symbol}</b> {}</span>",
            label(outcome)
        );
    }
    let _ = writeln!(
        o,
        "</p>\n<p>Hover over a cell for the vector's description and source, the request, the \
         expected answer and the answer received; click it for all of them in full. Beside each \
         vector's id, <i>row</i> links to its row in REFERENCE.md and <i>note</i> to the note \
         its expectation comes from.</p>"
    );
}

/// One implementation's line of the summary table.
fn summary_row(o: &mut String, c: &Column) {
    let e = &c.entry;
    let from = [&e.source.package, &e.source.repository, &e.source.path]
        .into_iter()
        .flatten()
        .map(|s| esc(s))
        .collect::<Vec<_>>()
        .join(", ");
    let how = match &e.launch {
        Launch::Command { written, .. } => written.join(" "),
        Launch::Builtin(b) => format!("built in: {}", b.as_str()),
    };
    let _ = write!(
        o,
        "<tr><td class=\"text\" title=\"{}\">{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td>",
        esc(&format!("{how}\n{}", e.note.as_deref().unwrap_or(""))),
        esc(&e.name),
        esc(&e.language),
        esc(&e.version),
        from,
    );
    for outcome in CELL_OUTCOMES {
        let _ = write!(o, "<td>{}</td>", c.counts.get(outcome));
    }
    let _ = writeln!(o, "</tr>");
}

/// The filters: they need the script, which shows them.
fn filters(o: &mut String, matrix: &Matrix) {
    let _ = write!(
        o,
        "<nav id=\"filters\" hidden>\n<label><input type=\"checkbox\" id=\"only-disagree\"> only where implementations disagree</label>"
    );
    for kind in RequestKind::ALL {
        let _ = write!(
            o,
            "<label><input type=\"checkbox\" class=\"kind\" value=\"{0}\" checked> {0}</label>",
            kind
        );
    }
    let _ = writeln!(
        o,
        "<span id=\"shown\" data-visible=\"{0}\">Showing {0} of {0} vectors</span>\n</nav>",
        matrix.rows.len()
    );
}

/// The matrix: a row per vector, grouped by corpus file and first flag, a
/// column per implementation.
fn table(o: &mut String, matrix: &Matrix) {
    let _ = write!(o, "<table class=\"matrix\">\n<thead><tr><th>vector</th>");
    for c in &matrix.columns {
        let _ = write!(
            o,
            "<th class=\"impl\" data-name=\"{0}\" title=\"{0} {1} ({2})\"><div class=\"name\">{0} <span class=\"kind\">{1}</span></div></th>",
            esc(&c.entry.name),
            esc(&c.entry.version),
            esc(&c.entry.language),
        );
    }
    let _ = writeln!(o, "</tr></thead>");
    for rows in matrix.rows.chunk_by(|a, b| a.group() == b.group()) {
        let (file, flag) = rows[0].group();
        let _ = writeln!(
            o,
            "<tbody class=\"group\"><tr class=\"group\"><th colspan=\"{}\">{} · {}</th></tr>",
            matrix.columns.len() + 1,
            esc(file),
            esc(flag)
        );
        for row in rows {
            row_head(o, row, &matrix.header.corpus);
            for (c, cell) in matrix.columns.iter().zip(&row.cells) {
                cell_html(o, row, c, cell);
            }
            let _ = writeln!(o, "</tr>");
        }
        let _ = writeln!(o, "</tbody>");
    }
    let _ = writeln!(o, "</table>");
}

/// A vector's row up to its cells: its id (a link to the row), its kind,
/// and links to its REFERENCE.md row and its note ([`links`]).
fn row_head(o: &mut String, row: &Row, corpus: &str) {
    let links = links(row, corpus);
    let _ = write!(
        o,
        "<tr class=\"vector\" id=\"{}\" data-kind=\"{}\" data-agree=\"{}\" data-location=\"{}:{}\" data-request=\"{}\" data-expected=\"{}\" data-description=\"{}\"",
        esc(&row_id(row)),
        row.kind,
        if row.agrees() { 1 } else { 0 },
        esc(&row.file),
        row.line,
        esc(&row.request),
        esc(&row.expected),
        esc(&row.description),
    );
    if let Some(source) = &row.source {
        let _ = write!(o, " data-source=\"{}\"", esc(source));
    }
    for (name, href) in &links {
        let _ = write!(o, " data-{name}=\"{}\"", esc(href));
    }
    let _ = write!(
        o,
        "><th><a href=\"#{}\">{}</a> <span class=\"kind\">{}</span>",
        esc(&row_id(row)),
        esc(&row.id),
        row.kind,
    );
    for (name, href) in &links {
        let _ = write!(
            o,
            " <a class=\"ref\" href=\"{}\" title=\"{}\">{}</a>",
            esc(href),
            esc(href),
            if *name == "reference" { "row" } else { "note" },
        );
    }
    let _ = write!(o, "</th>");
}

/// Where a vector is explained, for the embedded corpus (this repository's,
/// at [`REPOSITORY`]): its row of `vectors/REFERENCE.md`, and the note its
/// `source` cites. A corpus from a directory has no known address: none.
fn links(row: &Row, corpus: &str) -> Vec<(&'static str, String)> {
    if corpus != "embedded" {
        return Vec::new();
    }
    let base = format!("{REPOSITORY}/blob/main/vectors");
    let mut links = vec![("reference", format!("{base}/REFERENCE.md#{}", row.id))];
    if let Some(citation) = row.source.as_deref().and_then(|s| Citation::parse(s).ok()) {
        let anchor = citation.anchor.map(|a| format!("#{a}")).unwrap_or_default();
        links.push(("note", format!("{base}/{}{anchor}", citation.path)));
    }
    links
}

/// One cell: its outcome's symbol, and a hover text with the vector's
/// description and source, the request, the expected answer and the
/// answer received (each cut, the click panel has them whole).
fn cell_html(o: &mut String, row: &Row, c: &Column, cell: &Cell) {
    let (symbol, class) = (cell.outcome.symbol(), cell.outcome.as_str());
    let mut title = format!(
        "{}: {}\nvector: {}",
        // Cut like the rest: the name is repeated in every cell of its
        // column, and the heading shows it whole.
        short(&c.entry.name),
        label(cell.outcome),
        short(&row.description),
    );
    if let Some(source) = &row.source {
        let _ = write!(title, "\nsource: {}", short(source));
    }
    let _ = write!(
        title,
        "\nrequest: {}\nexpected: {}\ngot: {}",
        short(&row.request),
        short(&row.expected),
        match (&cell.got, cell.outcome) {
            (Some(got), _) => short(got),
            (None, RunOutcome::Passed) => "the expected answer".to_owned(),
            (None, RunOutcome::Skipped) => "unsupported".to_owned(),
            (None, _) => "no answer".to_owned(),
        }
    );
    if let Some(why) = &cell.why {
        let _ = write!(title, "\nwhy: {}", short(why));
    }
    let _ = write!(
        o,
        "<td class=\"{class}\" data-outcome=\"{}\" title=\"{}\"",
        cell.outcome.as_str(),
        esc(&title)
    );
    if let Some(got) = &cell.got {
        let _ = write!(o, " data-got=\"{}\"", esc(got));
    }
    if let Some(why) = &cell.why {
        let _ = write!(o, " data-why=\"{}\"", esc(why));
    }
    let _ = write!(o, ">{symbol}</td>");
}

/// The failure causes of every implementation that has some: one folded
/// section each, its summary the name and the number of causes and failing
/// vectors; inside, each cause with its count, its smallest vector (a link
/// to its row) and, when the shrinker found one, a smaller request.
fn causes(o: &mut String, matrix: &Matrix) {
    let failing: Vec<&Column> = matrix
        .columns
        .iter()
        .filter(|c| !c.causes.is_empty())
        .collect();
    let _ = writeln!(o, "<section id=\"causes\">\n<h2>Failure causes</h2>");
    if failing.is_empty() {
        let _ = writeln!(o, "<p>No implementation fails a vector.</p>\n</section>");
        return;
    }
    let _ = writeln!(
        o,
        "<p>Each implementation's failures grouped by request kind and what differed, \
         each cause with its smallest vector; where that one is longer than 16 bytes, the \
         fuzzer's shrinker looked for a smaller request that fails the same way.</p>"
    );
    for c in failing {
        let vectors: usize = c.causes.iter().map(|cause| cause.vectors.len()).sum();
        let _ = writeln!(
            o,
            "<details class=\"causes\" data-name=\"{0}\"><summary><b>{0}</b> {1}: {2} cause{3}, {4} failing vector{5}</summary>\n<ul>",
            esc(&short(&c.entry.name)),
            esc(&short(&c.entry.version)),
            c.causes.len(),
            if c.causes.len() == 1 { "" } else { "s" },
            vectors,
            if vectors == 1 { "" } else { "s" },
        );
        for cause in &c.causes {
            cause_item(o, cause);
        }
        let _ = writeln!(o, "</ul>\n</details>");
    }
    let _ = writeln!(o, "</section>");
}

/// One cause as a list item.
fn cause_item(o: &mut String, cause: &Cause) {
    let n = cause.vectors.len();
    let example = &cause.example;
    let _ = write!(
        o,
        "<li class=\"cause\" data-count=\"{n}\"><b>{}</b>: {n} vector{}; smallest <a href=\"#v-{}\"><code>{}</code></a>\n<dl class=\"mono\"><dt>request</dt><dd>{}</dd>",
        esc(&cause.signature.to_string()),
        if n == 1 { "" } else { "s" },
        esc(&example.id),
        esc(&example.id),
        esc(&short(&example.request)),
    );
    if let Some(got) = &example.got {
        let _ = write!(o, "<dt>got</dt><dd>{}</dd>", esc(&short(got)));
    }
    let _ = write!(o, "<dt>why</dt><dd>{}</dd></dl>", esc(&short(&example.why)));
    if let Some(shrunk) = &cause.shrunk {
        let _ = write!(
            o,
            "\nShrunk to a smaller request that fails the same way:\n<dl class=\"mono\"><dt>request</dt><dd>{}</dd><dt>expected</dt><dd>{}</dd>",
            esc(&short(&shrunk.request)),
            esc(&short(&shrunk.expected)),
        );
        if let Some(got) = &shrunk.got {
            let _ = write!(o, "<dt>got</dt><dd>{}</dd>", esc(&short(got)));
        }
        let _ = write!(o, "<dt>why</dt><dd>{}</dd></dl>", esc(&short(&shrunk.why)));
    }
    let _ = writeln!(o, "</li>");
}
