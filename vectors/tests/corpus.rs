//! The checked-in corpus loads.

use std::path::Path;

use wow_guid_vectors::Corpus;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn directory_loads() {
    if let Err(errors) = Corpus::load_dir(root()) {
        panic!("{errors}");
    }
}
