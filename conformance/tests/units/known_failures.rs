//! The unit tests of `known_failures`, through the crate's API.

use std::path::Path;
use wow_guid_conformance::known_failures::*;
use wow_guid_vectors::Corpus;

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
}

#[test]
fn every_list_exists_under_a_name_the_matrix_uses() {
    let matrix = std::fs::read_to_string(repository().join("matrix/implementations.yaml")).unwrap();
    for (name, path) in LISTS {
        assert!(
            matrix.contains(&format!("- name: {name}\n")),
            "matrix/implementations.yaml names no implementation `{name}`"
        );
        assert!(repository().join(path).is_file(), "{path} is missing");
    }
}

#[test]
fn the_lists_read_into_their_ids() {
    let corpus = Corpus::embedded().unwrap();
    let known = read(repository(), &corpus).unwrap();
    assert_eq!(known.len(), LISTS.len());
    let rust = &known[1];
    assert_eq!(rust.implementation, "wow_world_messages");
    assert!(rust.ids.contains("named.encode.interior-nul"));
    assert!(known[0].ids.contains("packed.decode.doc-example"));
    // Outside a checkout there are no lists, and no failures to show.
    let empty = std::env::temp_dir().join(format!("known-failures-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    assert_eq!(read(&empty, &corpus).unwrap(), Vec::new());
    std::fs::remove_dir_all(&empty).unwrap();
}
