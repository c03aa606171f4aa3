//! Every copy of the error vocabulary is the vocabulary: the protocol
//! module's grammar, the tables of codes in `PROTOCOL.md`, the vectors'
//! `README.md` and the vectors crate's documentation, the export schema's
//! enum, and every "Error codes:" list in the adapters and guides hold
//! exactly `ErrorCode::WORDS`, in its order. The enum is the one source; a
//! code added there fails here until each copy names it.

use std::path::{Path, PathBuf};

use wow_guid_vectors::ErrorCode;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_owned()
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'
}

/// The error codes `text` names as whole words, in the order of their
/// first appearance.
fn codes_in(text: &str) -> Vec<&'static str> {
    let bytes = text.as_bytes();
    let mut found: Vec<(usize, &'static str)> = Vec::new();
    for word in ErrorCode::WORDS {
        let first = text.match_indices(word).map(|(at, _)| at).find(|&at| {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + word.len()).copied();
            !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte)
        });
        if let Some(at) = first {
            found.push((at, word));
        }
    }
    found.sort_unstable();
    found.into_iter().map(|(_, word)| word).collect()
}

/// The text of `file` from `start` (exclusive) to the first `end` after it.
fn between<'a>(file: &str, text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{file} no longer has `{start}`"))
        + start.len();
    let to = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("{file}: nothing ends the list after `{start}`"));
    &text[from..from + to]
}

/// The first backquoted word of each table row in `section`.
fn table_codes(section: &str) -> Vec<&str> {
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .collect()
}

#[test]
fn every_written_list_of_error_codes_is_the_vocabulary() {
    let words: Vec<&str> = ErrorCode::WORDS.to_vec();
    // (file, where the list starts, where it ends)
    let lists = [
        (
            "conformance/harness/src/protocol.rs",
            "//! code     =",
            "\n",
        ),
        ("vectors/src/lib.rs", "an [`ErrorCode`] (", ")."),
    ];
    for (file, start, end) in lists {
        let text = read(file);
        assert_eq!(
            codes_in(between(file, &text, start, end)),
            words,
            "{file}: the list after `{start}`"
        );
    }
    // Tables: one row per code.
    let tables = [
        ("conformance/PROTOCOL.md", "### Error codes", "\n\n## "),
        ("vectors/README.md", "Error codes:\n", "\n\n### "),
    ];
    for (file, start, end) in tables {
        let text = read(file);
        assert_eq!(
            table_codes(between(file, &text, start, end)),
            words,
            "{file}: the table after `{start}`"
        );
    }
}

/// Every sentence "Error codes: …" in the guides, the adapters and their
/// READMEs lists them all.
#[test]
fn every_error_codes_sentence_names_every_code() {
    let mut files = vec![
        "README.md".to_owned(),
        "conformance/README.md".to_owned(),
        "conformance/PROTOCOL.md".to_owned(),
    ];
    let mut dirs = vec![repo().join("docs"), repo().join("conformance/adapters")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), "target" | "bin" | "obj" | "node_modules") {
                    dirs.push(path);
                }
            } else if [
                ".md", ".py", ".c", ".js", ".rs", ".java", ".cs", ".go", ".hpp",
            ]
            .iter()
            .any(|ext| name.ends_with(ext))
            {
                let relative = path.strip_prefix(repo()).unwrap();
                files.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    let mut seen = 0;
    for file in &files {
        let text = read(file);
        for (at, _) in text.match_indices("Error codes: ") {
            let rest = &text[at..];
            let sentence = &rest[..rest
                .find(".\n")
                .or_else(|| rest.find(". "))
                .unwrap_or(rest.len())];
            assert_eq!(codes_in(sentence), ErrorCode::WORDS, "{file}: `{sentence}`");
            seen += 1;
        }
    }
    assert!(seen >= 5, "only {seen} \"Error codes:\" sentences found");
}

#[test]
fn the_export_schema_enumerates_the_vocabulary() {
    let schema: serde_json::Value =
        serde_json::from_str(&read("conformance/export.schema.json")).unwrap();
    let expect = &schema["$defs"]["expect"]["properties"];
    let mut codes: Vec<serde_json::Value> = ErrorCode::WORDS.iter().map(|w| (*w).into()).collect();
    codes.push(serde_json::Value::Null);
    assert_eq!(expect["error"]["enum"], serde_json::Value::from(codes));
    assert_eq!(
        expect["or_error"]["enum"],
        serde_json::json!([ErrorCode::NameTooLong.as_str(), null])
    );
}
