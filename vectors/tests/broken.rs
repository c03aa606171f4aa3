//! Broken vector files: each fault must come back as the exact error kind at
//! the exact place, and every fault of a corpus must be reported, not only
//! the first.

use wow_guid_vectors::hex_text::{GuidTextError, HexError};
use wow_guid_vectors::{
    Corpus, Expected, Found, GuidType, IdError, LoadError, LoadErrorKind, Location, Op, Outcome,
    Section, Version,
};

/// Loads one file named `t.yaml` and returns its errors as
/// (line, column, kind); panics if it loads.
fn errors(text: &str) -> Vec<(usize, usize, LoadErrorKind)> {
    errors_in(&[("t.yaml", text)])
        .into_iter()
        .map(|e| {
            assert_eq!(&*e.location.file, "t.yaml");
            (e.location.line, e.location.column, e.kind)
        })
        .collect()
}

fn errors_in(files: &[(&str, &str)]) -> Vec<LoadError> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    match Corpus::from_sources(&files) {
        Ok(corpus) => panic!("expected errors, loaded {} vectors", corpus.vectors.len()),
        Err(errors) => errors.0,
    }
}

/// The single error of a file.
fn error(text: &str) -> (usize, usize, LoadErrorKind) {
    let mut all = errors(text);
    assert_eq!(all.len(), 1, "expected one error, got {all:#?}");
    all.remove(0)
}

/// A valid vector, with `{}` standing for one extra line (or nothing).
const GOOD: &str = r#"vectors:
  - id: a.one
    description: One.
    type: packed_guid
    op: decode
    input: { bytes: "0a de ad" }
    outcome: valid
    expect: { guid: "00000000ad00de00", consumed: 3 }
    versions: [vanilla]
"#;

fn loc(file: &str, line: usize, column: usize) -> Location {
    Location {
        file: file.into(),
        line,
        column,
    }
}

#[test]
fn the_base_vector_is_valid() {
    let corpus = Corpus::from_sources(&[("t.yaml".to_owned(), GOOD.to_owned())]).unwrap();
    assert_eq!(corpus.vectors.len(), 1);
    assert_eq!(corpus.vectors[0].location, loc("t.yaml", 2, 5));
}

#[test]
fn unknown_field_in_a_vector_suggests_the_known_one() {
    let text = GOOD.replace("    description: One.", "    descripton: One.");
    assert_eq!(
        errors(&text),
        [
            (
                3,
                5,
                LoadErrorKind::UnknownField {
                    field: "descripton".to_owned(),
                    section: Section::Vector(None),
                    suggestion: Some("description"),
                }
            ),
            (
                2,
                5,
                LoadErrorKind::MissingField {
                    field: "description",
                    section: Section::Vector(None),
                }
            ),
        ]
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
    );
}

#[test]
fn unknown_field_in_input_and_at_top_level() {
    let text = GOOD.replace(
        "{ bytes: \"0a de ad\" }",
        "{ bytes: \"0a de ad\", mask: \"0a\" }",
    );
    assert_eq!(
        error(&text),
        (
            6,
            33,
            LoadErrorKind::UnknownField {
                field: "mask".to_owned(),
                section: Section::Input(Some((GuidType::PackedGuid, Op::Decode))),
                suggestion: None,
            }
        )
    );
    let text = format!("version: 2\n{GOOD}");
    assert_eq!(
        error(&text),
        (
            1,
            1,
            LoadErrorKind::UnknownField {
                field: "version".to_owned(),
                section: Section::File,
                suggestion: None,
            }
        )
    );
}

#[test]
fn odd_hex_points_at_the_unpaired_digit() {
    let text = GOOD.replace("\"0a de ad\"", "\"0a d ead\"");
    assert_eq!(
        error(&text),
        (
            6,
            25,
            LoadErrorKind::BadHex {
                field: "bytes",
                error: HexError::OddDigits {
                    offset: 3,
                    digits: 1
                },
            }
        )
    );
}

#[test]
fn non_hex_character_points_at_its_column() {
    let text = GOOD.replace("\"0a de ad\"", "\"0a dz ad\"");
    let (line, column, kind) = error(&text);
    assert_eq!((line, column), (6, 26));
    assert_eq!(
        kind,
        LoadErrorKind::BadHex {
            field: "bytes",
            error: HexError::InvalidChar { offset: 4, ch: 'z' },
        }
    );
    assert_eq!(
        kind.to_string(),
        "`bytes`: `z` at offset 4 is not a hex digit (bytes are written as pairs of 0-9, a-f)"
    );
}

