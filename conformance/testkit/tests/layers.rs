//! The testkit's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders, it names no command-line
//! crate, and its files and functions stay small (`wow-guid-layers`).

use std::path::Path;

/// The testkit's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["generate", "codec"],
    &["reference", "in_process", "round_trip"],
    &["oracle"],
    &["properties", "corpus"],
    &["lib"],
];

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")
}

#[test]
fn modules_import_only_lower_layers() {
    let expected = [
        ("corpus", "round_trip"),
        ("properties/round_trip", "round_trip"),
    ];
    wow_guid_layers::check(&root(), LAYERS, &expected).unwrap_or_else(|p| panic!("{p}"));
}

#[test]
fn the_testkit_names_no_command_line_crate() {
    for cli in ["clap", "anstream", "wow_guid_conformance"] {
        assert_eq!(
            wow_guid_layers::files_naming(&root(), cli),
            Vec::<String>::new(),
            "{cli}"
        );
    }
}

/// No file over 600 lines, no function over 80, and no exceptions.
#[test]
fn files_and_functions_stay_small() {
    wow_guid_layers::check_sizes(&root(), &wow_guid_layers::Sizes::DEFAULT)
        .unwrap_or_else(|p| panic!("{p}"));
}
