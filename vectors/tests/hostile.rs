//! Hostile and damaged input: the loader must return (vectors or errors),
//! never panic, hang or exhaust memory, whatever it is given.

use wow_guid_vectors::{Corpus, LoadErrorKind};

/// Loads one file and returns its error kinds (empty when it loaded).
fn kinds(text: &str) -> Vec<LoadErrorKind> {
    match Corpus::from_sources(&[("h.yaml".to_owned(), text.to_owned())]) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.0.into_iter().map(|e| e.kind).collect(),
    }
}

fn is_yaml_error(kinds: &[LoadErrorKind]) -> bool {
    matches!(kinds, [LoadErrorKind::Yaml { .. }])
}

/// Loads one file that must fail with exactly one YAML error; its message
/// and line.
fn only_yaml_error(text: &str) -> (String, usize) {
    let errors =
        Corpus::from_sources(&[("h.yaml".to_owned(), text.to_owned())]).expect_err("refused");
    let [error] = errors.0.as_slice() else {
        panic!("{errors:?}");
    };
    let LoadErrorKind::Yaml { message } = &error.kind else {
        panic!("{error:?}");
    };
    (message.clone(), error.location.line)
}

const REAL: &str = include_str!("../packed_guid/doc-example.yaml");

#[test]
fn every_prefix_of_a_real_file_loads_or_fails_cleanly() {
    for (end, _) in REAL.char_indices() {
        let _ = kinds(&REAL[..end]);
    }
}

#[test]
fn every_single_byte_deletion_of_a_vector_loads_or_fails_cleanly() {
    let vector = &REAL[REAL.find("vectors:").unwrap()..];
    let vector = &vector[..vector.find("\n\n").unwrap()];
    for (at, c) in vector.char_indices() {
        let mut damaged = vector.to_owned();
        damaged.replace_range(at..at + c.len_utf8(), "");
        let _ = kinds(&damaged);
    }
}

/// Deterministic pseudo-random text from YAML's busiest characters.
#[test]
fn garbage_loads_or_fails_cleanly() {
    const ALPHABET: &[u8] = b" \n\t-:{}[],&*!|>'\"%@`#?0a\\xZ\r.";
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2_000 {
        let mut text = String::new();
        for _ in 0..(state % 200) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push(char::from(
                ALPHABET[(state % ALPHABET.len() as u64) as usize],
            ));
        }
        let _ = kinds(&text);
    }
}

#[test]
fn deep_nesting_is_refused() {
    let flow = format!("vectors: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(is_yaml_error(&kinds(&flow)));
    let block: String = (0..5_000)
        .map(|depth| format!("{}- \n", " ".repeat(depth * 2)))
        .collect();
    assert!(!kinds(&format!("vectors:\n{block}")).is_empty());
    let maps: String = (0..5_000)
        .map(|depth| format!("{}k:\n", " ".repeat(depth * 2)))
        .collect();
    assert!(!kinds(&maps).is_empty());
}

#[test]
fn alias_bombs_are_refused() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..12 {
        let prev = level - 1;
        let refs = vec![format!("*a{prev}"); 10].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
    }
    text.push_str("vectors: *a11\n");
    assert!(is_yaml_error(&kinds(&text)), "{:?}", kinds(&text));
}

