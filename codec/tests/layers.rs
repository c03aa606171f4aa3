//! The codec's floor plan: its modules import down this table of layers
//! only, with no cycle between files or folders (`wow-guid-layers`).

use std::path::Path;

/// The codec's layers, lowest first.
const LAYERS: &[&[&str]] = &[
    &["buffer", "decoded"],
    &["packed/value", "packed/error", "named/error"],
    &["packed/generic", "named/borrowed"],
    &["named/owned"],
    // `packed/arch`: the SIMD backends and their registry.
    &["packed/portable", "packed/table", "packed/arch"],
    &["packed/dispatch"],
    &["packed", "named"],
    &["naive"],
    &["properties/message"],
    &[
        "properties/decode",
        "properties/roundtrip",
        "properties/differential",
        "properties/stream",
    ],
    &["properties"],
    &["lib"],
];

#[test]
fn modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let expected = [
        ("packed/table", "packed/generic"),
        ("packed/arch", "packed/generic"),
        ("packed", "packed/dispatch"),
        ("named/borrowed", "decoded"),
        ("named/owned", "named/borrowed"),
        ("naive", "named/error"),
    ];
    wow_guid_layers::check(&root, LAYERS, &expected).unwrap_or_else(|p| panic!("{p}"));
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
    exceptions: &[
        (
            "properties/decode::packed_decode",
            "one property per assertion block, each with its message",
        ),
        (
            "properties/roundtrip::packed_roundtrip",
            "one property per assertion block, each with its message",
        ),
        (
            "properties/roundtrip::named_roundtrip",
            "one property per assertion block, each with its message",
        ),
    ],
    ..wow_guid_layers::Sizes::DEFAULT
};
