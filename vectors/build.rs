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
    if let Err(err) = std::fs::write(out_dir.join("embedded.rs"), code) {
        eprintln!(
            "cannot write {}: {err}",
            out_dir.join("embedded.rs").display()
        );
        std::process::exit(1);
    }
}
