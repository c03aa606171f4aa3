//! The corpus holds the fault model: every cell of `fault-model.yaml` has a
//! vector (hand-written or generated, told apart by nothing but bytes), and
//! every vector with faults expects the code the model gives them.

use std::path::Path;

use wow_guid_vectors::fault_model::{coordinates, name_classes, FaultModel, ModelError};
use wow_guid_vectors::{Corpus, Request};

/// The model's text, as the crate compiles it in.
const MODEL: &str = include_str!("../fault-model.yaml");

/// The classes that say a name is not UTF-8.
const INVALID: [&str; 5] = [
    "stray-continuation",
    "truncated-sequence",
    "overlong",
    "surrogate",
    "above-max",
];

fn corpus() -> Corpus {
    Corpus::load_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|errors| panic!("{errors}"))
}

#[test]
fn every_cell_of_the_fault_model_has_a_vector() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let corpus = corpus();
    let missing = model.missing(&corpus.vectors);
    assert!(
        missing.is_empty(),
        "{} of {} cells of vectors/fault-model.yaml have no vector:\n{}",
        missing.len(),
        model.cells().len(),
        missing
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_missing_vector_leaves_its_cell_uncovered() {
    // The test above can fail: take away the vectors of one cell and it is
    // reported.
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let corpus = corpus();
    let cell = model
        .cells()
        .into_iter()
        .find(|c| c.grid == "named-decode-classes" && c.values.iter().any(|(_, v)| v == "bom"))
        .expect("the model asks for a BOM");
    let without: Vec<_> = corpus
        .vectors
        .into_iter()
        .filter(|v| !(v.request.kind() == cell.request && coordinates(&v.request).covers(&cell)))
        .collect();
    assert!(model.missing(&without).contains(&cell));
}

#[test]
fn every_vector_with_faults_expects_the_models_code() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let wrong = model.disagreements(&corpus().vectors);
    assert!(
        wrong.is_empty(),
        "vectors whose expected error is not the fault model's:\n{}",
        wrong
            .iter()
            .map(|(id, why)| format!("{id}: {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_corpus_stays_lean() {
    // A cell needs one vector, not many: the corpus stays under about
    // 5,000 vectors, so an adapter's CI run stays short.
    let count = corpus().vectors.len();
    assert!(count < 5_000, "{count} vectors");
}

#[test]
fn the_checked_in_model_loads() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.buffer_lengths().len(), 38);
    assert_eq!(model.buffer_lengths()[..4], [1, 2, 3, 4]);
    assert_eq!(model.buffer_lengths().last(), Some(&8193));
}

#[test]
fn a_model_naming_what_does_not_exist_is_refused() {
    let text = MODEL.replace("zero-byte-at: all", "zero-byte-att: all");
    assert_eq!(
        FaultModel::parse(&text).unwrap_err(),
        ModelError::UnknownAxis {
            grid: "packed-decode-non-canonical".into(),
            axis: "zero-byte-att".into()
        }
    );
    let text = MODEL.replace("      mask: all\n", "      mask: every\n");
    assert!(matches!(
        FaultModel::parse(&text).unwrap_err(),
        ModelError::UnknownWord { .. }
    ));
    let text = MODEL.replace("values: all-bytes", "values: all-bites");
    assert!(matches!(
        FaultModel::parse(&text).unwrap_err(),
        ModelError::UnknownWord { .. }
    ));
    let text = MODEL.replace("class: [ends-multibyte]", "class: [ends-multibite]");
    assert!(matches!(
        FaultModel::parse(&text).unwrap_err(),
        ModelError::UnknownValue { .. }
    ));
}

#[test]
fn name_classes_tell_every_kind_of_invalid_sequence() {
    let classes = |bytes: &[u8]| name_classes(bytes).into_iter().collect::<Vec<_>>();
    assert_eq!(classes(b""), ["empty"]);
    assert_eq!(classes(b"ab"), ["ascii"]);
    assert_eq!(classes("a\u{e9}".as_bytes()), ["ends-multibyte", "utf8-2"]);
    assert_eq!(classes("\u{feff}a".as_bytes()), ["bom", "utf8-3"]);
    assert_eq!(classes("\u{fdd0}a".as_bytes()), ["noncharacter", "utf8-3"]);
    assert_eq!(
        classes("\u{10ffff}".as_bytes()),
        ["ends-multibyte", "noncharacter", "utf8-4"]
    );
    assert_eq!(
        classes(&[b'a', 0x80]),
        ["ends-invalid", "stray-continuation"]
    );
    assert_eq!(
        classes(&[0xe2, 0x82]),
        ["ends-invalid", "truncated-sequence"]
    );
    assert_eq!(classes(&[0xe2, 0x82, b'a']), ["truncated-sequence"]);
    assert_eq!(classes(&[0xc0, 0xaf]), ["ends-invalid", "overlong"]);
    assert_eq!(classes(&[0xe0, 0x80, 0xaf]), ["ends-invalid", "overlong"]);
    assert_eq!(
        classes(&[0xf0, 0x80, 0x80, 0xaf]),
        ["ends-invalid", "overlong"]
    );
    assert_eq!(classes(&[0xed, 0xa0, 0x80]), ["ends-invalid", "surrogate"]);
    assert_eq!(
        classes(&[0xf4, 0x90, 0x80, 0x80]),
        ["above-max", "ends-invalid"]
    );
    assert_eq!(
        classes(&[0xf5, 0x80]),
        ["above-max", "ends-invalid", "stray-continuation"]
    );
    // Agrees with the standard library on validity.
    for bytes in [
        &b"\xe2\x82\xac"[..],
        b"\xed\x9f\xbf",
        b"\xf0\x90\x80\x80",
        b"\xc2",
    ] {
        let invalid = name_classes(bytes).iter().any(|c| INVALID.contains(c));
        assert_eq!(
            invalid,
            core::str::from_utf8(bytes).is_err(),
            "{bytes:02x?}"
        );
    }
}

#[test]
fn coordinates_come_from_the_bytes() {
    let c = coordinates(&Request::DecodePacked {
        bytes: vec![0x03, 0x00],
    });
    assert_eq!(c.faults, ["truncated"]);
    assert!(c.values["cut"].contains("1"));
    let c = coordinates(&Request::DecodeNamed {
        bytes: [&[1, 0, 0, 0, 0, 0, 0, 0][..], b"a\x80"].concat(),
    });
    assert_eq!(c.faults, ["invalid_utf8", "missing_terminator"]);
    let c = coordinates(&Request::EncodeNamed {
        guid: 0,
        name: Some(b"a\0".to_vec()),
    });
    assert_eq!(c.faults, ["interior_nul", "name_with_guid_zero"]);
    assert!(c.values["nul-at"].contains("last"));
}
