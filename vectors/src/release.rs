//! Releases a specification can depend on: the corpus version, the
//! fingerprint that pins what a vector expects, and the two files that hold
//! a release to its promises.
//!
//! The promise: once a vector is released, its id always means the same
//! request and the same expected answer. A changed expectation gets a new id;
//! the old id is retired (listed in `RETIRED.md`) and never used again.
//!
//! - [`CORPUS_VERSION`] is the corpus's version, in one place; `REFERENCE.md`
//!   shows it, and a release is tagged
//!   `corpus-v<version>` ([`tag`]).
//! - `released.txt` ([`SNAPSHOT_PATH`]) is the snapshot of a release: one
//!   line per vector, its id and the [`fingerprint`] of its type, op, input,
//!   outcome and expected answer. Written by [`write_snapshot`] when a
//!   release is cut; the test `released_vectors_keep_their_answers` fails
//!   when a released id is gone without being retired, or answers something
//!   else now.
//! - `RETIRED.md` ([`RETIRED_PATH`]) lists retired ids, one a line as
//!   ``- `id`: reason`` ([`retired_ids`]).
//!
//! Pure, apart from the paths: formatting and parsing only, no file access.

use core::fmt::Write as _;

use crate::hex_text::{format, format_guid};
use crate::model::{Expectation, Request, Value, Vector};

/// The corpus's version (semantic versioning: a new vector or note is a
/// minor release, a retired vector a major one, a wording fix a patch).
pub const CORPUS_VERSION: &str = "1.0.0";

/// The snapshot of the released expectations, relative to the corpus root.
pub const SNAPSHOT_PATH: &str = "released.txt";

/// The list of retired ids, relative to the corpus root.
pub const RETIRED_PATH: &str = "RETIRED.md";

/// The command that rewrites the snapshot from the corpus when a release is
/// cut (after setting [`CORPUS_VERSION`]).
pub const SNAPSHOT_COMMAND: &str =
    "VECTORS_RELEASE=1 cargo test -p wow-guid-vectors --test release";

/// The git tag of a corpus release: `corpus-v1.0.0`.
#[must_use]
pub fn tag(version: &str) -> String {
    format!("corpus-v{version}")
}

/// The canonical text of what `vector` asks and expects: its type, op,
/// input, outcome and expected answer (not its description, flags, versions,
/// source or `why`, which may be reworded under the same id). Bytes and names
/// are hex without spaces; a missing name is `-`.
#[must_use]
pub fn canonical(vector: &Vector) -> String {
    let mut out = String::new();
    let name = |name: &Option<Vec<u8>>| name.as_deref().map_or("-".to_owned(), format);
    let _ = match &vector.request {
        Request::DecodePacked { bytes } => {
            write!(out, "packed_guid decode bytes={}", format(bytes))
        }
        Request::EncodePacked { guid } => {
            write!(out, "packed_guid encode guid={}", format_guid(*guid))
        }
        Request::DecodeNamed { bytes } => write!(out, "named_guid decode bytes={}", format(bytes)),
        Request::EncodeNamed { guid, name: n } => write!(
            out,
            "named_guid encode guid={} name={}",
            format_guid(*guid),
            name(n)
        ),
    };
    let _ = write!(out, " outcome={}", vector.expect.outcome().as_str());
    let value = match &vector.expect {
        Expectation::Invalid(code) => {
            let _ = write!(out, " error={code}");
            None
        }
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => Some(value),
    };
    let _ = match value {
        None => Ok(()),
        Some(Value::Packed { guid, consumed }) => {
            write!(out, " guid={} consumed={consumed}", format_guid(*guid))
        }
        Some(Value::Named {
            guid,
            consumed,
            name: n,
        }) => write!(
            out,
            " guid={} consumed={consumed} name={}",
            format_guid(*guid),
            name(n)
        ),
        Some(Value::Encoded { bytes }) => write!(out, " bytes={}", format(bytes)),
    };
    out
}

