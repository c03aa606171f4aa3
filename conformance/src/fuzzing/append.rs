//! Findings appended to a vector file (`fuzz --out`), safely: a whole file
//! of findings ([`file_text`]), or the findings a file lacks added to it
//! ([`append`]), checking that the result still loads and replacing the file
//! in one rename under a lock on its directory.

use std::path::Path;
use std::{fs, io};

use wow_guid_vectors::{read_bounded, yaml, Corpus, FileError, LoadErrors, Pipes, MAX_FILE_BYTES};

use super::finding::Finding;

/// A whole vector file holding `findings`, after `header` as `#` lines.
#[must_use]
pub fn file_text(header: &str, findings: &[Finding]) -> String {
    let mut out = String::new();
    yaml::write_comment(&mut out, header, 0);
    out.push_str("vectors:\n");
    let items: Vec<String> = findings.iter().map(|f| f.yaml(2)).collect();
    out.push_str(&items.join("\n"));
    out
}

/// Why findings could not be appended to a file.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(io::Error),
    /// The file exists but is not a vector file that loads, so appending
    /// to it would only make matters worse.
    #[error("it exists but does not load as a vector file, so nothing was appended:\n{0}")]
    NotAVectorFile(LoadErrors),
    /// The file would not load after appending (a bug of this module; the
    /// file was left as it was).
    #[error("it would not load after appending, so it was left unchanged:\n{0}")]
    WouldNotLoad(LoadErrors),
}

/// What [`append`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    /// Findings written.
    pub written: usize,
    /// Findings left out because the file already has their ids.
    pub already_there: usize,
}

/// The indentation of the list items of an existing vector file.
fn item_indent(text: &str) -> usize {
    text.lines()
        .find_map(|l| {
            let trimmed = l.trim_start();
            trimmed.starts_with("- ").then(|| l.len() - trimmed.len())
        })
        .unwrap_or(2)
}

/// The text of the vector file at `path`, empty when there is none. Held to
/// the corpus's own rules before anything is read: a regular file of at
/// most [`MAX_FILE_BYTES`], so naming a device or a FIFO is an error, not a
/// read without end or a wait for a writer.
fn read_vector_file(path: &Path) -> io::Result<String> {
    let bytes = match read_bounded(path, MAX_FILE_BYTES, Pipes::Refuse) {
        Ok(bytes) => bytes,
        Err(FileError::Io(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(String::new()),
        Err(FileError::NotRegular(_)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file; findings are appended to a vector file",
            ))
        }
        Err(FileError::TooLarge { size, limit }) => {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("{size} bytes, more than a vector file's limit of {limit}"),
            ))
        }
        Err(FileError::Io(e)) => return Err(e),
    };
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Appends `findings` to the vector file at `path`: creates it (with
/// `header`) when it does not exist or holds only comments, and otherwise
/// adds to its `vectors` list the findings whose ids it lacks. The file is
/// written only when the result loads.
///
/// # Errors
/// [`AppendError`] when the file cannot be read or written or does not load.
///
/// Two runs appending to one file at once both keep their findings: the
/// read, the check and the write happen under a lock on the file's
/// directory, and the new text goes to a temporary file in that directory
/// that then replaces the file in one rename, so no reader ever sees half a
/// file and a run killed midway leaves the old file whole. A symbolic link
/// is followed: its target gets the findings, and the link stays a link.
pub fn append(path: &Path, header: &str, findings: &[Finding]) -> Result<Appended, AppendError> {
    let path = &crate::destination::destination(path);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Held until this function returns; the lock goes with the handle.
    let lock = fs::File::open(dir).map_err(AppendError::Io)?;
    lock.lock().map_err(AppendError::Io)?;
    append_locked(path, dir, header, findings)
}

/// [`append`]'s work, with the directory `dir` of `path` locked.
fn append_locked(
    path: &Path,
    dir: &Path,
    header: &str,
    findings: &[Finding],
) -> Result<Appended, AppendError> {
    let existing = read_vector_file(path).map_err(AppendError::Io)?;
    let name = path.file_name().map_or_else(
        || "found.yaml".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let name = if name.ends_with(".yaml") {
        name
    } else {
        format!("{name}.yaml")
    };
    let only_comments = existing
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    let (text, written, already_there) = if only_comments {
        let mut text = existing.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&file_text(
            if existing.is_empty() { header } else { "" },
            findings,
        ));
        (text, findings.len(), 0)
    } else {
        let corpus = Corpus::from_sources(&[(name.clone(), existing.clone())])
            .map_err(AppendError::NotAVectorFile)?;
        let indent = item_indent(&existing);
        let mut text = existing.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let (mut written, mut already_there) = (0, 0);
        for f in findings {
            if f.vectors().iter().any(|v| corpus.get(&v.id).is_some()) {
                already_there += 1;
                continue;
            }
            text.push('\n');
            text.push_str(&f.yaml(indent));
            written += 1;
        }
        (text, written, already_there)
    };
    let appended = Appended {
        written,
        already_there,
    };
    if written == 0 {
        return Ok(appended);
    }
    Corpus::from_sources(&[(name.clone(), text.clone())]).map_err(AppendError::WouldNotLoad)?;
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written_out = fs::write(&temp, text).and_then(|()| fs::rename(&temp, path));
    if let Err(error) = written_out {
        let _ = fs::remove_file(&temp);
        return Err(AppendError::Io(error));
    }
    Ok(appended)
}
