//! The workspace's architecture: every crate's modules import in one
//! direction only, down a written table of layers ([`LAYERS`]); no file and
//! no folder imports one that imports it back; and the runner's library
//! leaves the command line to its binary.
//!
//! Every library and binary crate of the workspace is read with `syn`, its
//! module tree followed from `lib.rs` or `main.rs` through every `mod`
//! declaration (inline modules such as `mod tests` included). A file depends
//! on another when it uses an item defined there: through a `use` (`crate::`,
//! `super::`, `self::` or a child module's name), a path in code
//! (`crate::x::f()`), or such a path inside a macro call. Paths are followed
//! through the names `use` declarations introduce, so `super::CliError`
//! leads to the file that defines `CliError`, not to the `mod.rs` that
//! re-exports it; a `pub use` is the module's table of contents and no
//! dependency by itself. A strongly connected set of two or more files is
//! an import cycle, and the test names each, with a path for every edge: a
//! `mod.rs` whose code calls into a child that uses an item defined in that
//! `mod.rs` is one (the item belongs in a module of its own).
//!
//! The second test holds the runner's library free of clap: its command
//! line is a private module of `main.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The workspace's crates, as directories beside this one.
const CRATES: &[&str] = &["codec", "vectors", "conformance"];

/// The layers of every crate, lowest first (the one table of them;
/// `docs/layout.md` cites it). Each unit is a module path below the crate
/// root: a file, or a folder with its file (`judge` is `judge.rs` and
/// everything in `judge/`); a file belongs to the longest unit that contains
/// it, and `*` is every file. A unit may import only units of lower layers;
/// files within one unit import each other freely, as long as there is no
/// cycle. A crate is named by its directory and its root file; `fuzz` is
/// every target of the cargo-fuzz crate.
const LAYERS: &[(&str, &[&[&str]])] = &[
    (
        "codec (lib.rs)",
        &[
            &["buffer", "decoded"],
            &["packed/value", "packed/error"],
            &["packed/generic", "named"],
            &[
                "packed/portable",
                "packed/table",
                "packed/ssse3",
                "packed/avx512",
            ],
            &["packed/dispatch"],
            &["packed"],
            &["naive"],
            &["properties"],
            &["lib"],
        ],
    ),
    (
        "vectors (lib.rs)",
        &[
            &["near_miss", "hex_text", "files"],
            &["vocab"],
            &["model", "interner"],
            &["error", "topics", "fault_model", "acceptance"],
            &["yaml"],
            &["corpus"],
            &["citation", "release", "schema_tests"],
            &["reference_page"],
            &["generate"],
            &["lib"],
        ],
    ),
    (
        "conformance (lib.rs)",
        &[
            &["terminal"],
            &["duration", "shell", "protocol", "expect_fail", "select"],
            &["implementation", "export", "known_failures", "list", "seed"],
            &["process", "reference"],
            &["judge", "serve"],
            &["classify", "run"],
            // Checks `run`'s failures alone, with `run`'s judging and
            // `classify`'s search: above both.
            &["history"],
            &["options", "lint", "doctor"],
            &["report"],
            &["matrix", "fuzzing"],
            &["lib"],
        ],
    ),
    ("conformance (main.rs)", &[&["cli"], &["main"]]),
    ("fuzz", &[&["*"]]),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_owned()
}

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

