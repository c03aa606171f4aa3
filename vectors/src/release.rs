//! Releases a specification can cite: each released version of the corpus
//! is one fixed list of vectors, frozen when it was cut, with a digest a
//! copy can be checked against. No git tag is needed: a release is its list
//! and its digest.
//!
//! The promise: once a vector is released, its id always means the same
//! request, the same expected answer and the same set of accepted answers.
//! A changed expectation gets a new id; the old id is retired (listed in
//! `RETIRED.md`, [`retired_ids`]) and never used again.
//!
//! - `releases/<version>.txt` ([`RELEASES_DIR`]) is a release: its version,
//!   the [`sha256`] of its [`canonical_json`] (the digest a specification
//!   cites: "corpus 1.1.0, sha256 …"), then a line per vector: its id, the
//!   [`fingerprint`] of its rows and the [`accepts_fingerprint`] of the
//!   answers the rules accept for it ([`crate::Accepted`]). Written once, by
//!   the runner's `release cut` ([`write_release`]); the test
//!   `every_release_is_kept` fails when a list no longer matches the corpus
//!   or its digest.
//! - The lists are compiled into the crate ([`embedded`]), so an installed
//!   runner knows every release, and [`Label::of`] says which a corpus is.
//!
//! Pure, apart from the embedded lists: no file access.

use core::fmt::{self, Write as _};
use std::collections::HashMap;

use sha2::{Digest as _, Sha256};

use crate::acceptance::Accepted;
use crate::hex_text::{format, format_guid};
use crate::model::{Expectation, Request, Value, Vector};

mod lists {
    include!(concat!(env!("OUT_DIR"), "/releases.rs"));
}

/// The newest release's version, read from [`RELEASES_DIR`] when the crate
/// was built. It is not the label of a corpus: a corpus is this release
/// only when it holds exactly its vectors ([`Label::of`]).
pub const CORPUS_VERSION: &str = lists::NEWEST;

/// The directory of the release lists, relative to the corpus root.
pub const RELEASES_DIR: &str = "releases";

/// The list of retired ids, relative to the corpus root.
pub const RETIRED_PATH: &str = "RETIRED.md";

/// The changelog, relative to the corpus root: each release's section
/// prints its digest.
pub const CHANGELOG_PATH: &str = "CHANGELOG.md";

/// The command that cuts a release (followed by the new version).
pub const CUT_COMMAND: &str = "cargo run --release -p wow-guid-conformance -- release cut";

/// The command that prints a release's canonical JSON, whose sha256 is the
/// release's digest (followed by the version).
pub const SHOW_COMMAND: &str = "wow-guid-conformance release show";

/// The canonical text of what `vector` asks and expects: its type, op,
/// input, outcome and expected answer (not its description, flags, versions,
/// source or `why`, which may be reworded under the same id). Bytes and names
/// are hex without spaces; a missing name is `-`.
#[must_use]
pub fn canonical(vector: &Vector) -> String {
    let name = |name: &Option<Vec<u8>>| name.as_deref().map_or("-".to_owned(), format);
    let request = &vector.request;
    let mut out = format!("{} {}", request.guid_type(), request.op());
    let _ = match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            write!(out, " bytes={}", format(bytes))
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            write!(out, " guid={}", format_guid(*guid))
        }
        Request::EncodeNamed { guid, name: n } | Request::SizeNamed { guid, name: n } => {
            write!(out, " guid={} name={}", format_guid(*guid), name(n))
        }
    };
    let _ = write!(out, " outcome={}", vector.expect.outcome().as_str());
    let _ = match &vector.expect {
        Expectation::Invalid(code) => write!(out, " error={code}"),
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => match value {
            Value::Packed { guid, consumed } => {
                write!(out, " guid={} consumed={consumed}", format_guid(*guid))
            }
            Value::Named {
                guid,
                consumed,
                name: n,
            } => write!(
                out,
                " guid={} consumed={consumed} name={}",
                format_guid(*guid),
                name(n)
            ),
            Value::Encoded { bytes } => write!(out, " bytes={}", format(bytes)),
            Value::Size { size } => write!(out, " size={size}"),
        },
    };
    out
}

