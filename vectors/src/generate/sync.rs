//! Keeping the generated files on disk in step with the generator: what
//! differs ([`check`], [`diff`]), and rewriting what does ([`write_all`]),
//! refusing to write anywhere but a corpus root and through any link.

use core::fmt;
use std::collections::BTreeSet;
use std::path::Path;

use super::{files, summaries, COMMAND, DIR};
use crate::reference_page::KnownFailures;

/// `REFERENCE.md` as it should be for the hand-written files below `root`,
/// the generator's families, the notes (`NOTES.md` below `root`) and the
/// `known` failures of real implementations. The hand-written files are
/// loaded together with what the generator writes (not the generated files
/// on disk, which may be stale), so the page depends only on sources.
///
/// # Errors
/// A [`Drift::Unreadable`] for the page when the corpus does not load.
fn reference_page(
    root: &Path,
    known: &[crate::reference_page::KnownFailures],
) -> Result<String, Drift> {
    let unreadable = |message: String| Drift::Unreadable {
        path: crate::reference_page::PATH.to_owned(),
        message,
    };
    let walk = crate::files::walk(root);
    if let Some((path, err)) = walk.errors.first() {
        return Err(unreadable(format!("cannot read {path}: {err}")));
    }
    let mut sources = walk
        .files
        .into_iter()
        .filter(|(relative, _)| !relative.starts_with(&format!("{DIR}/")))
        .map(|(relative, full)| match crate::files::read_text(&full) {
            Ok(text) => Ok((relative, text)),
            Err(err) => Err(unreadable(format!("cannot read {relative}: {err}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    sources.extend(files());
    let corpus = crate::Corpus::from_sources(&sources).map_err(|errors| {
        unreadable(format!(
            "the corpus does not load ({} error(s), the first: {}); \
             `cargo run -p wow-guid-conformance -- lint` lists them",
            errors.len(),
            errors
                .iter()
                .next()
                .map(ToString::to_string)
                .unwrap_or_default()
        ))
    })?;
    let notes = crate::files::read_text(&root.join("NOTES.md"))
        .map(|text| crate::citation::sections(&text))
        .unwrap_or_default();
    let page = crate::reference_page::render(&crate::reference_page::Page {
        version: crate::release::CORPUS_VERSION,
        notes: &notes,
        vectors: &corpus.vectors,
        families: &summaries(),
        failures: known,
    });
    Ok(format!(
        "<!-- GENERATED FILE: do not edit. Regenerate with\n     {COMMAND}\n     \
         (`generate --check` fails when this file is out of date). Written by\n     \
         vectors/src/reference_page.rs from the vector files. -->\n\n{page}"
    ))
}

/// How a generated file on disk differs from what the generator writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Drift {
    /// The file's contents differ.
    #[error("{0}: out of date")]
    Stale(String),
    /// The file does not exist.
    #[error("{0}: missing")]
    Missing(String),
    /// A `.yaml` file in `generated/` that the generator does not write (left
    /// over from a renamed or removed family).
    #[error("{0}: not written by the generator")]
    Extra(String),
    /// The file or directory could not be read.
    #[error("{path}: cannot read: {message}")]
    Unreadable {
        /// Path relative to the corpus root.
        path: String,
        /// The I/O error's message.
        message: String,
    },
}

/// The generated files on disk are not what the generator writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CheckError(pub Vec<Drift>);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for drift in &self.0 {
            writeln!(f, "{drift}")?;
        }
        write!(
            f,
            "the generated files are out of date: run `{COMMAND}` and commit the result"
        )
    }
}

/// A generated file could not be written or removed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {path}: {message}")]
pub struct WriteError {
    /// Path relative to the corpus root.
    pub path: String,
    /// The I/O error's kind.
    pub kind: std::io::ErrorKind,
    /// The I/O error's message.
    pub message: String,
}

/// Compares the generated files below the corpus root `root` with [`files`],
/// and `REFERENCE.md` with the page for the `known` failures of real
/// implementations when they are given (`None` leaves the page out: the
/// failures come from the repository around the corpus, which the caller
/// reads; the runner's `generate` does).
///
/// # Errors
/// [`CheckError`] listing every stale, missing, extra or unreadable file.
pub fn check(root: &Path, known: Option<&[KnownFailures]>) -> Result<(), CheckError> {
    let (_, drift) = drift(root, known);
    if drift.is_empty() {
        Ok(())
    } else {
        Err(CheckError(drift))
    }
}

/// What [`write_all`] would change below the corpus root `root`, as a
/// unified diff (`--- a/PATH`, `+++ b/PATH`, three lines of context; a
/// missing file is a diff from `/dev/null`, a file the generator no longer
/// writes one to it), with paths relative to `root`. Empty when nothing
/// would change; unreadable files are left to [`check`]'s list. `known` as
/// for [`check`].
#[must_use]
pub fn diff(root: &Path, known: Option<&[KnownFailures]>) -> String {
    let (expected, drift) = drift(root, known);
    let on_disk = |path: &str| crate::files::read_text(&root.join(path)).unwrap_or_default();
    let mut out = String::new();
    for item in drift {
        // (the path, its text on disk, the text it should have): `None` is
        // a file that is not there, or should not be.
        let (path, old, new) = match &item {
            Drift::Stale(path) => (path, Some(on_disk(path)), Some(contents(&expected, path))),
            Drift::Missing(path) => (path, None, Some(contents(&expected, path))),
            Drift::Extra(path) => (path, Some(on_disk(path)), None),
            Drift::Unreadable { .. } => continue,
        };
        let from = old
            .as_ref()
            .map_or("/dev/null".to_owned(), |_| format!("a/{path}"));
        let to = new.map_or("/dev/null".to_owned(), |_| format!("b/{path}"));
        let text = similar::TextDiff::from_lines(old.as_deref().unwrap_or(""), new.unwrap_or(""))
            .unified_diff()
            .context_radius(3)
            .header(&from, &to)
            .to_string();
        out.push_str(&text);
    }
    out
}

/// The contents `expected` gives `path` (empty when none).
fn contents<'a>(expected: &'a [(String, String)], path: &str) -> &'a str {
    expected
        .iter()
        .find(|(p, _)| p == path)
        .map_or("", |(_, c)| c.as_str())
}

