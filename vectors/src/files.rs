//! Which files below a directory make up a corpus, and the one bounded
//! reader every file the workspace reads goes through.
//!
//! This file is compiled twice: into the library (for `Corpus::load_dir`) and,
//! through `#[path]`, into `build.rs` (for the embedded corpus), so both see
//! exactly the same files in the same order and apply the same limits.
//!
//! A file named by a user or found in a directory is not trusted to be what
//! its name says: a `.yaml` name may be a FIFO (opening it blocks until a
//! writer comes), a device (`/dev/zero` never ends), or too large to read.
//! [`read_bounded`] opens without blocking, checks the opened file (so
//! nothing can be swapped in between), and never reads past the limit.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

/// The largest vector file the loader reads, in bytes (16 MiB): about
/// 50,000 typical vectors, more than the YAML parser's budget of nodes per
/// file lets through (about 33,000). A larger file is refused before it is
/// read.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Whether [`read_bounded`] reads from a FIFO (named pipe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipes {
    /// Only regular files: a corpus file, or a vector file to append to.
    Refuse,
    /// Regular files and FIFOs (`--id-file <(grep ...)`), read up to the
    /// limit: the bound is on what is read, not on the kind of file.
    Allow,
}

/// Why [`read_bounded`] refused a file or could not read it. The caller
/// names the file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// It is not a regular file (after following symlinks), nor a FIFO where
    /// pipes are allowed: a device, socket, directory, or a FIFO where they
    /// are not, named as the kind of thing it is.
    #[error("not a regular file but {0}")]
    NotRegular(&'static str),
    /// It holds more than `limit` bytes: its size when it was checked, or,
    /// for a pipe or a file that grows while it is read, the bytes read so
    /// far.
    #[error("{size} bytes, more than the limit of {limit}")]
    TooLarge {
        /// Its size, or the bytes read before the limit stopped the read.
        size: u64,
        /// The caller's limit.
        limit: u64,
    },
    /// Opening or reading it failed.
    #[error("{0}")]
    Io(#[source] io::Error),
}

impl From<FileError> for io::Error {
    /// For callers whose errors carry an [`io::Error`]: a refused kind of
    /// file is [`io::ErrorKind::InvalidInput`], a file past the limit
    /// [`io::ErrorKind::FileTooLarge`], each with [`FileError`]'s words.
    fn from(err: FileError) -> Self {
        let kind = match err {
            FileError::Io(err) => return err,
            FileError::NotRegular(_) => io::ErrorKind::InvalidInput,
            FileError::TooLarge { .. } => io::ErrorKind::FileTooLarge,
        };
        io::Error::new(kind, err.to_string())
    }
}

/// Opens `path` for reading without blocking on a FIFO, and checks on the
/// opened file that it is a regular file of at most `limit` bytes, or a FIFO
/// when `pipes` allows one. Returns the file and its size (0 for a FIFO).
///
/// # Errors
/// [`FileError`] when it cannot be opened or is not such a file.
pub(crate) fn open(path: &Path, limit: u64, pipes: Pipes) -> Result<(File, u64), FileError> {
    let named_pipe = || std::fs::metadata(path).is_ok_and(|m| is_fifo(&m.file_type()));
    if pipes == Pipes::Allow && named_pipe() {
        // A pipe the caller asked for is opened blocking: the open waits for
        // the writer, and a read before the writer comes would see the end
        // of input. What the open returns is checked again below.
        let file = File::open(path).map_err(FileError::Io)?;
        return checked(file, limit, pipes);
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Without O_NONBLOCK, opening a FIFO waits for a writer forever. It
        // changes nothing for reading a regular file.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(FileError::Io)?;
    // A FIFO swapped in after the check above is refused, not read
    // without blocking.
    checked(file, limit, Pipes::Refuse)
}

/// `file` if it is a regular file within `limit` (with its size), or a FIFO
/// where `pipes` allows one (size 0).
fn checked(file: File, limit: u64, pipes: Pipes) -> Result<(File, u64), FileError> {
    let meta = file.metadata().map_err(FileError::Io)?;
    let kind = meta.file_type();
    if meta.is_file() {
        if meta.len() > limit {
            return Err(FileError::TooLarge {
                size: meta.len(),
                limit,
            });
        }
        return Ok((file, meta.len()));
    }
    if pipes == Pipes::Allow && is_fifo(&kind) {
        return Ok((file, 0));
    }
    Err(FileError::NotRegular(kind_of(&kind)))
}

/// Reads the file at `path`, at most `limit` bytes of it: a regular file,
/// or a FIFO when `pipes` is [`Pipes::Allow`]; anything else is refused
/// before anything is read, and so is a file that grows past the limit.
///
/// # Errors
/// [`FileError`] when it cannot be opened or read, is not such a file, or
/// holds more than `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64, pipes: Pipes) -> Result<Vec<u8>, FileError> {
    let (file, size) = open(path, limit, pipes)?;
    // The size is at most the limit; a limit past usize only caps the hint.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(FileError::Io)?;
    let read = bytes.len() as u64;
    if read > limit {
        return Err(FileError::TooLarge { size: read, limit });
    }
    Ok(bytes)
}

/// A repository file (a vector file, `NOTES.md`, a cited document) as
/// UTF-8 text, read within [`MAX_FILE_BYTES`] and refusing pipes; for
/// callers that report an [`io::Error`].
pub(crate) fn read_text(path: &Path) -> io::Result<String> {
    let bytes = read_bounded(path, MAX_FILE_BYTES, Pipes::Refuse)?;
    String::from_utf8(bytes).map_err(|err| {
        let offset = err.utf8_error().valid_up_to();
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8: byte offset {offset} starts an invalid sequence"),
        )
    })
}

