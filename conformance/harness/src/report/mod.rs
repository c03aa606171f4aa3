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

/// One output format.
pub trait ReportFormat {
    /// Writes the whole report.
    ///
    /// # Errors
    /// Whatever `out` returns.
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()>;
}

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
