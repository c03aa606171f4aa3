//! The loader's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders (`wow-guid-layers`).

use std::path::Path;

/// The vectors crate's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["near_miss", "hex_text", "files"],
    &["vocab"],
    &["model", "interner"],
    &["error", "topics", "acceptance"],
    &["yaml"],
    &["corpus", "fault_model"],
    &["citation"],
    &["release", "schema_tests"],
    &["reference_page"],
    &["generate"],
    &["lib"],
];

#[test]
fn modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    wow_guid_layers::check(&root, LAYERS, &[("corpus", "files")]).unwrap_or_else(|p| panic!("{p}"));
}

/// No file over 600 lines, no function over 80 (`wow-guid-layers`).
#[test]
fn files_and_functions_stay_small() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    wow_guid_layers::check_sizes(&root, &SIZES).unwrap_or_else(|p| panic!("{p}"));
}

/// The sizes this crate holds its source to, with every file and function
/// allowed past them and why.
const SIZES: wow_guid_layers::Sizes<'static> = wow_guid_layers::Sizes {
    exceptions: &[],
    ..wow_guid_layers::Sizes::DEFAULT
};
