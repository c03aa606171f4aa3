//! `list` shows what a selection picks, as text or as the JSON its schema
//! describes; `--id-file` and `--rerun-failed` select exact ids, read from a
//! list or from an earlier run's JSON report, with located errors for a bad
//! file of either kind.

use crate::common;

use std::fs;

use common::{run_against, runner, same_fields, scratch};
use serde_json::Value as Json;

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// The ids `list` printed: the first column of each line of its output.
fn listed_ids(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// `list` takes `run`'s selection options and prints one vector per line:
/// id, type, operation, flags.
#[test]
fn list_prints_the_selection_one_vector_per_line() {
    let run = runner(
        &args(&["list", "--id", "packed.*doc-example*", "--op", "decode"]),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let lines: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(lines.len() >= 3, "{}", run.describe());
    for line in &lines {
        assert_eq!(line.len(), 4, "{line:?}");
        assert!(line[0].starts_with("packed.decode.") && line[0].contains("doc-example"));
        assert_eq!(&line[1..3], ["packed_guid", "decode"]);
    }
    let first = &lines[0];
    assert_eq!(first[0], "packed.decode.doc-example");
    assert!(first[3].split(',').any(|f| f == "doc-example"), "{first:?}");

    // Nothing selected is an error, as for `run`.
    let run = runner(&args(&["list", "--id", "no.such.*"]), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("no vector matches the selection"),
        "{}",
        run.describe()
    );
}

/// `list --format json` writes what `list.schema.json` describes, and the
/// same vectors as the text layout.
#[test]
fn list_json_is_what_its_schema_says() {
    let schema: Json = serde_json::from_str(include_str!("../list.schema.json"))
        .expect("list.schema.json is JSON");
    let selection = ["--flag", "stateful", "--type", "packed_guid"];
    let mut words = vec!["list", "--format", "json"];
    words.extend(selection);
    let run = runner(&args(&words), &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let doc: Json = serde_json::from_str(&run.stdout).expect("list --format json is JSON");
    same_fields(&schema, &doc, "the list");
    assert_eq!(
        doc["format_version"],
        schema["properties"]["format_version"]["const"]
    );
    assert_eq!(doc["corpus"], "embedded");
    let vectors = doc["vectors"].as_array().expect("vectors");
    assert_eq!(doc["count"], vectors.len());
    let item_schema = &schema["$defs"]["vector"];
    for v in vectors {
        same_fields(item_schema, v, "a vector");
        assert_eq!(v["type"], "packed_guid");
        assert!(v["flags"]
            .as_array()
            .unwrap()
            .contains(&Json::from("stateful")));
        assert!(v["sequence"].is_string(), "{v}");
        assert!(
            v["location"].as_str().unwrap().starts_with("packed_guid/"),
            "{v}"
        );
    }
    let mut words = vec!["list"];
    words.extend(selection);
    let text = runner(&args(&words), &[]);
    let text_ids = listed_ids(&text.stdout);
    let json_ids: Vec<&str> = vectors.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(text_ids, json_ids);
    assert_eq!(json_ids.len(), 16, "two packed sequences of eight steps");
}

/// `--id-file` selects exactly the listed ids (the expected-failure list
/// format, comments allowed), together with the other options; an unknown
/// id or a malformed line is an error naming its line.
#[test]
fn an_id_file_selects_its_ids_and_names_the_line_of_a_bad_one() {
    let dir = scratch("id-file");
    let file = dir.join("ids.txt");
    fs::write(
        &file,
        "# the examples\npacked.decode.doc-example\n\npacked.encode.doc-example  # its twin\n\
         named.decode.ascii\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let run = runner(&args(&["list", "--id-file", &file]), &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let ids = listed_ids(&run.stdout);
    assert_eq!(
        ids,
        // In corpus order, not the file's.
        [
            "named.decode.ascii",
            "packed.decode.doc-example",
            "packed.encode.doc-example"
        ]
    );
    // Across options all must match.
    let run = runner(
        &args(&["list", "--id-file", &file, "--type", "named_guid"]),
        &[],
    );
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.describe());

    let bad = dir.join("bad.txt");
    fs::write(
        &bad,
        "packed.decode.doc-example\npacked.decode.doc-exampel\ntwo words\n",
    )
    .unwrap();
    let bad = bad.display().to_string();
    let run = runner(&args(&["run", "--id-file", &bad]), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    for expected in [
        &format!("{bad}:2: no vector has the id `packed.decode.doc-exampel`; did you mean"),
        &format!("{bad}:3: expected one vector id per line"),
    ] {
        assert!(
            run.stderr.contains(expected.as_str()),
            "no `{expected}`\n{}",
            run.describe()
        );
    }
}

/// A run's failures, rerun from its JSON report, are exactly what runs;
/// its `--write-expect-fail` list works as an `--id-file` too.
#[test]
fn rerun_failed_runs_what_failed_in_the_report() {
    let dir = scratch("rerun-failed");
    let list = dir.join("known.txt").display().to_string();
    let mut options = common::SMALL.to_vec();
    options.extend(["--write-expect-fail", &list]);
    let adapter = common::broken("crash");
    let env = [("BROKEN_ON", common::BROKEN_ON)];
    let first = run_against("rerun-failed-first", &options, &adapter, &env);
    assert_eq!(first.code, Some(1), "{}", first.describe());
    assert_eq!(
        first.ids("crashed"),
        [common::BROKEN_ON],
        "{}",
        first.describe()
    );
    let report = dir.join("report.json");
    fs::write(&report, serde_json::to_string(&first.report).unwrap()).unwrap();
    let report = report.display().to_string();

    let again = run_against(
        "rerun-failed-again",
        &["--rerun-failed", &report],
        &adapter,
        &env,
    );
    assert_eq!(again.code, Some(1), "{}", again.describe());
    let ran: Vec<&str> = again
        .results()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ran, [common::BROKEN_ON], "{}", again.describe());

    // Fixed (the adapter no longer crashes): the rerun passes.
    let fixed = run_against(
        "rerun-failed-fixed",
        &["--rerun-failed", &report],
        &adapter,
        &[],
    );
    assert_eq!(fixed.code, Some(0), "{}", fixed.describe());
    assert_eq!(fixed.count("pass"), 1, "{}", fixed.describe());

    let listed = runner(&args(&["list", "--id-file", &list]), &[]);
    assert_eq!(
        listed.stdout.split_whitespace().next(),
        Some(common::BROKEN_ON),
        "{}",
        listed.describe()
    );
}

/// A failed step of a stateful sequence reruns with its whole sequence.
#[test]
fn a_failed_sequence_step_reruns_its_whole_sequence() {
    let dir = scratch("rerun-sequence");
    let report = dir.join("report.json");
    fs::write(
        &report,
        r#"{"format_version": 3, "results": [
            {"id": "packed.encode.stateful.03-zero", "outcome": "fail"},
            {"id": "packed.decode.doc-example", "outcome": "pass"}
        ]}"#,
    )
    .unwrap();
    let report = report.display().to_string();
    let run = runner(&args(&["list", "--rerun-failed", &report]), &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let ids = listed_ids(&run.stdout);
    assert_eq!(ids.len(), 8, "{}", run.describe());
    assert!(
        ids.iter()
            .all(|id| id.starts_with("packed.encode.stateful.")),
        "{ids:?}"
    );
}

/// A report that is not one, is of an unknown version, lacks a field or
/// names ids the corpus lacks is an error saying where; one with no
/// failure says there is nothing to rerun.
#[test]
fn a_bad_report_is_a_located_error() {
    let dir = scratch("rerun-bad");
    let cases = [
        (
            "not-json.json",
            "packed.decode.doc-example\n",
            ":1:1: not JSON",
        ),
        (
            "version.json",
            r#"{"format_version": 99, "results": []}"#,
            ": `format_version` is 99; this runner reads JSON reports of versions 1 to 3",
        ),
        (
            "field.json",
            r#"{"format_version": 3, "results": [{"id": "packed.decode.doc-example"}]}"#,
            ": `results[0].outcome` should be a string, found nothing",
        ),
        (
            "unknown.json",
            r#"{"format_version": 3, "results": [{"id": "packed.decode.doc-exampel", "outcome": "fail"}]}"#,
            "results[0]: no vector has the id `packed.decode.doc-exampel`; did you mean",
        ),
        (
            "clean.json",
            r#"{"format_version": 3, "results": [{"id": "packed.decode.doc-example", "outcome": "pass"}]}"#,
            " records no failed vector",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        let path = path.display().to_string();
        let run = runner(&args(&["run", "--rerun-failed", &path]), &[]);
        assert_eq!(run.code, Some(2), "{name}: {}", run.describe());
        assert!(
            run.stderr.contains(&format!("--rerun-failed: {path}"))
                && run.stderr.contains(expected),
            "{name}: no `{expected}`\n{}",
            run.describe()
        );
    }
    let missing = dir.join("missing.json").display().to_string();
    let run = runner(&args(&["run", "--rerun-failed", &missing]), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains(&format!("cannot read {missing}")),
        "{}",
        run.describe()
    );
}
