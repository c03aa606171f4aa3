//! `--junit FILE`: JUnit XML for CI dashboards.
//!
//! One `<testsuite>` per corpus file, one `<testcase>` per vector (name: the
//! id; classname: the file dotted without `.yaml`, so
//! `packed_guid/doc-example.yaml` shows as class `doc-example` in package
//! `packed_guid`). `tests/data/junit.xsd` is the format as dashboards read
//! it; `tests/junit.rs` validates reports against it. `fail` and `stale`
//! are `<failure>`s; `crashed`, `timed_out`, `malformed` (no answer to
//! judge) and `vector_bug` (the test is wrong) `<error>`s; `skip` and
//! `xfail` `<skipped>`, saying which, so a dashboard stays green. The text
//! carries the human summary's lines, and a `state` line for a failure that
//! passes alone or was not checked alone. Characters XML 1.0 does not allow
//! are spelled as the terminal's escapes, so no stderr or corpus text can
//! make the file unreadable.
//!
//! Times: a case's `time` is its answer's
//! [`elapsed`](crate::implementation::Answer::elapsed) (none for an answer
//! not timed); a suite's is the sum of its cases', the report's of its
//! suites', so with requests in flight together it exceeds the run's wall
//! time, which a comment at the top gives.

use std::collections::BTreeMap;
use std::io;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{
    expected_text, got_text, hint_text, passes_alone_text, reason_text, unchecked, Format,
    RunReport, UNCHECKED,
};
use crate::protocol;
use crate::run::{RunOutcome, VectorResult};

/// The JUnit XML report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Junit;

/// `text` as XML 1.0 allows it: every character outside XML's `Char`
/// production spelled as the terminal's escapes spell it (`\x01`,
/// `\u{fffe}`); markup characters are the XML writer's.
fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t'
            | '\n'
            | '\r'
            | '\u{20}'..='\u{d7ff}'
            | '\u{e000}'..='\u{fffd}'
            | '\u{10000}'.. => out.push(c),
            '\0'..='\x1f' => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            _ => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    out
}

fn details(result: &VectorResult<'_>, report: &RunReport<'_, '_>) -> String {
    let v = result.vector;
    let mut text = format!("{}\n", v.description);
    if let Some(source) = &v.source {
        text.push_str(&format!("source:    {source}\n"));
    }
    text.push_str(&format!(
        "request:   {}\nexpected:  {}\ngot:       {}\n",
        protocol::request_line(&v.id, &v.request),
        expected_text(result, report.conditions().judge.strict_errors),
        got_text(result).as_deref().unwrap_or("(no response)"),
    ));
    if let Some(hint) = hint_text(result) {
        text.push_str(&format!("hint:      {hint}\n"));
    }
    if let Some(state) = passes_alone_text(result, report.rerun.corpus) {
        text.push_str(&format!("state:     {state}\n"));
    } else if unchecked(result) {
        text.push_str(&format!("state:     {UNCHECKED}\n"));
    }
    if let Some(tail) = &result.answer.stderr_tail {
        text.push_str("stderr (last lines):\n");
        for line in tail.lines() {
            text.push_str(&format!("  | {line}\n"));
        }
    }
    let repro = report.rerun.repro_result(result);
    text.push_str(&format!("reproduce: {repro}\n"));
    text
}

fn status(result: &VectorResult<'_>, report: &RunReport<'_, '_>) -> TestCaseStatus {
    let described = |mut s: TestCaseStatus, ty: &str| {
        s.set_type(ty);
        if let Some(reason) = reason_text(result, report.expect_fail_file()) {
            s.set_message(xml_text(&reason));
        }
        s.set_description(xml_text(&details(result, report)));
        s
    };
    let outcome = result.outcome;
    let non_success = |kind| described(TestCaseStatus::non_success(kind), outcome.as_str());
    match outcome {
        RunOutcome::Passed => TestCaseStatus::success(),
        RunOutcome::Failed | RunOutcome::Stale => non_success(NonSuccessKind::Failure),
        RunOutcome::Crashed
        | RunOutcome::TimedOut
        | RunOutcome::Malformed
        | RunOutcome::VectorBug => non_success(NonSuccessKind::Error),
        RunOutcome::Skipped => {
            let mut s = TestCaseStatus::skipped();
            s.set_type("unsupported");
            s.set_message("the implementation answered `unsupported`");
            s
        }
        RunOutcome::ExpectedFailure => described(TestCaseStatus::skipped(), "xfail"),
    }
}

/// A corpus file's path as a dotted class name: `.yaml` dropped, `/` as `.`.
fn classname(file: &str) -> String {
    file.strip_suffix(".yaml").unwrap_or(file).replace('/', ".")
}

impl Format<RunReport<'_, '_>> for Junit {
    fn write(&self, report: &RunReport<'_, '_>, out: &mut dyn io::Write) -> io::Result<()> {
        let mut suites: BTreeMap<&str, (TestSuite, Duration)> = BTreeMap::new();
        for result in &report.run.results {
            let file = &*result.vector.location.file;
            let (suite, time) = suites
                .entry(file)
                .or_insert_with(|| (TestSuite::new(xml_text(file)), Duration::ZERO));
            let mut case = TestCase::new(xml_text(&result.vector.id), status(result, report));
            case.set_classname(xml_text(&classname(file)));
            if let Some(elapsed) = result.answer.elapsed {
                case.set_time(elapsed);
                *time += elapsed;
            }
            if let Some(tail) = &result.answer.stderr_tail {
                if result.outcome != RunOutcome::Passed {
                    case.set_system_err(xml_text(tail));
                }
            }
            suite.add_test_case(case);
        }
        let mut junit = Report::new("wow-guid-conformance");
        junit.set_time(suites.values().map(|(_, time)| *time).sum::<Duration>());
        junit.add_test_suites(suites.into_values().map(|(mut suite, time)| {
            suite.set_time(time);
            suite
        }));
        let mut xml = Vec::new();
        junit.serialize(&mut xml).map_err(io::Error::other)?;
        // The declaration, then a comment saying what the times are.
        let declaration = xml.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
        out.write_all(&xml[..declaration])?;
        writeln!(
            out,
            "<!-- Times: a test case's runs from its request to its answer (requests in flight \
             together overlap), a suite's and the report's are the sums of their cases'; the \
             run's wall time was {:.3} s. -->",
            report.run.duration.as_secs_f64()
        )?;
        out.write_all(&xml[declaration..])?;
        writeln!(out)
    }
}

#[cfg(test)]
mod tests {
    use super::classname;

    #[test]
    fn class_names_are_dotted_paths_without_the_extension() {
        assert_eq!(
            classname("packed_guid/doc-example.yaml"),
            "packed_guid.doc-example"
        );
        assert_eq!(
            classname("generated/packed-masks.yaml"),
            "generated.packed-masks"
        );
        assert_eq!(classname("draft.yaml"), "draft");
    }
}
