//! Turning run results into reports: a summary for people, JSON for tools,
//! JUnit XML for CI dashboards.
//!
//! Each format lives in its own file behind [`ReportFormat`]. The wording of
//! "expected", "got" and "why" is shared here so that every format says the
//! same thing about a vector. Formats write to the `io::Write` they are
//! given and touch nothing else.

pub mod command_line;
pub mod human;
pub mod json;
pub mod junit;

use std::io;

use wow_guid_vectors::Expectation;

use crate::judge::Verdict;
use crate::protocol::{self, Response};
use crate::run::{Outcome, RunResults, VectorResult};
use command_line::ReproCommand;

/// A finished run and the conditions it ran under.
#[derive(Clone, Debug)]
pub struct RunReport<'r, 'c> {
    /// What was tested, as a person reads it: a command line, or the
    /// built-in reference.
    pub implementation: String,
    /// The implementation's command, `None` for the built-in reference.
    pub command: Option<Vec<String>>,
    /// `embedded`, or the directory the corpus was loaded from.
    pub corpus: String,
    /// Vectors in the whole corpus, selected or not.
    pub corpus_size: usize,
    /// `persistent` or `one-shot`.
    pub mode: &'static str,
    /// Whether error codes were judged strictly.
    pub strict_errors: bool,
    /// Implementations run side by side.
    pub jobs: usize,
    /// The expected-failure list's file name, if one was given.
    pub expect_fail_file: Option<String>,
    /// The results.
    pub run: &'r RunResults<'c>,
    /// How to reproduce one vector of this run.
    pub repro: ReproCommand,
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
        Err(crate::implementation::Fault::Malformed { line, .. }) => {
            Some(protocol::printable(line, 300))
        }
        Err(_) => None,
    }
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
        Outcome::Passed | Outcome::Skipped => None,
        Outcome::Failed | Outcome::Crashed | Outcome::TimedOut | Outcome::Malformed => {
            match &result.verdict {
                Verdict::Fail(m) => Some(m.to_string()),
                _ => None,
            }
        }
        Outcome::ExpectedFailure => match &result.verdict {
            Verdict::Fail(m) => Some(format!("{m} (expected: listed in {})", listed())),
            _ => None,
        },
        Outcome::Stale => Some(format!(
            "passed, but it is listed as an expected failure in {}; remove it from the list",
            listed()
        )),
        Outcome::VectorBug => result.vector_bug.as_ref().map(|(response, mismatch)| {
            format!(
                "the reference codec answers `{}`: {mismatch}. The vector (or the codec) is wrong; \
                 `lint` checks the whole corpus",
                protocol::response_line(&result.vector.id, response)
            )
        }),
    }
}
