//! The codec's source files import one another without a cycle, and the
//! files of `packed/` only downward, in the layers its module docs describe.
//!
//! The test reads `src/` itself: every path (in a `use` or in code,
//! comments and literals left out) that starts with `crate::`, `super::`,
//! `self::` or a child module's name is resolved to the file that defines
//! the module it names, and each such pair of files is an import. A path through a re-export counts as an
//! import of the file that re-exports, so inside the crate items are named
//! by the module that defines them. Inline modules (`mod owned { .. }`,
//! `mod tests { .. }`) belong to their file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers of `src/packed/`, lowest first, as `packed/mod.rs` documents
/// them: a file may import only files of a lower layer.
const PACKED_LAYERS: &[&[&str]] = &[
    &["packed/value.rs", "packed/error.rs"],
    &["packed/generic.rs"],
    &[
        "packed/portable.rs",
        "packed/table.rs",
        "packed/ssse3.rs",
        "packed/avx512.rs",
    ],
    &["packed/dispatch.rs"],
    &["packed/mod.rs"],
];

#[test]
fn no_file_imports_another_that_imports_it_back() {
    let imports = imports();
    let mut cycles = Vec::new();
    for start in imports.keys() {
        if let Some(cycle) = path_back(&imports, start) {
            cycles.push(cycle.join(" -> "));
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn packed_files_import_only_lower_layers() {
    let imports = imports();
    let layer = |file: &str| PACKED_LAYERS.iter().position(|l| l.contains(&file));
    let mut wrong = Vec::new();
    for (file, targets) in &imports {
        if !file.starts_with("packed/") {
            continue;
        }
        let Some(from) = layer(file) else {
            wrong.push(format!("{file} is in no layer of PACKED_LAYERS: add it"));
            continue;
        };
        for target in targets {
            if let Some(to) = layer(target) {
                if to >= from {
                    wrong.push(format!(
                        "{file} (layer {from}) imports {target} (layer {to})"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_resolver_sees_imports() {
    // The checks above pass vacuously if nothing resolves: pin a few edges
    // every layout of the crate has.
    let imports = imports();
    for (from, to) in [
        ("packed/table.rs", "packed/generic.rs"),
        ("packed/ssse3.rs", "packed/generic.rs"),
        ("packed/avx512.rs", "packed/generic.rs"),
        ("packed/mod.rs", "packed/dispatch.rs"),
        ("named.rs", "decoded.rs"),
        ("naive.rs", "named.rs"),
    ] {
        assert!(
            imports.get(from).is_some_and(|t| t.contains(to)),
            "{from} -> {to} not found in {imports:#?}"
        );
    }
}

/// Every file's imports: file -> files it imports, paths relative to `src/`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|file| {
            let relative = relative(&src, file);
            (module_of(&relative), relative)
        })
        .collect();
    let mut imports = BTreeMap::new();
    for file in &files {
        let relative = relative(&src, file);
        let code = code_only(&fs::read_to_string(file).unwrap());
        let mut known = modules.clone();
        let mut targets = BTreeSet::new();
        for (module, path) in paths(&module_of(&relative), &code, &relative, &mut known) {
            if let Some(target) = resolve(&known, &module, &path) {
                if target != relative {
                    targets.insert(target);
                }
            }
        }
        imports.insert(relative, targets);
    }
    imports
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn relative(src: &Path, file: &Path) -> String {
    file.strip_prefix(src)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// `lib.rs` -> [], `naive.rs` -> [naive], `packed/mod.rs` -> [packed],
/// `packed/table.rs` -> [packed, table].
fn module_of(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
        parts.pop();
    }
    parts
}

/// The source with comments, string and character literals blanked out.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident(chars.get(i.wrapping_sub(1)))
        {
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && is_char_literal(&chars, i) {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// `'x'` or `'\n'`, as opposed to a lifetime `'a`.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    match chars.get(i + 1) {
        Some('\\') => true,
        Some(_) => chars.get(i + 2) == Some(&'\''),
        None => false,
    }
}

/// Every `crate::`/`super::`/`self::` path in `code`, with the module it is
/// written in. Inline modules found on the way are added to `known`, mapped
/// to `file`.
fn paths(
    file_module: &[String],
    code: &str,
    file: &str,
    known: &mut BTreeMap<Vec<String>, String>,
) -> Vec<(Vec<String>, Vec<String>)> {
    let tokens = tokenize(code);
    let mut found = Vec::new();
    // The module stack: (module path, brace depth at which it closes).
    let mut stack: Vec<(Vec<String>, usize)> = vec![(file_module.to_vec(), 0)];
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let module = stack.last().unwrap().0.clone();
        match tokens[i].as_str() {
            "{" => depth += 1,
            "}" => {
                if stack.len() > 1 && stack.last().unwrap().1 == depth {
                    stack.pop();
                }
                depth -= 1;
            }
            "mod" if tokens.get(i + 2).map(String::as_str) == Some("{") => {
                let mut inner = module.clone();
                inner.push(tokens[i + 1].clone());
                known.insert(inner.clone(), file.to_owned());
                depth += 1;
                stack.push((inner, depth));
                i += 3;
                continue;
            }
            "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| t == ";")
                    .map_or(tokens.len(), |p| i + p);
                for path in use_tree(&tokens[i + 1..end]) {
                    found.push((module.clone(), relative_to_self(path)));
                }
                i = end + 1;
                continue;
            }
            word if ident(word.chars().next().as_ref())
                && tokens.get(i + 1).map(String::as_str) == Some("::") =>
            {
                let mut path = vec![tokens[i].clone()];
                let mut j = i + 1;
                while tokens.get(j).map(String::as_str) == Some("::")
                    && tokens
                        .get(j + 1)
                        .is_some_and(|t| ident(t.chars().next().as_ref()))
                {
                    path.push(tokens[j + 1].clone());
                    j += 2;
                }
                found.push((module.clone(), relative_to_self(path)));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// A path that starts at the current module (`table::decode`, as a child
/// module or an extern crate would be written) gets an explicit `self`.
fn relative_to_self(mut path: Vec<String>) -> Vec<String> {
    if !matches!(
        path.first().map(String::as_str),
        Some("crate" | "super" | "self")
    ) {
        path.insert(0, "self".to_owned());
    }
    path
}

/// Identifiers, `::` and single punctuation characters.
fn tokenize(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".to_owned());
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
            i += 1;
        }
    }
    tokens
}

/// The paths of a use tree (`a::{b, c::{self, d}}` gives `a::b`, `a::c`,
/// `a::c::d`), without `as` renames.
fn use_tree(tokens: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    use_tree_into(tokens, &[], &mut out);
    out
}

fn use_tree_into(tokens: &[String], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" => {}
            "{" => {
                // Split the braced list at top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..tokens.len() {
                    match tokens[j].as_str() {
                        "{" => depth += 1,
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                if start < j {
                                    use_tree_into(&tokens[start..j], &path, out);
                                }
                                return;
                            }
                        }
                        "," if depth == 1 => {
                            use_tree_into(&tokens[start..j], &path, out);
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            "as" => break,
            "self" if !path.is_empty() => {}
            "*" => break,
            word => path.push(word.to_owned()),
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push(path);
    }
}

/// The file that defines the deepest module `path` names, written in
/// `module`.
fn resolve(
    known: &BTreeMap<Vec<String>, String>,
    module: &[String],
    path: &[String],
) -> Option<String> {
    let mut current = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => current.clear(),
        Some("self") => {}
        Some("super") => {}
        _ => return None,
    }
    if rest.first().map(String::as_str) != Some("super") {
        rest = &rest[1..];
    }
    while rest.first().map(String::as_str) == Some("super") {
        current.pop()?;
        rest = &rest[1..];
    }
    for segment in rest {
        let mut deeper = current.clone();
        deeper.push(segment.clone());
        if known.contains_key(&deeper) {
            current = deeper;
        } else {
            break;
        }
    }
    known.get(&current).cloned()
}

/// A path of imports from `start` back to itself, if there is one.
fn path_back(imports: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((file, trail)) = stack.pop() {
        for next in imports.get(&file).into_iter().flatten() {
            if next == start {
                let mut cycle = trail.clone();
                cycle.push(start.to_owned());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = trail.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}
