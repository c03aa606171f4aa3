//! Turning run results into reports: a summary for people, JSON for tools,
//! JUnit XML for CI dashboards, and the expected-failure list of a run.
//!
//! Each format lives in its own file behind [`ReportFormat`]. The wording of
//! "expected", "got" and "why" is shared here so that every format says the
//! same thing about a vector; `field` decides how a long field is cut in
//! text (JSON and JUnit keep it whole); [`block`] writes the lines a person reads
//! about one vector (in `run`'s summary and in `repro`), and [`rerun`] every
//! command line that gives a verdict again. Formats write to the
//! `io::Write` they are given and touch nothing else.

pub mod block;
pub mod expect_fail_list;
pub mod field;
pub mod grouping;
pub mod human;
pub mod json;
pub mod junit;
pub mod rerun;

use std::io;

use wow_guid_vectors::Expectation;

use crate::judge::Verdict;
use crate::options::{Conditions, RunOptions};
use crate::protocol::{self, Response};
use crate::run::{RunOutcome, RunResults, VectorResult};
use rerun::Rerun;

/// A finished run and the options it ran under, exactly as the run got
/// them.
#[derive(Clone, Copy, Debug)]
pub struct RunReport<'r, 'c> {
    /// The options of the run.
    pub options: &'r RunOptions,
    /// The results.
    pub run: &'r RunResults<'c>,
    /// Writes the command that reproduces one vector of this run.
    pub rerun: Rerun<'r>,
}

impl<'r, 'c> RunReport<'r, 'c> {
    /// The report of `run`, made under `options` by the runner invoked as
    /// `program`.
    #[must_use]
    pub fn new(options: &'r RunOptions, program: &'r str, run: &'r RunResults<'c>) -> Self {
        Self {
            options,
            run,
            rerun: Rerun {
                program,
                conditions: &options.conditions,
            },
        }
    }

    /// The conditions of every verdict in the run.
    #[must_use]
    pub fn conditions(&self) -> &'r Conditions {
        &self.options.conditions
    }

    /// The expected-failure list's file name, if one was given.
    #[must_use]
    pub fn expect_fail_file(&self) -> Option<&'r str> {
        self.options
            .conditions
            .expected_failures
            .as_ref()
            .map(|list| list.file.as_str())
    }
}

/// One output format of a document of type `D`: the one shape of every
/// format the harness and the runner write (a run's reports here, the
/// matrix's pages, the corpus exported). Each format is a type in a file of
/// its own; each command lists its formats in one table ([`FILES`] for
/// `run`), so a new format is its file, one line there, and a test.
pub trait Format<D: ?Sized> {
    /// Writes the whole document.
    ///
    /// # Errors
    /// Whatever `out` returns.
    fn write(&self, document: &D, out: &mut dyn io::Write) -> io::Result<()>;
}

/// A format of a run's report, whatever the run's lifetimes.
pub type RunFormat = dyn for<'r, 'c> Format<RunReport<'r, 'c>> + Sync;

/// A file a run writes when asked, and the option that asks for it.
pub struct FileFormat {
    /// The long option, without its `--`: `report-json`.
    pub option: &'static str,
    /// What the file holds: the option's help.
    pub help: &'static str,
    /// The format.
    pub format: &'static RunFormat,
    /// A line for the reader once the file is written to `path`, if the
    /// format has something to say (what to do with the file next).
    pub note: Option<fn(report: &RunReport<'_, '_>, path: &std::path::Path) -> String>,
}

impl std::fmt::Debug for FileFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileFormat")
            .field("option", &self.option)
            .finish_non_exhaustive()
    }
}

/// Every file a run can write besides its summary, by option, in the order
/// a run writes them.
pub const FILES: &[FileFormat] = &[
    FileFormat {
        option: "report-json",
        help: "Also write the results as JSON: format version 3, described field by field in \
               conformance/REPORT.md and as a JSON Schema in conformance/report.schema.json, in \
               the repository https://github.com/wow-guid/wow-guid.",
        format: &json::Json,
        note: None,
    },
    FileFormat {
        option: "junit",
        help: "Also write the results as JUnit XML: a suite per corpus file, a test case per \
               vector, each timed from writing its request to reading its answer (pipelined \
               requests include waiting behind the ones ahead; --window 1 times each alone).",
        format: &junit::Junit,
        note: None,
    },
    FileFormat {
        option: "write-expect-fail",
        help: "Write every vector this run fails, each with a one-line reason, as a list \
               --expect-fail reads (to adopt the runner with a green run, then review the list).",
        format: &expect_fail_list::ExpectFailList,
        note: Some(expect_fail_list::note),
    },
];

