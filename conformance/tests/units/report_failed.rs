//! The unit tests of `report::failed`, through the crate's API.

use wow_guid_conformance::report_reader::*;
use wow_guid_harness::expect_fail::SHOWN_ERRORS;
use wow_guid_harness::run::RunOutcome;

const CORPUS: [&str; 4] = ["a.one", "a.two", "a.three", "a.four"];

fn read(text: &str) -> Result<Vec<String>, ReportReadError> {
    failed_ids("r.json", text, CORPUS.iter().copied())
}

fn report(results: &str) -> String {
    format!(r#"{{"format_version": 3, "tool": "x", "results": [{results}]}}"#)
}

#[test]
fn failures_stale_entries_and_vector_bugs_are_rerun_the_rest_not() {
    let text = report(
        r#"{"id": "a.one", "outcome": "pass"},
               {"id": "a.two", "outcome": "timed_out"},
               {"id": "a.three", "outcome": "xfail"},
               {"id": "a.four", "outcome": "stale"},
               {"id": "a.one", "outcome": "vector_bug"}"#,
    );
    assert_eq!(read(&text).unwrap(), ["a.two", "a.four", "a.one"]);
    for outcome in RunOutcome::ALL {
        let picked = matches!(
            outcome,
            RunOutcome::Failed
                | RunOutcome::Crashed
                | RunOutcome::TimedOut
                | RunOutcome::Malformed
                | RunOutcome::Stale
                | RunOutcome::VectorBug
        );
        assert_eq!(is_rerun(outcome), picked, "{outcome:?}");
    }
    let v1 = r#"{"format_version": 1, "results": [{"id": "a.two", "outcome": "fail"}]}"#;
    assert_eq!(read(v1).unwrap(), ["a.two"]);
}

#[test]
fn what_is_not_a_report_is_an_error_at_its_place() {
    let message = |text: &str| read(text).unwrap_err().to_string();
    assert!(
        message("{\n  \"format_version\": 3,\n  \"results\": [,]\n}").starts_with(
            "r.json:3:15: not JSON (expected value); --rerun-failed reads the JSON report"
        )
    );
    assert!(message("a.one\na.two\n").starts_with("r.json:1:1: not JSON (expected value)"));
    assert!(message(r#"{"results": []}"#).contains("not a JSON report of `run --report-json`"));
    assert!(
        message(r#"{"format_version": 4, "results": []}"#).starts_with(
            "r.json: `format_version` is 4; this runner reads JSON reports of versions 1 to 3"
        )
    );
    assert_eq!(
        message(r#"{"format_version": 3}"#),
        "r.json: `results` should be a list, found nothing"
    );
    assert_eq!(
        message(&report(
            r#"{"id": "a.one", "outcome": "pass"}, {"id": 7, "outcome": "fail"}"#
        )),
        "r.json: `results[1].id` should be a string, found a number"
    );
    assert!(message(&report(r#"{"id": "a.one", "outcome": "failed"}"#))
        .starts_with("r.json: `results[0].outcome` is `failed`, which is no outcome"));
}

#[test]
fn every_id_the_corpus_lacks_is_named_with_its_place() {
    let error = read(&report(
        r#"{"id": "a.one", "outcome": "fail"},
               {"id": "a.tow", "outcome": "fail"},
               {"id": "b.gone", "outcome": "crashed"}"#,
    ))
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.starts_with("r.json: 2 failed id(s) not in the corpus"),
        "{text}"
    );
    let line = text.lines().nth(1).unwrap_or_default();
    assert!(
        line.starts_with("  results[1]: no vector has the id `a.tow`; did you mean ")
            && line.contains("a.two"),
        "{text}"
    );
    assert!(
        text.contains("\n  results[2]: no vector has the id `b.gone`"),
        "{text}"
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let text = format!(
        "\u{feff}{}",
        report(r#"{"id": "a.one", "outcome": "fail"}"#)
    );
    assert_eq!(read(&text).unwrap(), ["a.one"]);
}

#[test]
fn unknown_ids_are_shown_cut_escaped_and_a_few_at_a_time() {
    let long = "\\u0000".repeat(10_000);
    let text = report(&format!(r#"{{"id": "{long}", "outcome": "fail"}}"#));
    let message = read(&text).unwrap_err().to_string();
    assert!(message.len() < 1_000, "{} bytes", message.len());
    assert!(message.contains("(10000 bytes in all)"), "{message}");
    assert!(!message.contains('\0'), "{message:?}");

    let many: Vec<String> = (0..50_000)
        .map(|i| format!(r#"{{"id": "x{i}", "outcome": "fail"}}"#))
        .collect();
    let message = read(&report(&many.join(","))).unwrap_err().to_string();
    assert!(
        message.starts_with("r.json: 50000 failed id(s) not in the corpus"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1 + SHOWN_ERRORS + 1, "{message}");
    assert!(message.ends_with("and 49980 more, not shown"), "{message}");
}
