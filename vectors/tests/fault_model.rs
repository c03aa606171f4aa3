//! The corpus holds the fault model: every cell of `fault-model.yaml` has a
//! vector (hand-written or generated, told apart by nothing but bytes), and
//! every vector with faults expects the code the model gives them.

use std::collections::BTreeSet;
use std::path::Path;

use wow_guid_vectors::fault_model::{
    coordinates, name_classes, Axis, CellValue, Class, Fault, FaultModel, Faults, ModelError, NulAt,
};
use wow_guid_vectors::{Corpus, Request};

/// The model's text, as the crate compiles it in.
const MODEL: &str = include_str!("../fault-model.yaml");

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
        .find(|c| {
            c.grid == "named-decode-classes" && c.values.contains(&CellValue::Class(Class::Bom))
        })
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
    // A misspelt axis, fault, class or request is refused at its line.
    let line_of = |text: &str, needle: &str| {
        1 + text[..text.find(needle).expect("the needle is in the model")]
            .matches('\n')
            .count()
    };
    for (from, to) in [
        ("zero-byte-at: all", "zero-byte-att: all"),
        ("  truncated_guid:\n", "  truncated_gud:\n"),
        ("{name: bom,", "{name: bomb,"),
        ("request: decode named_guid", "request: dcode named_guid"),
        ("      mask: all\n", "      mask: every\n"),
    ] {
        let text = MODEL.replacen(from, to, 1);
        let err = FaultModel::parse(&text).unwrap_err();
        let line = format!("line {} ", line_of(&text, to));
        assert!(
            matches!(&err, ModelError::Syntax(m) if m.contains(&line)),
            "{to}: {err}"
        );
    }
    // A value its axis does not have, at its line.
    let text = MODEL.replace("class: [ends-multibyte]", "class: [ends-multibite]");
    assert!(matches!(
        FaultModel::parse(&text).unwrap_err(),
        ModelError::UnknownValue { axis: Axis::Class, ref value, line, .. }
            if value == "ends-multibite" && line as usize == line_of(&text, "ends-multibite")
    ));
    // A fault of the code the model does not describe.
    let text = MODEL.replace(
        "  interior_nul:\n    about:",
        "  # interior_nul:\n    about:",
    );
    assert!(FaultModel::parse(&text).is_err());
}

#[test]
fn name_classes_tell_every_kind_of_invalid_sequence() {
    use Class::*;
    let classes = |bytes: &[u8]| name_classes(bytes);
    let set = |classes: &[Class]| classes.iter().copied().collect::<BTreeSet<Class>>();
    assert_eq!(classes(b""), set(&[Empty]));
    assert_eq!(classes(b"ab"), set(&[Ascii]));
    assert_eq!(classes("a\u{e9}".as_bytes()), set(&[EndsMultibyte, Utf82]));
    assert_eq!(classes("\u{feff}a".as_bytes()), set(&[Bom, Utf83]));
    assert_eq!(classes("\u{fdd0}a".as_bytes()), set(&[Noncharacter, Utf83]));
    assert_eq!(
        classes("\u{10ffff}".as_bytes()),
        set(&[EndsMultibyte, Noncharacter, Utf84])
    );
    assert_eq!(
        classes(&[b'a', 0x80]),
        set(&[EndsInvalid, StrayContinuation])
    );
    assert_eq!(
        classes(&[0xe2, 0x82]),
        set(&[EndsInvalid, TruncatedSequence])
    );
    assert_eq!(classes(&[0xe2, 0x82, b'a']), set(&[TruncatedSequence]));
    assert_eq!(classes(&[0xc0, 0xaf]), set(&[EndsInvalid, Overlong]));
    assert_eq!(classes(&[0xe0, 0x80, 0xaf]), set(&[EndsInvalid, Overlong]));
    assert_eq!(
        classes(&[0xf0, 0x80, 0x80, 0xaf]),
        set(&[EndsInvalid, Overlong])
    );
    assert_eq!(classes(&[0xed, 0xa0, 0x80]), set(&[EndsInvalid, Surrogate]));
    assert_eq!(
        classes(&[0xf4, 0x90, 0x80, 0x80]),
        set(&[AboveMax, EndsInvalid])
    );
    assert_eq!(
        classes(&[0xf5, 0x80]),
        set(&[AboveMax, EndsInvalid, StrayContinuation])
    );
    // Agrees with the standard library on validity.
    for bytes in [
        &b"\xe2\x82\xac"[..],
        b"\xed\x9f\xbf",
        b"\xf0\x90\x80\x80",
        b"\xc2",
    ] {
        let invalid = name_classes(bytes).iter().any(|c| c.is_invalid());
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
    assert_eq!(c.faults, Faults::from_iter([Fault::Truncated]));
    assert!(c.values.contains(&CellValue::Cut(Some(1))));
    let c = coordinates(&Request::DecodeNamed {
        bytes: [&[1, 0, 0, 0, 0, 0, 0, 0][..], b"a\x80"].concat(),
    });
    assert_eq!(
        c.faults,
        Faults::from_iter([Fault::InvalidUtf8, Fault::MissingTerminator])
    );
    assert_eq!(c.faults.to_string(), "invalid_utf8+missing_terminator");
    let c = coordinates(&Request::EncodeNamed {
        guid: 0,
        name: Some(b"a\0".to_vec()),
    });
    assert_eq!(
        c.faults,
        Faults::from_iter([Fault::InteriorNul, Fault::NameWithGuidZero])
    );
    assert!(c.values.contains(&CellValue::NulAt(NulAt::Last)));
}

#[test]
fn axes_and_faults_are_in_the_order_of_their_words() {
    // A generated vector's id lists its cell's values in axis order, and a
    // set of faults is written in fault order: both are the words'
    // alphabetical order, which ids already published rely on.
    let sorted = |words: &[&str]| words.windows(2).all(|w| w[0] < w[1]);
    assert!(sorted(Axis::WORDS));
    assert!(sorted(Fault::WORDS));
}