#[test]
fn bad_hex_on_a_continuation_line_points_into_that_line() {
    let text = GOOD.replace(
        "    input: { bytes: \"0a de ad\" }",
        "    input:\n      bytes: \"0a de\n        ad xy\"",
    );
    // The vector's later lines moved down by two.
    let (line, column, kind) = error(&text);
    assert_eq!((line, column), (8, 12));
    assert!(matches!(
        kind,
        LoadErrorKind::BadHex {
            error: HexError::InvalidChar { ch: 'x', .. },
            ..
        }
    ));
}

#[test]
fn bad_guids() {
    let text = GOOD.replace("\"00000000ad00de00\"", "\"ad00de00\"");
    assert_eq!(
        error(&text),
        (
            8,
            21,
            LoadErrorKind::BadGuid {
                field: "guid",
                error: GuidTextError::WrongLength { digits: 8 },
            }
        )
    );
    let text = GOOD.replace("\"00000000ad00de00\"", "\"0x000000ad00de00\"");
    assert_eq!(
        error(&text),
        (
            8,
            23,
            LoadErrorKind::BadGuid {
                field: "guid",
                error: GuidTextError::InvalidChar { offset: 1, ch: 'x' },
            }
        )
    );
}

#[test]
fn unquoted_hex_is_refused() {
    let text = GOOD.replace("\"0a de ad\"", "0a de ad");
    assert_eq!(
        error(&text),
        (6, 21, LoadErrorKind::NotQuoted { field: "bytes" })
    );
    // YAML reads unquoted digits as a number: say so.
    let text = GOOD.replace("\"0a de ad\"", "00");
    let (line, column, kind) = error(&text);
    assert_eq!((line, column), (6, 21));
    assert_eq!(
        kind,
        LoadErrorKind::WrongType {
            field: "bytes",
            expected: Expected::HexString,
            found: Found::Number("00".to_owned()),
        }
    );
    assert!(
        kind.to_string().ends_with("; put it in double quotes"),
        "{kind}"
    );
}

#[test]
fn wrong_types() {
    let text = GOOD.replace("versions: [vanilla]", "versions: vanilla");
    assert_eq!(
        error(&text),
        (
            9,
            15,
            LoadErrorKind::WrongType {
                field: "versions",
                expected: Expected::List,
                found: Found::String("vanilla".to_owned()),
            }
        )
    );
    let text = GOOD.replace("consumed: 3", "consumed: \"3\"");
    assert_eq!(
        error(&text),
        (
            8,
            51,
            LoadErrorKind::WrongType {
                field: "consumed",
                expected: Expected::Count,
                found: Found::String("3".to_owned()),
            }
        )
    );
    let text = GOOD.replace("consumed: 3", "consumed: -1");
    assert_eq!(
        error(&text).2,
        LoadErrorKind::WrongType {
            field: "consumed",
            expected: Expected::Count,
            found: Found::Number("-1".to_owned()),
        }
    );
    let text = GOOD.replace(
        "    input: { bytes: \"0a de ad\" }",
        "    input: [\"0a de ad\"]",
    );
    assert_eq!(
        error(&text),
        (
            6,
            12,
            LoadErrorKind::WrongType {
                field: "input",
                expected: Expected::Mapping,
                found: Found::List,
            }
        )
    );
    let text = GOOD.replace("    description: One.", "    description: true");
    assert_eq!(
        error(&text).2,
        LoadErrorKind::WrongType {
            field: "description",
            expected: Expected::String,
            found: Found::Boolean("true".to_owned()),
        }
    );
}

#[test]
fn malformed_yaml_is_one_error_at_the_parser_position() {
    let text = GOOD.replace("versions: [vanilla]", "versions: [vanilla");
    let (line, column, kind) = error(&text);
    assert_eq!((line, column), (9, 15));
    let LoadErrorKind::Yaml { message } = kind else {
        panic!("{kind:?}");
    };
    assert!(message.contains("bracket"), "{message}");
    assert!(!message.contains('\n'), "{message}");
}

