//! Failures that point at the rule: every failure block, the JSON report
//! and the JUnit text carry the vector's `source` (the note its expectation
//! comes from), and where a common platform API explains a failure (a lossy
//! UTF-8 decoder's U+FFFD, a decoder that drops a byte-order mark) the hint
//! says which one.

use std::fs;
use std::path::Path;

use crate::common::{python, runner, scratch, Run};

/// `run --strict-errors` against buggy adapter `name`, with `--id ids`,
/// a JSON report and a JUnit report: the run and the JUnit text.
fn run_buggy(name: &str, ids: &str) -> (Run, String) {
    let dir = scratch(&format!("source-and-hints-{name}"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/buggy_adapters")
        .join(format!("{name}.py"));
    let (json, junit) = (dir.join("report.json"), dir.join("junit.xml"));
    let words: Vec<String> = [
        "run",
        "--strict-errors",
        "--id",
        ids,
        "--report-json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        "--max-failures",
        "1000",
        "--",
        python(),
        script.to_str().unwrap(),
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    let run = runner(&words, &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    (run, fs::read_to_string(junit).expect("the JUnit report"))
}

/// The failed results of a run's JSON report.
fn failures(run: &Run) -> Vec<&serde_json::Value> {
    run.results()
        .iter()
        .filter(|r| r["outcome"] == "fail")
        .collect()
}

#[test]
fn a_wrong_error_code_for_two_faults_names_its_note_everywhere() {
    let (run, junit) = run_buggy("utf8_first", "named.encode.*");
    let failed = failures(&run);
    assert!(!failed.is_empty(), "{}", run.describe());
    let note = "NOTES.md#two-faults-in-one-input: ";
    for result in &failed {
        let source = result["source"].as_str().unwrap_or_default();
        assert!(source.starts_with(note), "{result}");
    }
    assert!(
        run.stdout.contains(&format!("  source       {note}")),
        "{}",
        run.describe()
    );
    assert!(junit.contains(&format!("source:    {note}")), "{junit}");
    // `repro` prints the same block, source included.
    let id = failed[0]["id"].as_str().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/utf8_first.py");
    let words: Vec<String> = [
        "repro",
        id,
        "--strict-errors",
        "--",
        python(),
        script.to_str().unwrap(),
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    let repro = runner(&words, &[]);
    assert_eq!(repro.code, Some(1), "{}", repro.describe());
    assert!(
        repro.stdout.contains(&format!("  source       {note}")),
        "{}",
        repro.describe()
    );
    // A passing result carries its source too; a vector without one, null.
    assert!(run
        .results()
        .iter()
        .all(|r| r["source"].is_string() || r["source"].is_null()));
}

#[test]
fn a_lossy_decoder_is_named_in_the_hint() {
    let (run, junit) = run_buggy("lossy_utf8", "named.decode.*");
    let hinted: Vec<_> = failures(&run)
        .into_iter()
        .filter(|r| r["hint"].as_str().is_some_and(|h| h.contains("U+FFFD")))
        .collect();
    assert!(!hinted.is_empty(), "{}", run.describe());
    let hint = hinted[0]["hint"].as_str().unwrap();
    assert!(hint.contains("Encoding.UTF8"), "{hint}");
    assert!(hint.contains("new String(bytes, UTF_8)"), "{hint}");
    assert!(
        run.stdout.contains(&format!("  hint         {hint}")),
        "{}",
        run.describe()
    );
    assert!(
        junit.contains("hint:      U+FFFD (ef bf bd) in the answer"),
        "{junit}"
    );
}

#[test]
fn a_dropped_byte_order_mark_is_named_in_the_hint() {
    let (run, _) = run_buggy("bom_dropping", "named.decode.*");
    let failed = failures(&run);
    assert!(!failed.is_empty(), "{}", run.describe());
    for result in &failed {
        let hint = result["hint"].as_str().unwrap_or_default();
        assert!(hint.contains("TextDecoder"), "{result}");
    }
    // Failures no platform API explains get no hint.
    let (run, _) = run_buggy("missing_nul", "named.decode.*");
    assert!(failures(&run).iter().all(|r| r["hint"].is_null()));
}
