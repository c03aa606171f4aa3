//! The vectors each known real implementation fails, for `REFERENCE.md`.
//!
//! The matrix's published real implementations keep expected-failure lists
//! beside their adapters; [`LISTS`] names each by the name the conformance
//! matrix gives it (`matrix/implementations.yaml`) and says where its list
//! is. [`read`] reads them (each parsed and checked against the corpus by
//! [`wow_guid_harness::expect_fail`], the one reader of the format) into the data the
//! vectors crate's pure renderer shows; `generate` passes it on. Reads
//! files; writes none.

use std::path::Path;

use wow_guid_vectors::reference_page::KnownFailures;
use wow_guid_vectors::{Corpus, Pipes, MAX_FILE_BYTES};

use wow_guid_harness::expect_fail::{ExpectedFailures, ListErrors};

/// The known real implementations: (the matrix's name, the expected-failure
/// list's path relative to the repository root).
pub const LISTS: [(&str, &str); 3] = [
    (
        "spec-c-snippet",
        "conformance/adapters/spec-c/expected-failures.txt",
    ),
    (
        "wow_world_messages",
        "conformance/adapters/wow-world-messages-rust/expected-failures.txt",
    ),
    (
        "wow-world-messages (PyPI)",
        "conformance/adapters/wow-world-messages-python/expected-failures.txt",
    ),
];

/// Why the lists could not be read.
#[derive(Debug, thiserror::Error)]
pub enum KnownFailuresError {
    /// A list exists but cannot be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The list's path.
        path: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A list does not parse, or names ids the corpus lacks.
    #[error("{0}")]
    List(ListErrors),
}

/// The ids an expected-failure list may name: the corpus's, then
/// `read_backs`, the ids of its encodes' read-backs
/// ([`wow_guid_testkit::round_trip::read_back_ids`]).
pub fn listable_ids<'a>(
    corpus: &'a Corpus,
    read_backs: &'a [String],
) -> impl Iterator<Item = &'a str> + Clone {
    corpus
        .vectors
        .iter()
        .map(|v| v.id.as_str())
        .chain(read_backs.iter().map(String::as_str))
}

/// The known failures of [`LISTS`] below `repository`, judged against
/// `corpus`, in the order of [`LISTS`]. A list that does not exist (a corpus
/// directory outside a checkout) is left out.
///
/// # Errors
/// [`KnownFailuresError`] for the first list that cannot be read or does not parse.
pub fn read(repository: &Path, corpus: &Corpus) -> Result<Vec<KnownFailures>, KnownFailuresError> {
    let mut known = Vec::new();
    let read_backs = wow_guid_testkit::round_trip::read_back_ids(&corpus.vectors);
    for (implementation, relative) in LISTS {
        let path = repository.join(relative);
        let read = wow_guid_vectors::read_bounded(&path, MAX_FILE_BYTES, Pipes::Refuse)
            .map_err(std::io::Error::from)
            .and_then(|bytes| {
                String::from_utf8(bytes)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
            });
        let text = match read {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => {
                return Err(KnownFailuresError::Io {
                    path: relative.to_owned(),
                    error,
                })
            }
        };
        let list = ExpectedFailures::parse(relative, &text, listable_ids(corpus, &read_backs))
            .map_err(KnownFailuresError::List)?;
        known.push(KnownFailures {
            implementation: implementation.to_owned(),
            // The page is of vectors: a read-back the list names is not one.
            ids: list
                .entries
                .into_keys()
                .filter(|id| corpus.get(id).is_some())
                .collect(),
        });
    }
    Ok(known)
}