/// FNV-1a, 64 bits, as 16 hex digits: fixed by this definition, not by
/// any library, so it never changes from one build or toolchain to the
/// next.
fn fnv(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// A stable fingerprint of [`canonical`]: what the vector asks and expects.
#[must_use]
pub fn fingerprint(vector: &Vector) -> String {
    fnv(&canonical(vector))
}

/// The answers the rules accept for `vector`, as one line: whether a
/// success is accepted, and the error codes accepted with and without
/// strict error codes ([`Accepted`]'s `Display`).
#[must_use]
pub fn accepts(vector: &Vector) -> String {
    Accepted::of(&vector.request, &vector.expect).to_string()
}

/// A stable fingerprint of [`accepts`]: with [`fingerprint`], every answer
/// a judge passes for the vector. A rule that changes what a released
/// vector accepts (the name-bound floor, for one) changes it.
#[must_use]
pub fn accepts_fingerprint(vector: &Vector) -> String {
    fnv(&accepts(vector))
}

/// The lowercase hex SHA-256 of `text`.
#[must_use]
pub fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The release's canonical JSON: its version, then one line per vector in
/// the release's order, each its id, its [`canonical`] text and its
/// [`accepts`] line. What the rules and the rows of a release fix, and
/// nothing that may be reworded (descriptions, flags, sources); its
/// [`sha256`] is the release's digest. `wow-guid-conformance release show
/// VERSION` prints it, so `… | sha256sum` checks a copy.
#[must_use]
pub fn canonical_json(version: &str, vectors: &[&Vector]) -> String {
    let mut out = format!(
        "{{\"format\":\"wow-guid-corpus-release\",\"format_version\":1,\"version\":{},\
         \"vector_count\":{},\"vectors\":[\n",
        json_string(version),
        vectors.len()
    );
    for (at, v) in vectors.iter().enumerate() {
        let _ = writeln!(
            out,
            "{{\"id\":{},\"vector\":{},\"accepts\":{}}}{}",
            json_string(&v.id),
            json_string(&canonical(v)),
            json_string(&accepts(v)),
            if at + 1 < vectors.len() { "," } else { "" }
        );
    }
    out.push_str("]}\n");
    out
}

/// One vector of a release: its id and its two fingerprints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The vector's id.
    pub id: String,
    /// [`fingerprint`] of its rows.
    pub fingerprint: String,
    /// [`accepts_fingerprint`] of the answers the rules accept.
    pub accepts: String,
}

impl Entry {
    /// The entry for `vector` as the corpus holds it now.
    #[must_use]
    pub fn of(vector: &Vector) -> Self {
        Entry {
            id: vector.id.clone(),
            fingerprint: fingerprint(vector),
            accepts: accepts_fingerprint(vector),
        }
    }
}

/// A release: its version, its recorded digest and its vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Release {
    /// The version, `<major>.<minor>.<patch>`.
    pub version: String,
    /// The [`sha256`] of the release's [`canonical_json`], recorded when it
    /// was cut.
    pub sha256: String,
    /// Every vector of the release, in the order of its canonical JSON.
    pub entries: Vec<Entry>,
}

impl Release {
    /// The list file's path relative to the corpus root:
    /// `releases/1.1.0.txt`.
    #[must_use]
    pub fn path(version: &str) -> String {
        format!("{RELEASES_DIR}/{version}.txt")
    }

    /// The version as numbers, for ordering; `None` when it is not
    /// `<major>.<minor>.<patch>`.
    #[must_use]
    pub fn parse_version(version: &str) -> Option<(u64, u64, u64)> {
        let mut parts = version.split('.').map(|part| {
            (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse().ok())
                .flatten()
        });
        let numbers = (parts.next()??, parts.next()??, parts.next()??);
        parts.next().is_none().then_some(numbers)
    }
}

