//! Every copy of the error vocabulary is the vocabulary: the protocol
//! module's grammar, the tables of codes in `PROTOCOL.md`, the vectors'
//! `README.md` and the vectors crate's documentation, the export schema's
//! enum, and every "Error codes:" list in the adapters and guides hold
//! exactly `ErrorCode::WORDS`, in its order. The enum is the one source; a
//! code added there fails here until each copy names it. So it is for the
//! kinds of request: the grammar's and `PROTOCOL.md`'s request lines, its
//! keywords and the export schema's operations are `RequestKind::ALL` and
//! `Op::WORDS`.

use std::path::{Path, PathBuf};

use std::collections::BTreeSet;

use wow_guid_vectors::{ErrorCode, GuidType, Op, RequestKind};

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

/// The request kinds (`decode packed_guid`) of the lines of `text` that
/// name an operation and then a type, in any order of lines.
fn kinds_in(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line
                .split(|c: char| c == '"' || c.is_whitespace())
                // The grammar's separator is `SP`.
                .filter(|w| !w.is_empty() && *w != "SP")
                .collect();
            let op = words.iter().position(|w| Op::WORDS.contains(w))?;
            let guid_type = words.get(op + 1).filter(|w| GuidType::WORDS.contains(w))?;
            Some(format!("{} {guid_type}", words[op]))
        })
        .collect()
}

#[test]
fn every_written_list_of_request_kinds_is_the_vocabulary() {
    let kinds: BTreeSet<String> = RequestKind::ALL.iter().map(ToString::to_string).collect();
    let lists = [
        (
            "conformance/harness/src/protocol.rs",
            "//! request  =",
            "//! response",
        ),
        (
            "conformance/PROTOCOL.md",
            "## 3. Requests\n\n```text\n",
            "```",
        ),
        // The protocol in brief at the head of each one-file adapter, and
        // in the adapters' README.
        ("conformance/adapters/README.md", "Requests ", "unsupported"),
        (
            "conformance/adapters/python/adapter.py",
            "Requests ",
            "unsupported",
        ),
        (
            "conformance/adapters/c/adapter.c",
            "Requests ",
            "unsupported",
        ),
        (
            "conformance/adapters/js/adapter.js",
            "Requests ",
            "unsupported",
        ),
        (
            "conformance/adapters/rust/main.rs",
            "Requests ",
            "unsupported",
        ),
    ];
    for (file, start, end) in lists {
        let text = read(file);
        assert_eq!(
            kinds_in(between(file, &text, start, end)),
            kinds,
            "{file}: the request lines after `{start}`"
        );
    }
    let file = "conformance/PROTOCOL.md";
    let text = read(file);
    let keywords = between(file, &text, "Keywords (", ")");
    for word in Op::WORDS.iter().chain(GuidType::WORDS) {
        assert!(
            keywords.contains(&format!("`{word}`")),
            "{file}: the keywords lack `{word}`"
        );
    }
    let schema: serde_json::Value =
        serde_json::from_str(&read("conformance/export.schema.json")).unwrap();
    assert_eq!(
        schema["$defs"]["vector"]["properties"]["op"]["enum"],
        serde_json::Value::from(Op::WORDS.to_vec())
    );
}
