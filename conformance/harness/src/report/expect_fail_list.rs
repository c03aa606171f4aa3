//! `run --write-expect-fail FILE`: the expected-failure list of this run.
//!
//! Every vector the implementation failed (expected failures included;
//! one now passing would be stale), one id a line with a one-line reason,
//! in the format `--expect-fail` reads ([`crate::expect_fail`]): a project
//! adopting the runner starts from a green run and a list to review.

use std::io;

use super::{Format, RunReport};
use crate::judge::Verdict;
use crate::run::RunOutcome;

/// The expected-failure list.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExpectFailList;

/// The note once the list is written to `path`: how many ids it holds, and
/// to review it before passing it to `--expect-fail`.
#[must_use]
pub fn note(report: &RunReport<'_, '_>, path: &std::path::Path) -> String {
    let ids = report
        .run
        .results
        .iter()
        .filter(|r| r.outcome.implementation_failed())
        .count();
    format!(
        "wrote {ids} id(s) to {}: review the reasons, then pass it to --expect-fail",
        path.display()
    )
}

/// Reasons longer than this are cut, so that each entry stays one line.
const MAX_REASON_CHARS: usize = 200;

impl Format<RunReport<'_, '_>> for ExpectFailList {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        writeln!(
            out,
            "# Vectors {} fails, written by `wow-guid-conformance run --write-expect-fail`.",
            report.conditions().target
        )?;
        writeln!(
            out,
            "# Each comment is the failure seen when it was written; review them, then pass \
             this file to `run --expect-fail`."
        )?;
        for result in &report.run.results {
            if !result.outcome.implementation_failed() {
                continue;
            }
            let reason = match (&result.expected_failure, &result.verdict) {
                // Already listed: keep the reason someone wrote.
                (Some(Some(listed)), _) if result.outcome == RunOutcome::ExpectedFailure => {
                    listed.to_string()
                }
                (_, Verdict::Fail(mismatch)) => mismatch.to_string(),
                _ => result.outcome.as_str().to_owned(),
            };
            writeln!(out, "{}  # {}", result.vector.id, one_line(&reason))?;
        }
        Ok(())
    }
}

/// `text` on one line: line breaks as spaces, cut at [`MAX_REASON_CHARS`].
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match flat.char_indices().nth(MAX_REASON_CHARS) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn reasons_stay_on_one_line() {
        assert_eq!(one_line("a\nb\r\tc"), "a b  c");
        let long = "x".repeat(300);
        let cut = one_line(&long);
        assert_eq!(cut.chars().count(), 201);
        assert!(cut.ends_with('…'));
    }
}