/// Whether a file is a FIFO (never on systems without them).
fn is_fifo(kind: &std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileTypeExt::is_fifo(kind)
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// The outcome of walking a corpus directory.
pub(crate) struct Walk {
    /// Every `*.yaml` and `*.yml` file, as (path relative to the root with
    /// `/` separators, full path), sorted by the relative path's bytes. `.yml`
    /// files are listed so the loader can refuse them instead of skipping them.
    pub(crate) files: Vec<(String, PathBuf)>,
    /// Directories and entries that could not be read, by relative path.
    pub(crate) errors: Vec<(String, io::Error)>,
    /// The root's real path, which a symlinked file must stay inside.
    root: Option<PathBuf>,
}

/// The fault model's file at the corpus root (`crate::fault_model::FILE`),
/// which the walk leaves out: it is not a file of vectors.
pub(crate) const MODEL_FILE: &str = "fault-model.yaml";

/// Walks `root` recursively. Entries whose names start with `.` and
/// directories named `target` are skipped (editor files, version control,
/// build output), and so is the fault model at the root; everything else is
/// looked at. A symlink to a file inside
/// the root is listed like the file; one that leads out of the root is an
/// error at the link, and its target is never read (a corpus from a
/// stranger could otherwise make the loader quote the start of any file the
/// user can read, a token or `/etc/passwd`, in its error messages).
pub(crate) fn walk(root: &Path) -> Walk {
    let mut walk = Walk {
        files: Vec::new(),
        errors: Vec::new(),
        root: root.canonicalize().ok(),
    };
    visit(root, "", &mut walk);
    walk.files
        .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    walk
}

fn visit(dir: &Path, prefix: &str, walk: &mut Walk) {
    let shown = if prefix.is_empty() { "." } else { prefix };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            walk.errors.push((shown.to_owned(), err));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                walk.errors.push((shown.to_owned(), err));
                continue;
            }
        };
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str() else {
            let lossy = file_name.to_string_lossy().into_owned();
            walk.errors.push((
                join(prefix, &lossy),
                io::Error::new(io::ErrorKind::InvalidData, "file name is not UTF-8"),
            ));
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let relative = join(prefix, name);
        let path = entry.path();
        // `file_type` does not follow symlinks: a linked file is read like any
        // file, a linked directory is not entered, which keeps the walk finite.
        let (is_dir, is_link) = match entry.file_type() {
            Ok(kind) => (kind.is_dir(), kind.is_symlink()),
            Err(err) => {
                walk.errors.push((relative, err));
                continue;
            }
        };
        if is_dir {
            if name != "target" {
                visit(&path, &relative, walk);
            }
        } else if prefix.is_empty() && name == MODEL_FILE {
            // The fault model: data about the corpus, not vectors.
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            // A link whose target cannot be resolved (a dangling one) is
            // listed, and reading it reports why.
            let outside = is_link
                && match (&walk.root, path.canonicalize()) {
                    (Some(root), Ok(target)) => !target.starts_with(root),
                    _ => false,
                };
            if outside {
                walk.errors.push((
                    relative,
                    io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "a symbolic link to a file outside the corpus directory; \
                         it was not read (copy the file in, or link to one inside)",
                    ),
                ));
            } else {
                walk.files.push((relative, path));
            }
        }
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}/{name}")
    }
}
