//! The JUnit report is valid for the dashboards that read it: every report
//! the runner writes validates against `tests/data/junit.xsd` (the format as
//! Jenkins, GitLab and the like read it), with passes, a crash (`<error>`)
//! and a stale expected failure (`<failure>`) in it, and class names are
//! dotted paths without `.yaml`; every test case and suite has a `time`.
//!
//! The validator is `xmllint` (Debian's `libxml2-utils`), which `.ci/run`
//! installs; where it is missing the test says so and passes, unless
//! `WOW_GUID_REQUIRE_XMLLINT` is set, as CI sets it.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{run_against, scratch};

const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junit.xsd");

/// `xmllint --schema` on `file`: `Ok` if it validates, else xmllint's words;
/// `None` when xmllint is not installed (and not required).
fn validate(file: &Path) -> Option<Result<(), String>> {
    let output = match Command::new("xmllint")
        .args(["--noout", "--schema", SCHEMA])
        .arg(file)
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            assert!(
                std::env::var_os("WOW_GUID_REQUIRE_XMLLINT").is_none(),
                "xmllint is required here but cannot be run: {error}"
            );
            eprintln!("xmllint not found ({error}); install libxml2-utils to run this check");
            return None;
        }
    };
    Some(if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    })
}

#[test]
fn junit_reports_validate_against_the_dashboards_schema() {
    let dir = scratch("junit");
    let junit = dir.join("junit.xml");
    let list = dir.join("expected-failures.txt");
    // A vector that passes, listed as an expected failure: stale.
    std::fs::write(&list, "packed.decode.doc-example # listed on purpose\n").expect("write");
    let env = [("BROKEN_ON", common::BROKEN_ON)];
    let mut options = common::SMALL.to_vec();
    let (junit_arg, list_arg) = (junit.display().to_string(), list.display().to_string());
    options.extend(["--junit", &junit_arg, "--expect-fail", &list_arg]);
    let run = run_against("junit-run", &options, &common::broken("crash"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    assert!(xml.contains("<error "), "{xml}");
    assert!(xml.contains("<failure "), "{xml}");
    assert!(
        xml.contains(r#"classname="packed_guid.doc-example""#),
        "{xml}"
    );
    for class in xml.split(r#"classname=""#).skip(1) {
        let class = class.split('"').next().unwrap_or_default();
        assert!(!class.contains(".yaml") && !class.contains('/'), "{class}");
    }

    let Some(verdict) = validate(&junit) else {
        return;
    };
    verdict.unwrap_or_else(|why| panic!("the report does not validate:\n{why}\n{xml}"));

    // The schema has teeth: a test case without a name does not validate.
    let broken = dir.join("broken.xml");
    std::fs::write(
        &broken,
        xml.replacen(
            r#"<testcase name="packed.decode.doc-example" "#,
            "<testcase ",
            1,
        ),
    )
    .expect("write");
    assert!(
        matches!(validate(&broken), Some(Err(_))),
        "a nameless test case validated"
    );
}

/// The `time` attribute of each element named `tag` in `xml`, in seconds.
fn times(xml: &str, tag: &str) -> Vec<(String, f64)> {
    xml.split(&format!("<{tag} "))
        .skip(1)
        .map(|element| {
            let head = element.split('>').next().unwrap_or_default();
            let attribute = |name: &str| {
                head.split(&format!(" {name}=\""))
                    .nth(1)
                    .or_else(|| head.strip_prefix(&format!("{name}=\"")))
                    .and_then(|rest| rest.split('"').next())
                    .map(str::to_owned)
            };
            let name = attribute("name").unwrap_or_default();
            let time = attribute("time")
                .unwrap_or_else(|| panic!("<{tag} {head}> has no time"))
                .parse::<f64>()
                .unwrap_or_else(|e| panic!("<{tag} {head}>: time is not a number: {e}"));
            (name, time)
        })
        .collect()
}

/// Each test case's time runs from its request to its answer: a hang shows
/// as at least the timeout; a suite's time is the sum of its cases', the
/// report's the sum of its suites'.
#[test]
fn test_cases_and_suites_carry_their_times() {
    let dir = scratch("junit-times");
    let junit = dir.join("junit.xml");
    let junit_arg = junit.display().to_string();
    let mut options = common::SMALL.to_vec();
    options.extend(["--junit", &junit_arg, "--timeout", "300ms"]);
    let env = [("BROKEN_ON", common::BROKEN_ON)];
    let run = run_against("junit-times-run", &options, &common::broken("hang"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    let cases = times(&xml, "testcase");
    assert_eq!(cases.len(), 20, "{xml}");
    let (_, hang) = cases
        .iter()
        .find(|(name, _)| name == common::BROKEN_ON)
        .expect("the hanging vector's case");
    assert!(*hang >= 0.3, "the hang took {hang} s\n{xml}");
    let suites = times(&xml, "testsuite");
    assert_eq!(suites.len(), 2, "{xml}");
    let total: f64 = cases.iter().map(|(_, t)| t).sum();
    let suite_total: f64 = suites.iter().map(|(_, t)| t).sum();
    // Each figure is rounded to the millisecond when written.
    assert!(
        (total - suite_total).abs() < 0.001 * 22.0,
        "{total} vs {suite_total}\n{xml}"
    );
    // The report's time is its suites' sum, never less than one of them;
    // the run's wall time is in a comment.
    let report = times(&xml, "testsuites");
    assert_eq!(report.len(), 1, "{xml}");
    assert!(
        (report[0].1 - suite_total).abs() < 0.001 * 3.0,
        "{report:?} vs {suite_total}\n{xml}"
    );
    assert!(suites.iter().all(|(_, t)| *t <= report[0].1), "{xml}");
    assert!(xml.contains("the run's wall time was "), "{xml}");
    if let Some(verdict) = validate(&junit) {
        verdict.unwrap_or_else(|why| panic!("the report does not validate:\n{why}\n{xml}"));
    }
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production).
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

/// An adapter whose stderr holds characters XML does not allow (U+FFFE,
/// U+FFFF, controls) still gets a well-formed report: each is spelled out,
/// in the failure's text and in its `system-err` alike, and the report
/// validates.
#[test]
fn junit_reports_stay_xml_under_any_stderr() {
    let dir = scratch("junit-odd-stderr");
    let junit = dir.join("junit.xml");
    let junit_arg = junit.display().to_string();
    let mut options = common::SMALL.to_vec();
    options.extend(["--junit", &junit_arg]);
    let env = [
        ("BROKEN_ON", common::BROKEN_ON),
        ("CRASH_STDERR", "before \u{fffe} \u{ffff} \x01\x0c after\n"),
    ];
    let run = run_against("junit-odd", &options, &common::broken("crash"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    let bad: Vec<char> = xml.chars().filter(|&c| !xml_char(c)).collect();
    assert_eq!(bad, Vec::<char>::new(), "{xml}");
    assert!(
        xml.contains(r"before \u{fffe} \u{ffff} \x01\x0c after"),
        "{xml}"
    );
    if let Some(verdict) = validate(&junit) {
        verdict.unwrap_or_else(|why| panic!("the report does not validate:\n{why}\n{xml}"));
    }
}
