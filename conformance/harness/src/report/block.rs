//! The one writer of a vector's block, the lines a person reads about one
//! judged vector in `run`'s summary and in `repro`: the vector and where it
//! is written, `source`, `request`, `expected`, `got`, `why`, `hint`
//! (`report/hint.rs`), the stderr tail, and `reproduce` ([`Rerun`]).

use std::io;

use anstyle::{AnsiColor, Style};

use super::field;
use super::rerun::Rerun;
use super::{expected_text, got_text, hint_text, passes_alone_text, reason_text};
use crate::protocol;
use crate::run::{RunOutcome, VectorResult};
use crate::terminal::escape_line;

/// How an outcome is labelled at the head of a block and in verdict lines:
/// `PASS`, `FAIL`, `CRASHED`, `TIMED OUT`, `MALFORMED`, `SKIP`, `XFAIL`,
/// `STALE`, `VECTOR BUG`.
#[must_use]
pub const fn label(outcome: RunOutcome) -> &'static str {
    crate::run::WORDS[outcome as usize].4
}

/// How an outcome's [`label`] is styled: green for a pass, red for what
/// fails a run, yellow for the rest.
#[must_use]
pub(crate) const fn style(outcome: RunOutcome) -> Style {
    let colour = match outcome {
        RunOutcome::Passed => AnsiColor::Green,
        _ if outcome.is_failure() => AnsiColor::Red,
        _ => AnsiColor::Yellow,
    };
    colour.on_default().bold()
}

/// Writes the block of `result`, headed by its outcome's [`label`], judged
/// under `rerun`'s conditions, ending with `rerun`'s command and a blank
/// line.
///
/// # Errors
/// Whatever `out` returns.
pub fn write(
    out: &mut dyn io::Write,
    result: &VectorResult<'_>,
    rerun: &Rerun<'_>,
) -> io::Result<()> {
    write_with(out, result, rerun, &rerun.repro_result(result))
}

/// [`write()`], with `reproduce` as the block's last line: `repro` names
/// the earlier requests it was given (`--after`) again there.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_with(
    out: &mut dyn io::Write,
    result: &VectorResult<'_>,
    rerun: &Rerun<'_>,
    reproduce: &str,
) -> io::Result<()> {
    let v = result.vector;
    let conditions = rerun.conditions;
    let style = style(result.outcome);
    let bold = Style::new().bold();
    writeln!(
        out,
        "{style}{}{style:#} {bold}{}{bold:#}  ({})",
        label(result.outcome),
        v.id,
        v.location
    )?;
    writeln!(out, "  description  {}", escape_line(&v.description))?;
    if let Some(source) = &v.source {
        writeln!(out, "  source       {}", escape_line(source))?;
    }
    // Long fields are cut around where expected and got part (`field`).
    let request = protocol::request_line(&v.id, &v.request);
    writeln!(out, "  request      {}", field::shown(&request, None))?;
    let expected = expected_text(result, conditions.judge.strict_errors);
    let got = got_text(result);
    writeln!(
        out,
        "  expected     {}",
        field::shown(&expected, got.as_deref().map(|g| ("got", g)))
    )?;
    match &got {
        Some(text) => writeln!(
            out,
            "  got          {}",
            field::shown(text, Some(("expected", &expected)))
        )?,
        None => writeln!(out, "  got          (no response)")?,
    }
    let expect_fail_file = conditions
        .expected_failures
        .as_ref()
        .map(|list| list.file.as_str());
    if let Some(why) = reason_text(result, expect_fail_file) {
        writeln!(out, "  why          {why}")?;
    }
    if let Some(hint) = hint_text(result) {
        writeln!(out, "  hint         {hint}")?;
    }
    if let Some(state) = passes_alone_text(result, rerun.corpus) {
        writeln!(out, "  state        {state}")?;
    }
    if let Some(tail) = &result.answer.stderr_tail {
        writeln!(out, "  stderr       (last lines)")?;
        for line in tail.lines() {
            writeln!(out, "    | {line}")?;
        }
    }
    writeln!(out, "  reproduce    {reproduce}")?;
    writeln!(out)
}
