//! The codec's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders (`wow-guid-layers`).

use std::path::Path;

/// The codec's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["buffer", "decoded"],
    &["packed/value", "packed/error"],
    &["packed/generic", "named"],
    &[
        "packed/portable",
        "packed/table",
        "packed/ssse3",
        "packed/avx512",
    ],
    &["packed/dispatch"],
    &["packed"],
    &["naive"],
    &["properties"],
    &["lib"],
];

#[test]
fn modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let expected = [
        ("packed/table", "packed/generic"),
        ("packed/ssse3", "packed/generic"),
        ("packed/avx512", "packed/generic"),
        ("packed", "packed/dispatch"),
        ("named", "decoded"),
        ("naive", "named"),
    ];
    wow_guid_layers::check(&root, LAYERS, &expected).unwrap_or_else(|p| panic!("{p}"));
}