/// The response a vector expects, spelled as a response line with a note on
/// what else passes.
#[must_use]
pub fn expected_text(result: &VectorResult<'_>, strict_errors: bool) -> String {
    let id = &result.vector.id;
    match &result.vector.expect {
        Expectation::Valid(value) => protocol::response_line(id, &Response::Ok(value.clone())),
        Expectation::Invalid(code) if strict_errors => {
            protocol::response_line(id, &Response::Error(*code))
        }
        Expectation::Invalid(code) => format!(
            "{} (any error code passes; --strict-errors requires this one)",
            protocol::response_line(id, &Response::Error(*code))
        ),
        Expectation::Acceptable { value, why } => format!(
            "{}, or any error (acceptable either way: {why})",
            protocol::response_line(id, &Response::Ok(value.clone()))
        ),
    }
}

/// What came back, as a line: the raw line when it was recorded or could
/// not be parsed, the parsed response otherwise, or `None` if nothing did.
#[must_use]
pub fn got_text(result: &VectorResult<'_>) -> Option<String> {
    let answer = &result.answer;
    if let Some(raw) = &answer.raw {
        return Some(protocol::printable(raw, 300));
    }
    match &answer.reply {
        Ok(response) => Some(protocol::response_line(&result.vector.id, response)),
        Err(
            crate::implementation::Fault::Malformed { line, .. }
            | crate::implementation::Fault::StrayLine { line },
        ) => Some(line.printable(300)),
        Err(_) => None,
    }
}

/// For a failure that passes alone ([`crate::run::PassesAlone`]), the one
/// wording of that finding and of the earlier requests after which it fails
/// again: the block's `state` line, the JSON report's `state`, the JUnit
/// text.
#[must_use]
pub fn passes_alone_text(result: &VectorResult<'_>) -> Option<String> {
    let passes = result.passes_alone.as_deref()?;
    let mut text =
        "passes alone: fails only after earlier requests — state carried between requests"
            .to_owned();
    match &passes.after {
        Some(after) => {
            text.push_str(&format!(
                "; fails again after {} earlier request(s), sent first to the same process: {}",
                after.len(),
                after.join(", ")
            ));
        }
        None => text.push_str(
            "; replaying the requests its process answered before it did not fail it again",
        ),
    }
    Some(text)
}

/// Why the vector ended up where it did, for every outcome but a plain pass
/// or skip.
#[must_use]
pub fn reason_text(result: &VectorResult<'_>, expect_fail_file: Option<&str>) -> Option<String> {
    let listed = || {
        let file = expect_fail_file.unwrap_or("the expected-failure list");
        match &result.expected_failure {
            Some(Some(reason)) => format!("{file} ({reason})"),
            _ => file.to_owned(),
        }
    };
    match result.outcome {
        RunOutcome::Passed | RunOutcome::Skipped => None,
        RunOutcome::Failed | RunOutcome::Crashed | RunOutcome::TimedOut | RunOutcome::Malformed => {
            match &result.verdict {
                Verdict::Fail(m) => Some(m.to_string()),
                _ => None,
            }
        }
        RunOutcome::ExpectedFailure => match &result.verdict {
            Verdict::Fail(m) => Some(format!("{m} (expected: listed in {})", listed())),
            _ => None,
        },
        RunOutcome::Stale => Some(format!(
            "passed, but it is listed as an expected failure in {}; remove it from the list",
            listed()
        )),
        RunOutcome::VectorBug => result.vector_bug.as_deref().map(|(response, mismatch)| {
            format!(
                "the reference codec answers `{}`: {mismatch}. The vector (or the codec) is wrong; \
                 `lint` checks the whole corpus",
                protocol::response_line(&result.vector.id, response)
            )
        }),
    }
}
