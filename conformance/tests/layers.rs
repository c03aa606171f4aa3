//! The runner's floor plan: its library and its binary import down these
//! tables of layers only, with no cycle between files or folders, and no
//! fuzz target has an import cycle (`wow-guid-layers`).

use std::path::{Path, PathBuf};

/// The runner library's layers, lowest first.
const LIBRARY: &[&[&str]] = &[
    &["duration", "format", "disagreement", "destination"],
    &["export", "known_failures", "list", "seed", "report_reader"],
    // Which of `run`'s failures pass alone, and the search that cuts down
    // the requests before one: below the shrinker, which reuses it.
    &["history"],
    &["shrink", "lint", "doctor"],
    &["matrix", "fuzzing"],
    &["lib"],
];

/// The binary's: its command line, then `main`.
const BINARY: &[&[&str]] = &[&["cli"], &["main"]];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_owned()
}

#[test]
fn the_library_imports_only_lower_layers() {
    let root = dir().join("src/lib.rs");
    let expected = [
        ("fuzzing/session", "fuzzing/requests"),
        ("matrix/html", "matrix/model"),
    ];
    wow_guid_layers::check(&root, LIBRARY, &expected).unwrap_or_else(|p| panic!("{p}"));
}

#[test]
fn the_binary_imports_only_lower_layers() {
    let root = dir().join("src/main.rs");
    wow_guid_layers::check(&root, BINARY, &[("main", "cli")]).unwrap_or_else(|p| panic!("{p}"));
}

/// Every fuzz target is a crate root of its own, with no import cycle.
#[test]
fn no_fuzz_target_has_an_import_cycle() {
    let targets = dir().join("../fuzz/fuzz_targets");
    let mut roots: Vec<PathBuf> = std::fs::read_dir(&targets)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    roots.retain(|p| p.extension().is_some_and(|e| e == "rs"));
    assert!(
        !roots.is_empty(),
        "no fuzz targets in {}",
        targets.display()
    );
    for root in roots {
        wow_guid_layers::check(&root, &[&["*"]], &[]).unwrap_or_else(|p| panic!("{p}"));
    }
}

/// No file over 600 lines, no function over 80, in the library and the
/// binary (`wow-guid-layers`).
#[test]
fn files_and_functions_stay_small() {
    for (root, sizes) in [
        ("src/lib.rs", &LIBRARY_SIZES),
        ("src/main.rs", &BINARY_SIZES),
    ] {
        wow_guid_layers::check_sizes(&dir().join(root), sizes).unwrap_or_else(|p| panic!("{p}"));
    }
}

/// The sizes this crate holds its source to, with every file and function
/// allowed past them and why.
const LIBRARY_SIZES: wow_guid_layers::Sizes<'static> = wow_guid_layers::Sizes {
    exceptions: &[],
    ..wow_guid_layers::Sizes::DEFAULT
};

/// The sizes this crate holds its source to, with every file and function
/// allowed past them and why.
const BINARY_SIZES: wow_guid_layers::Sizes<'static> = wow_guid_layers::Sizes {
    exceptions: &[],
    ..wow_guid_layers::Sizes::DEFAULT
};
