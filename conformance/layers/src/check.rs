//! The layer check: the table, cycles between files and folders, and the
//! crates a crate names.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

use crate::graph::{cycles, graph, Graph};
use crate::tree::{load_crate, Crate, Paths};

/// A file's module path below its crate's root directory: `lib.rs` is
/// `lib`, `packed/mod.rs` is `packed`, `judge/byte_diff.rs` is
/// `judge/byte_diff`.
pub(crate) fn module_name(krate: &Crate, file: &Path) -> String {
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
pub(crate) fn unit_of<'t>(layers: &[&[&'t str]], module: &str) -> Option<(&'t str, usize)> {
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
pub(crate) fn shown(krate: &Crate, path: &Path) -> String {
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
    // A unit no module is in would let the table drift from the crate.
    let held: BTreeSet<&str> = graph
        .keys()
        .filter_map(|f| unit_of(layers, &module_name(krate, f)).map(|(unit, _)| unit))
        .collect();
    for unit in layers.iter().flat_map(|units| units.iter()) {
        if !held.contains(unit) {
            problems.0.push(format!(
                "{}: the layer table's unit `{unit}` holds no module: remove it",
                krate.name
            ));
        }
    }
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
