//! Released vectors keep their answers: every id in `released.txt` is still
//! in the corpus with the same fingerprint, or listed in `RETIRED.md`; a
//! retired id is never reused; the snapshot is of the current version.
//!
//! When a release is cut (after setting `release::CORPUS_VERSION`), rewrite
//! the snapshot from the corpus with
//! `VECTORS_RELEASE=1 cargo test -p wow-guid-vectors --test release`.

use std::path::Path;

use wow_guid_vectors::release::{self, CORPUS_VERSION, RETIRED_PATH, SNAPSHOT_PATH};
use wow_guid_vectors::Corpus;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn released_vectors_keep_their_answers() {
    let corpus = Corpus::load_dir(root()).unwrap_or_else(|e| panic!("{e}"));
    if std::env::var_os("VECTORS_RELEASE").is_some_and(|v| v == "1") {
        let text = release::write_snapshot(CORPUS_VERSION, &corpus.vectors);
        std::fs::write(root().join(SNAPSHOT_PATH), text).unwrap();
        eprintln!("wrote {SNAPSHOT_PATH} for corpus {CORPUS_VERSION}");
    }
    let snapshot = release::parse_snapshot(&read(SNAPSHOT_PATH)).unwrap_or_else(|e| panic!("{e}"));
    let retired = release::retired_ids(&read(RETIRED_PATH));
    let problems = release::broken_promises(&snapshot, &retired, &corpus.vectors);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        snapshot.version,
        CORPUS_VERSION,
        "{SNAPSHOT_PATH} is of corpus {}, the crate says {CORPUS_VERSION}: when a release is \
         cut, rewrite it with `{}`",
        snapshot.version,
        release::SNAPSHOT_COMMAND
    );
    assert!(snapshot.entries.len() > 1000, "{}", snapshot.entries.len());
}

#[test]
fn the_changelog_has_the_current_version() {
    let changelog = read("CHANGELOG.md");
    assert!(
        changelog.contains(&format!("## {CORPUS_VERSION}")),
        "CHANGELOG.md has no section for {CORPUS_VERSION}"
    );
}
