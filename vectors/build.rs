//! Embeds the corpus: lists every vector file below the crate directory (the
//! same walk as `Corpus::load_dir`) and writes `$OUT_DIR/embedded.rs` with one
//! `include_bytes!` per file, in sorted order.
//!
//! `include_bytes!` rather than `include_str!`: a file that is not UTF-8 must
//! become a load error with its location (as it is for `load_dir`), not a
//! compile error in every crate that depends on this one.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "src/files.rs"]
#[allow(
    dead_code,
    reason = "the build script uses only the walk and the check"
)]
mod files;

fn main() {
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        eprintln!("CARGO_MANIFEST_DIR is not set; run this through cargo");
        std::process::exit(1);
    };
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        eprintln!("OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    };
    // Cargo scans a directory recursively for changes, so this catches added,
    // removed and edited vector files as well as changes to this script.
    println!("cargo:rerun-if-changed={}", root.display());

    let walk = files::walk(&root);
    if !walk.errors.is_empty() {
        for (path, err) in &walk.errors {
            eprintln!("cannot read {path} below {}: {err}", root.display());
        }
        std::process::exit(1);
    }
    let mut code = String::from(
        "/// Every vector file found when the crate was built: (path relative to\n\
         /// the corpus root, contents), sorted by path.\n\
         pub(crate) static EMBEDDED: &[(&str, &[u8])] = &[\n",
    );
    for (relative, path) in &walk.files {
        // The same check as the loader's: include_bytes! would block on a
        // FIFO and read a device without end.
        if let Err(err) = files::open(path, files::MAX_FILE_BYTES, files::Pipes::Refuse) {
            eprintln!("cannot embed {}: {err}", path.display());
            std::process::exit(1);
        }
        let Some(path) = path.to_str() else {
            eprintln!("path {} is not UTF-8", path.display());
            std::process::exit(1);
        };
        let _ = writeln!(code, "    ({relative:?}, include_bytes!({path:?})),");
    }
    code.push_str("];\n");
    write(&out_dir.join("embedded.rs"), &code);
    write(
        &out_dir.join("releases.rs"),
        &releases(&root.join("releases")),
    );
}

fn write(path: &std::path::Path, code: &str) {
    if let Err(err) = std::fs::write(path, code) {
        eprintln!("cannot write {}: {err}", path.display());
        std::process::exit(1);
    }
}

/// The release lists (`releases/<version>.txt`), embedded so that an
/// installed runner knows every release; and the newest version.
fn releases(dir: &std::path::Path) -> String {
    let mut found: Vec<((u64, u64, u64), String, PathBuf)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".txt") else {
                continue;
            };
            let numbers: Vec<Option<u64>> = stem.split('.').map(|n| n.parse().ok()).collect();
            let [Some(major), Some(minor), Some(patch)] = numbers[..] else {
                eprintln!(
                    "{}: a release list is named <major>.<minor>.<patch>.txt",
                    name
                );
                std::process::exit(1);
            };
            found.push(((major, minor, patch), stem.to_owned(), entry.path()));
        }
    }
    found.sort();
    let mut code = String::from(
        "/// Every release list found when the crate was built: (version, text),\n\
         /// oldest first.\n\
         pub(crate) static RELEASE_FILES: &[(&str, &str)] = &[\n",
    );
    for (_, version, path) in &found {
        let Some(path) = path.to_str() else {
            eprintln!("path {} is not UTF-8", path.display());
            std::process::exit(1);
        };
        let _ = writeln!(code, "    ({version:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    let newest = found.last().map_or("", |(_, version, _)| version.as_str());
    let _ = writeln!(
        code,
        "/// The newest release's version (empty before the first).\n\
         pub(crate) const NEWEST: &str = {newest:?};"
    );
    code
}
