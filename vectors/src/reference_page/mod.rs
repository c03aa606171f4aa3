//! The corpus as a page to read and link to: `REFERENCE.md` at the corpus
//! root.
//!
//! Every vector, hand-written and generated, is one row of a table under an
//! anchor that is its id (`REFERENCE.md#packed.decode.doc-example`): what it
//! asks, what a conformant implementation answers, the outcome, and which
//! known real implementations fail it. The rows are grouped under the note of
//! `NOTES.md` the vector rests on (its `source` citation; a generated family
//! names its note), each group headed by the position and a link to it.
//!
//! The page is written by [`render`] and kept up to date like the generated
//! vector files (the runner's `generate` and `generate --check` cover it).
//! Pure: this module formats what the caller read for it, and touches no
//! file.

use core::fmt::Write as _;
use std::collections::{BTreeMap, BTreeSet};

use crate::citation::Citation;
use crate::model::{Expectation, Vector};

mod row;

use row::{cell, rested_on, row, TWO_FAULTS};
pub use row::{export_line, EXPORT_PATH};

/// The page's path, relative to the corpus root.
pub const PATH: &str = "REFERENCE.md";

/// A generated family as the reference summarises it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySummary {
    /// The family's file, relative to the corpus root.
    pub path: String,
    /// The generator's rule for the family, as its file header states it.
    pub rule: String,
    /// The anchor of the note in `NOTES.md` the family rests on.
    pub note: String,
    /// The family's vector ids, in file order.
    pub ids: Vec<String>,
}

/// The vectors a known real implementation fails, as its expected-failure
/// list names them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownFailures {
    /// The implementation's name, as the conformance matrix names it.
    pub implementation: String,
    /// The ids it fails.
    pub ids: BTreeSet<String>,
}

/// Everything the page shows.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    /// The newest release's version ([`crate::release::CORPUS_VERSION`]).
    /// The page labels the corpus itself from its vectors
    /// ([`crate::release::Label::of`]): that release only when it holds
    /// exactly its vectors.
    pub version: &'a str,
    /// The sections of `NOTES.md`, in order: (anchor, title), as
    /// [`crate::citation::sections`] reads them.
    pub notes: &'a [(String, String)],
    /// Every vector, in corpus order.
    pub vectors: &'a [Vector],
    /// The generated families, in the generator's order.
    pub families: &'a [FamilySummary],
    /// The known real implementations and the vectors each fails.
    pub failures: &'a [KnownFailures],
}

/// The group of vectors without a note (a source citing no `NOTES.md`
/// section).
const UNGROUPED: &str = "other";

/// The vectors of each group, by the group's note anchor: (place in corpus
/// order, vector).
type Groups<'v> = BTreeMap<String, Vec<(usize, &'v Vector)>>;

/// The page, from its title on (the generator puts its do-not-edit note
/// above it).
#[must_use]
pub fn render(page: &Page<'_>) -> String {
    let family_note: BTreeMap<&str, &str> = page
        .families
        .iter()
        .map(|f| (f.path.as_str(), f.note.as_str()))
        .collect();
    let groups = groups(page.vectors, &family_note);
    let order = order(page.notes, &groups);
    let hand = page
        .vectors
        .iter()
        .filter(|v| !family_note.contains_key(&*v.location.file))
        .count();
    let mut out = String::from("# The corpus, vector by vector\n\n");
    releases(&mut out, page.vectors);
    introduction(&mut out, page, hand);
    out.push_str("## Contents\n\n");
    for (anchor, title) in &order {
        let _ = writeln!(
            out,
            "- [{}](#group.{anchor}) ({})",
            cell(title),
            groups[anchor].len()
        );
    }
    out.push_str("- [Generated families](#generated-families)\n");
    out.push_str("- [The fault model](#fault-model)\n");
    for (anchor, title) in &order {
        group(&mut out, page.failures, anchor, title, &groups[anchor]);
    }
    families(&mut out, page.families);
    out.push_str("\n<a id=\"fault-model\"></a>\n\n## The fault model\n\n");
    match crate::fault_model::FaultModel::load() {
        Ok(model) => out.push_str(&model.render()),
        Err(error) => {
            let _ = writeln!(out, "The fault model does not load: {error}");
        }
    }
    out
}