/// The list file of a release of `vectors` (the corpus's vectors the
/// release holds, in corpus order) at `version`.
#[must_use]
pub fn write_release(version: &str, vectors: &[&Vector]) -> String {
    let mut out = format!(
        "# Corpus release {version}: its vectors, frozen when it was cut. A line is a\n\
         # vector's id, the fingerprint of its type, op, input, outcome and expected\n\
         # answer, and the fingerprint of the answers the rules accept for it\n\
         # (vectors/src/release.rs). `sha256` is the digest of the release's canonical\n\
         # JSON (`{SHOW_COMMAND} {version}`). Never edit this file: the test\n\
         # `every_release_is_kept` holds the corpus and this list to each other and\n\
         # to the digest. A new release is cut with `{CUT_COMMAND} VERSION`.\n\
         version {version}\nsha256 {}\n",
        sha256(&canonical_json(version, vectors))
    );
    for v in vectors {
        let entry = Entry::of(v);
        let _ = writeln!(out, "{} {} {}", entry.id, entry.fingerprint, entry.accepts);
    }
    out
}

/// Why a release list does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {message}")]
pub struct ReleaseFileError {
    /// The list's path, relative to the corpus root.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn is_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Reads a list written by [`write_release`]: `#` comment lines, a
/// `version X` line, a `sha256 H` line, then `id fingerprint accepts`
/// lines. `path` names the list in errors.
///
/// # Errors
/// The first line that is none of these, or a missing `version` or
/// `sha256` line.
pub fn parse_release(path: &str, text: &str) -> Result<Release, ReleaseFileError> {
    let error = |line: usize, message: &str| ReleaseFileError {
        path: path.to_owned(),
        line,
        message: message.to_owned(),
    };
    let mut release = Release::default();
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["version", version] if release.version.is_empty() => {
                if Release::parse_version(version).is_none() {
                    return Err(error(at + 1, "a version is <major>.<minor>.<patch>"));
                }
                (*version).clone_into(&mut release.version);
            }
            ["sha256", digest] if !release.version.is_empty() && release.sha256.is_empty() => {
                if !is_hex(digest, 64) {
                    return Err(error(at + 1, "a sha256 is 64 lowercase hex digits"));
                }
                (*digest).clone_into(&mut release.sha256);
            }
            [id, print, accepts] if !release.sha256.is_empty() => {
                if !is_hex(print, 16) || !is_hex(accepts, 16) {
                    return Err(error(at + 1, "a fingerprint is 16 lowercase hex digits"));
                }
                release.entries.push(Entry {
                    id: (*id).to_owned(),
                    fingerprint: (*print).to_owned(),
                    accepts: (*accepts).to_owned(),
                });
            }
            _ => {
                return Err(error(
                    at + 1,
                    "expected `version X`, then `sha256 H`, then `id fingerprint accepts` lines",
                ))
            }
        }
    }
    if release.sha256.is_empty() {
        return Err(error(1, "no `version` and `sha256` lines"));
    }
    Ok(release)
}

/// Every release compiled into the crate, oldest first.
///
/// # Errors
/// A list that does not parse (the test `every_release_is_kept` keeps the
/// checked-in lists parsing).
pub fn embedded() -> Result<Vec<Release>, ReleaseFileError> {
    lists::RELEASE_FILES
        .iter()
        .map(|(version, text)| parse_release(&Release::path(version), text))
        .collect()
}

/// The retired ids listed in `RETIRED.md`: every line of the form
/// ``- `id`: reason`` outside fenced code blocks
/// ([`crate::citation::outside_fences`]; other lines are prose).
#[must_use]
pub fn retired_ids(markdown: &str) -> Vec<String> {
    crate::citation::outside_fences(markdown)
        .filter_map(|line| line.strip_prefix("- `")?.split_once('`'))
        .map(|(id, _)| id.to_owned())
        .collect()
}