#[test]
fn missing_fields_are_all_reported_at_the_vector() {
    let text = "vectors:\n  - id: a.one\n    type: packed_guid\n";
    let missing: Vec<&str> = errors(text)
        .into_iter()
        .map(|(line, column, kind)| {
            assert_eq!((line, column), (2, 5));
            match kind {
                LoadErrorKind::MissingField { field, .. } => field,
                other => panic!("{other:?}"),
            }
        })
        .collect();
    assert_eq!(
        missing,
        [
            "description",
            "op",
            "outcome",
            "input",
            "expect",
            "versions"
        ]
    );
}

#[test]
fn name_is_only_for_named_guid() {
    let text = r#"vectors:
  - id: a.one
    description: One.
    type: packed_guid
    op: encode
    input: { guid: "0000000000000001", name: "41" }
    outcome: valid
    expect: { bytes: "01 01" }
    versions: [vanilla]
"#;
    assert_eq!(
        error(text),
        (
            6,
            40,
            LoadErrorKind::FieldNotAllowed {
                field: "name",
                section: Section::Input(Some((GuidType::PackedGuid, Op::Encode))),
                allowed: &["guid"],
            }
        )
    );
    let text = GOOD.replace("consumed: 3 }", "consumed: 3, name: \"41\" }");
    assert_eq!(
        error(&text),
        (
            8,
            54,
            LoadErrorKind::FieldNotAllowed {
                field: "name",
                section: Section::Expect(Some((GuidType::PackedGuid, Op::Decode, Outcome::Valid))),
                allowed: &["guid", "consumed"],
            }
        )
    );
}

const NAMED: &str = r#"vectors:
  - id: n.one
    description: One.
    type: named_guid
    op: decode
    input: { bytes: "01 00 00 00 00 00 00 00 41 00" }
    outcome: valid
    expect: { guid: "0000000000000001", consumed: 10, name: "41" }
    versions: [tbc]
"#;

#[test]
fn decoded_name_iff_guid_is_not_zero() {
    Corpus::from_sources(&[("t.yaml".to_owned(), NAMED.to_owned())]).unwrap();
    let text = NAMED.replace(", name: \"41\"", "");
    assert_eq!(
        error(&text),
        (
            8,
            13,
            LoadErrorKind::NameAndGuidDisagree {
                guid_is_zero: false
            }
        )
    );
    let text = NAMED
        .replace("01 00 00 00 00 00 00 00 41 00", "00 00 00 00 00 00 00 00")
        .replace(
            "0000000000000001\", consumed: 10",
            "0000000000000000\", consumed: 8",
        );
    assert_eq!(
        error(&text),
        (
            8,
            54,
            LoadErrorKind::NameAndGuidDisagree { guid_is_zero: true }
        )
    );
}

#[test]
fn named_guid_is_not_vanilla() {
    let text = NAMED.replace("versions: [tbc]", "versions: [tbc, vanilla]");
    assert_eq!(
        error(&text),
        (
            9,
            21,
            LoadErrorKind::VersionNotApplicable {
                version: Version::Vanilla,
                guid_type: GuidType::NamedGuid,
            }
        )
    );
}

#[test]
fn why_iff_acceptable() {
    let text = GOOD.replace("    versions:", "    why: Because.\n    versions:");
    assert_eq!(
        error(&text),
        (
            9,
            5,
            LoadErrorKind::FieldNotAllowed {
                field: "why",
                section: Section::Vector(Some(Outcome::Valid)),
                allowed: &[
                    "id",
                    "sequence",
                    "description",
                    "type",
                    "op",
                    "input",
                    "outcome",
                    "expect",
                    "flags",
                    "versions",
                    "source"
                ],
            }
        )
    );
    let text = GOOD.replace("outcome: valid", "outcome: acceptable");
    assert_eq!(
        error(&text),
        (
            2,
            5,
            LoadErrorKind::MissingField {
                field: "why",
                section: Section::Vector(Some(Outcome::Acceptable)),
            }
        )
    );
    let text = GOOD
        .replace("outcome: valid", "outcome: acceptable")
        .replace("    versions:", "    why: \"  \"\n    versions:");
    assert_eq!(
        error(&text),
        (9, 10, LoadErrorKind::EmptyText { field: "why" })
    );
}

