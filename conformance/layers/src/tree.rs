//! A crate read as a tree of modules, and the paths each file writes:
//! what the checks of this crate look at.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module path from the crate root: `["fuzzing", "shrink"]`.
pub(crate) type ModPath = Vec<String>;

/// One crate: where each of its modules is written.
pub(crate) struct Crate {
    pub(crate) name: String,
    pub(crate) modules: BTreeMap<ModPath, PathBuf>,
    /// Each file's parsed source.
    pub(crate) files: BTreeMap<PathBuf, syn::File>,
    /// The names `use` declarations bring into each module, and the path
    /// (as written in that module) each stands for.
    aliases: BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
}

fn parse(path: &Path) -> syn::File {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()))
}

/// The file of child module `name` of a module written in `file`.
fn child_file(file: &Path, name: &str) -> PathBuf {
    let dir = file.parent().expect("a file has a directory");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let base = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_owned()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.is_file() {
        flat
    } else {
        base.join(name).join("mod.rs")
    }
}

/// Records the modules declared in `items` (of module `at`, written in
/// `file`), following each declared file.
fn collect(krate: &mut Crate, items: &[syn::Item], at: &ModPath, file: &Path) {
    for item in items {
        let syn::Item::Mod(m) = item else { continue };
        assert!(
            !m.attrs.iter().any(|a| a.path().is_ident("path")),
            "{}: `#[path]` on `mod {}` is not followed by this test",
            file.display(),
            m.ident
        );
        let mut path = at.clone();
        path.push(m.ident.to_string());
        match &m.content {
            Some((_, inline)) => {
                krate.modules.insert(path.clone(), file.to_owned());
                collect(krate, inline, &path, file);
            }
            None => {
                let child = child_file(file, &m.ident.to_string());
                let parsed = parse(&child);
                krate.modules.insert(path.clone(), child.clone());
                let items = parsed.items.clone();
                krate.files.insert(child.clone(), parsed);
                collect(krate, &items, &path, &child);
            }
        }
    }
}

pub(crate) fn load_crate(name: String, root: &Path) -> Crate {
    let parsed = parse(root);
    let items = parsed.items.clone();
    let mut krate = Crate {
        name,
        modules: BTreeMap::from([(Vec::new(), root.to_owned())]),
        files: BTreeMap::from([(root.to_owned(), parsed)]),
        aliases: BTreeMap::new(),
    };
    collect(&mut krate, &items, &Vec::new(), root);
    let mut aliases = BTreeMap::new();
    for (module, file) in &krate.modules {
        if is_inline(&krate, module, file) {
            continue;
        }
        let mut uses = Paths::new(&krate, module.clone());
        uses.visit_file(&krate.files[file]);
        for (at, name, path) in uses.aliases {
            aliases
                .entry(at)
                .or_insert_with(BTreeMap::new)
                .insert(name, path);
        }
    }
    krate.aliases = aliases;
    krate
}

/// Whether `module` is an inline module (`mod tests { ... }`) of its
/// parent's file, which is visited with that file.
pub(crate) fn is_inline(krate: &Crate, module: &ModPath, file: &Path) -> bool {
    !module.is_empty()
        && krate
            .modules
            .get(&module[..module.len() - 1])
            .map(PathBuf::as_path)
            == Some(file)
}

/// Collects the paths a file writes, each with the module it is written in.
pub(crate) struct Paths<'c> {
    pub(crate) krate: &'c Crate,
    /// The module being visited (inline modules included).
    at: ModPath,
    /// (module written in, the path's segments): the file's dependencies.
    pub(crate) found: Vec<(ModPath, Vec<String>)>,
    /// (module, name, path): the names `use` declarations introduce.
    pub(crate) aliases: Vec<(ModPath, String, Vec<String>)>,
}

impl<'c> Paths<'c> {
    pub(crate) fn new(krate: &'c Crate, at: ModPath) -> Self {
        Self {
            krate,
            at,
            found: Vec::new(),
            aliases: Vec::new(),
        }
    }

