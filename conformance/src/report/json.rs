//! `--report-json FILE`: the machine-readable report.
//!
//! # Format, version 2
//!
//! One JSON object. Fields are only ever added within a format version;
//! a change to the meaning or type of an existing field bumps
//! `format_version`.
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `format_version` | integer | `2` (version 1 counted crashes, timeouts and malformed answers as `fail`) |
//! | `tool` | string | `wow-guid-conformance <version>` |
//! | `implementation` | string | what was tested, as a person reads it |
//! | `command` | array of strings, or `null` | the implementation's command; `null` for the built-in reference |
//! | `corpus` | string | `embedded`, or the directory given to `--vectors` |
//! | `corpus_size` | integer | vectors in the corpus, selected or not |
//! | `mode` | string | `persistent` or `one-shot` |
//! | `strict_errors` | bool | whether error codes had to match exactly |
//! | `jobs` | integer | implementations run side by side |
//! | `expect_fail_file` | string or `null` | the expected-failure list |
//! | `duration_ms` | number | wall time of the run, milliseconds |
//! | `counts` | object | `total`, `pass`, `fail`, `crashed`, `timed_out`, `malformed`, `skip`, `xfail`, `stale`, `vector_bug`: integers |
//! | `conforms` | bool | no `fail`, `crashed`, `timed_out`, `malformed` or `stale` |
//! | `results` | array | one object per selected vector, in corpus order |
//!
//! Each result:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `id` | string | the vector id |
//! | `description` | string | the vector's description |
//! | `location` | string | `file:line:column` of the vector in the corpus |
//! | `outcome` | string | `pass`, `fail` (a wrong answer), `crashed` (the process ended before answering), `timed_out` (no answer in time), `malformed` (a line that is not a response to the request), `skip` (unsupported), `xfail` (failed, listed as expected), `stale` (passed, but listed), `vector_bug` (the reference codec disagrees with the vector) |
//! | `request` | string | the request line sent |
//! | `expected` | string | the expected response, with what else passes |
//! | `got` | string or `null` | the response line, `null` when none came (timeout, crash) |
//! | `reason` | string or `null` | why the outcome is not a plain pass or skip |
//! | `stderr_tail` | string or `null` | the implementation's last stderr lines at the time |
//! | `repro` | string | a shell command that reproduces just this vector |

use std::io;

use serde::Serialize;

use super::{expected_text, got_text, reason_text, ReportFormat, RunReport};
use crate::protocol;
use crate::run::Outcome;

/// The JSON report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Json;

/// The current format version.
pub const FORMAT_VERSION: u32 = 2;

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
    counts: Counts,
    conforms: bool,
    results: Vec<Item<'a>>,
}

#[derive(Serialize)]
struct Counts {
    total: usize,
    pass: usize,
    fail: usize,
    crashed: usize,
    timed_out: usize,
    malformed: usize,
    skip: usize,
    xfail: usize,
    stale: usize,
    vector_bug: usize,
}

#[derive(Serialize)]
struct Item<'a> {
    id: &'a str,
    description: &'a str,
    location: String,
    outcome: &'static str,
    request: String,
    expected: String,
    got: Option<String>,
    reason: Option<String>,
    stderr_tail: Option<&'a str>,
    repro: String,
}

impl ReportFormat for Json {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        let run = report.run;
        let c = &run.counts;
        let conditions = report.conditions();
        let strict_errors = conditions.judge.strict_errors;
        let doc = Document {
            format_version: FORMAT_VERSION,
            tool: format!("wow-guid-conformance {}", env!("CARGO_PKG_VERSION")),
            implementation: conditions.target.to_string(),
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
            counts: Counts {
                total: c.total(),
                pass: c.get(Outcome::Passed),
                fail: c.get(Outcome::Failed),
                crashed: c.get(Outcome::Crashed),
                timed_out: c.get(Outcome::TimedOut),
                malformed: c.get(Outcome::Malformed),
                skip: c.get(Outcome::Skipped),
                xfail: c.get(Outcome::ExpectedFailure),
                stale: c.get(Outcome::Stale),
                vector_bug: c.get(Outcome::VectorBug),
            },
            conforms: c.conforms(),
            results: run
                .results
                .iter()
                .map(|r| Item {
                    id: &r.vector.id,
                    description: &r.vector.description,
                    location: r.vector.location.to_string(),
                    outcome: r.outcome.as_str(),
                    request: protocol::request_line(&r.vector.id, &r.vector.request),
                    expected: expected_text(r, strict_errors),
                    got: got_text(r),
                    reason: reason_text(r, report.expect_fail_file()),
                    stderr_tail: r.answer.stderr_tail.as_deref(),
                    repro: report.rerun.repro(&r.vector.id),
                })
                .collect(),
        };
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
        writeln!(out)
    }
}