#[test]
fn expect_fields_follow_the_outcome() {
    let text = GOOD.replace("outcome: valid", "outcome: invalid");
    let all = errors(&text);
    assert_eq!(
        all.iter().map(|(l, c, _)| (*l, *c)).collect::<Vec<_>>(),
        [(8, 13), (8, 15), (8, 41)]
    );
    assert_eq!(
        all[0].2,
        LoadErrorKind::MissingField {
            field: "error",
            section: Section::Expect(Some((GuidType::PackedGuid, Op::Decode, Outcome::Invalid))),
        }
    );
    assert!(matches!(
        all[1].2,
        LoadErrorKind::FieldNotAllowed { field: "guid", .. }
    ));
    let text = GOOD.replace("outcome: valid", "outcome: invalid").replace(
        "{ guid: \"00000000ad00de00\", consumed: 3 }",
        "{ error: eoff }",
    );
    let (line, column, kind) = error(&text);
    assert_eq!((line, column), (8, 22));
    let LoadErrorKind::UnknownWord { field, error } = kind else {
        panic!("{kind:?}");
    };
    assert_eq!(field, "error");
    assert_eq!(
        error.to_string(),
        "unknown error code `eoff`; did you mean `eof`? expected one of: eof, invalid_utf8, interior_nul, name_without_guid, name_too_long, other"
    );
}

#[test]
fn flag_and_version_lists() {
    let text = GOOD.replace(
        "    versions:",
        "    flags: [sign-bit, signbit, sign-bit]\n    versions:",
    );
    let all = errors(&text);
    assert_eq!(all.len(), 2, "{all:#?}");
    assert_eq!((all[0].0, all[0].1), (9, 23));
    assert!(
        matches!(&all[0].2, LoadErrorKind::UnknownWord { field: "flags", error } if error.word == "signbit")
    );
    assert_eq!(
        all[1],
        (
            9,
            32,
            LoadErrorKind::DuplicateListItem {
                field: "flags",
                item: "sign-bit".to_owned(),
                first: loc("t.yaml", 9, 13),
            }
        )
    );
    let text = GOOD.replace("versions: [vanilla]", "versions: []");
    assert_eq!(
        error(&text),
        (9, 15, LoadErrorKind::EmptyList { field: "versions" })
    );
}

#[test]
fn ids_and_descriptions() {
    let text = GOOD.replace("id: a.one", "id: a.One");
    assert_eq!(
        error(&text),
        (
            2,
            11,
            LoadErrorKind::BadId {
                id: "a.One".to_owned(),
                error: IdError::BadChar { offset: 2, ch: 'O' },
            }
        )
    );
    let text = GOOD.replace("description: One.", "description: \"One.\\nTwo.\"");
    assert_eq!(
        error(&text),
        (
            3,
            18,
            LoadErrorKind::MultiLineText {
                field: "description"
            }
        )
    );
    let text = GOOD.replace("description: One.", "description: \"\"");
    assert_eq!(
        error(&text),
        (
            3,
            18,
            LoadErrorKind::EmptyText {
                field: "description"
            }
        )
    );
}

#[test]
fn a_field_written_twice_names_both_places() {
    let text = GOOD.replace("    op: decode\n", "    op: decode\n    op: encode\n");
    assert_eq!(
        error(&text),
        (
            6,
            5,
            LoadErrorKind::DuplicateField {
                field: "op".to_owned(),
                first: loc("t.yaml", 5, 5),
            }
        )
    );
}

#[test]
fn consumed_must_fit_the_input() {
    let text = GOOD.replace("consumed: 3", "consumed: 4");
    assert_eq!(
        error(&text),
        (
            8,
            41,
            LoadErrorKind::ConsumedOutOfRange {
                consumed: 4,
                input_len: 3,
            }
        )
    );
    let text = GOOD.replace("consumed: 3", "consumed: 0");
    assert!(matches!(
        error(&text).2,
        LoadErrorKind::ConsumedOutOfRange { consumed: 0, .. }
    ));
}

#[test]
fn duplicate_id_across_files_names_both_locations() {
    let other = GOOD.replace("\"0a de ad\"", "\"0a de ad ff\"");
    let all = errors_in(&[("b.yaml", &other), ("a.yaml", GOOD)]);
    assert_eq!(
        all,
        [LoadError {
            location: loc("b.yaml", 2, 5),
            kind: LoadErrorKind::DuplicateId {
                id: "a.one".to_owned(),
                first: loc("a.yaml", 2, 5),
            },
        }]
    );
    assert_eq!(
        all[0].to_string(),
        "b.yaml:2:5: id `a.one` is already used at a.yaml:2:5; ids are unique and never reused, pick a new one"
    );
}

