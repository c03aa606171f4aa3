//! The summary a person reads on stdout.
//!
//! Problems first: failures grouped by cause ([`super::grouping`]), biggest
//! group first, each a line with its count and cause, then up to
//! [`Human::per_cause`] blocks ([`super::block`]) with all needed to act,
//! then the ids of the rest. Stale expected failures and vector bugs
//! follow, then a line of counts and a verdict. Passes are not listed. The
//! counts are exact however few blocks are shown ([`Human::max_blocks`],
//! [`Human::quiet`]); read-backs ([`crate::run::READ_BACK`]) are counted
//! apart: `1200 of 1200 vectors and 598 read-back(s) against ...`.
//!
//! Labels, headings and the verdict carry ANSI styles; the caller's stream
//! decides whether they reach the reader (an `anstream::AutoStream` strips
//! them off a terminal or under `NO_COLOR`).

use std::fmt;
use std::io;

use anstyle::Style;
use wow_guid_vectors::release::{self, Label};

use super::grouping::by_cause;
use super::{block, Format, RunReport};
use crate::process::Mode;
use crate::run::{RunOutcome, VectorResult};
use crate::terminal::escape_line;

/// The human summary.
#[derive(Clone, Copy, Debug)]
pub struct Human {
    /// Blocks shown in full for each cause; the rest are listed by id.
    pub per_cause: usize,
    /// Blocks shown in full in all, if bounded (`--max-failures N`).
    pub max_blocks: Option<usize>,
    /// Only the counts and the verdict (`--quiet`).
    pub quiet: bool,
    /// Every expected failure on its own line even when the run is green
    /// (`--verbose`); otherwise a green run counts them in one line.
    pub verbose: bool,
}

impl Default for Human {
    fn default() -> Self {
        Self {
            per_cause: 3,
            max_blocks: None,
            quiet: false,
            verbose: false,
        }
    }
}

/// Ids listed after a group's blocks, at most; the rest are counted.
const LISTED_IDS: usize = 8;

/// The widest line of listed ids, in columns.
const WIDTH: usize = 100;

const HEADING: Style = Style::new().bold();

/// How many more blocks may be shown, and how many were not.
struct Budget {
    /// Blocks left to show, if bounded (`--max-failures`).
    left: Option<usize>,
    /// Blocks --max-failures kept from being shown in full.
    cut: usize,
}

impl Budget {
    /// Takes up to `wanted` blocks from the budget, returning how many; the
    /// rest are counted as cut.
    fn take(&mut self, wanted: usize) -> usize {
        let given = self.left.map_or(wanted, |left| wanted.min(left));
        if let Some(left) = &mut self.left {
            *left -= given;
        }
        self.cut += wanted - given;
        given
    }
}

/// Writes the blocks of the first `shown` of `members`, then the ids of
/// the rest.
fn blocks_then_ids(
    out: &mut dyn io::Write,
    members: &[&VectorResult<'_>],
    shown: usize,
    report: &RunReport<'_, '_>,
) -> io::Result<()> {
    for result in &members[..shown] {
        block::write(out, result, &report.rerun)?;
    }
    let rest = &members[shown..];
    if !rest.is_empty() {
        let mut items: Vec<String> = rest
            .iter()
            .take(LISTED_IDS)
            .map(|r| r.vector.id.clone())
            .collect();
        let more = rest.len() - items.len();
        if more > 0 {
            items.push(format!(
                "and {more} others (every id: --report-json or --write-expect-fail)"
            ));
        }
        let lead = if shown == 0 {
            // No block of this group was shown, so none of it is "more".
            let n = rest.len();
            let s = if n == 1 { "" } else { "s" };
            format!("  {n} vector{s}, none shown in full:")
        } else {
            format!("  ... and {} more like these:", rest.len())
        };
        writeln!(out, "{lead}")?;
        write_wrapped(out, &items)?;
        writeln!(out)?;
    }
    Ok(())
}

/// Writes `items`, comma-separated, on lines indented by four and no wider
/// than [`WIDTH`] (a longer item has a line of its own).
fn write_wrapped(out: &mut dyn io::Write, items: &[String]) -> io::Result<()> {
    const INDENT: &str = "   ";
    let mut line = String::from(INDENT);
    for (i, item) in items.iter().enumerate() {
        let comma = if i + 1 < items.len() { "," } else { "" };
        if line.len() > INDENT.len() && line.len() + 1 + item.len() + comma.len() > WIDTH {
            writeln!(out, "{line}")?;
            line = String::from(INDENT);
        }
        line.push(' ');
        line.push_str(item);
        line.push_str(comma);
    }
    writeln!(out, "{line}")
}

impl Format<RunReport<'_, '_>> for Human {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        let mut budget = Budget {
            left: self.max_blocks,
            cut: 0,
        };
        if !self.quiet {
            self.write_problems(report, &mut budget, out)?;
        }
        if let (Some(max), true) = (self.max_blocks, budget.cut > 0) {
            writeln!(
                out,
                "(--max-failures {max}: {max} of {} block(s) shown in full; the counts below \
                 are exact)",
                max + budget.cut
            )?;
        }
        let skipped = report.run.counts.get(RunOutcome::Skipped);
        if skipped > 0 {
            writeln!(
                out,
                "{skipped} vector(s) skipped: the implementation answered `unsupported`."
            )?;
        }
        write_counts(report, out)?;
        let c = &report.run.counts;
        let (outcome, verdict) = if c.get(RunOutcome::VectorBug) > 0 {
            (
                RunOutcome::VectorBug,
                "NO VERDICT: fix the vector bugs above first",
            )
        } else if c.conforms() {
            (RunOutcome::Passed, "PASS")
        } else {
            (RunOutcome::Failed, "FAIL")
        };
        let style = block::style(outcome);
        writeln!(out, "verdict: {style}{verdict}{style:#}")
    }
}

