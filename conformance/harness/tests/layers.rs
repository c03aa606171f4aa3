//! The harness's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders, and it names no
//! command-line crate (`wow-guid-layers`).

use std::path::Path;

/// The harness's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["terminal"],
    &["duration", "shell", "protocol", "expect_fail", "select"],
    &["excerpt"],
    &["implementation"],
    &["process", "reference"],
    &["judge", "serve"],
    &["classify", "run"],
    &["options"],
    &["report"],
    &["lib"],
];

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")
}

#[test]
fn modules_import_only_lower_layers() {
    let expected = [("report/grouping", "classify/signature"), ("run", "judge")];
    wow_guid_layers::check(&root(), LAYERS, &expected).unwrap_or_else(|p| panic!("{p}"));
}

#[test]
fn the_harness_names_no_command_line_crate() {
    for cli in ["clap", "anstream"] {
        assert_eq!(
            wow_guid_layers::files_naming(&root(), cli),
            Vec::<String>::new(),
            "{cli}"
        );
    }
}

/// No file over 600 lines, no function over 80 (`wow-guid-layers`).
#[test]
fn files_and_functions_stay_small() {
    wow_guid_layers::check_sizes(&root(), &SIZES).unwrap_or_else(|p| panic!("{p}"));
}

/// The sizes this crate holds its source to, with every file and function
/// allowed past them and why: none.
const SIZES: wow_guid_layers::Sizes<'static> = wow_guid_layers::Sizes {
    exceptions: &[],
    ..wow_guid_layers::Sizes::DEFAULT
};
