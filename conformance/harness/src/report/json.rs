//! `--report-json FILE`: the machine-readable report.
//!
//! # Format, version 3
//!
//! `report.schema.json` beside this crate's manifest is the format as a JSON
//! Schema, `REPORT.md` for people; `tests/report_json.rs` keeps them and
//! this writer in step. A version only ever adds fields; a change of an
//! existing field's meaning or type bumps `format_version` (3:
//! `implementation` is a shell line, not Markdown, and `stderr_tail` is on
//! failed results only).

use std::io;

use serde::Serialize;

use super::{
    expected_text, got_text, hint_text, passes_alone_text, reason_text, unchecked, Format,
    RunReport,
};
use crate::protocol;
use crate::run::{NamedCounts, RunOutcome};

/// The JSON report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Json;

/// The current format version.
pub const FORMAT_VERSION: u32 = 3;

#[derive(Serialize)]
struct Document<'a> {
    format_version: u32,
    tool: String,
    implementation: String,
    command: Option<Vec<String>>,
    corpus: String,
    corpus_size: usize,
    mode: &'a str,
    strict_errors: bool,
    jobs: usize,
    expect_fail_file: Option<&'a str>,
    duration_ms: f64,
    counts: CountsOut<'a>,
    conforms: bool,
    results: Vec<Item<'a>>,
}

#[derive(Serialize)]
struct CountsOut<'a> {
    total: usize,
    #[serde(flatten)]
    by_outcome: NamedCounts<'a>,
}

#[derive(Serialize)]
struct Item<'a> {
    id: &'a str,
    description: &'a str,
    source: Option<&'a str>,
    location: String,
    outcome: &'static str,
    request: String,
    expected: String,
    got: Option<String>,
    reason: Option<String>,
    hint: Option<&'static str>,
    stderr_tail: Option<&'a str>,
    passes_alone: bool,
    unchecked: bool,
    after: Option<Vec<&'a str>>,
    state: Option<String>,
    repro: String,
}

impl Format<RunReport<'_, '_>> for Json {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        let run = report.run;
        let c = &run.counts;
        let conditions = report.conditions();
        let strict_errors = conditions.judge.strict_errors;
        let doc = Document {
            format_version: FORMAT_VERSION,
            tool: format!("wow-guid-conformance {}", env!("CARGO_PKG_VERSION")),
            implementation: match conditions.target.command() {
                Some(command) => crate::shell::words(command),
                None => conditions.target.to_string(),
            },
            command: conditions.target.command().map(|command| {
                command
                    .iter()
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect()
            }),
            corpus: conditions.corpus.name(),
            corpus_size: report.options.corpus.vectors.len(),
            mode: conditions.mode_name(),
            strict_errors,
            jobs: report.options.jobs.get(),
            expect_fail_file: report.expect_fail_file(),
            duration_ms: run.duration.as_secs_f64() * 1000.0,
            counts: CountsOut {
                total: c.total(),
                by_outcome: c.named(&RunOutcome::ALL),
            },
            conforms: c.conforms(),
            results: run
                .results
                .iter()
                .map(|r| Item {
                    id: &r.vector.id,
                    description: &r.vector.description,
                    source: r.vector.source.as_deref(),
                    location: r.vector.location.to_string(),
                    outcome: r.outcome.as_str(),
                    request: protocol::request_line(&r.vector.id, &r.vector.request),
                    expected: expected_text(r, strict_errors),
                    got: got_text(r),
                    reason: reason_text(r, report.expect_fail_file()),
                    hint: hint_text(r),
                    stderr_tail: (r.answer.stderr_tail.as_deref())
                        .filter(|_| r.outcome.implementation_failed()),
                    passes_alone: r.passes_alone.is_some(),
                    unchecked: unchecked(r),
                    after: r
                        .passes_alone
                        .as_deref()
                        .and_then(|passes| passes.after.as_ref())
                        .map(|after| after.iter().map(String::as_str).collect()),
                    state: passes_alone_text(r, report.rerun.corpus),
                    repro: report.rerun.repro_result(r),
                })
                .collect(),
        };
        // `io::Error::from` keeps the I/O error's kind and message (a full
        // disk stays a full disk); `io::Error::other` would wrap it.
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
        writeln!(out)
    }
}
