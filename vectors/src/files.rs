//! Which files below a directory make up a corpus, and opening them safely.
//!
//! This file is compiled twice: into the library (for `Corpus::load_dir`) and,
//! through `#[path]`, into `build.rs` (for the embedded corpus), so both see
//! exactly the same files in the same order and apply the same limits.
//!
//! A corpus directory is not trusted to hold only vector files: a name
//! ending in `.yaml` may be a FIFO (opening it for reading blocks until a
//! writer comes), a device (`/dev/zero` never ends), or a file too large to
//! be a corpus file. [`open`] therefore opens without blocking, checks on
//! the opened file that it is a regular file within [`MAX_FILE_BYTES`], and
//! only then hands it over; [`read`] never reads more than the limit, even
//! from a file that grows while it is read.

use std::fmt;
use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

/// The largest vector file the loader reads, in bytes (16 MiB): about
/// 50,000 typical vectors, more than the YAML parser's budget of nodes per
/// file lets through (about 33,000). A larger file is refused before it is
/// read.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a listed file cannot be read.
#[derive(Debug)]
pub(crate) enum FileError {
    /// It is not a regular file (after following symlinks): a FIFO, socket,
    /// device or directory, named as the kind of thing it is.
    NotRegular(&'static str),
    /// It is larger than [`MAX_FILE_BYTES`]; its size when it was checked (a
    /// file that grows while it is read reports the bytes read so far).
    TooLarge(u64),
    /// Opening or reading it failed.
    Io(io::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotRegular(what) => write!(f, "not a regular file but {what}"),
            FileError::TooLarge(size) => {
                write!(f, "{size} bytes, more than the limit of {MAX_FILE_BYTES}")
            }
            FileError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// Opens `path` for reading without blocking on a FIFO, and checks on the
/// opened file (so nothing can be swapped in between) that it is a regular
/// file of at most [`MAX_FILE_BYTES`]. Returns the file and its size.
pub(crate) fn open(path: &Path) -> Result<(File, u64), FileError> {
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
    let meta = file.metadata().map_err(FileError::Io)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular(kind_of(&meta.file_type())));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge(meta.len()));
    }
    Ok((file, meta.len()))
}

/// Reads a file [`open`] accepted, never more than [`MAX_FILE_BYTES`].
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    let (file, size) = open(path)?;
    // The size is at most MAX_FILE_BYTES, which fits in usize on 32 bits too.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::Io)?;
    let read = bytes.len() as u64;
    if read > MAX_FILE_BYTES {
        return Err(FileError::TooLarge(read));
    }
    Ok(bytes)
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

/// Walks `root` recursively. Entries whose names start with `.` and
/// directories named `target` are skipped (editor files, version control,
/// build output); everything else is looked at. A symlink to a file inside
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
