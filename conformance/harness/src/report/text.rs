//! The wording of "expected", "got" and "why" that every format of a run
//! shares, so that each says the same thing about a vector.

use wow_guid_vectors::{Corpus, Expectation};

use crate::implementation::Fault;
use crate::judge::Verdict;
use crate::protocol::{self, Response};
use crate::run::{RunOutcome, VectorResult};

use super::rerun::after_items;

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
        Err(Fault::Malformed { line, .. } | Fault::StrayLine { line }) => Some(line.printable(300)),
        Err(_) => None,
    }
}

/// For a failure that passes alone ([`crate::run::PassesAlone`]), the one
/// wording of that finding and of the earlier requests after which it fails
/// (as the reproduce line names them): every report's `state`.
#[must_use]
pub(crate) fn passes_alone_text(
    result: &VectorResult<'_>,
    corpus: Option<&Corpus>,
) -> Option<String> {
    let passes = result.passes_alone.as_deref()?;
    let then = match &passes.after {
        Some(after) => format!(
            "fails again after {} earlier request(s), sent first to the same process: {}",
            after.len(),
            after_items(after, corpus).join(", ")
        ),
        None => {
            "replaying the requests its process answered before it did not fail it again".to_owned()
        }
    };
    Some(format!(
        "passes alone: fails only after earlier requests — state carried between requests; {then}"
    ))
}

/// Whether `result` is a failure not known to fail the same way alone
/// ([`VectorResult::checked_alone`]).
#[must_use]
pub(crate) fn unchecked(result: &VectorResult<'_>) -> bool {
    result.outcome.implementation_failed() && !result.checked_alone && result.passes_alone.is_none()
}

/// The words for an unchecked failure ([`unchecked`]).
pub(crate) const UNCHECKED: &str = "not checked alone: it may fail only after earlier requests \
     of its process, so its reproduce line may pass";

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
    let mismatch = match &result.verdict {
        Verdict::Fail(m) => Some(m),
        Verdict::Pass | Verdict::Skip => None,
    };
    match result.outcome {
        RunOutcome::Passed | RunOutcome::Skipped => None,
        RunOutcome::Failed | RunOutcome::Crashed | RunOutcome::TimedOut | RunOutcome::Malformed => {
            mismatch.map(ToString::to_string)
        }
        RunOutcome::ExpectedFailure => {
            mismatch.map(|m| format!("{m} (expected: listed in {})", listed()))
        }
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