/// Brings the generated files below the corpus root `root` up to date:
/// writes stale and missing files, and removes `.yaml` files in `generated/`
/// that the generator no longer writes. Returns what it changed (nothing
/// when all was up to date). `known` as for [`check`]: `None` leaves
/// `REFERENCE.md` alone.
///
/// # Errors
/// [`WriteError`] for the first file that cannot be read, written or removed.
pub fn write_all(root: &Path, known: Option<&[KnownFailures]>) -> Result<Vec<Drift>, WriteError> {
    is_corpus_root(root)?;
    let (expected, drift) = drift(root, known);
    // Every file is checked before any is touched: a refusal changes nothing.
    for item in &drift {
        match item {
            Drift::Stale(path) | Drift::Missing(path) => writable(root, path)?,
            Drift::Extra(path) => removable(root, path)?,
            Drift::Unreadable { .. } => {}
        }
    }
    for item in &drift {
        let io = |path: &str, err: std::io::Error| WriteError {
            path: path.to_owned(),
            kind: err.kind(),
            message: err.to_string(),
        };
        match item {
            Drift::Stale(path) | Drift::Missing(path) => {
                let full = root.join(path);
                if let Some(dir) = full.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| io(path, e))?;
                }
                std::fs::write(&full, contents(&expected, path)).map_err(|e| io(path, e))?;
            }
            Drift::Extra(path) => std::fs::remove_file(root.join(path)).map_err(|e| io(path, e))?,
            Drift::Unreadable { path, message } => {
                return Err(WriteError {
                    path: path.clone(),
                    kind: std::io::ErrorKind::Other,
                    message: message.clone(),
                })
            }
        }
    }
    Ok(drift)
}

