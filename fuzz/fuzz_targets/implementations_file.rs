//! Raw bytes as the matrix's implementations file: either implementations
//! with unique names, each at a line of the file, or errors each at a line
//! of the file, never a panic. Variables come from a fixed environment, so
//! `${...}` expansion is exercised, nested defaults included. What one
//! input holds on the heap at once is bounded by its size, as in
//! `corpus_yaml` (`src/peak.rs`).
#![no_main]

#[global_allocator]
static ALLOC: wow_guid_fuzz::peak::Counting = wow_guid_fuzz::peak::Counting;

use std::collections::HashSet;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use wow_guid_conformance::matrix::implementations::{parse, Launch};
use wow_guid_fuzz::{peak, yaml_lines::yaml_lines};

fn env(name: &str) -> Option<String> {
    match name {
        "HOME" => Some("/home/fuzz".into()),
        "CARGO_TARGET_DIR" => Some("./target".into()),
        "EMPTY" => Some(String::new()),
        _ => None,
    }
}

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let lines = yaml_lines(input);
    let parsed = peak::bounded(input.len(), || {
        parse(Path::new("/repo/matrix/implementations.yaml"), text, &env)
    });
    match parsed {
        Ok(file) => {
            let mut names = HashSet::new();
            for entry in &file.implementations {
                assert!(
                    names.insert(entry.name.as_str()),
                    "name {:?} twice",
                    entry.name
                );
                assert!(
                    (1..=lines).contains(&entry.line),
                    "line {} of {lines}",
                    entry.line
                );
                if let Launch::Command { written, resolved } = &entry.launch {
                    assert_eq!(written.len(), resolved.len());
                    assert!(!resolved.is_empty());
                    for (w, r) in written.iter().zip(resolved) {
                        // A word without a variable is taken as written,
                        // or joined to the file's directory.
                        if !w.contains("${") {
                            assert!(r == w || r.ends_with(w.as_str()), "{w:?} -> {r:?}");
                        }
                    }
                }
            }
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for error in &errors {
                assert!(
                    error.line <= lines + 1,
                    "line {} of {lines}: {error}",
                    error.line
                );
                let _ = error.to_string();
            }
        }
    }
});
