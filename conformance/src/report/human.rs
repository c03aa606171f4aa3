//! The summary a person reads on stdout.
//!
//! Problems first, each a block ([`super::block`]) with everything needed to
//! act on it (id, description, request, expected, got, why, stderr tail,
//! and a command that reproduces just that vector), then one line of
//! counts and a verdict. Passing vectors are not listed.

use std::fmt;
use std::io;

use super::{block, ReportFormat, RunReport};
use crate::process::Mode;
use crate::run::RunOutcome;

/// The human summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Human;

impl ReportFormat for Human {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        let run = report.run;
        let with = |o: RunOutcome| run.results.iter().filter(move |r| r.outcome == o);
        for outcome in [
            RunOutcome::Failed,
            RunOutcome::Crashed,
            RunOutcome::TimedOut,
            RunOutcome::Malformed,
            RunOutcome::Stale,
        ] {
            for result in with(outcome) {
                block::write(out, result, &report.rerun)?;
            }
        }
        let xfails: Vec<_> = with(RunOutcome::ExpectedFailure).collect();
        if !xfails.is_empty() {
            writeln!(
                out,
                "Expected failures (listed in {}):",
                report.expect_fail_file().unwrap_or("the list")
            )?;
            for r in xfails {
                let why = match &r.verdict {
                    crate::judge::Verdict::Fail(m) => m.to_string(),
                    _ => String::new(),
                };
                match &r.expected_failure {
                    Some(Some(reason)) => {
                        writeln!(out, "  XFAIL {}: {why} [{reason}]", r.vector.id)?
                    }
                    _ => writeln!(out, "  XFAIL {}: {why}", r.vector.id)?,
                }
            }
            writeln!(out)?;
        }
        let bugs: Vec<_> = with(RunOutcome::VectorBug).collect();
        if !bugs.is_empty() {
            writeln!(
                out,
                "Vector bugs: the reference codec disagrees with these vectors, so the corpus \
                 (not the implementation) needs fixing:"
            )?;
            writeln!(out)?;
            for result in bugs {
                block::write(out, result, &report.rerun)?;
            }
        }
        let skipped = run.counts.skipped;
        if skipped > 0 {
            writeln!(
                out,
                "{skipped} vector(s) skipped: the implementation answered `unsupported`."
            )?;
        }
        let c = &run.counts;
        let conditions = report.conditions();
        let jobs = report.options.jobs.get();
        writeln!(
            out,
            "{} of {} vectors against {} ({} corpus, {}{}{}) in {}:",
            c.total(),
            report.options.corpus.vectors.len(),
            conditions.target,
            conditions.corpus.name(),
            conditions.mode_name(),
            if jobs > 1 {
                format!(", {jobs} jobs")
            } else {
                String::new()
            },
            if conditions.judge.strict_errors {
                ", strict errors"
            } else {
                ""
            },
            Seconds(run.duration)
        )?;
        writeln!(
            out,
            "  {} passed, {} failed, {} crashed, {} timed out, {} malformed, {} skipped, \
             {} expected failures, {} stale, {} vector bugs",
            c.passed,
            c.failed,
            c.crashed,
            c.timed_out,
            c.malformed,
            c.skipped,
            c.expected_failures,
            c.stale,
            c.vector_bugs
        )?;
        // Only a persistent process is killed and replaced: in one-shot mode
        // every request has a process of its own anyway, and the built-in
        // reference has none.
        if c.crashed + c.timed_out + c.malformed > 0
            && conditions.target.command().is_some()
            && matches!(conditions.mode, Mode::Persistent { .. })
        {
            writeln!(
                out,
                "  (after each crash, timeout or malformed answer the runner killed the process \
                 group and sent the requests after it to a fresh process)"
            )?;
        }
        let verdict = if c.vector_bugs > 0 {
            "NO VERDICT: fix the vector bugs above first"
        } else if c.conforms() {
            "PASS"
        } else {
            "FAIL"
        };
        writeln!(out, "verdict: {verdict}")
    }
}

/// A duration as a person reads it in a summary: milliseconds below a
/// second (a whole-corpus run usually takes a few), seconds above.
struct Seconds(std::time::Duration);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs_f64();
        if secs < 1.0 {
            write!(f, "{:.1} ms", secs * 1000.0)
        } else {
            write!(f, "{secs:.2} s")
        }
    }
}

#[cfg(test)]
mod seconds_tests {
    use std::time::Duration;

    use super::Seconds;

    #[test]
    fn short_runs_read_in_milliseconds_long_ones_in_seconds() {
        assert_eq!(
            Seconds(Duration::from_micros(38_250)).to_string(),
            "38.2 ms"
        );
        assert_eq!(Seconds(Duration::from_millis(2_500)).to_string(), "2.50 s");
    }
}
