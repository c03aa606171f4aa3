//! The unit tests of `matrix::json`, through the crate's API.

use std::num::NonZeroUsize;
use wow_guid_conformance::matrix::implementations::Launch;
use wow_guid_conformance::matrix::model::Matrix;

use serde_json::Value as Json;
use wow_guid_vectors::Corpus;

use std::path::Path;
use std::time::Duration;
use wow_guid_conformance::matrix::causes::causes;
use wow_guid_conformance::matrix::implementations::{Builtin, ImplementationEntry, Source};
use wow_guid_conformance::matrix::json::*;
use wow_guid_conformance::matrix::model::{Header, Page};
use wow_guid_conformance::matrix::MatrixOptions;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::options::CorpusSource;
use wow_guid_harness::process::ProcessConfig;
use wow_guid_harness::reference::Reference;
use wow_guid_harness::report::Format as _;
use wow_guid_harness::run::{run, RunPlan};

fn document() -> Json {
    let corpus = Corpus::embedded().unwrap();
    let plan = RunPlan {
        vectors: corpus.vectors.iter().take(30).collect(),
        judge: JudgeOptions::default(),
        expected_failures: None,
        jobs: NonZeroUsize::MIN,
    };
    let results = run(&plan, || Reference, None).unwrap();
    let found = causes(&results, &mut || Reference, JudgeOptions::default()).unwrap();
    let entry = ImplementationEntry {
        name: "reference".into(),
        language: "Rust".into(),
        version: "0".into(),
        source: Source {
            package: Some("p".into()),
            ..Source::default()
        },
        launch: Launch::Builtin(Builtin::Reference),
        window: None,
        note: None,
        line: 1,
    };
    let matrix = Matrix::new(
        Header {
            corpus: "embedded".into(),
            corpus_size: 30,
            strict_errors: false,
            implementations_file: "f.yaml".into(),
        },
        vec![(entry, results, found)],
    );
    let mut out = Vec::new();
    let page = Page {
        matrix: &matrix,
        command: "",
    };
    Json.write(&page, &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// Every object written has exactly the fields its schema requires,
/// and the schema allows no others: a field added on one side only
/// fails here.
#[test]
fn the_schema_describes_every_field_written() {
    let schema: Json = serde_json::from_str(SCHEMA).unwrap();
    let doc = document();
    let def = |name: &str| schema["$defs"][name].clone();
    let check = |schema: &Json, value: &Json| {
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut properties: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut written: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        required.sort_unstable();
        properties.sort_unstable();
        written.sort_unstable();
        assert_eq!(schema["additionalProperties"], false);
        assert!(
            written.iter().all(|w| properties.contains(w)),
            "{written:?} vs {properties:?}"
        );
        assert!(
            required.iter().all(|r| written.contains(r)),
            "{required:?} vs {written:?}"
        );
    };
    check(&schema, &doc);
    let implementation = &doc["implementations"][0];
    check(&def("implementation"), implementation);
    check(&def("counts"), &implementation["counts"]);
    check(
        &schema["$defs"]["implementation"]["properties"]["source"],
        &implementation["source"],
    );
    let vector = &doc["vectors"][0];
    check(&def("vector"), vector);
    check(&def("result"), &vector["results"][0]);
    assert_eq!(schema["properties"]["format"]["const"], FORMAT_NAME);
    assert_eq!(
        schema["properties"]["format_version"]["const"],
        FORMAT_VERSION
    );
    let outcome_def = def("outcome");
    let outcomes: Vec<&str> = outcome_def["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let words: Vec<&str> = wow_guid_conformance::matrix::model::CELL_OUTCOMES
        .iter()
        .map(|o| o.as_str())
        .collect();
    assert_eq!(outcomes, words);
    let counts_def = def("counts");
    let counts: Vec<&str> = counts_def["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(counts, words);
}

#[test]
fn matrix_lines_carry_the_corpus_strictness_and_time_limits() {
    let corpus = CorpusSource::Dir("my vectors".into());
    let options = MatrixOptions {
        judge: JudgeOptions {
            strict_errors: true,
        },
        jobs: NonZeroUsize::MIN,
        timeout: Duration::from_secs(20),
        startup_timeout: ProcessConfig::DEFAULT_STARTUP_TIMEOUT,
        serve: Vec::new(),
    };
    assert_eq!(
        options.rerun_line(
            "wow-guid-conformance",
            &corpus,
            Path::new("target/matrix"),
            Path::new("matrix/implementations.yaml")
        ),
        "wow-guid-conformance matrix --vectors 'my vectors' --strict-errors --timeout 20s \
         --out target/matrix matrix/implementations.yaml"
    );
}
