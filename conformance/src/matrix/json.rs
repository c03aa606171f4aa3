//! `matrix.json`: every verdict of a matrix, for tools.
//!
//! `matrix.schema.json` beside this crate's manifest describes the format
//! (JSON Schema, draft 2020-12), field by field; the CLI writes it beside
//! `matrix.json`, and a test keeps the two in step. The format is versioned
//! by `format_version`: a field is only ever added in a new version.

use std::io;

use serde::Serialize;

use super::causes::{Example, ShrunkExample};
use super::implementations::Launch;
use super::model::{Cell, Column, Page, Row, CELL_OUTCOMES};
use wow_guid_harness::report::Format;
use wow_guid_harness::run::NamedCounts;

/// The `format` field.
pub const FORMAT_NAME: &str = "wow-guid-conformance matrix";

/// The `format_version` field.
pub const FORMAT_VERSION: u32 = 1;

/// The schema, as shipped beside this crate's manifest.
pub const SCHEMA: &str = include_str!("../../matrix.schema.json");

#[derive(Serialize)]
struct Document<'m> {
    format: &'static str,
    format_version: u32,
    tool: Tool,
    corpus: CorpusInfo<'m>,
    strict_errors: bool,
    implementations_file: &'m str,
    disagreements: usize,
    implementations: Vec<ImplementationOut<'m>>,
    vectors: Vec<VectorRow<'m>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct CorpusInfo<'m> {
    source: &'m str,
    vectors: usize,
}

#[derive(Serialize)]
struct ImplementationOut<'m> {
    name: &'m str,
    language: &'m str,
    version: &'m str,
    source: &'m super::implementations::Source,
    command: Option<&'m [String]>,
    builtin: Option<&'static str>,
    window: Option<usize>,
    note: Option<&'m str>,
    duration_ms: u64,
    counts: NamedCounts<'m>,
    by_kind: Vec<KindCounts<'m>>,
    causes: Vec<CauseOut<'m>>,
}

#[derive(Serialize)]
struct KindCounts<'m> {
    kind: String,
    counts: NamedCounts<'m>,
}

#[derive(Serialize)]
struct CauseOut<'m> {
    kind: String,
    difference: String,
    vectors: &'m [String],
    example: &'m Example,
    shrunk: Option<&'m ShrunkExample>,
}

#[derive(Serialize)]
struct VectorRow<'m> {
    id: &'m str,
    file: &'m str,
    line: usize,
    kind: String,
    flags: &'m [String],
    request: &'m str,
    expected: &'m str,
    agree: bool,
    results: &'m [Cell],
}

fn implementation(column: &Column) -> ImplementationOut<'_> {
    let entry = &column.entry;
    let (command, builtin) = match &entry.launch {
        Launch::Command { written, .. } => (Some(written.as_slice()), None),
        Launch::Builtin(b) => (None, Some(b.as_str())),
    };
    ImplementationOut {
        name: &entry.name,
        language: &entry.language,
        version: &entry.version,
        source: &entry.source,
        command,
        builtin,
        window: entry.window.map(std::num::NonZeroUsize::get),
        note: entry.note.as_deref(),
        duration_ms: u64::try_from(column.duration.as_millis()).unwrap_or(u64::MAX),
        counts: column.counts.named(&CELL_OUTCOMES),
        by_kind: column
            .by_kind
            .iter()
            .map(|(kind, counts)| KindCounts {
                kind: kind.to_string(),
                counts: counts.named(&CELL_OUTCOMES),
            })
            .collect(),
        causes: column
            .causes
            .iter()
            .map(|c| CauseOut {
                kind: c.signature.kind().to_string(),
                difference: c.signature.difference(),
                vectors: &c.vectors,
                example: &c.example,
                shrunk: c.shrunk.as_ref(),
            })
            .collect(),
    }
}

fn row(row: &Row) -> VectorRow<'_> {
    VectorRow {
        id: &row.id,
        file: &row.file,
        line: row.line,
        kind: row.kind.to_string(),
        flags: &row.flags,
        request: &row.request,
        expected: &row.expected,
        agree: row.agrees(),
        results: &row.cells,
    }
}

/// `matrix.json`: the whole matrix as one JSON document (`SCHEMA`).
#[derive(Clone, Copy, Debug)]
pub struct Json;

impl Format<Page<'_>> for Json {
    fn write(&self, page: &Page<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        let matrix = page.matrix;
        let document = Document {
            format: FORMAT_NAME,
            format_version: FORMAT_VERSION,
            tool: Tool {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            corpus: CorpusInfo {
                source: &matrix.header.corpus,
                vectors: matrix.header.corpus_size,
            },
            strict_errors: matrix.header.strict_errors,
            implementations_file: &matrix.header.implementations_file,
            disagreements: matrix.disagreements(),
            implementations: matrix.columns.iter().map(implementation).collect(),
            vectors: matrix.rows.iter().map(row).collect(),
        };
        serde_json::to_writer_pretty(&mut *out, &document)?;
        out.write_all(b"\n")
    }
}

/// `matrix.schema.json`: [`SCHEMA`], beside the document it describes.
#[derive(Clone, Copy, Debug)]
pub struct Schema;

impl Format<Page<'_>> for Schema {
    fn write(&self, _: &Page<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        out.write_all(SCHEMA.as_bytes())
    }
}
