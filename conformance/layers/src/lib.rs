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

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module path from the crate root: `["fuzzing", "shrink"]`.
type ModPath = Vec<String>;

/// One crate: where each of its modules is written.
struct Crate {
    name: String,
    modules: BTreeMap<ModPath, PathBuf>,
    /// Each file's parsed source.
    files: BTreeMap<PathBuf, syn::File>,
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

fn load_crate(name: String, root: &Path) -> Crate {
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
fn is_inline(krate: &Crate, module: &ModPath, file: &Path) -> bool {
    !module.is_empty()
        && krate
            .modules
            .get(&module[..module.len() - 1])
            .map(PathBuf::as_path)
            == Some(file)
}

/// Collects the paths a file writes, each with the module it is written in.
struct Paths<'c> {
    krate: &'c Crate,
    /// The module being visited (inline modules included).
    at: ModPath,
    /// (module written in, the path's segments): the file's dependencies.
    found: Vec<(ModPath, Vec<String>)>,
    /// (module, name, path): the names `use` declarations introduce.
    aliases: Vec<(ModPath, String, Vec<String>)>,
}

impl<'c> Paths<'c> {
    fn new(krate: &'c Crate, at: ModPath) -> Self {
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
fn resolve(krate: &Crate, at: &ModPath, segments: &[String]) -> Option<ModPath> {
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

/// file -> (file it imports -> one path that does it).
type Graph = BTreeMap<PathBuf, BTreeMap<PathBuf, String>>;

fn graph(krate: &Crate) -> Graph {
    let mut graph: Graph = BTreeMap::new();
    for (module, file) in &krate.modules {
        // Each file once, from the module it defines (not its inline ones).
        if is_inline(krate, module, file) {
            continue;
        }
        let mut paths = Paths::new(krate, module.clone());
        paths.visit_file(&krate.files[file]);
        let edges = graph.entry(file.clone()).or_default();
        for (at, segments) in paths.found {
            let Some(target) = resolve(paths.krate, &at, &segments) else {
                continue;
            };
            let target_file = &krate.modules[&target];
            if target_file != file {
                edges
                    .entry(target_file.clone())
                    .or_insert_with(|| segments.join("::"));
            }
        }
    }
    graph
}

/// The strongly connected sets of two or more files (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<PathBuf>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g PathBuf, usize>,
        low: BTreeMap<&'g PathBuf, usize>,
        stack: Vec<&'g PathBuf>,
        on_stack: BTreeSet<&'g PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn connect<'g>(s: &mut State<'g>, v: &'g PathBuf) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flat_map(BTreeMap::keys) {
            if !s.index.contains_key(w) {
                connect(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.clone());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.out.push(set);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            connect(&mut s, v);
        }
    }
    s.out
}

/// A file's module path below its crate's root directory: `lib.rs` is
/// `lib`, `packed/mod.rs` is `packed`, `judge/byte_diff.rs` is
/// `judge/byte_diff`.
fn module_name(krate: &Crate, file: &Path) -> String {
    let src = krate.modules[&Vec::new()]
        .parent()
        .expect("a root file has a directory");
    let relative = file
        .strip_prefix(src)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/");
    let relative = relative.trim_end_matches(".rs");
    relative.strip_suffix("/mod").unwrap_or(relative).to_owned()
}

/// The unit of the table a module belongs to, and its layer: the longest
/// unit that is the module or a folder holding it.
fn unit_of<'t>(layers: &[&[&'t str]], module: &str) -> Option<(&'t str, usize)> {
    let mut best: Option<(&'t str, usize)> = None;
    for (layer, units) in layers.iter().enumerate() {
        for &unit in *units {
            let holds = unit == "*"
                || module == unit
                || module
                    .strip_prefix(unit)
                    .is_some_and(|rest| rest.starts_with('/'));
            if holds && best.is_none_or(|(b, _)| b == "*" || unit.len() > b.len()) {
                best = Some((unit, layer));
            }
        }
    }
    best
}

/// Everything wrong with a crate's floor plan, one problem a paragraph.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<String>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("\n"))
    }
}

impl std::error::Error for Problems {}

/// A path as problems show it: below the crate's directory.
fn shown(krate: &Crate, path: &Path) -> String {
    let dir = krate.modules[&Vec::new()]
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new(""));
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