    fn push(&mut self, segments: Vec<String>) {
        if !segments.is_empty() {
            self.found.push((self.at.clone(), segments));
        }
    }

    /// Expands a `use` tree into whole paths: each a dependency unless the
    /// `use` only re-exports (`reexport`), and each leaf a name of the module.
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree, reexport: bool) {
        let with = |s: String| {
            let mut p = prefix.to_vec();
            p.push(s);
            p
        };
        let leaf = |this: &mut Self, name: String, path: Vec<String>| {
            if name != "self" {
                this.aliases.push((this.at.clone(), name, path.clone()));
            }
            if !reexport {
                this.push(path);
            }
        };
        match tree {
            syn::UseTree::Path(p) => {
                self.use_tree(&with(p.ident.to_string()), &p.tree, reexport);
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                let name = prefix.last().cloned().unwrap_or_default();
                leaf(self, name, prefix.to_vec());
            }
            syn::UseTree::Name(n) => leaf(self, n.ident.to_string(), with(n.ident.to_string())),
            syn::UseTree::Rename(r) => leaf(self, r.rename.to_string(), with(r.ident.to_string())),
            syn::UseTree::Glob(_) if !reexport => self.push(prefix.to_vec()),
            syn::UseTree::Glob(_) => {}
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree, reexport);
                }
            }
        }
    }

    /// Finds `crate :: a :: b`, `super :: ...` and `self :: ...` in tokens a
    /// macro call holds (which syn leaves unparsed).
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(g) = &trees[i] {
                self.tokens(g.stream());
                i += 1;
                continue;
            }
            let starts = matches!(&trees[i], TokenTree::Ident(id) if id == "crate" || id == "super" || id == "self");
            if !starts {
                i += 1;
                continue;
            }
            let mut segments = Vec::new();
            let mut j = i;
            while let Some(TokenTree::Ident(id)) = trees.get(j) {
                segments.push(id.to_string());
                let colons = matches!(
                    (trees.get(j + 1), trees.get(j + 2)),
                    (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                        if a.as_char() == ':' && b.as_char() == ':'
                );
                if !colons {
                    break;
                }
                j += 3;
            }
            if segments.len() > 1 {
                self.push(segments);
            }
            i = j + 1;
        }
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        // A module in its own file is visited as that file.
        if let Some((_, items)) = &m.content {
            self.at.push(m.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.at.pop();
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if u.leading_colon.is_none() {
            let reexport = !matches!(u.vis, syn::Visibility::Inherited);
            self.use_tree(&[], &u.tree, reexport);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() > 1 {
            self.push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }
}

/// The module that defines what a path written in module `at` names, if
/// it is one of the crate's: the path is made absolute, then followed
/// module by module and through the names `use` declarations introduce, as
/// far as it goes.
pub(crate) fn resolve(krate: &Crate, at: &ModPath, segments: &[String]) -> Option<ModPath> {
    resolve_within(krate, at, segments, 0)
}

fn resolve_within(
    krate: &Crate,
    at: &ModPath,
    segments: &[String],
    depth: usize,
) -> Option<ModPath> {
    if depth > 16 {
        return None;
    }
    let mut current = at.clone();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            current.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                current.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A path may start at a child module or a name brought in by a
            // `use`; anything else is another crate, or not a module at all.
            let mut child = at.clone();
            child.push(first.to_owned());
            let aliased = krate.aliases.get(at).is_some_and(|a| a.contains_key(first));
            if !krate.modules.contains_key(&child) && !aliased {
                return None;
            }
        }
        None => return None,
    }
    for (i, segment) in rest.iter().enumerate() {
        let mut probe = current.clone();
        probe.push(segment.clone());
        if krate.modules.contains_key(&probe) {
            current = probe;
            continue;
        }
        let target = krate.aliases.get(&current).and_then(|a| a.get(segment));
        return match target {
            Some(target) => {
                let mut path = target.clone();
                path.extend(rest[i + 1..].iter().cloned());
                resolve_within(krate, &current, &path, depth + 1).or(Some(current))
            }
            None => Some(current),
        };
    }
    Some(current)
}
