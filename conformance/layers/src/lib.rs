//! The layer check every crate of the workspace runs on itself: a crate's
//! modules import in one direction only, down a table of layers the crate
//! writes in its own tests; no file and no folder imports one that imports
//! it back. A dev-dependency of each crate (never published), so a change to
//! one crate's floor plan is checked, and written, in that crate alone.
//!
//! A crate is read with `syn`, its module tree followed from its root file
//! (`lib.rs`, `main.rs`, or a fuzz target) through every `mod` declaration
//! (inline modules such as `mod tests` included). A file depends on another
//! when it uses an item defined there: through a `use` (`crate::`,
//! `super::`, `self::` or a child module's name), a path in code
//! (`crate::x::f()`), or such a path inside a macro call. Paths are followed
//! through the names `use` declarations introduce, so `super::CliError`
//! leads to the file that defines `CliError`, not to the `mod.rs` that
//! re-exports it; a `pub use` is the module's table of contents and no
//! dependency by itself. A strongly connected set of two or more files is
//! an import cycle, named with a path for every edge: a `mod.rs` whose code
//! calls into a child that uses an item defined in that `mod.rs` is one (the
//! item belongs in a module of its own).
//!
//! # The table
//!
//! Layers are listed lowest first. Each unit is a module path below the
//! crate root: a file, or a folder with its file (`judge` is `judge.rs` and
//! everything in `judge/`); a file belongs to the longest unit that contains
//! it, and `*` is every file. A unit may import only units of lower layers;
//! files within one unit import each other freely, as long as there is no
//! cycle.
//!
//! ```no_run
//! use std::path::Path;
//!
//! const LAYERS: &[&[&str]] = &[&["value", "error"], &["decode", "encode"], &["lib"]];
//! let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
//! // Two imports the crate must have, so the check cannot pass vacuously.
//! wow_guid_layers::check(&root, LAYERS, &[("decode", "value"), ("lib", "encode")])
//!     .unwrap_or_else(|problems| panic!("{problems}"));
//! ```

mod check;
mod graph;
mod sizes;
mod tree;

pub use check::{check, files_naming, Problems};
pub use sizes::{check_sizes, Sizes};

#[cfg(test)]
mod tests {
    use std::fs;

    use crate::check::unit_of;
    use crate::graph::{cycles, graph};
    use crate::tree::load_crate;

    /// The check itself finds what it must: a cycle through a `mod.rs` whose
    /// code calls into a child that uses an item of the `mod.rs`, one through
    /// paths in macro calls, and none through re-exports alone.
    #[test]
    fn the_check_sees_use_trees_paths_and_macros() {
        let dir =
            std::env::temp_dir().join(format!("wow-guid-layers-fixture-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("a")).unwrap();
        let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
        write(
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\npub use d::D;\npub struct Root;\n",
        );
        write(
            "a/mod.rs",
            "mod inner;\npub use inner::Thing;\npub struct Kind;\npub fn k() { inner::f(); }\n",
        );
        write(
        "a/inner.rs",
        "pub struct Thing;\npub fn f() {}\n#[cfg(test)]\nmod tests { use super::super::Kind; }\n",
    );
        write(
            "b.rs",
            "pub fn f() { let _ = format!(\"{:?}\", crate::c::g()); }\n",
        );
        write("c.rs", "pub fn g() -> u8 { crate::b::f(); 0 }\n");
        // d uses the root's own item; the root only re-exports d.
        write("d.rs", "pub struct D(crate::Root);\n");
        let krate = load_crate("fixture".into(), &dir.join("lib.rs"));
        assert_eq!(krate.modules.len(), 7, "{:?}", krate.modules.keys());
        let found: Vec<Vec<String>> = cycles(&graph(&krate))
            .iter()
            .map(|c| {
                c.iter()
                    .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
                    .collect()
            })
            .collect();
        assert_eq!(
            found,
            [vec!["a/inner.rs", "a/mod.rs"], vec!["b.rs", "c.rs"]]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The layer check itself: a unit importing its own layer or a higher
    /// one is reported, a folder is one unit, and a file finds its longest
    /// unit.
    #[test]
    fn the_table_is_read_as_documented() {
        let layers: &[&[&str]] = &[&["a", "b/c"], &["b"], &["lib"]];
        assert_eq!(unit_of(layers, "b/c"), Some(("b/c", 0)));
        assert_eq!(unit_of(layers, "b/d/e"), Some(("b", 1)));
        assert_eq!(unit_of(layers, "ab"), None);
        assert_eq!(unit_of(&[&["*"]], "x/y"), Some(("*", 0)));
    }

    /// This crate keeps the rules it checks.
    #[test]
    fn this_crate_keeps_its_own_rules() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let layers: &[&[&str]] = &[&["tree"], &["graph"], &["check"], &["sizes"], &["lib"]];
        crate::check(&root, layers, &[("graph", "tree"), ("sizes", "check")])
            .unwrap_or_else(|p| panic!("{p}"));
        crate::check_sizes(&root, &crate::Sizes::DEFAULT).unwrap_or_else(|p| panic!("{p}"));
    }

    /// A unit of the table that holds no module (one that moved away, say)
    /// is reported: the table cannot drift from the crate.
    #[test]
    fn a_unit_no_module_is_in_is_reported() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let layers: &[&[&str]] = &[
            &["tree"],
            &["graph", "gone"],
            &["check"],
            &["sizes"],
            &["lib"],
        ];
        let problems = crate::check(&root, layers, &[]).unwrap_err().0;
        let unit = "the layer table's unit `gone` holds no module: remove it";
        assert_eq!(problems, [format!("{}: {unit}", root.display())]);
    }

    /// A function is counted from `fn` to its closing brace, in an impl or
    /// nested; a file by its lines; an exception that is not needed is a
    /// problem of its own.
    #[test]
    fn sizes_count_functions_and_files_and_hold_the_exceptions_to_account() {
        let dir =
            std::env::temp_dir().join(format!("wow-guid-sizes-fixture-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let body = "    let _ = 1;\n".repeat(5);
        let text = format!(
            "/// docs\nfn short() {{\n{body}}}\nstruct S;\nimpl S {{\n    fn long() {{\n{}    }}\n}}\n",
            "        let _ = 1;\n".repeat(6)
        );
        fs::write(dir.join("lib.rs"), text).unwrap();
        let root = dir.join("lib.rs");
        let tight = crate::Sizes {
            max_file_lines: 20,
            max_fn_lines: 7,
            exceptions: &[],
        };
        let problems = crate::check_sizes(&root, &tight).unwrap_err().0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("fn long is 8 lines, over 7 (lib::long)"),
            "{problems:?}"
        );
        let excused = crate::Sizes {
            exceptions: &[("lib::long", "a fixture"), ("lib::short", "not needed")],
            ..tight
        };
        let problems = crate::check_sizes(&root, &excused).unwrap_err().0;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("lib::short names no file or function"),
            "{problems:?}"
        );
        let small_file = crate::Sizes {
            max_file_lines: 5,
            max_fn_lines: 80,
            exceptions: &[],
        };
        let problems = crate::check_sizes(&root, &small_file).unwrap_err().0;
        assert!(problems[0].ends_with("lines, over 5"), "{problems:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
