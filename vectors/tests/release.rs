//! Releases never change: every list in `releases/` still matches the
//! corpus (every released id there with the same rows and the same accepted
//! answers, or retired) and the digest recorded when it was cut; the
//! lists compiled into the crate are the lists on disk; the changelog
//! prints every release's digest; the corpus is labelled as a release only
//! when it is exactly one.
//!
//! A release is cut with `cargo run --release -p wow-guid-conformance --
//! release cut VERSION`, never by editing a list.

use std::path::Path;

use wow_guid_vectors::release::{self, Label, Release, CHANGELOG_PATH, RELEASES_DIR, RETIRED_PATH};
use wow_guid_vectors::{Corpus, Vector};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn corpus() -> Corpus {
    Corpus::load_dir(root()).unwrap_or_else(|e| panic!("{e}"))
}

/// The release lists on disk, oldest first.
fn on_disk() -> Vec<Release> {
    let mut releases: Vec<Release> = std::fs::read_dir(root().join(RELEASES_DIR))
        .expect("vectors/releases/ exists")
        .map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let path = format!("{RELEASES_DIR}/{name}");
            release::parse_release(&path, &read(&path)).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    releases.sort_by_key(|r| Release::parse_version(&r.version));
    releases
}

#[test]
fn every_release_is_kept() {
    let corpus = corpus();
    let retired = release::retired_ids(&read(RETIRED_PATH));
    let releases = on_disk();
    assert!(releases.len() >= 2, "releases/ holds {}", releases.len());
    for r in &releases {
        let problems = release::broken_promises(r, &retired, &corpus.vectors);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let file = Release::path(&r.version);
        assert!(
            read(&file).contains(&format!("\nversion {}\n", r.version)),
            "{file} is not named for its version"
        );
    }
    assert_eq!(
        release::embedded().unwrap(),
        releases,
        "the lists compiled in are not those in releases/: rebuild"
    );
    assert_eq!(
        release::CORPUS_VERSION,
        releases.last().unwrap().version,
        "CORPUS_VERSION is the newest release"
    );
}

#[test]
fn the_changelog_prints_every_release_and_its_digest() {
    let changelog = read(CHANGELOG_PATH);
    for r in on_disk() {
        let at = changelog
            .find(&format!("\n## {}\n", r.version))
            .unwrap_or_else(|| panic!("{CHANGELOG_PATH} has no section `## {}`", r.version));
        let section = &changelog[at + 1..];
        let section = &section[..section[3..].find("\n## ").map_or(section.len(), |n| n + 3)];
        assert!(
            section.contains(&format!("sha256 `{}`", r.sha256)),
            "{CHANGELOG_PATH}'s section {} does not print its digest `{}`",
            r.version,
            r.sha256
        );
        assert!(
            section.contains(&format!("{} vectors", r.entries.len())),
            "{CHANGELOG_PATH}'s section {} does not say it has {} vectors",
            r.version,
            r.entries.len()
        );
    }
}

#[test]
fn no_document_claims_a_release_tag() {
    for path in ["README.md", CHANGELOG_PATH, "REFERENCE.md", RETIRED_PATH] {
        let text = read(path);
        assert!(
            !text.contains("corpus-v"),
            "{path} names a `corpus-v…` tag; the repository has none"
        );
    }
}

/// The generated vector with a name of `len` bytes, read whole.
fn named_decode(len: usize) -> Vector {
    corpus()
        .get(&format!("named.decode.long-name.{len}"))
        .unwrap_or_else(|| panic!("the corpus has a {len}-byte name"))
        .clone()
}

#[test]
fn the_accepted_answers_are_part_of_what_a_release_fixes() {
    // A 255-byte name must be read whole; a 256-byte one may be refused as
    // name_too_long, and only so.
    assert_eq!(
        release::accepts(&named_decode(255)),
        "value=yes strict=none lax=none"
    );
    assert_eq!(
        release::accepts(&named_decode(256)),
        "value=yes strict=name_too_long lax=name_too_long"
    );
    // The same rows with other accepted answers break the release: what a
    // floor of 16 would do to the 255-byte vector.
    let corpus = corpus();
    let v = named_decode(255);
    let mut entry = release::Entry::of(&v);
    entry.accepts = release::accepts_fingerprint(&named_decode(256));
    let released = Release {
        version: "9.9.9".to_owned(),
        sha256: String::new(),
        entries: vec![entry],
    };
    let problems = release::broken_promises(&released, &[], &corpus.vectors);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("accepts other answers"),
        "{problems:?}"
    );
}

#[test]
fn the_corpus_is_labelled_a_release_only_when_it_is_exactly_one() {
    let corpus = corpus();
    let releases = on_disk();
    let newest = releases.last().unwrap();
    let released: Vec<Vector> = corpus
        .vectors
        .iter()
        .filter(|v| newest.entries.iter().any(|e| e.id == v.id))
        .cloned()
        .collect();
    assert_eq!(
        Label::of(&released, &releases),
        Label::Release {
            version: newest.version.clone(),
            sha256: newest.sha256.clone()
        }
    );
    let label = Label::of(&corpus.vectors, &releases);
    if corpus.vectors.len() == newest.entries.len() {
        assert_eq!(label.version(), newest.version);
    } else {
        assert_eq!(
            label,
            Label::UnreleasedAfter {
                version: newest.version.clone()
            }
        );
        assert_eq!(label.version(), format!("{}+unreleased", newest.version));
        assert_eq!(
            label.to_string(),
            format!("unreleased after corpus {}", newest.version)
        );
    }
    // An older release's vectors alone are that release.
    let oldest = &releases[0];
    let old: Vec<Vector> = corpus
        .vectors
        .iter()
        .filter(|v| oldest.entries.iter().any(|e| e.id == v.id))
        .cloned()
        .collect();
    assert_eq!(Label::of(&old, &releases).version(), oldest.version);
    // One released vector gone: not after the release any more.
    let mut fewer = released;
    fewer.pop();
    assert_eq!(
        Label::of(&fewer, &releases),
        Label::Changed {
            version: newest.version.clone(),
            changed: 1
        }
    );
}
