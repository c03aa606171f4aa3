//! The size check: files and functions against their limits.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use syn::visit::Visit;

use crate::check::{module_name, shown, Problems};
use crate::tree::{is_inline, load_crate};

/// Size limits a crate holds its source to: no file over `max_file_lines`
/// lines and no function (free, in an impl or a trait, nested or not) over
/// `max_fn_lines`, from `fn` to its closing brace, except the files and
/// functions listed in `exceptions`.
#[derive(Clone, Copy, Debug)]
pub struct Sizes<'a> {
    /// The most lines a source file may have.
    pub max_file_lines: usize,
    /// The most lines a function may have.
    pub max_fn_lines: usize,
    /// Files and functions allowed to be longer, each as (`module/path` for
    /// a file or `module/path::name` for a function, why); the why is for
    /// the reader of the table, and an exception that is no longer needed
    /// is itself a problem, so the list cannot go stale.
    pub exceptions: &'a [(&'a str, &'a str)],
}

impl Sizes<'_> {
    /// The project's limits: 600 lines a file, 80 a function.
    pub const DEFAULT: Sizes<'static> = Sizes {
        max_file_lines: 600,
        max_fn_lines: 80,
        exceptions: &[],
    };
}

/// Checks the sizes of every file of the crate rooted at `root` against
/// `sizes`.
///
/// # Errors
/// [`Problems`]: each file or function over its limit, with its length,
/// and each exception that names no long function.
///
/// # Panics
/// As [`check`](crate::check).
pub fn check_sizes(root: &Path, sizes: &Sizes<'_>) -> Result<(), Problems> {
    let krate = load_crate(root.display().to_string(), root);
    let mut problems = Problems::default();
    let mut used = BTreeSet::new();
    for (module, file) in &krate.modules {
        if is_inline(&krate, module, file) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap_or_default();
        let lines = text.lines().count();
        let name_of_file = module_name(&krate, file);
        if lines > sizes.max_file_lines && sizes.exceptions.iter().any(|(k, _)| *k == name_of_file)
        {
            used.insert(name_of_file.clone());
        } else if lines > sizes.max_file_lines {
            problems.0.push(format!(
                "{}: {lines} lines, over {}",
                shown(&krate, file),
                sizes.max_file_lines
            ));
        }
        let mut functions = Functions::default();
        functions.visit_file(&krate.files[file]);
        for (name, length) in functions.found {
            if length <= sizes.max_fn_lines {
                continue;
            }
            let key = format!("{name_of_file}::{name}");
            if sizes.exceptions.iter().any(|(k, _)| *k == key) {
                used.insert(key);
                continue;
            }
            problems.0.push(format!(
                "{}: fn {name} is {length} lines, over {} ({key})",
                shown(&krate, file),
                sizes.max_fn_lines
            ));
        }
    }
    for (key, _) in sizes.exceptions {
        if !used.contains(*key) {
            problems.0.push(format!(
                "{}: the exception {key} names no file or function over its limit: take it off \
                 the list",
                krate.name
            ));
        }
    }
    if problems.0.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Every function of a file with its length in lines, from `fn` to the
/// closing brace of its body.
#[derive(Default)]
struct Functions {
    found: Vec<(String, usize)>,
}

impl Functions {
    fn record(&mut self, sig: &syn::Signature, block: &syn::Block) {
        let start = sig.fn_token.span.start().line;
        let end = block.brace_token.span.close().end().line;
        self.found.push((sig.ident.to_string(), end + 1 - start));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.record(&f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.record(&f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.record(&f.sig, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        // A module in its own file is visited as that file.
        if m.content.is_some() {
            syn::visit::visit_item_mod(self, m);
        }
    }
}
