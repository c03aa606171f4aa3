//! Where a write to a path someone named lands. The runner writes its files
//! under a temporary name and renames them into place; renamed over a
//! symbolic link, a file replaces the link, and the file the link named
//! never sees the write. So a path is followed through its links first,
//! here, for every file the runner replaces: reports, exports and findings.

use std::path::{Path, PathBuf};

/// How many links in a row are followed, as Linux's own limit (`ELOOP`):
/// past that, a loop of links is left to the write to report.
const MAX_LINKS: usize = 40;

/// `path` followed through every symbolic link, each resolved against the
/// directory of the link, whether or not the last target exists yet (a
/// write creates it); `path` itself when it is no link.
#[must_use]
pub fn destination(path: &Path) -> PathBuf {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        // An absolute target replaces the directory; `join` does that.
        path = path
            .parent()
            .map_or_else(|| target.clone(), |dir| dir.join(&target));
    }
    path
}