/// A bomb small enough for the parser's own bound (a million replayed
/// events) cost 250 MB from 256 bytes, found by the fuzzing of the loader
/// with its memory counted: aliases may now replay one parser event per
/// byte of the file, so every level of such a bomb from the second on is
/// refused, at a line of the file.
#[test]
fn alias_bombs_under_the_parsers_own_bound_are_refused() {
    for levels in 2..7 {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..levels {
            let refs = vec![format!("*a{}", level - 1); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        text.push_str(&format!("vectors: *a{}\n", levels - 1));
        let (message, line) = only_yaml_error(&text);
        assert!(
            message.starts_with("aliases repeat more than this file may")
                || message.starts_with("anchors keep more than this file may"),
            "{levels} levels: {message}"
        );
        assert!(
            (1..=text.lines().count()).contains(&line),
            "{levels} levels: line {line}"
        );
    }
}

/// A replayed scalar is one parser event whatever its length, so a long
/// scalar repeated through a hundred aliases passed the bound on replayed
/// events and cost the square of the file's size (found by fuzzing the
/// loader with its heap counted): the tree may hold at most twice the
/// file's size in scalar text.
#[test]
fn a_long_scalar_repeated_through_aliases_is_refused() {
    let long = "x".repeat(3_000);
    let tens = ["*a"; 10].join(", ");
    let hundreds = ["*b"; 10].join(", ");
    let text = format!("a: &a \"{long}\"\nb: &b [{tens}]\nvectors: [{hundreds}]\n");
    let (message, line) = only_yaml_error(&text);
    assert!(
        message.starts_with("aliases repeat more than this file may")
            && message.contains("bytes of scalar text"),
        "{message}"
    );
    assert!((1..=3).contains(&line), "line {line}");
}

/// The parser keeps a copy of every event inside an anchored node, one for
/// each anchor it is inside, so anchors nested in one another cost the file's
/// size times their depth (found by fuzzing the loader with its heap
/// counted): the copies may be at most one per byte of the file.
#[test]
fn deeply_nested_anchors_are_refused() {
    let depth = 50;
    let open: String = (0..depth).map(|i| format!("&a{i} [")).collect();
    let inner = vec!["x"; 500].join(",");
    let text = format!("vectors: {open}{inner}{}\n", "]".repeat(depth));
    let (message, line) = only_yaml_error(&text);
    assert!(
        message.starts_with("anchors keep more than this file may"),
        "{message}"
    );
    assert_eq!(line, 1);
}

/// The parser records a mapping key's events before it builds the key, and
/// records every key inside it again while building it, so keys nested in
/// keys cost the file's size once for each level (found by fuzzing the
/// loader with its heap counted: 2 KB of nested flow mappings held 4.5 MB).
/// A key inside a key must be a scalar; the error is at the inner key.
#[test]
fn keys_nested_in_keys_are_refused() {
    for text in [
        "vectors: []\n{{x: 1}: 2}: 3\n",
        "vectors: []\n[a, {[b]: c}]: d\n",
        "vectors: []\n? x: {{y}: z}\n: w\n",
        &format!("vectors: []\n{}x{}: y\n", "{".repeat(40), "}".repeat(40)),
    ] {
        let (message, line) = only_yaml_error(text);
        assert!(
            message.starts_with("a key inside a mapping key is a mapping or a list"),
            "{text:?}: {message}"
        );
        assert_eq!(line, 2, "{text:?}");
    }
}

/// One level of mapping or list as a key still reaches the reader, which
/// reports it as no field name beside the file's other faults.
#[test]
fn a_mapping_as_a_key_is_reported_with_the_other_faults() {
    let kinds = kinds("{x: 1}: 2\n[a, b]: 3\nvectors: 4\n");
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(
        kinds
            .iter()
            .all(|k| !matches!(k, LoadErrorKind::Yaml { .. })),
        "{kinds:?}"
    );
}

/// Anchors as a file really uses them, one shared list aliased by the
/// vectors after it, stay far inside the bound. (The parser also refuses a
/// file with more than 100 aliases and over ten per anchor.)
#[test]
fn aliases_of_a_shared_list_load() {
    let mut text = String::from("vectors:\n");
    for i in 0..100 {
        let versions = if i == 0 {
            "&all [vanilla, tbc, wrath]"
        } else {
            "*all"
        };
        text.push_str(&format!(
            "  - {{ id: v{i}, description: d, type: packed_guid, op: decode, \
             input: {{ bytes: \"01 {:02x}\" }}, outcome: valid, \
             expect: {{ guid: \"00000000000000{:02x}\", consumed: 2 }}, \
             versions: {versions}, source: s }}\n",
            i + 1,
            i + 1
        ));
    }
    let corpus = Corpus::from_sources(&[("h.yaml".to_owned(), text)]).expect("loads");
    assert_eq!(corpus.vectors.len(), 100);
}

#[test]
fn an_alias_to_a_whole_vector_repeats_its_id() {
    let body = &REAL[REAL.find("  - id: packed.decode.doc-example").unwrap()..];
    let body = &body[..body.find("\n\n").unwrap()];
    let text = format!(
        "vectors:\n  - &v\n{}\n  - *v\n",
        body.replacen("  - id", "    id", 1)
    );
    assert!(
        matches!(
            kinds(&text).as_slice(),
            [
                LoadErrorKind::DuplicateId { .. },
                LoadErrorKind::DuplicateContent { .. }
            ]
        ),
        "{:?}",
        kinds(&text)
    );
}

#[test]
fn huge_scalars_fail_cleanly() {
    let id = "a".repeat(4 * 1024 * 1024);
    let text = REAL.replace("packed.decode.doc-example\n", &format!("{id}\n"));
    // A long id is legal; it must only not crash (the other vectors still load).
    let _ = kinds(&text);
    let hex = "0".repeat(4 * 1024 * 1024 + 1);
    let text = REAL.replace("\"0a de ad\"", &format!("\"{hex}\""));
    assert!(kinds(&text)
        .iter()
        .any(|k| matches!(k, LoadErrorKind::BadHex { .. })));
    let text = REAL.replace("consumed: 3", &format!("consumed: {}", "9".repeat(10_000)));
    let found = kinds(&text);
    let [LoadErrorKind::Yaml { message }] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert!(message.chars().count() <= 301, "{message}");
}

#[test]
fn too_many_nodes_are_refused() {
    // Nine nodes a line, 1.08 million in all: past the budget of a million
    // nodes a file, well within the size limit.
    let mut text = String::from("vectors:\n");
    for i in 0..120_000 {
        text.push_str(&format!(
            "  - {{ id: v{i}, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }}\n"
        ));
    }
    assert!(is_yaml_error(&kinds(&text)));
}

#[test]
fn odd_scalars_and_tags_fail_cleanly() {
    for value in [
        ".nan",
        "-.inf",
        "1e999",
        "0x1f",
        "0o17",
        "~",
        "!!binary aGVsbG8=",
        "!!binary ???",
        "!custom tag",
        "!!int 3",
        "!!str 3",
        "{ ? [a, b] : c }",
        "*undefined",
        "\"\\u0000\"",
        "\"\\ud800\"",
        "'\u{feff}'",
        "|\n      block\n",
    ] {
        let text = REAL.replace("consumed: 3", &format!("consumed: {value}"));
        let _ = kinds(&text);
        let text = REAL.replace("\"0a de ad\"", value);
        let _ = kinds(&text);
        let text = REAL.replace("id: packed.decode.doc-example", &format!("id: {value}"));
        let _ = kinds(&text);
    }
}

#[test]
fn control_characters_bom_and_crlf() {
    let _ = kinds("\u{0}\u{1}\u{7f}vectors:\n");
    let _ = kinds(&format!("\u{feff}{REAL}"));
    let crlf = REAL.replace('\n', "\r\n");
    assert_eq!(kinds(&crlf), Vec::new());
    let _ = kinds(&REAL.replace('\n', "\r"));
    let _ = kinds(&REAL.replace("  ", "\t"));
}

#[test]
fn multiple_documents_and_odd_top_levels() {
    for text in [
        "---\nvectors: []\n---\nvectors: []\n",
        "--- 3\n",
        "- a\n- b\n",
        "\"just a string\"\n",
        "vectors: {}\n",
        "vectors: ~\n",
        "? vectors\n",
        "vectors:\n  - ~\n  - 3\n  - [a]\n",
        "...\n",
        "%YAML 1.2\n---\nvectors: []\n",
        "%BOGUS directive\n",
    ] {
        assert!(!kinds(text).is_empty(), "{text:?} loaded");
    }
}
