//! The corpus holds the fault model: every cell of `fault-model.yaml` has a
//! vector (hand-written or generated, told apart by nothing but bytes), and
//! every vector with faults expects the code the model gives them.

use std::collections::BTreeSet;
use std::path::Path;

use wow_guid_vectors::fault_model::{
    fault_words, name_classes, Axis, CellValue, Class, Fault, FaultModel, Faults, ModelError, NulAt,
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
        .filter(|v| {
            !(v.request.kind() == cell.request && model.coordinates(&v.request).covers(&cell))
        })
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
fn a_duplicate_key_is_refused_at_its_line_in_the_editors_words() {
    let text = MODEL.replacen(
        "    about: every mask, decoded\n",
        "    about: every mask, decoded\n    about: again\n",
        1,
    );
    let err = FaultModel::parse(&text).unwrap_err();
    let line = 1 + text[..text.find("    about: again").unwrap()]
        .matches('\n')
        .count();
    assert_eq!(
        err.to_string(),
        format!(
            "fault-model.yaml: line {line} column 5: duplicate mapping key `about` is not \
             allowed here"
        )
    );
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
        ("  bom: ", "  bomb: "),
        ("request: decode named_guid", "request: dcode named_guid"),
        ("      mask: all\n", "      mask: every\n"),
        ("\"e0 a0..bf 80..bf\"", "\"e0 a0..bf 80..bg\""),
        ("\"ed 80..9f 80..bf\"", "\"ed 9f..80 80..bf\""),
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
    let text = MODEL.replacen("class: [ends-multibyte,", "class: [ends-multibite,", 1);
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
    assert_eq!(classes(b"a\x1fb"), set(&[Ascii, Control]));
    assert_eq!(classes(b"\x7f"), set(&[Ascii, Control]));
    assert_eq!(classes("a\u{e9}".as_bytes()), set(&[EndsMultibyte, Utf82]));
    assert_eq!(classes("\u{feff}a".as_bytes()), set(&[Bom, Utf83]));
    assert_eq!(classes("\u{fdd0}a".as_bytes()), set(&[Noncharacter, Utf83]));
    assert_eq!(
        classes("\u{10ffff}".as_bytes()),
        set(&[EndsMultibyte, EndsUtf84, Noncharacter, Utf84])
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
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let coordinates = |request: &Request| model.coordinates(request);
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
    assert_eq!(fault_words(&c.faults), "invalid_utf8+missing_terminator");
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

#[test]
fn the_utf8_table_is_the_standards() {
    // The table in the model agrees with Rust's UTF-8 validator on every
    // sequence of up to three bytes, and on every four-byte sequence of
    // bytes at or next to a bound.
    let table = FaultModel::load().unwrap_or_else(|e| panic!("{e}")).utf8;
    let agrees = |bytes: &[u8]| table.well_formed(bytes) == core::str::from_utf8(bytes).is_ok();
    for a in 0..=255u8 {
        assert!(agrees(&[a]), "{a:02x}");
        for b in 0..=255u8 {
            assert!(agrees(&[a, b]), "{a:02x} {b:02x}");
            for c in 0..=255u8 {
                assert!(agrees(&[a, b, c]), "{a:02x} {b:02x} {c:02x}");
            }
        }
    }
    let near: Vec<u8> = vec![
        0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
        0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    for &a in &near {
        for &b in &near {
            for &c in &near {
                for &d in &near {
                    assert!(agrees(&[a, b, c, d]), "{a:02x} {b:02x} {c:02x} {d:02x}");
                }
            }
        }
    }
}

#[test]
fn the_utf8_cells_are_the_bounds_of_the_table() {
    let model = FaultModel::load().unwrap_or_else(|e| panic!("{e}"));
    let (cells, elsewhere) = model.utf8.cells();
    let cell = |word: &str| {
        cells
            .iter()
            .find(|c| c.word == word)
            .unwrap_or_else(|| panic!("no cell {word}"))
    };
    // Each cell changes one byte of its row's lowest sequence.
    assert_eq!(cell("c2-df.byte1.low").bytes, [0xc2, 0x80]);
    assert_eq!(cell("c2-df.byte2.low").bytes, [0xc2, 0x80]);
    assert_eq!(cell("c2-df.byte1.high").bytes, [0xdf, 0x80]);
    assert_eq!(cell("c2-df.byte1.below").bytes, [0xc1, 0x80]);
    assert_eq!(cell("c2-df.byte2.below").bytes, [0xc2, 0x7f]);
    assert_eq!(cell("c2-df.byte2.above").bytes, [0xc2, 0xc0]);
    assert_eq!(cell("e0.byte2.below").bytes, [0xe0, 0x9f, 0x80]);
    assert_eq!(cell("ed.byte2.above").bytes, [0xed, 0xa0, 0x80]);
    assert_eq!(cell("f4.byte2.above").bytes, [0xf4, 0x90, 0x80, 0x80]);
    assert_eq!(cell("00-7f.byte1.above").bytes, [0x80]);
    // Cut after each byte but the last, at the end of the name.
    assert_eq!(cell("e0.cut2").bytes, [0xe0, 0xa0]);
    assert!(cell("e0.cut2").ends_name);
    assert!(cells
        .iter()
        .all(|c| !c.word.ends_with(".cut3") || c.bytes.len() == 3));
    // A first byte outside its row that starts another: its own cell when
    // ill-formed with the row's other bytes, counted there when not.
    assert_eq!(cell("c2-df.byte1.above").bytes, [0xe0, 0x80]);
    assert!(cells.iter().all(|c| c.word != "e0.byte1.above"));
    assert!(elsewhere.iter().any(|e| e.word == "e0.byte1.above"
        && e.bytes == [0xe1, 0xa0, 0x80]
        && e.about.starts_with("e1..ec")));
    // Nothing outside 00..ff, and the extras by byte.
    assert!(cells.iter().all(|c| c.word != "00-7f.byte1.below"));
    assert_eq!(cell("lead.ff").bytes, [0xff, 0x80, 0x80, 0x80]);
    assert_eq!(
        cell("cesu-8-pair").bytes,
        [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]
    );
    // Every cell is valid or not as the standard library says, and the
    // model's classes, which give a vector its expected code, agree.
    for c in &cells {
        let valid = core::str::from_utf8(&c.bytes).is_ok();
        assert_eq!(model.utf8.well_formed(&c.bytes), valid, "{}", c.word);
        let invalid = name_classes(&c.bytes)
            .iter()
            .any(|class| class.is_invalid());
        assert_eq!(invalid, !valid, "{}", c.word);
        // Only a bound's own bytes are well-formed.
        let bound = c.word.ends_with(".low") || c.word.ends_with(".high");
        assert_eq!(valid, bound, "{}", c.word);
    }
}

#[test]
fn the_names_that_tell_a_hand_written_validators_mutants_apart_are_asked() {
    // Issue 32: the requests that told apart the mutants of the C
    // adapter's UTF-8 check which passed the corpus of 1.1.0, each as a
    // name to decode and to encode.
    let corpus = corpus();
    let names: [&[u8]; 10] = [
        b"\xc2\x80",
        b"\xc2\x7f",
        b"\xc2\xc0",
        b"\x7f",
        b"\xc1\x80",
        b"\xdf\x80",
        b"\xe0\x80",
        b"\xe0\xa0\x80",
        b"\xe0\x9f\x80",
        b"\xe0\xa0",
    ];
    for name in names {
        let decoded = corpus.vectors.iter().any(|v| match &v.request {
            Request::DecodeNamed { bytes } => {
                bytes.len() == 9 + name.len()
                    && bytes[..8] != [0; 8]
                    && bytes[8..8 + name.len()] == *name
                    && bytes[8 + name.len()] == 0
            }
            _ => false,
        });
        let encoded = corpus.vectors.iter().any(|v| match &v.request {
            Request::EncodeNamed {
                guid,
                name: Some(n),
            } => *guid != 0 && n.as_slice() == name,
            _ => false,
        });
        assert!(
            decoded && encoded,
            "{name:02x?}: decoded {decoded}, encoded {encoded}"
        );
    }
}