/// Checks the crate whose root file is `root` (`src/lib.rs`, `src/main.rs`,
/// a fuzz target) against `layers`, lowest first: no import cycle between
/// files or between folders at any depth, every file in a unit of the table,
/// every import into a lower layer or the file's own unit. `expected` lists
/// imports (`from`, `to`, as module names like `packed/table`) the crate
/// must have, so the check cannot pass because nothing resolved.
///
/// # Errors
/// [`Problems`], every one found, each naming the files and a path that
/// makes the import.
///
/// # Panics
/// When a file of the crate cannot be read or parsed, or a `mod` carries a
/// `#[path]` (which the check does not follow).
pub fn check(root: &Path, layers: &[&[&str]], expected: &[(&str, &str)]) -> Result<(), Problems> {
    let krate = load_crate(root.display().to_string(), root);
    let graph = graph(&krate);
    let mut problems = Problems::default();
    file_cycles(&krate, &graph, &mut problems);
    layer_order(&krate, &graph, layers, &mut problems);
    folder_cycles(&krate, &graph, &mut problems);
    for &(from, to) in expected {
        let found = graph.iter().any(|(f, targets)| {
            module_name(&krate, f) == from && targets.keys().any(|t| module_name(&krate, t) == to)
        });
        if !found {
            problems.0.push(format!(
                "{}: the import {from} -> {to} was not found (a check that sees no import passes \
                 vacuously)",
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

/// The files of the crate rooted at `root` whose code names the crate
/// `name` (`clap`, say): a library that must not depend on it is held to
/// an empty list.
///
/// # Panics
/// As [`check`].
#[must_use]
pub fn files_naming(root: &Path, name: &str) -> Vec<String> {
    let krate = load_crate(root.display().to_string(), root);
    let mut users = BTreeSet::new();
    for (module, file) in &krate.modules {
        let mut paths = Paths::new(&krate, module.clone());
        paths.visit_file(&krate.files[file]);
        let aliased = paths.aliases.iter().map(|(_, _, path)| path);
        if paths
            .found
            .iter()
            .map(|(_, p)| p)
            .chain(aliased)
            .any(|p| p[0] == name)
        {
            users.insert(shown(&krate, file));
        }
    }
    users.into_iter().collect()
}

fn file_cycles(krate: &Crate, graph: &Graph, problems: &mut Problems) {
    for cycle in cycles(graph) {
        let mut text = format!("{}: {} files import each other:\n", krate.name, cycle.len());
        for from in &cycle {
            for (to, path) in &graph[from] {
                if cycle.contains(to) {
                    text.push_str(&format!(
                        "  {} -> {}  (`{path}`)\n",
                        shown(krate, from),
                        shown(krate, to)
                    ));
                }
            }
        }
        problems.0.push(text);
    }
}

/// Every file is in the table, and imports only its own unit or units of
/// lower layers.
fn layer_order(krate: &Crate, graph: &Graph, layers: &[&[&str]], problems: &mut Problems) {
    for (from, targets) in graph {
        let module = module_name(krate, from);
        let Some((unit, layer)) = unit_of(layers, &module) else {
            problems.0.push(format!(
                "{}: {module} is in no unit of the layer table: add it",
                krate.name
            ));
            continue;
        };
        for (to, path) in targets {
            let target = module_name(krate, to);
            let Some((to_unit, to_layer)) = unit_of(layers, &target) else {
                continue;
            };
            if to_unit != unit && to_layer >= layer {
                problems.0.push(format!(
                    "{}: {module} (`{unit}`, layer {layer}) imports {target} (`{to_unit}`, \
                     layer {to_layer}) through `{path}`",
                    krate.name
                ));
            }
        }
    }
}

/// Folders import in one direction too: with every file counted as the
/// module (or folder) it lies in at each depth (`report/json.rs` is
/// `report`, `options.rs` is `options`), no two import each other, directly
/// or around a loop.
fn folder_cycles(krate: &Crate, files: &Graph, problems: &mut Problems) {
    let depth = files
        .keys()
        .map(|f| module_name(krate, f).split('/').count())
        .max()
        .unwrap_or(1);
    for d in 1..depth {
        let at = |file: &Path| -> Option<PathBuf> {
            let module = module_name(krate, file);
            let parts: Vec<&str> = module.split('/').collect();
            (parts.len() >= d).then(|| PathBuf::from(parts[..d].join("/")))
        };
        let mut folders: Graph = BTreeMap::new();
        for (from, targets) in files {
            let Some(a) = at(from) else { continue };
            for (to, path) in targets {
                let Some(b) = at(to) else { continue };
                if a != b {
                    folders
                        .entry(a.clone())
                        .or_default()
                        .entry(b)
                        .or_insert_with(|| {
                            format!("{} -> {}: `{path}`", shown(krate, from), shown(krate, to))
                        });
                }
            }
        }
        for cycle in cycles(&folders) {
            let mut text = format!("{}: folders import each other:\n", krate.name);
            for from in &cycle {
                for (to, why) in &folders[from] {
                    if cycle.contains(to) {
                        text.push_str(&format!(
                            "  {}/ -> {}/  ({why})\n",
                            from.display(),
                            to.display()
                        ));
                    }
                }
            }
            problems.0.push(text);
        }
    }
}

/// Size limits a crate holds its source to: no file over `max_file_lines`
/// lines and no function (free, in an impl or a trait, nested or not) over
/// `max_fn_lines`, from `fn` to its closing brace, except the functions
/// listed in `exceptions`.
#[derive(Clone, Copy, Debug)]
pub struct Sizes<'a> {
    /// The most lines a source file may have.
    pub max_file_lines: usize,
    /// The most lines a function may have.
    pub max_fn_lines: usize,
    /// Functions allowed to be longer, each as (`module/path::name`, why);
    /// the why is for the reader of the table, and an exception that is no
    /// longer needed is itself a problem, so the list cannot go stale.
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
/// As [`check`].
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
        if lines > sizes.max_file_lines {
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
            let key = format!("{}::{name}", module_name(&krate, file));
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
                "{}: the exception {key} names no long function",
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