#[test]
fn duplicate_content_names_both_vectors() {
    let text = format!(
        "{GOOD}{}",
        GOOD.replace("vectors:\n", "").replace("a.one", "a.two")
    );
    assert_eq!(
        error(&text),
        (
            10,
            5,
            LoadErrorKind::DuplicateContent {
                id: "a.two".to_owned(),
                first_id: "a.one".to_owned(),
                first: loc("t.yaml", 2, 5),
            }
        )
    );
}

#[test]
fn same_request_with_another_answer_is_a_contradiction() {
    let second = GOOD
        .replace("vectors:\n", "")
        .replace("a.one", "a.two")
        .replace("consumed: 3", "consumed: 2");
    let text = format!("{GOOD}{second}");
    assert_eq!(
        error(&text),
        (
            10,
            5,
            LoadErrorKind::ConflictingContent {
                id: "a.two".to_owned(),
                first_id: "a.one".to_owned(),
                first: loc("t.yaml", 2, 5),
            }
        )
    );
    // Disjoint versions may disagree.
    let text = format!("{GOOD}{}", second.replace("[vanilla]", "[tbc]"));
    Corpus::from_sources(&[("t.yaml".to_owned(), text)]).unwrap();
}

/// `GOOD` as step `n` of sequence `name`, with id `a.<name>.<n>`, without
/// the `vectors:` line unless `n` is 1.
fn step(name: &str, n: usize) -> String {
    let text = GOOD
        .replace(
            "  - id: a.one\n",
            &format!("  - id: a.{name}.{n}\n    sequence: {name}\n"),
        )
        .replace("    versions:", "    flags: [stateful]\n    versions:");
    if n == 1 {
        text
    } else {
        text.replace("vectors:\n", "\n")
    }
}

#[test]
fn steps_of_a_sequence_may_repeat_a_request() {
    let text = format!("{}{}", step("s", 1), step("s", 2));
    let corpus = Corpus::from_sources(&[("t.yaml".to_owned(), text)]).unwrap();
    assert_eq!(corpus.vectors.len(), 2);
    assert_eq!(corpus.vectors[1].sequence.as_deref(), Some("s"));
    assert!(corpus.vectors[0].same_sequence(&corpus.vectors[1]));
    let ids = |steps: &[wow_guid_vectors::Vector]| -> Vec<String> {
        steps.iter().map(|v| v.id.clone()).collect()
    };
    assert_eq!(
        ids(corpus.steps_through("a.s.2").unwrap()),
        ["a.s.1", "a.s.2"]
    );
    assert_eq!(ids(corpus.steps_through("a.s.1").unwrap()), ["a.s.1"]);
    assert!(corpus.steps_through("a.s.3").is_none());
}

#[test]
fn the_flag_stateful_and_a_sequence_go_together() {
    let flag_only = GOOD.replace(
        "    versions:",
        "    flags: [utf8, stateful]\n    versions:",
    );
    assert_eq!(
        error(&flag_only),
        (9, 19, LoadErrorKind::StatefulWithoutSequence)
    );
    let name_only = GOOD.replace("  - id: a.one\n", "  - id: a.one\n    sequence: s\n");
    assert_eq!(
        error(&name_only),
        (
            3,
            5,
            LoadErrorKind::SequenceWithoutStateful { name: "s".into() }
        )
    );
    assert!(error(&name_only)
        .2
        .to_string()
        .contains("lacks the flag `stateful`"));
    let bad_name = step("s", 1).replace("sequence: s", "sequence: S.x");
    let (line, column, kind) = errors(&bad_name).remove(0);
    assert_eq!((line, column), (3, 15));
    assert!(
        matches!(&kind, LoadErrorKind::BadSequenceName { name, .. } if name == "S.x"),
        "{kind:?}"
    );
}

