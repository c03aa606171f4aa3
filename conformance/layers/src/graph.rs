//! Which file imports which, and the import cycles among them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use syn::visit::Visit;

use crate::tree::{is_inline, resolve, Crate, Paths};

/// file -> (file it imports -> one path that does it).
pub(crate) type Graph = BTreeMap<PathBuf, BTreeMap<PathBuf, String>>;

pub(crate) fn graph(krate: &Crate) -> Graph {
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
pub(crate) fn cycles(graph: &Graph) -> Vec<Vec<PathBuf>> {
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
