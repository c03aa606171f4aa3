//! No citation points outside the repository: every `source` of the
//! checked-in corpus cites a file and heading that exist below the corpus
//! root, and every relative link or `NOTES.md#...` citation in the
//! repository's documents resolves.

use std::path::{Path, PathBuf};

use wow_guid_vectors::citation::{self, anchors, explicit_anchors, Citation};
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
    let note_anchors = notes_explicit_anchors();
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
            // Code blocks are code: `[](...)` there is a C++ lambda.
            let prose = citation::outside_fences(&text)
                .collect::<Vec<_>>()
                .join("\n");
            for target in link_targets(&prose) {
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
                    "{shown}: cites `NOTES.md#{anchor}`, which is not an explicit anchor \
                     (`<a id=\"{anchor}\"></a>`) of vectors/NOTES.md"
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

/// The explicit anchors of the corpus's notes.
fn notes_explicit_anchors() -> Vec<String> {
    let notes = std::fs::read_to_string(corpus_root().join("NOTES.md")).unwrap();
    explicit_anchors(&notes)
}

/// Every heading of `NOTES.md` has an explicit anchor on the lines just above
/// it, so rewording the heading keeps every citation of it working.
#[test]
fn every_notes_heading_has_an_explicit_anchor() {
    let notes = std::fs::read_to_string(corpus_root().join("NOTES.md")).unwrap();
    let lines: Vec<&str> = notes.lines().collect();
    let mut fence = false;
    let mut headings = 0;
    let mut bare = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        headings += 1;
        let above = lines[..at]
            .iter()
            .rev()
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| l.starts_with("<a id=\""));
        if above.count() == 0 {
            bare.push(format!("line {}: {line}", at + 1));
        }
    }
    assert!(headings > 20, "found only {headings} headings");
    assert!(
        bare.is_empty(),
        "headings of vectors/NOTES.md without an explicit anchor (`<a id=\"...\"></a>` \
         on the line above):\n{}",
        bare.join("\n")
    );
}

/// Every `NOTES.md#...` a vector's `source` cites is an explicit anchor, not
/// only a heading's slug (the repository's documents are held to the same by
/// `every_link_and_notes_citation_in_the_repository_resolves`).
#[test]
fn every_notes_citation_is_an_explicit_anchor() {
    let explicit = notes_explicit_anchors();
    let corpus = Corpus::load_dir(corpus_root()).unwrap_or_else(|e| panic!("{e}"));
    let mut cited = 0;
    let mut broken = Vec::new();
    for v in &corpus.vectors {
        let Some(Ok(c)) = v.source.as_deref().map(Citation::parse) else {
            continue;
        };
        if let (Some(anchor), "NOTES.md") = (c.anchor, c.path) {
            cited += 1;
            if !explicit.iter().any(|a| a == anchor) {
                broken.push(format!(
                    "{}: `{}` cites NOTES.md#{anchor}",
                    v.location, v.id
                ));
            }
        }
    }
    assert!(cited > 100, "only {cited} vectors cite a note");
    assert!(
        broken.is_empty(),
        "citations of a NOTES.md anchor that is not explicit:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_slug_without_an_explicit_anchor_is_not_enough() {
    let md = "## Heading\n\n<a id=\"kept\"></a>\n\n## Reworded\n";
    assert!(anchors(md).iter().any(|a| a == "heading"));
    assert_eq!(explicit_anchors(md), ["kept"]);
}

/// A fence closes only with its own marker, for headings and anchors
/// alike: a `~~~` line inside a ```` ``` ```` block (once read as a fence
/// of its own by `sections`) leaves the block open.
#[test]
fn a_fence_closes_only_with_its_own_marker() {
    let md = "## Before\n\n```text\n~~~\n## Inside\n```\n\n## After\n";
    let titles: Vec<String> = citation::sections(md).into_iter().map(|(_, t)| t).collect();
    assert_eq!(titles, ["Before", "After"]);
    assert_eq!(anchors(md), ["before", "after"]);
}

/// Every hand-written vector says which note it rests on (generated ones
/// carry their family's rule in their file header and `REFERENCE.md`).
#[test]
fn every_hand_written_vector_cites_a_note() {
    let corpus = Corpus::load_dir(corpus_root()).unwrap_or_else(|e| panic!("{e}"));
    let missing: Vec<String> = corpus
        .vectors
        .iter()
        .filter(|v| !v.location.file.starts_with("generated/") && v.source.is_none())
        .map(|v| format!("{}: `{}`", v.location, v.id))
        .collect();
    assert!(
        missing.is_empty(),
        "hand-written vectors without a `source`:\n{}",
        missing.join("\n")
    );
}