#[test]
fn a_sequence_is_consecutive_vectors_of_one_file() {
    // Interrupted by another vector.
    let other = GOOD
        .replace("vectors:\n", "\n")
        .replace("a.one", "a.other")
        .replace("0a de ad", "0a de ae")
        .replace("00000000ad00de00", "00000000ae00de00");
    let text = format!("{}{other}{}{}", step("s", 1), step("s", 2), step("s", 3));
    assert_eq!(
        error(&text),
        (
            22,
            5,
            LoadErrorKind::SequenceSplit {
                name: "s".into(),
                first: loc("t.yaml", 2, 5),
            }
        )
    );
    // Continued in another file.
    let found = errors_in(&[
        ("a.yaml", &format!("{}{}", step("s", 1), step("s", 2))),
        ("b.yaml", &step("s", 1).replace("a.s.1", "a.s.3")),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].location, loc("b.yaml", 2, 5));
    assert!(found[0]
        .to_string()
        .contains("a step of sequence `s` (first step at a.yaml:2:5) after other vectors"));
}

#[test]
fn a_sequence_has_two_steps_or_more_of_any_kinds() {
    assert_eq!(
        error(&step("lonely", 1)),
        (
            2,
            5,
            LoadErrorKind::SequenceOfOne {
                name: "lonely".into()
            }
        )
    );
    // A decode then an encode: one buffer shared by both is a real bug.
    let encode = step("s", 2)
        .replace("op: decode", "op: encode")
        .replace(
            "input: { bytes: \"0a de ad\" }",
            "input: { guid: \"00000000ad00de00\" }",
        )
        .replace(
            "expect: { guid: \"00000000ad00de00\", consumed: 3 }",
            "expect: { bytes: \"0a de ad\" }",
        );
    let text = format!("{}{encode}", step("s", 1));
    let corpus = Corpus::from_sources(&[("t.yaml".to_owned(), text)]).unwrap();
    assert_eq!(corpus.steps_through("a.s.2").unwrap().len(), 2);
}

#[test]
fn empty_files_and_lists() {
    assert_eq!(
        error(""),
        (
            1,
            1,
            LoadErrorKind::WrongType {
                field: "file",
                expected: Expected::Mapping,
                found: Found::Null,
            }
        )
    );
    assert_eq!(error("vectors: []\n"), (1, 10, LoadErrorKind::NoVectors));
    assert_eq!(
        error("{}\n"),
        (
            1,
            1,
            LoadErrorKind::MissingField {
                field: "vectors",
                section: Section::File,
            }
        )
    );
    let none = Corpus::from_sources(&[]).unwrap_err();
    assert_eq!(none.0[0].kind, LoadErrorKind::NoFiles);
}

#[test]
fn file_names() {
    let all = errors_in(&[("a.yml", GOOD), ("b.yaml", GOOD), ("b.yaml", GOOD)]);
    assert_eq!(
        all.iter()
            .map(|e| (e.location.to_string(), e.kind.clone()))
            .collect::<Vec<_>>(),
        [
            ("a.yml".to_owned(), LoadErrorKind::NotYamlFile),
            ("b.yaml".to_owned(), LoadErrorKind::DuplicateFile),
        ]
    );
}

#[test]
fn merge_keys_are_refused() {
    let text = "base: &b { type: packed_guid }\nvectors:\n  - <<: *b\n    id: a.one\n";
    let (line, _, kind) = error(text);
    assert_eq!(line, 3);
    assert!(matches!(kind, LoadErrorKind::Yaml { .. }), "{kind:?}");
}

