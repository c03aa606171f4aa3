//! The checked-in corpus: it loads, the embedded copy matches the directory,
//! and the generated files are what the generator writes.

use std::path::Path;

use wow_guid_vectors::{generate, Corpus};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Fails when a generated file is stale. To rewrite them during development:
/// `VECTORS_REGENERATE=1 cargo test -p wow-guid-vectors --test corpus generated_files_are_up_to_date`
/// (or the runner's `generate`, which calls the same function).
#[test]
fn generated_files_are_up_to_date() {
    if std::env::var_os("VECTORS_REGENERATE").is_some_and(|v| v == "1") {
        let changed = generate::write_all(root()).unwrap_or_else(|e| panic!("{e}"));
        for drift in changed {
            eprintln!("regenerated: {drift}");
        }
    }
    if let Err(err) = generate::check(root()) {
        panic!(
            "{err}\n(or, without the runner: VECTORS_REGENERATE=1 cargo test -p wow-guid-vectors \
             --test corpus generated_files_are_up_to_date)"
        );
    }
}

#[test]
fn directory_loads() {
    if let Err(errors) = Corpus::load_dir(root()) {
        panic!("{errors}");
    }
}
