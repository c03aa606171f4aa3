//! The files a command writes besides standard output (`run`'s reports,
//! `fuzz --out`, `export --out`): each one's directory is made and its path
//! checked before the work starts, so a long run never ends in "cannot
//! write"; each file is written under a temporary name beside it and renamed
//! into place, so a reader never sees half a report. What is not a file to
//! replace is written in place: a device or a pipe (`/dev/stdout`, a
//! process substitution's `/dev/fd/63`), which a rename would replace with a
//! plain file (as root, in `/dev` itself), and a symbolic link, whose target
//! is replaced and the link kept.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::CliError;

/// Makes `path`'s directory (and the directories above it) and checks that
/// `path` itself is not a directory: what the write after the work would
/// otherwise find out too late.
///
/// # Errors
/// [`CliError::Write`] naming the directory that cannot be made, or `path`
/// when a directory is in its way.
pub(super) fn prepare(path: &Path) -> Result<(), CliError> {
    if let Some(dir) = parent(path) {
        fs::create_dir_all(dir).map_err(CliError::writing(dir))?;
    }
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(CliError::writing(path)(io::Error::new(
            io::ErrorKind::IsADirectory,
            "a directory is in the way; name a file",
        )));
    }
    Ok(())
}

/// Writes `path` with `write`: into a temporary file in `path`'s directory
/// (made first if missing), then renamed over `path`. A write that fails
/// leaves `path` as it was and no temporary file behind. A `path` that is a
/// symbolic link has its target replaced; one that leads to a device or a
/// pipe is written to directly.
///
/// # Errors
/// [`CliError::Write`] naming `path`.
pub(super) fn write(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), CliError> {
    prepare(path)?;
    let written = match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| finish(file, write)),
        _ => {
            let target = wow_guid_conformance::destination::destination(path);
            let temp = temporary(&target);
            let replaced = File::create(&temp)
                .and_then(|file| finish(file, write))
                .and_then(|()| fs::rename(&temp, &target));
            if replaced.is_err() {
                let _ = fs::remove_file(&temp);
            }
            replaced
        }
    };
    written.map_err(CliError::writing(path))
}

/// Writes `file` with `write` through a buffer, and flushes it: every
/// error, the last write's included, comes back.
fn finish(file: File, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    out.into_inner().map_err(io::IntoInnerError::into_error)?;
    Ok(())
}

/// `path`'s directory, or `None` for a bare file name (the current
/// directory, which exists).
fn parent(path: &Path) -> Option<&Path> {
    path.parent().filter(|dir| !dir.as_os_str().is_empty())
}

/// A name beside `path` that no other run uses: `.NAME.tmp-PID`.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let name = format!(".{name}.tmp-{}", std::process::id());
    match parent(path) {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}