#[test]
fn every_fault_of_every_file_is_reported_in_order() {
    let first = GOOD
        .replace("id: a.one", "id: A")
        .replace("consumed: 3", "consumed: x");
    let second = GOOD
        .replace("id: a.one", "id: b.one")
        .replace("type: packed_guid", "type: packed")
        .replace("versions: [vanilla]", "versions: [classic]");
    let all = errors_in(&[("second.yaml", &second), ("first.yaml", &first)]);
    let places: Vec<String> = all.iter().map(|e| e.location.to_string()).collect();
    assert_eq!(
        places,
        [
            "first.yaml:2:9",
            "first.yaml:8:51",
            "second.yaml:4:11",
            "second.yaml:9:16"
        ]
    );
    let report = Corpus::from_sources(&[
        ("first.yaml".to_owned(), first),
        ("second.yaml".to_owned(), second),
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(report.lines().count(), 4, "{report}");
    assert!(report.starts_with("first.yaml:2:9: bad id `A`"), "{report}");
}

/// A scratch directory under the system temp dir, removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("wow-guid-vectors-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn load_dir_reports_bad_files_and_skips_hidden_ones() {
    let dir = TempDir::new("load-dir");
    let root = &dir.0;
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(root.join(".hidden")).unwrap();
    std::fs::write(root.join("sub/good.yaml"), GOOD).unwrap();
    std::fs::write(root.join(".hidden/x.yaml"), "garbage: [").unwrap();
    std::fs::write(root.join("notes.txt"), "not a vector file").unwrap();
    std::fs::write(root.join("old.yml"), GOOD).unwrap();
    let mut latin1 = b"vectors:\n  - id: caf".to_vec();
    latin1.push(0xe9);
    std::fs::write(root.join("latin1.yaml"), latin1).unwrap();

    let all = Corpus::load_dir(root).unwrap_err().0;
    assert_eq!(
        all,
        [
            LoadError {
                location: loc("latin1.yaml", 2, 12),
                kind: LoadErrorKind::NotUtf8,
            },
            LoadError {
                location: Location::whole_file("old.yml"),
                kind: LoadErrorKind::NotYamlFile,
            },
        ]
    );

    std::fs::remove_file(root.join("latin1.yaml")).unwrap();
    std::fs::remove_file(root.join("old.yml")).unwrap();
    let corpus = Corpus::load_dir(root).unwrap();
    assert_eq!(corpus.vectors[0].location, loc("sub/good.yaml", 2, 5));
}

#[test]
fn load_dir_of_a_missing_directory() {
    let missing = std::env::temp_dir().join("wow-guid-vectors-does-not-exist");
    let all = Corpus::load_dir(&missing).unwrap_err().0;
    // The unreadable root is the one error; "no files" would only repeat it.
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(
        all[0].location,
        Location::whole_file(&missing.display().to_string())
    );
    assert!(matches!(
        all[0].kind,
        LoadErrorKind::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        }
    ));
}

