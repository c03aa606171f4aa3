//! The loader's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders (`wow-guid-layers`).

use std::path::Path;

/// The vectors crate's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["near_miss", "hex_text", "files"],
    &["vocab"],
    &["model", "interner"],
    &["error", "topics", "fault_model"],
    &["yaml"],
    &["corpus"],
    &["citation", "release", "schema_tests"],
    &["reference_page"],
    &["generate"],
    &["lib"],
];

#[test]
fn modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    wow_guid_layers::check(&root, LAYERS, &[("corpus", "files")]).unwrap_or_else(|p| panic!("{p}"));
}
