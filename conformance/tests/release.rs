//! `release check`, `release show` and `release cut`, driven as a user
//! would: on the checkout, and on copies of its corpus that are changed or
//! cut.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{runner, scratch};
use wow_guid_vectors::release;
use wow_guid_vectors::Corpus;

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of the checkout's corpus directory, in a scratch directory.
fn corpus_copy(name: &str) -> PathBuf {
    let dir = scratch(name).join("vectors");
    copy_dir(Path::new(wow_guid_vectors::SOURCE_DIR), &dir);
    dir
}

fn sha256_of(text: &str) -> String {
    release::sha256(text)
}

#[test]
fn check_and_show_agree_with_the_recorded_digests() {
    let check = runner(&args(&["release", "check"]), &[]);
    assert_eq!(check.code, Some(0), "{}", check.describe());
    let releases = release::embedded().unwrap();
    for r in &releases {
        assert!(
            check.stdout.contains(&format!(
                "corpus {}: kept ({} vectors, sha256 {})",
                r.version,
                r.entries.len(),
                r.sha256
            )),
            "{}",
            check.describe()
        );
        let show = runner(&args(&["release", "show", &r.version]), &[]);
        assert_eq!(show.code, Some(0), "{}", show.describe());
        assert_eq!(sha256_of(&show.stdout), r.sha256, "release {}", r.version);
    }
    let corpus = Corpus::embedded().unwrap();
    let newest = releases.last().unwrap();
    if corpus.vectors.len() > newest.entries.len() {
        assert!(
            check.stdout.contains(&format!(
                "this corpus is unreleased after corpus {}",
                newest.version
            )),
            "{}",
            check.describe()
        );
    }
    let unknown = runner(&args(&["release", "show", "0.0.1"]), &[]);
    assert_eq!(unknown.code, Some(2), "{}", unknown.describe());
    assert!(
        unknown.stderr.contains("there is no release 0.0.1"),
        "{}",
        unknown.describe()
    );
}

#[test]
fn a_copy_that_changes_a_released_answer_is_no_release() {
    let dir = corpus_copy("release-changed");
    let file = dir.join("packed_guid/doc-example.yaml");
    let text = fs::read_to_string(&file).unwrap();
    let changed = text.replacen("consumed: 3", "consumed: 2", 1);
    assert_ne!(changed, text, "the worked example consumes 3 bytes");
    fs::write(&file, changed).unwrap();
    let vectors = dir.display().to_string();
    let check = runner(&args(&["release", "check", "--vectors", &vectors]), &[]);
    assert_eq!(check.code, Some(1), "{}", check.describe());
    assert!(
        check
            .stdout
            .contains("`packed.decode.doc-example` expects something else"),
        "{}",
        check.describe()
    );
    assert!(
        check
            .stdout
            .contains("this corpus is unreleased, changing 1 vector(s) of corpus"),
        "{}",
        check.describe()
    );
    // Its canonical JSON is not the release's: the digest shows the change.
    for r in release::embedded().unwrap() {
        let show = runner(
            &args(&["release", "show", &r.version, "--vectors", &vectors]),
            &[],
        );
        assert_eq!(show.code, Some(0), "{}", show.describe());
        assert_ne!(sha256_of(&show.stdout), r.sha256, "release {}", r.version);
    }
    // And nothing can be cut from it.
    let cut = runner(
        &args(&[
            "release",
            "cut",
            "9.0.0",
            "--no-generate",
            "--vectors",
            &vectors,
        ]),
        &[],
    );
    assert_eq!(cut.code, Some(2), "{}", cut.describe());
    assert!(
        cut.stderr.contains("the corpus breaks a release"),
        "{}",
        cut.describe()
    );
    assert!(!dir.join("releases/9.0.0.txt").exists());
}

#[test]
fn cut_writes_the_list_and_the_changelog_once() {
    let dir = corpus_copy("release-cut");
    let vectors = dir.display().to_string();
    let cut = |version: &str| {
        runner(
            &args(&[
                "release",
                "cut",
                version,
                "--no-generate",
                "--vectors",
                &vectors,
            ]),
            &[],
        )
    };
    let newest = release::embedded().unwrap().pop().unwrap();
    for (version, message) in [
        ("1.2", "is not a version"),
        (newest.version.as_str(), "would not come after the newest"),
    ] {
        let refused = cut(version);
        assert_eq!(refused.code, Some(2), "{}", refused.describe());
        assert!(refused.stderr.contains(message), "{}", refused.describe());
    }
    let corpus = Corpus::load_dir(&dir).unwrap();
    if corpus.vectors.len() == newest.entries.len() {
        // The checkout is exactly its newest release: nothing to cut.
        let refused = cut("99.0.0");
        assert!(
            refused.stderr.contains("nothing new"),
            "{}",
            refused.describe()
        );
        return;
    }
    let done = cut("99.0.0");
    assert_eq!(done.code, Some(0), "{}", done.describe());
    let list = fs::read_to_string(dir.join("releases/99.0.0.txt")).expect("the list");
    let cut_release = release::parse_release("releases/99.0.0.txt", &list).unwrap();
    let all: Vec<_> = corpus.vectors.iter().collect();
    assert_eq!(cut_release.entries.len(), corpus.vectors.len());
    assert_eq!(
        cut_release.sha256,
        release::sha256(&release::canonical_json("99.0.0", &all))
    );
    assert!(release::broken_promises(&cut_release, &[], &corpus.vectors).is_empty());
    let changelog = fs::read_to_string(dir.join("CHANGELOG.md")).unwrap();
    assert!(!changelog.contains("\n## Unreleased\n"), "{changelog}");
    assert!(changelog.contains(&format!(
        "\n## 99.0.0\n\n{} vectors (",
        corpus.vectors.len()
    )));
    assert!(changelog.contains(&format!("sha256 `{}`", cut_release.sha256)));
    assert!(
        done.stdout
            .contains("now run `cargo run -p wow-guid-conformance -- generate`"),
        "{}",
        done.describe()
    );
    // The corpus is now exactly the new release: a second cut is refused.
    let again = cut("99.1.0");
    assert_eq!(again.code, Some(2), "{}", again.describe());
    assert!(
        again.stderr.contains("exactly release 99.0.0"),
        "{}",
        again.describe()
    );
}