/// The vectors under the note each rests on (`family_note` names the note
/// of each generated family's file), in corpus order, with a sequence's
/// steps under its first step's note, so that they stay together and in
/// order.
fn groups<'v>(vectors: &'v [Vector], family_note: &BTreeMap<&str, &str>) -> Groups<'v> {
    let note_of = |v: &Vector| -> String {
        let cited = v
            .source
            .as_deref()
            .and_then(|s| Citation::parse(s).ok())
            .filter(|c| c.path == "NOTES.md")
            .and_then(|c| c.anchor.map(str::to_owned))
            .or_else(|| family_note.get(&*v.location.file).map(|n| (*n).to_owned()));
        match cited {
            Some(note) if note == TWO_FAULTS => rested_on(v).to_owned(),
            Some(note) => note,
            None => UNGROUPED.to_owned(),
        }
    };
    let mut groups: Groups<'v> = BTreeMap::new();
    let mut sequence_note: BTreeMap<&str, String> = BTreeMap::new();
    for (at, v) in vectors.iter().enumerate() {
        let note = match v.sequence.as_deref() {
            Some(sequence) => sequence_note
                .entry(sequence)
                .or_insert_with(|| note_of(v))
                .clone(),
            None => note_of(v),
        };
        groups.entry(note).or_default().push((at, v));
    }
    groups
}

/// The groups as (anchor, title), in the order of the notes; any other
/// after them, titled by its anchor.
fn order(notes: &[(String, String)], groups: &Groups<'_>) -> Vec<(String, String)> {
    let mut order: Vec<(String, String)> = notes
        .iter()
        .filter(|(anchor, _)| groups.contains_key(anchor))
        .cloned()
        .collect();
    for anchor in groups.keys() {
        if !order.iter().any(|(a, _)| a == anchor) {
            order.push((anchor.clone(), anchor.clone()));
        }
    }
    order
}

/// What the page holds and how to read a row, and the known
/// implementations with how many vectors each fails.
fn introduction(out: &mut String, page: &Page<'_>, hand: usize) {
    let _ = write!(
        out,
        "{total} vectors ({hand} written by hand, {generated} generated), one row each, \
         grouped under the\n\
         position of `NOTES.md` they rest on. A row's anchor is the vector's id, so a \
         document can\n\
         link to one: `REFERENCE.md#packed.decode.doc-example`. `README.md` explains the \
         fields and\n\
         how answers are judged.\n\n\
         In a row, bytes are hex; a byte string longer than 24 bytes is shortened to its \
         first 12\n\
         bytes, `…` and its last 4, with its length, and the row links the vector's line \
         of\n\
         `vectors.json`, which has every byte. The steps of a sequence stand together, \
         in order,\n\
         under the note of the first; a case citing \"Two faults in one input\" stands \
         there only\n\
         with two faults, and otherwise under the note of its one fault or of what it \
         shows.\n\
         *Fails in* names\n\
         the known real implementations whose expected-failure lists hold the vector\n\
         (`conformance/adapters/*/expected-failures.txt`, named as the conformance matrix \
         names them).\n\n",
        total = page.vectors.len(),
        generated = page.vectors.len() - hand,
    );
    if !page.failures.is_empty() {
        out.push_str("| known implementation | vectors it fails |\n| --- | --- |\n");
        for known in page.failures {
            let _ = writeln!(
                out,
                "| {} | {} |",
                cell(&known.implementation),
                known.ids.len()
            );
        }
        out.push('\n');
    }
}