/// Every way `vectors` (a corpus) breaks the promises of `release`: a
/// released id gone without being listed in `retired`, a released id whose
/// rows or accepted answers differ now, a retired id used again, and, when
/// every released vector is still there, a digest of the release that is
/// not the one recorded. Empty when the promises hold. Each message says
/// what to do.
#[must_use]
pub fn broken_promises(release: &Release, retired: &[String], vectors: &[Vector]) -> Vec<String> {
    let now: HashMap<&str, &Vector> = vectors.iter().map(|v| (v.id.as_str(), v)).collect();
    let version = &release.version;
    let mut problems = Vec::new();
    let mut held = Vec::with_capacity(release.entries.len());
    for entry in &release.entries {
        match now.get(entry.id.as_str()) {
            None if retired.contains(&entry.id) => {}
            None => problems.push(format!(
                "`{}` is in release {version} but not in the corpus: restore it, or list it in \
                 {RETIRED_PATH} (a released id is never reused)",
                entry.id
            )),
            Some(v) => {
                held.push(*v);
                let current = Entry::of(v);
                if current.fingerprint != entry.fingerprint {
                    problems.push(format!(
                        "`{}` expects something else than in release {version} (fingerprint {}, \
                         released {}): a changed expectation needs a new id, and the old one \
                         listed in {RETIRED_PATH}",
                        entry.id, current.fingerprint, entry.fingerprint
                    ));
                } else if current.accepts != entry.accepts {
                    problems.push(format!(
                        "`{}` accepts other answers than in release {version} (now `{}`): a rule \
                         that decides what a vector accepts (the name-bound floor, `acceptable`, \
                         the bound's code) changed under it; a released vector keeps the \
                         answers it accepted",
                        entry.id,
                        accepts(v)
                    ));
                }
            }
        }
    }
    for id in retired {
        if now.contains_key(id.as_str()) {
            problems.push(format!(
                "`{id}` is retired in {RETIRED_PATH} but used again"
            ));
        }
    }
    if problems.is_empty() && held.len() == release.entries.len() {
        let digest = sha256(&canonical_json(version, &held));
        if digest != release.sha256 {
            problems.push(format!(
                "release {version}'s canonical JSON has sha256 {digest}, but {} records {}: \
                 a release's list never changes after it is cut",
                Release::path(version),
                release.sha256
            ));
        }
    }
    problems
}

/// What a corpus is, as reports and pages name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Exactly this release's vectors, with the answers it fixed.
    Release {
        /// The version.
        version: String,
        /// Its recorded digest.
        sha256: String,
    },
    /// Every vector of the newest release, unchanged, and others besides:
    /// not a release.
    UnreleasedAfter {
        /// The newest release.
        version: String,
    },
    /// Not a release, and not after the newest: `changed` of its vectors
    /// are missing or answer otherwise (a draft, or an older copy).
    Changed {
        /// The newest release.
        version: String,
        /// How many of its vectors are missing or changed.
        changed: usize,
    },
    /// There is no release yet.
    NoRelease,
}

impl Label {
    /// The label of a corpus holding `vectors`, against `releases` (oldest
    /// first, as [`embedded`] gives them).
    #[must_use]
    pub fn of(vectors: &[Vector], releases: &[Release]) -> Self {
        let Some(newest) = releases.last() else {
            return Label::NoRelease;
        };
        let now: HashMap<&str, Entry> = vectors
            .iter()
            .map(|v| (v.id.as_str(), Entry::of(v)))
            .collect();
        let changed = |release: &Release| {
            release
                .entries
                .iter()
                .filter(|e| now.get(e.id.as_str()) != Some(*e))
                .count()
        };
        for release in releases.iter().rev() {
            if release.entries.len() == now.len() && changed(release) == 0 {
                return Label::Release {
                    version: release.version.clone(),
                    sha256: release.sha256.clone(),
                };
            }
        }
        match changed(newest) {
            0 => Label::UnreleasedAfter {
                version: newest.version.clone(),
            },
            changed => Label::Changed {
                version: newest.version.clone(),
                changed,
            },
        }
    }

    /// The label as a version string, for machines: `1.1.0` for a
    /// release, `1.1.0+unreleased` after one, `1.1.0+changed` for a corpus
    /// that changes one, `unreleased` before any.
    #[must_use]
    pub fn version(&self) -> String {
        match self {
            Label::Release { version, .. } => version.clone(),
            Label::UnreleasedAfter { version } => format!("{version}+unreleased"),
            Label::Changed { version, .. } => format!("{version}+changed"),
            Label::NoRelease => "unreleased".to_owned(),
        }
    }
}

/// The label as a person reads it: `corpus 1.1.0`, `unreleased after
/// corpus 1.1.0`.
impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Release { version, .. } => write!(f, "corpus {version}"),
            Label::UnreleasedAfter { version } => {
                write!(f, "unreleased after corpus {version}")
            }
            Label::Changed { version, changed } => write!(
                f,
                "unreleased, changing {changed} vector(s) of corpus {version}"
            ),
            Label::NoRelease => f.write_str("unreleased"),
        }
    }
}