/// A stable fingerprint of [`canonical`]: FNV-1a, 64 bits, as 16 hex digits.
/// Fixed by this definition, not by any library, so it never changes from
/// one build or toolchain to the next.
#[must_use]
pub fn fingerprint(vector: &Vector) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in canonical(vector).bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// A parsed snapshot: the version it was taken for and `(id, fingerprint)`
/// in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The corpus version the snapshot was taken for.
    pub version: String,
    /// Every released vector: its id and its fingerprint.
    pub entries: Vec<(String, String)>,
}

/// The snapshot file for `vectors` at `version`.
#[must_use]
pub fn write_snapshot(version: &str, vectors: &[Vector]) -> String {
    let mut out = format!(
        "# The expectations of corpus release {version} (git tag {}), one vector a line:\n\
         # its id and the fingerprint of its type, op, input, outcome and expected answer\n\
         # (vectors/src/release.rs, `fingerprint`). A released id keeps its answer forever:\n\
         # the test `released_vectors_keep_their_answers` fails when one is missing without\n\
         # being listed in RETIRED.md, or expects something else. Rewrite this file only\n\
         # when a release is cut:\n#   {SNAPSHOT_COMMAND}\nversion {version}\n",
        tag(version)
    );
    for v in vectors {
        let _ = writeln!(out, "{} {}", v.id, fingerprint(v));
    }
    out
}

/// Why a snapshot file does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl core::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{SNAPSHOT_PATH}:{}: {}", self.line, self.message)
    }
}

impl std::error::Error for SnapshotError {}

/// Reads a snapshot written by [`write_snapshot`]: `#` comment lines, one
/// `version X` line, then `id fingerprint` lines.
///
/// # Errors
/// The first line that is none of these, or a missing `version` line.
pub fn parse_snapshot(text: &str) -> Result<Snapshot, SnapshotError> {
    let mut snapshot = Snapshot::default();
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: &str| SnapshotError {
            line: at + 1,
            message: message.to_owned(),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["version", version] if snapshot.version.is_empty() => {
                snapshot.version = (*version).to_owned();
            }
            [id, print] if !snapshot.version.is_empty() => {
                if print.len() != 16 || !print.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(error("a fingerprint is 16 hex digits"));
                }
                snapshot
                    .entries
                    .push(((*id).to_owned(), (*print).to_owned()));
            }
            _ => {
                return Err(error(
                    "expected `version X` first, then `id fingerprint` lines",
                ))
            }
        }
    }
    if snapshot.version.is_empty() {
        return Err(SnapshotError {
            line: 1,
            message: "no `version` line".to_owned(),
        });
    }
    Ok(snapshot)
}

/// The retired ids listed in `RETIRED.md`: every line of the form
/// ``- `id`: reason`` outside fenced code blocks (other lines are prose).
#[must_use]
pub fn retired_ids(markdown: &str) -> Vec<String> {
    let mut fenced = false;
    let mut ids = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some((id, _)) = line
            .strip_prefix("- `")
            .and_then(|rest| rest.split_once('`'))
        {
            ids.push(id.to_owned());
        }
    }
    ids
}

/// Every way `vectors` (the corpus now) breaks the promises of `snapshot`:
/// a released id gone without being listed in `retired`, a released id that
/// expects something else now, a retired id used again. Empty when the
/// promises hold. Each message says what to do.
#[must_use]
pub fn broken_promises(snapshot: &Snapshot, retired: &[String], vectors: &[Vector]) -> Vec<String> {
    let now: std::collections::HashMap<&str, String> = vectors
        .iter()
        .map(|v| (v.id.as_str(), fingerprint(v)))
        .collect();
    let mut problems = Vec::new();
    for (id, print) in &snapshot.entries {
        match now.get(id.as_str()) {
            None if retired.contains(id) => {}
            None => problems.push(format!(
                "`{id}` was released but is not in the corpus: restore it, or list it in \
                 {RETIRED_PATH} (a released id is never reused)"
            )),
            Some(current) if current != print => problems.push(format!(
                "`{id}` expects something else than when it was released (fingerprint \
                 {current}, released {print}): a changed expectation needs a new id, and the \
                 old one listed in {RETIRED_PATH}"
            )),
            Some(_) => {}
        }
    }
    for id in retired {
        if now.contains_key(id.as_str()) {
            problems.push(format!(
                "`{id}` is retired in {RETIRED_PATH} but used again"
            ));
        }
    }
    problems
}
