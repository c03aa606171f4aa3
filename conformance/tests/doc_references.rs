//! What the repository's documents say about the corpus is the corpus:
//! every vector id a Markdown file names exists (or, written with `*`,
//! matches one), and no hand-written document states a count of the corpus
//! that goes stale when a vector is added: a count of vectors there is a
//! release's, which never changes, and an adapter's "N passed" is not
//! written at all. Generated pages (`REFERENCE.md`, `matrix/README.md`)
//! take their counts from the corpus when they are written; the changelog
//! tells history.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use wow_guid_vectors::{release, Corpus};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_owned()
}

/// Ids written as examples of the form, which no vector has.
const EXAMPLES: &[&str] = &[
    "packed.decode.example-id",
    "packed.decode.example-id.v2",
    "packed.decode.found-1a2b3c4d",
    "packed.decode.old",
    "packed.decode.sign-extension-low-byte",
];

/// Every Markdown file of the repository, relative to its root.
fn markdown_files() -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = vec![repo()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name != ".github" {
                continue;
            }
            if path.is_dir() {
                if !matches!(name.as_str(), "target" | "node_modules" | "bin" | "obj") {
                    dirs.push(path);
                }
            } else if name.ends_with(".md") {
                files.push(
                    path.strip_prefix(repo())
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    files.sort();
    files
}

fn is_id_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'*')
}

/// The vector ids (and id patterns with `*`) `text` names: words of id
/// characters that begin with a type and an operation.
fn named_ids(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if !is_id_byte(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_id_byte(bytes[at]) {
            at += 1;
        }
        let word = text[start..at].trim_end_matches(['.', '-']);
        let mut parts = word.splitn(3, '.');
        let (Some(kind), Some(op), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if matches!(kind, "packed" | "named")
            && matches!(op, "decode" | "encode")
            && !rest.is_empty()
        {
            ids.push(word);
        }
    }
    ids
}

/// Whether `id` matches `pattern`, whose `*` stands for any run of
/// characters.
fn glob(pattern: &str, id: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == id,
        Some((head, tail)) => {
            id.starts_with(head)
                && (0..=id.len() - head.len()).any(|skip| glob(tail, &id[head.len() + skip..]))
        }
    }
}

#[test]
fn every_vector_id_a_document_names_exists() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    let mut known: BTreeSet<&str> = corpus.vectors.iter().map(|v| v.id.as_str()).collect();
    known.extend(corpus.vectors.iter().filter_map(|v| v.sequence.as_deref()));
    // The read-backs `run` adds, one per encode vector.
    let read_backs = wow_guid_testkit::round_trip::read_back_ids(&corpus.vectors);
    known.extend(read_backs.iter().map(String::as_str));
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(repo().join(&file)).unwrap();
        for id in named_ids(&text) {
            checked += 1;
            let fine = if id.contains('*') {
                known.iter().any(|k| glob(id, k))
            } else if EXAMPLES.contains(&id) {
                !known.contains(id)
            } else {
                known.contains(id)
            };
            if !fine {
                problems.push(format!("{file}: `{id}`"));
            }
        }
    }
    assert!(checked > 100, "only {checked} ids found in the documents");
    assert!(
        problems.is_empty(),
        "documents name vectors the corpus does not have:\n{}",
        problems.join("\n")
    );
}

/// The numbers written just before `word` in `text`: `1,295 vectors`.
fn counts_before<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = (u64, &'a str)> + 'a {
    text.match_indices(word).filter_map(move |(at, _)| {
        let before = &text[..at];
        let digits = before.len()
            - before
                .trim_end_matches(|c: char| c.is_ascii_digit() || c == ',')
                .len();
        let number = &before[before.len() - digits..];
        let value: String = number.chars().filter(char::is_ascii_digit).collect();
        value.parse().ok().map(|n| (n, number))
    })
}

#[test]
fn hand_written_documents_state_only_release_counts() {
    let releases = release::embedded().expect("the release lists parse");
    let sizes: BTreeSet<u64> = releases.iter().map(|r| r.entries.len() as u64).collect();
    let generated = [
        "vectors/REFERENCE.md",
        "matrix/README.md",
        "vectors/CHANGELOG.md",
    ];
    let mut problems = Vec::new();
    for file in markdown_files() {
        if generated.contains(&file.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(repo().join(&file)).unwrap();
        for (_, written) in counts_before(&text, " passed") {
            problems.push(format!(
                "{file}: \"{written} passed\": a count of the corpus goes stale"
            ));
        }
        for (n, written) in counts_before(&text, " vectors") {
            // Corpus-sized numbers; limits and benchmark sizes are larger.
            if (1000..30_000).contains(&n) && !sizes.contains(&n) {
                problems.push(format!(
                    "{file}: \"{written} vectors\" is no release's count ({sizes:?}); \
                     write the release, or no number"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The repository has no release tags, so no document may name one.
#[test]
fn no_document_names_a_release_tag() {
    let claims: Vec<String> = markdown_files()
        .into_iter()
        .filter(|file| {
            std::fs::read_to_string(repo().join(file))
                .unwrap()
                .contains("corpus-v")
        })
        .collect();
    assert!(
        claims.is_empty(),
        "these name a `corpus-v…` tag, which the repository does not have: {claims:?}"
    );
}
