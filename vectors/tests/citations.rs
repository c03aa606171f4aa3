//! No citation points outside the repository: every `source` of the
//! checked-in corpus cites a file and heading that exist below the corpus
//! root, and every relative link or `NOTES.md#...` citation in the
//! repository's documents resolves.

use std::path::{Path, PathBuf};

use wow_guid_vectors::citation::{self, anchors};
use wow_guid_vectors::Corpus;

fn corpus_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_source_in_the_corpus_resolves() {
    let corpus = Corpus::load_dir(corpus_root()).unwrap_or_else(|e| panic!("{e}"));
    let broken = citation::check(&corpus.vectors, corpus_root());
    let report: Vec<String> = broken.iter().map(ToString::to_string).collect();
    assert!(
        report.is_empty(),
        "{} broken citation(s):\n{}",
        report.len(),
        report.join("\n")
    );
    let cited = corpus.vectors.iter().filter(|v| v.source.is_some()).count();
    assert!(cited > 100, "only {cited} vectors cite a source");
}

/// The repository root, when the crate is built from a checkout (not from
/// a packaged copy, which has no repository around it).
fn repository_root() -> Option<PathBuf> {
    let root = corpus_root().parent()?;
    root.join("Cargo.toml")
        .is_file()
        .then(|| root.join(".git").exists().then(|| root.to_path_buf()))
        .flatten()
}

/// Every text file of the repository that may cite something, skipping
/// build output, fuzzing corpora and version control.
fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            if !matches!(name.as_str(), ".git" | "target" | "corpus" | "artifacts") {
                documents(&path, out);
            }
        } else if [
            ".md", ".rs", ".yaml", ".yml", ".json", ".toml", ".py", ".sh",
        ]
        .iter()
        .any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

/// Relative link targets of Markdown links (`](target)`) in `text`.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let end = rest.find(')')?;
            let target = rest[..end].split_whitespace().next()?;
            let external = target.contains("://") || target.starts_with("mailto:");
            (!external && !target.is_empty()).then_some(target)
        })
        .collect()
}

fn resolve(from: &Path, target: &str) -> Result<(), String> {
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Err(format!("`{target}`: no such file or directory"));
    }
    if let (Some(anchor), true) = (anchor, file.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(&file).unwrap();
        if !anchors(&text).iter().any(|a| a == anchor) {
            return Err(format!("`{target}`: no heading with that anchor"));
        }
    }
    Ok(())
}

#[test]
fn every_link_and_notes_citation_in_the_repository_resolves() {
    let Some(root) = repository_root() else {
        eprintln!("not in a repository checkout; only the corpus is checked");
        return;
    };
    let notes = corpus_root().join("NOTES.md");
    let note_anchors = anchors(&std::fs::read_to_string(&notes).unwrap());
    let mut files = Vec::new();
    documents(&root, &mut files);
    let mut broken = Vec::new();
    let mut links = 0;
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let shown = file.strip_prefix(&root).unwrap().display().to_string();
        if file.extension().is_some_and(|e| e == "md") {
            for target in link_targets(&text) {
                links += 1;
                if let Err(why) = resolve(file, target) {
                    broken.push(format!("{shown}: link {why}"));
                }
            }
        }
        // `NOTES.md#` and a lowercase anchor, anywhere (sources written by
        // code, docs that cite a note in prose), names a heading of the
        // corpus's notes. Placeholders are written in capitals.
        for (at, _) in text.match_indices("NOTES.md#") {
            let anchor: String = text[at + "NOTES.md#".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect();
            if anchor.is_empty() {
                continue;
            }
            if !note_anchors.contains(&anchor) {
                broken.push(format!(
                    "{shown}: cites `NOTES.md#{anchor}`, which is not a heading of vectors/NOTES.md"
                ));
            }
        }
    }
    assert!(links > 10, "found only {links} links: is the walk right?");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_link_finder_sees_relative_links_only() {
    let text = "see [a](x/y.md#z), [b](https://e.org/) and [c](README.md \"t\"); ](";
    assert_eq!(link_targets(text), ["x/y.md#z", "README.md"]);
}