/// Every library and binary crate of the workspace.
fn crates() -> Vec<Crate> {
    let mut out = Vec::new();
    for dir in CRATES {
        let src = workspace().join(dir).join("src");
        for root in ["lib.rs", "main.rs"] {
            let path = src.join(root);
            if path.is_file() {
                out.push(load_crate(format!("{dir} ({root})"), &path));
            }
        }
        if let Ok(bins) = fs::read_dir(src.join("bin")) {
            for bin in bins.flatten() {
                let path = bin.path();
                let root = if path.is_dir() {
                    path.join("main.rs")
                } else {
                    path.clone()
                };
                out.push(load_crate(format!("{dir} ({})", path.display()), &root));
            }
        }
    }
    // The cargo-fuzz crate: every target is a crate root of its own.
    let targets = workspace().join("fuzz").join("fuzz_targets");
    let mut roots: Vec<PathBuf> = fs::read_dir(&targets)
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    roots.retain(|p| p.extension().is_some_and(|e| e == "rs"));
    roots.sort();
    assert!(
        !roots.is_empty(),
        "no fuzz targets in {}",
        targets.display()
    );
    for root in roots {
        let name = root.file_name().unwrap().to_string_lossy().into_owned();
        out.push(load_crate(format!("fuzz ({name})"), &root));
    }
    assert!(
        out.len() >= CRATES.len(),
        "the workspace's crates were not found"
    );
    out
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

fn shown(path: &Path) -> String {
    path.strip_prefix(workspace())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn no_module_imports_back_into_a_module_that_imports_it() {
    let mut problems = Vec::new();
    for krate in crates() {
        let graph = graph(&krate);
        for cycle in cycles(&graph) {
            let mut text = format!("{}: {} files import each other:\n", krate.name, cycle.len());
            for from in &cycle {
                for (to, path) in &graph[from] {
                    if cycle.contains(to) {
                        text.push_str(&format!("  {} -> {}  (`{path}`)\n", shown(from), shown(to)));
                    }
                }
            }
            problems.push(text);
        }
    }
    assert!(
        problems.is_empty(),
        "import cycles:\n{}",
        problems.join("\n")
    );
}

/// The check itself finds what it must: a cycle through a `mod.rs` whose
/// code calls into a child that uses an item of the `mod.rs`, one through
/// paths in macro calls, and none through re-exports alone.
#[test]
fn the_check_sees_use_trees_paths_and_macros() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("import-cycle-fixture");
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

/// The runner's library is usable without clap: only its binary parses
/// command lines.
#[test]
fn the_runner_library_does_not_use_clap() {
    let krate = crates()
        .into_iter()
        .find(|k| k.name == "conformance (lib.rs)")
        .expect("the runner's library crate");
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
            .any(|p| p[0] == "clap")
        {
            users.insert(shown(file));
        }
    }
    assert!(users.is_empty(), "the library uses clap in {users:?}");
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

/// The table's layers for `krate`.
fn layers_of(krate: &Crate) -> &'static [&'static [&'static str]] {
    LAYERS
        .iter()
        .find(|(name, _)| *name == krate.name || krate.name.starts_with(&format!("{name} (")))
        .map(|(_, layers)| *layers)
        .unwrap_or_else(|| panic!("{} has no entry in LAYERS: add one", krate.name))
}

/// The unit of the table a module belongs to, and its layer: the longest
/// unit that is the module or a folder holding it.
fn unit_of(layers: &[&[&'static str]], module: &str) -> Option<(&'static str, usize)> {
    let mut best: Option<(&'static str, usize)> = None;
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

/// Every file of every crate (the fuzz targets included) is in the table,
/// and imports only its own unit or units of lower layers.
#[test]
fn every_module_imports_only_lower_layers_of_the_table() {
    let mut problems = Vec::new();
    for krate in crates() {
        let layers = layers_of(&krate);
        let graph = graph(&krate);
        for (from, targets) in &graph {
            let module = module_name(&krate, from);
            let Some((unit, layer)) = unit_of(layers, &module) else {
                problems.push(format!(
                    "{}: {module} is in no unit of LAYERS: add it",
                    krate.name
                ));
                continue;
            };
            for (to, path) in targets {
                let target = module_name(&krate, to);
                let Some((to_unit, to_layer)) = unit_of(layers, &target) else {
                    continue;
                };
                if to_unit != unit && to_layer >= layer {
                    problems.push(format!(
                        "{}: {module} (`{unit}`, layer {layer}) imports {target} (`{to_unit}`, \
                         layer {to_layer}) through `{path}`",
                        krate.name
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Folders import in one direction too: with every file counted as the
/// module (or folder) it lies in at each depth (`report/json.rs` is
/// `report`, `options.rs` is `options`), no two import each other, directly
/// or around a loop.
#[test]
fn no_folder_imports_a_folder_that_imports_it_back() {
    let mut problems = Vec::new();
    for krate in crates() {
        let files = graph(&krate);
        let depth = files
            .keys()
            .map(|f| module_name(&krate, f).split('/').count())
            .max()
            .unwrap_or(1);
        for d in 1..depth {
            let at = |file: &Path| -> Option<PathBuf> {
                let module = module_name(&krate, file);
                let parts: Vec<&str> = module.split('/').collect();
                (parts.len() >= d).then(|| PathBuf::from(parts[..d].join("/")))
            };
            let mut folders: Graph = BTreeMap::new();
            for (from, targets) in &files {
                let Some(a) = at(from) else { continue };
                for (to, path) in targets {
                    let Some(b) = at(to) else { continue };
                    if a != b {
                        folders
                            .entry(a.clone())
                            .or_default()
                            .entry(b)
                            .or_insert_with(|| {
                                format!("{} -> {}: `{path}`", shown(from), shown(to))
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
                problems.push(text);
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checks above pass vacuously if nothing resolves: a few edges every
/// layout of the crates has, the codec's own layers among them.
#[test]
fn the_resolver_sees_imports_in_every_crate() {
    let mut found = BTreeSet::new();
    for krate in crates() {
        for (from, targets) in graph(&krate) {
            for to in targets.keys() {
                found.insert((
                    krate.name.clone(),
                    module_name(&krate, &from),
                    module_name(&krate, to),
                ));
            }
        }
    }
    for (krate, from, to) in [
        ("codec (lib.rs)", "packed/table", "packed/generic"),
        ("codec (lib.rs)", "packed/ssse3", "packed/generic"),
        ("codec (lib.rs)", "packed/avx512", "packed/generic"),
        ("codec (lib.rs)", "packed", "packed/dispatch"),
        ("codec (lib.rs)", "named", "decoded"),
        ("codec (lib.rs)", "naive", "named"),
        ("vectors (lib.rs)", "corpus", "files"),
        (
            "conformance (lib.rs)",
            "report/grouping",
            "classify/signature",
        ),
        ("conformance (main.rs)", "main", "cli"),
    ] {
        assert!(
            found.contains(&(krate.to_owned(), from.to_owned(), to.to_owned())),
            "{krate}: {from} -> {to} not found"
        );
    }
}

/// The layer check itself: a unit importing its own layer or a higher one
/// is reported, a folder is one unit, and a file finds its longest unit.
#[test]
fn the_table_is_read_as_documented() {
    let layers: &[&[&str]] = &[&["a", "b/c"], &["b"], &["lib"]];
    assert_eq!(unit_of(layers, "b/c"), Some(("b/c", 0)));
    assert_eq!(unit_of(layers, "b/d/e"), Some(("b", 1)));
    assert_eq!(unit_of(layers, "ab"), None);
    assert_eq!(unit_of(&[&["*"]], "x/y"), Some(("*", 0)));
}