/// Loads `dir` on a thread and gives up after a minute, so that a loader that
/// blocks (on a FIFO) or reads without end (from a device) fails the test
/// instead of hanging it.
fn load_dir_within_a_minute(dir: &std::path::Path) -> Result<Corpus, wow_guid_vectors::LoadErrors> {
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = dir.to_owned();
    std::thread::spawn(move || {
        let _ = tx.send(Corpus::load_dir(&dir));
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("loading a directory with special files must not block")
}

/// Only regular files are read: a FIFO named `*.yaml` would block a reader
/// until a writer comes, a symlink to `/dev/zero` would never end, and a
/// symlinked directory cannot be read as text. Each is an error at its own
/// name, and the good files beside them still load.
#[cfg(unix)]
#[test]
fn load_dir_refuses_what_is_not_a_regular_file() {
    let dir = TempDir::new("special-files");
    let root = &dir.0;
    std::fs::write(root.join("good.yaml"), GOOD).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(root.join("fifo.yaml"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.yaml")).unwrap();
    std::fs::create_dir(root.join("real-dir")).unwrap();
    std::os::unix::fs::symlink(root.join("real-dir"), root.join("linked-dir.yaml")).unwrap();
    // A symlink to a regular file is read like the file itself.
    let linked = GOOD
        .replace("a.one", "a.linked")
        .replace("0a de ad", "0a de ad ff");
    std::fs::write(root.join("real.txt"), linked).unwrap();
    std::os::unix::fs::symlink(root.join("real.txt"), root.join("linked.yaml")).unwrap();

    let all = load_dir_within_a_minute(root).unwrap_err().0;
    let shown: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert_eq!(
        all.iter()
            .take(2)
            .map(|e| (e.location.clone(), e.kind.clone()))
            .collect::<Vec<_>>(),
        [
            (
                Location::whole_file("fifo.yaml"),
                LoadErrorKind::NotRegularFile {
                    what: "a FIFO (named pipe)"
                }
            ),
            (
                Location::whole_file("linked-dir.yaml"),
                LoadErrorKind::NotRegularFile {
                    what: "a directory"
                }
            ),
        ],
        "{shown:#?}"
    );
    // A link to a device outside the corpus is refused as a link out of
    // the tree, before anything looks at what it points to.
    assert_eq!(all[2].location, Location::whole_file("zero.yaml"));
    assert!(
        shown[2].contains("a symbolic link to a file outside the corpus directory"),
        "{shown:#?}"
    );
    assert_eq!(
        shown[0],
        "fifo.yaml: not read: this is a FIFO (named pipe), not a regular file; a vector file \
         must be a regular file or a symlink to one"
    );

    for special in ["fifo.yaml", "zero.yaml", "linked-dir.yaml"] {
        std::fs::remove_file(root.join(special)).unwrap();
    }
    let corpus = load_dir_within_a_minute(root).unwrap();
    let ids: Vec<&str> = corpus.vectors.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["a.one", "a.linked"]);
}

/// A file over the documented limit is refused from its size, before it is
/// read (the file here is sparse: it takes no disk space and would take 16
/// MiB of memory to read); one at the limit is read.
#[test]
fn load_dir_refuses_files_over_the_size_limit() {
    let dir = TempDir::new("large-files");
    let root = &dir.0;
    let file = std::fs::File::create(root.join("huge.yaml")).unwrap();
    file.set_len(wow_guid_vectors::MAX_FILE_BYTES + 1).unwrap();
    let all = load_dir_within_a_minute(root).unwrap_err().0;
    assert_eq!(
        all,
        [LoadError {
            location: Location::whole_file("huge.yaml"),
            kind: LoadErrorKind::FileTooLarge {
                size: wow_guid_vectors::MAX_FILE_BYTES + 1,
                limit: wow_guid_vectors::MAX_FILE_BYTES,
            },
        }]
    );
    assert_eq!(
        all[0].to_string(),
        "huge.yaml: not read: the file is 16777217 bytes, more than the limit of 16777216 bytes; \
         split it into several files"
    );

    // At the limit the file is read: a good file padded with comment lines.
    let mut text = GOOD.to_owned();
    let line = format!("#{}\n", "x".repeat(1023));
    while text.len() + line.len() <= wow_guid_vectors::MAX_FILE_BYTES as usize {
        text.push_str(&line);
    }
    text.push_str(&"#".repeat(wow_guid_vectors::MAX_FILE_BYTES as usize - text.len()));
    assert_eq!(text.len() as u64, wow_guid_vectors::MAX_FILE_BYTES);
    std::fs::write(root.join("huge.yaml"), &text).unwrap();
    let corpus = load_dir_within_a_minute(root).unwrap();
    assert_eq!(corpus.vectors.len(), 1);

    // The same limit holds for files given as strings.
    text.push('#');
    let all = errors_in(&[("big.yaml", &text)]);
    assert_eq!(
        all[0].kind,
        LoadErrorKind::FileTooLarge {
            size: wow_guid_vectors::MAX_FILE_BYTES + 1,
            limit: wow_guid_vectors::MAX_FILE_BYTES,
        }
    );
}

/// A vector with any fault does not load, whichever part the fault is in:
/// an unknown, repeated or non-text key counts as much as a bad value, so
/// a tool that judges the vectors that loaded (`lint`) never judges one
/// whose file is wrong. The faultless vector beside them loads.
#[test]
fn a_vector_with_a_faulty_key_does_not_load() {
    let dir = TempDir::new("faulty-keys");
    let root = &dir.0;
    let second = |id: &str, bytes: &str, guid: &str| {
        GOOD.trim_start_matches("vectors:\n")
            .replace("a.one", id)
            .replace("0a de ad", bytes)
            .replace("00000000ad00de00", guid)
    };
    let text = format!(
        "{}{}{}{}",
        GOOD.replace("    outcome: valid", "    outcome: valid\n    colour: red"),
        second("a.two", "0a de 01", "000000000100de00").replace(
            "    outcome: valid",
            "    outcome: valid\n    outcome: valid"
        ),
        second("a.three", "0a de 02", "000000000200de00")
            .replace("    outcome: valid", "    outcome: valid\n    7: seven"),
        second("a.four", "0a de 03", "000000000300de00"),
    );
    std::fs::write(root.join("t.yaml"), text).unwrap();
    let (corpus, errors) = Corpus::load_dir_with_errors(root);
    let kinds: Vec<_> = errors.iter().map(|e| &e.kind).collect();
    assert!(
        matches!(
            kinds[..],
            [
                LoadErrorKind::UnknownField { .. },
                LoadErrorKind::DuplicateField { .. },
                LoadErrorKind::WrongType { field: "key", .. }
            ]
        ),
        "{errors:#?}"
    );
    let loaded: Vec<_> = corpus.vectors.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(loaded, ["a.four"]);
}
