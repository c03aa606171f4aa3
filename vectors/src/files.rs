//! Which files below a directory make up a corpus.
//!
//! This file is compiled twice: into the library (for `Corpus::load_dir`) and,
//! through `#[path]`, into `build.rs` (for the embedded corpus), so both see
//! exactly the same files in the same order. It only lists files; it never
//! reads them.

use std::io;
use std::path::{Path, PathBuf};

/// The outcome of walking a corpus directory.
pub(crate) struct Walk {
    /// Every `*.yaml` and `*.yml` file, as (path relative to the root with
    /// `/` separators, full path), sorted by the relative path's bytes. `.yml`
    /// files are listed so the loader can refuse them instead of skipping them.
    pub(crate) files: Vec<(String, PathBuf)>,
    /// Directories and entries that could not be read, by relative path.
    pub(crate) errors: Vec<(String, io::Error)>,
}

/// Walks `root` recursively. Entries whose names start with `.` and
/// directories named `target` are skipped (editor files, version control,
/// build output); everything else is looked at.
pub(crate) fn walk(root: &Path) -> Walk {
    let mut walk = Walk {
        files: Vec::new(),
        errors: Vec::new(),
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
        let is_dir = match entry.file_type() {
            Ok(kind) => kind.is_dir(),
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
            walk.files.push((relative, path));
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