/// The results of `report` with outcome `outcome`, in run order.
fn with<'a, 'c>(report: &'a RunReport<'_, 'c>, outcome: RunOutcome) -> Vec<&'a VectorResult<'c>> {
    report
        .run
        .results
        .iter()
        .filter(|r| r.outcome == outcome)
        .collect()
}

impl Human {
    /// Everything listed before the counts.
    fn write_problems(
        &self,
        report: &RunReport<'_, '_>,
        budget: &mut Budget,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        self.write_failures(report, budget, out)?;
        let stale = with(report, RunOutcome::Stale);
        blocks_then_ids(out, &stale, budget.take(stale.len()), report)?;
        self.write_expected_failures(report, out)?;
        let bugs = with(report, RunOutcome::VectorBug);
        if !bugs.is_empty() {
            writeln!(
                out,
                "Vector bugs: the reference codec disagrees with these vectors, so the corpus \
                 (not the implementation) needs fixing:"
            )?;
            writeln!(out)?;
            blocks_then_ids(out, &bugs, budget.take(bugs.len()), report)?;
        }
        Ok(())
    }

    /// The failures grouped by cause.
    fn write_failures(
        &self,
        report: &RunReport<'_, '_>,
        budget: &mut Budget,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        let failing = (report.run.results.iter())
            .filter(|r| r.outcome.is_failure() && r.outcome != RunOutcome::Stale);
        let groups = by_cause(failing);
        if groups.is_empty() {
            return Ok(());
        }
        let failures: usize = groups.iter().map(|g| g.members.len()).sum();
        writeln!(
            out,
            "{HEADING}{failures} failing vector(s), {} cause(s):{HEADING:#}",
            groups.len()
        )?;
        for group in &groups {
            writeln!(out, "  {:>6}  {}", group.members.len(), group.cause)?;
        }
        writeln!(out)?;
        for group in &groups {
            writeln!(
                out,
                "{HEADING}== {} x {}{HEADING:#}",
                group.members.len(),
                group.cause
            )?;
            writeln!(out)?;
            let shown = budget.take(group.members.len().min(self.per_cause));
            blocks_then_ids(out, &group.members, shown, report)?;
        }
        Ok(())
    }

    /// The expected failures: one line for all on a green run (unless
    /// verbose), else one line each with its reason.
    fn write_expected_failures(
        &self,
        report: &RunReport<'_, '_>,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        let xfails = with(report, RunOutcome::ExpectedFailure);
        let list = report.expect_fail_file().unwrap_or("the list");
        if xfails.is_empty() {
            return Ok(());
        }
        if report.run.counts.conforms() && !self.verbose {
            // Green: that they still fail as listed is all there is to say.
            writeln!(
                out,
                "{} expected failure(s) held, as listed in {list} (each one: --verbose)",
                xfails.len()
            )?;
            return writeln!(out);
        }
        writeln!(out, "Expected failures (listed in {list}):")?;
        for r in xfails {
            let why = match &r.verdict {
                crate::judge::Verdict::Fail(m) => m.to_string(),
                _ => String::new(),
            };
            match &r.expected_failure {
                // A list written by --write-expect-fail holds the same
                // words as the failure: shown once.
                Some(Some(reason)) if **reason != *why => writeln!(
                    out,
                    "  XFAIL {}: {why} [{}]",
                    r.vector.id,
                    escape_line(reason)
                )?,
                _ => writeln!(out, "  XFAIL {}: {why}", r.vector.id)?,
            }
        }
        writeln!(out)
    }
}

/// The line of counts: what ran against what, under which conditions, how
/// long it took, each outcome's count, and whether processes were replaced.
fn write_counts(report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
    let run = report.run;
    let c = &run.counts;
    let conditions = report.conditions();
    let jobs = report.options.jobs.get();
    // What the corpus is: a release only when it is exactly one.
    let label = release::embedded().map_or(Label::NoRelease, |releases| {
        Label::of(&report.options.corpus.vectors, &releases)
    });
    // Read-backs are counted apart: the corpus's size is of vectors.
    let read_backs = run.results.iter().filter(|r| r.is_read_back()).count();
    writeln!(
        out,
        "{} of {} vectors{} against {} ({} corpus, {label}, {}{}{}) in {}:",
        c.total() - read_backs,
        report.options.corpus.vectors.len(),
        if read_backs > 0 {
            format!(" and {read_backs} read-back(s)")
        } else {
            String::new()
        },
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
    let by_outcome: Vec<String> = RunOutcome::ALL
        .iter()
        .map(|&o| format!("{} {}", c.get(o), o.heading()))
        .collect();
    writeln!(out, "  {}", by_outcome.join(", "))?;
    // Only a persistent process is killed and replaced: in one-shot mode
    // every request has a process of its own anyway, and the built-in
    // reference has none.
    if c.failures() > c.get(RunOutcome::Failed)
        && conditions.target.command().is_some()
        && matches!(conditions.mode, Mode::Persistent { .. })
    {
        writeln!(
            out,
            "  (after each crash, timeout or malformed answer the runner killed the process \
             group and sent the requests after it to a fresh process)"
        )?;
    }
    Ok(())
}

/// A duration in a summary: milliseconds below a second, seconds above.
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