/// Every file the generator writes, with its contents (the generated
/// files, and `REFERENCE.md` when `known` is given and the page renders),
/// and how the files below `root` differ from them.
fn drift(root: &Path, known: Option<&[KnownFailures]>) -> (Vec<(String, String)>, Vec<Drift>) {
    let mut expected = files();
    let mut drift = Vec::new();
    match known.map(|k| reference_page(root, k)) {
        Some(Ok(page)) => expected.push((crate::reference_page::PATH.to_owned(), page)),
        Some(Err(unreadable)) => drift.push(unreadable),
        None => {}
    }
    for (path, contents) in &expected {
        let read = crate::files::read_bounded(
            &root.join(path),
            crate::MAX_FILE_BYTES,
            crate::Pipes::Refuse,
        )
        .map_err(std::io::Error::from);
        match read {
            Ok(actual) if actual == contents.as_bytes() => {}
            Ok(_) => drift.push(Drift::Stale(path.clone())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                drift.push(Drift::Missing(path.clone()));
            }
            Err(err) => drift.push(Drift::Unreadable {
                path: path.clone(),
                message: err.to_string(),
            }),
        }
    }
    let dir = root.join(DIR);
    if dir.is_dir() {
        let written: BTreeSet<&str> = expected.iter().map(|(p, _)| p.as_str()).collect();
        let walk = crate::files::walk(&dir);
        for (relative, err) in walk.errors {
            drift.push(Drift::Unreadable {
                path: format!("{DIR}/{relative}"),
                message: err.to_string(),
            });
        }
        for (relative, _) in walk.files {
            let path = format!("{DIR}/{relative}");
            if !written.contains(path.as_str()) {
                drift.push(Drift::Extra(path));
            }
        }
    }
    (expected, drift)
}

/// The files that make a directory a corpus root `generate` may write into:
/// the notes and the format that every generated page links to. A directory
/// without them (a home directory, a project's `docs/`) is refused whole.
pub const CORPUS_MARKERS: [&str; 2] = ["NOTES.md", "schema.json"];

/// A refusal, as the [`WriteError`] it is reported as.
fn refused(path: &str, message: String) -> WriteError {
    WriteError {
        path: path.to_owned(),
        kind: std::io::ErrorKind::InvalidInput,
        message,
    }
}

/// Whether `root` holds the [`CORPUS_MARKERS`] as regular files.
fn is_corpus_root(root: &Path) -> Result<(), WriteError> {
    for marker in CORPUS_MARKERS {
        let is_file = std::fs::symlink_metadata(root.join(marker)).is_ok_and(|m| m.is_file());
        if !is_file {
            return Err(refused(
                ".",
                format!(
                    "{} is not a corpus root: it has no {marker} (a corpus root holds {}), \
                     so generate writes nothing there",
                    root.display(),
                    CORPUS_MARKERS.join(" and ")
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `path` (relative to `root`) and the folders on the way to it
/// are real files and folders, not links: generate writes through no link,
/// so nothing outside the corpus is ever written.
///
/// # Errors
/// A [`WriteError`] naming the link.
pub fn writable(root: &Path, path: &str) -> Result<(), WriteError> {
    let mut at = root.to_path_buf();
    for part in path.split('/') {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(refused(
                    path,
                    format!(
                        "{} is a symbolic link; generate writes no file through a link \
                         (replace it with a plain file or folder)",
                        at.display()
                    ),
                ));
            }
            // Missing: created as a plain file or folder.
            Ok(_) | Err(_) => {}
        }
    }
    Ok(())
}

/// Whether the extra file `path` in `generated/` is one generate wrote (a
/// plain file that starts with its header) and so may remove; anything
/// else there is someone's, and is left for them.
fn removable(root: &Path, path: &str) -> Result<(), WriteError> {
    writable(root, path)?;
    let mut head = [0u8; 64];
    // Only the head is read, so any size will do; a FIFO or a device is
    // refused without waiting on it, as something generate did not write.
    let read = crate::files::open(&root.join(path), u64::MAX, crate::Pipes::Refuse)
        .map_err(std::io::Error::from)
        .and_then(|(mut f, _)| {
            use std::io::Read as _;
            f.read(&mut head)
        });
    match read {
        Ok(n) if head[..n].starts_with(b"# GENERATED FILE: do not edit.") => Ok(()),
        Ok(_) => Err(refused(
            path,
            "it lies in the generated folder but generate did not write it (it lacks \
             the generated-file header); move it out or delete it yourself"
                .to_owned(),
        )),
        Err(err) => Err(refused(path, err.to_string())),
    }
}