/// One group: its heading, a link to its note, a row for each vector,
/// and why both answers are conformant for each acceptable one.
fn group(
    out: &mut String,
    failures: &[KnownFailures],
    anchor: &str,
    title: &str,
    vectors: &[(usize, &Vector)],
) {
    let _ = write!(
        out,
        "\n<a id=\"group.{anchor}\"></a>\n\n## {}\n\n",
        cell(title)
    );
    if anchor != UNGROUPED {
        let _ = writeln!(
            out,
            "The position: [`NOTES.md#{anchor}`](NOTES.md#{anchor}).\n"
        );
    }
    out.push_str("| id | what it checks | request | expected answer | outcome | fails in |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    let mut notes = Vec::new();
    for &(at, v) in vectors {
        let failing: Vec<&str> = failures
            .iter()
            .filter(|k| k.ids.contains(&v.id))
            .map(|k| k.implementation.as_str())
            .collect();
        row(out, v, export_line(at), &failing);
        if let Expectation::Acceptable { why, .. } = &v.expect {
            notes.push(format!("- `{}`: {}", v.id, cell(why)));
        }
    }
    if !notes.is_empty() {
        out.push_str("\nWhy both answers are conformant:\n\n");
        out.push_str(&notes.join("\n"));
        out.push('\n');
    }
}

/// The generated families: each family's file, its vectors, its note and
/// the generator's rule.
fn families(out: &mut String, families: &[FamilySummary]) {
    out.push_str("\n## Generated families\n\n");
    out.push_str(
        "Written by `vectors/src/generate.rs`, which builds every expected value from\n\
         the format's definition, never by running a codec.\n",
    );
    for family in families {
        let _ = write!(
            out,
            "\n<a id=\"{}\"></a>\n\n### `{}`\n\n{} vectors",
            file_anchor(&family.path),
            family.path,
            family.ids.len()
        );
        if let (Some(first), Some(last)) = (family.ids.first(), family.ids.last()) {
            let _ = write!(out, ", from [`{first}`](#{first}) to [`{last}`](#{last})");
        }
        let _ = write!(
            out,
            ", under [`NOTES.md#{note}`](NOTES.md#{note}).\n\n{}\n",
            family.rule.replace('\n', " "),
            note = family.note
        );
    }
}

/// What the corpus is (a release, or unreleased after one) and every
/// release with its digest, the words a specification cites.
fn releases(out: &mut String, vectors: &[Vector]) {
    use crate::release::{self, Label};
    let releases = match release::embedded() {
        Ok(releases) => releases,
        Err(error) => {
            let _ = writeln!(out, "The release lists do not parse: {error}\n");
            return;
        }
    };
    let label = Label::of(vectors, &releases);
    match &label {
        Label::Release { version, sha256 } => {
            let _ = writeln!(
                out,
                "**This page is corpus {version}**, sha256 `{sha256}`: exactly the vectors of \
                 that release."
            );
        }
        Label::UnreleasedAfter { version } => {
            let held = releases.last().map_or(0, |r| r.entries.len());
            let _ = writeln!(
                out,
                "**This page is {label}**: the corpus as this commit holds it. {held} of its \
                 vectors are corpus {version}, unchanged; the others are in no release yet."
            );
        }
        Label::Changed { .. } | Label::NoRelease => {
            let _ = writeln!(out, "**This page is {label}.**");
        }
    }
    out.push_str(
        "\nA specification cites a release by its version and digest (\"corpus 1.1.0, \
         sha256 …\"), and a vector of it\nby id. A release never changes; `CHANGELOG.md` \
         says what each holds, and `README.md`,\n\"Releases\", how to check a copy against \
         its digest.\n\n\
         | release | vectors | sha256 of its canonical JSON |\n| --- | --- | --- |\n",
    );
    for r in releases.iter().rev() {
        let _ = writeln!(
            out,
            "| {} | {} | `{}` |",
            r.version,
            r.entries.len(),
            r.sha256
        );
    }
    out.push('\n');
}

/// The anchor of a generated family's summary: its path with `/` as `.`,
/// prefixed so it cannot collide with a vector id.
fn file_anchor(path: &str) -> String {
    format!("file.{}", path.replace('/', "."))
}

#[cfg(test)]
mod tests;
