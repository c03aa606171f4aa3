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
//! vector files: the generator's `write_all` rewrites it and its `check`
//! fails when it is stale, so the runner's `generate` and `generate --check`
//! cover it. Pure: this module formats what it is given (the vectors, the
//! notes' sections, the known failures, read by the caller), knows nothing
//! of the generator or of the runner, and touches no file.

use core::fmt::Write as _;
use std::collections::{BTreeMap, BTreeSet};

use crate::citation::Citation;
use crate::hex_text::{format_guid, format_spaced};
use crate::model::{Expectation, Request, Value, Vector};
use crate::vocab::Flag;

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

/// The page, from its title on (the generator puts its do-not-edit note
/// above it).
#[must_use]
pub fn render(page: &Page<'_>) -> String {
    let family_note: BTreeMap<&str, &str> = page
        .families
        .iter()
        .map(|f| (f.path.as_str(), f.note.as_str()))
        .collect();
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
    // Index in corpus order, with a sequence's steps under its first
    // step's note, so that they stay together and in order.
    let mut groups: BTreeMap<String, Vec<(usize, &Vector)>> = BTreeMap::new();
    let mut sequence_note: BTreeMap<&str, String> = BTreeMap::new();
    for (at, v) in page.vectors.iter().enumerate() {
        let note = match v.sequence.as_deref() {
            Some(sequence) => sequence_note
                .entry(sequence)
                .or_insert_with(|| note_of(v))
                .clone(),
            None => note_of(v),
        };
        groups.entry(note).or_default().push((at, v));
    }
    // Groups in the order of the notes; any other after them.
    let mut order: Vec<(String, String)> = page
        .notes
        .iter()
        .filter(|(anchor, _)| groups.contains_key(anchor))
        .cloned()
        .collect();
    for anchor in groups.keys() {
        if !order.iter().any(|(a, _)| a == anchor) {
            order.push((anchor.clone(), anchor.clone()));
        }
    }

    let hand = page
        .vectors
        .iter()
        .filter(|v| !family_note.contains_key(&*v.location.file))
        .count();
    let mut out = String::from("# The corpus, vector by vector\n\n");
    releases(&mut out, page.vectors);
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
        for &(at, v) in &groups[anchor] {
            row(&mut out, v, export_line(at), page.failures);
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

    out.push_str("\n## Generated families\n\n");
    out.push_str(
        "Written by `vectors/src/generate.rs`, which builds every expected value from\n\
         the format's definition, never by running a codec.\n",
    );
    for family in page.families {
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
    out.push_str("\n<a id=\"fault-model\"></a>\n\n## The fault model\n\n");
    match crate::fault_model::FaultModel::load() {
        Ok(model) => out.push_str(&model.render()),
        Err(error) => {
            let _ = writeln!(out, "The fault model does not load: {error}");
        }
    }
    out
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

fn row(out: &mut String, v: &Vector, line: usize, failures: &[KnownFailures]) {
    let mut request = request(&v.request);
    if let Some(sequence) = &v.sequence {
        let _ = write!(request, "; a step of `{sequence}`, after the rows above it");
    }
    if shortened(v) {
        let _ = write!(
            request,
            "; every byte: [line {line} of `vectors.json`]({EXPORT_PATH}#L{line})"
        );
    }
    let (outcome, mut expected) = outcome_and_expected(&v.expect);
    if v.request.may_refuse_as_too_long() {
        // NOTES.md, "Names longer than a bound": the permission follows
        // from the request, so the row states it.
        expected.push_str("; or error `name_too_long` from a bounded implementation");
    }
    let failing: Vec<&str> = failures
        .iter()
        .filter(|k| k.ids.contains(&v.id))
        .map(|k| k.implementation.as_str())
        .collect();
    let _ = writeln!(
        out,
        "| <a id=\"{id}\"></a>`{id}` | {} | {request} | {expected} | `{outcome}` | {} |",
        cell(&v.description),
        cell(&failing.join(", ")),
        id = v.id
    );
}

/// The committed export of the corpus, relative to the corpus root: one
/// vector a line, after a first line of its own, in corpus order.
pub const EXPORT_PATH: &str = "vectors.json";

/// The line of [`EXPORT_PATH`] that holds the vector at `index` in corpus
/// order.
#[must_use]
pub const fn export_line(index: usize) -> usize {
    index + 2
}

/// The longest byte string a row shows whole.
const SHOWN: usize = 24;

/// Whether a row shortens one of the vector's byte strings.
fn shortened(v: &Vector) -> bool {
    let long = |bytes: &[u8]| bytes.len() > SHOWN;
    let request = match &v.request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => long(bytes),
        Request::EncodeNamed {
            name: Some(name), ..
        } => long(name),
        Request::EncodeNamed { name: None, .. } | Request::EncodePacked { .. } => false,
    };
    let expected = match v.expect.value() {
        Some(Value::Encoded { bytes }) => long(bytes),
        Some(Value::Named {
            name: Some(name), ..
        }) => long(name),
        _ => false,
    };
    request || expected
}

/// The anchor of the note on two faults in one input.
const TWO_FAULTS: &str = "two-faults-in-one-input";

/// The note a case citing [`TWO_FAULTS`] rests on. That note also holds
/// the rule for a single fault (its own code), so the generator's fault
/// cells all cite it; a row is filed there only with two faults, and
/// otherwise under the note of its one fault, or of what it shows.
fn rested_on(v: &Vector) -> &'static str {
    let has = |flag| v.has_flag(flag);
    let faults: Vec<&'static str> = [
        (has(Flag::MissingNul), "a-name-must-end-with-its-nul"),
        (
            has(Flag::Truncated) && !has(Flag::MissingNul),
            "truncated-input-is-an-error",
        ),
        (has(Flag::InvalidUtf8), "names-are-strict-utf-8"),
        (has(Flag::InteriorNul), "a-name-containing-nul"),
        (has(Flag::NameWithoutGuid), "a-name-given-with-guid-0"),
    ]
    .into_iter()
    .filter_map(|(present, note)| present.then_some(note))
    .collect();
    match faults.as_slice() {
        [one] => one,
        [] => [
            (Flag::NoName, "a-non-zero-guid-given-no-name"),
            (Flag::LongName, "names-longer-than-a-bound"),
            (Flag::EmptyName, "an-empty-name"),
            (
                Flag::ZeroGuid,
                "a-name-follows-exactly-when-the-guid-is-not-0",
            ),
            (
                Flag::TrailingBytes,
                "a-value-is-read-from-the-front-of-a-message",
            ),
            (Flag::Utf8, "names-are-strict-utf-8"),
        ]
        .into_iter()
        .find(|&(flag, _)| has(flag))
        .map_or(
            "a-name-follows-exactly-when-the-guid-is-not-0",
            |(_, note)| note,
        ),
        _ => TWO_FAULTS,
    }
}

fn request(r: &Request) -> String {
    match r {
        Request::DecodePacked { bytes } => format!("decode {}", bytes_text(bytes)),
        Request::DecodeNamed { bytes } => format!("decode {}", bytes_text(bytes)),
        Request::EncodePacked { guid } => format!("encode GUID `{}`", format_guid(*guid)),
        Request::EncodeNamed { guid, name } => format!(
            "encode GUID `{}`, {}",
            format_guid(*guid),
            match name {
                None => "no name".to_owned(),
                Some(name) => format!("name {}", name_text(name)),
            }
        ),
    }
}

fn outcome_and_expected(e: &Expectation) -> (&'static str, String) {
    let outcome = e.outcome().as_str();
    let text = match e {
        Expectation::Invalid(code) => format!("error `{code}`"),
        Expectation::Valid(value) => value_text(value),
        Expectation::Acceptable { value, .. } => format!("{}, or any error", value_text(value)),
    };
    (outcome, text)
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Packed { guid, consumed } => {
            format!("GUID `{}`, {consumed} consumed", format_guid(*guid))
        }
        Value::Named {
            guid,
            consumed,
            name,
        } => format!(
            "GUID `{}`, {consumed} consumed, {}",
            format_guid(*guid),
            match name {
                None => "no name".to_owned(),
                Some(name) => format!("name {}", name_text(name)),
            }
        ),
        Value::Encoded { bytes } => bytes_text(bytes),
    }
}

/// Bytes in hex; long runs are shortened in the middle (the row links the
/// vector's line of the export, which has them all).
fn bytes_text(bytes: &[u8]) -> String {
    match bytes.len() {
        0 => "no bytes".to_owned(),
        1 => format!("`{}` (1 byte)", format_spaced(bytes)),
        n if n <= SHOWN => format!("`{}` ({n} bytes)", format_spaced(bytes)),
        n => format!(
            "`{} … {}` ({n} bytes)",
            format_spaced(&bytes[..SHOWN / 2]),
            format_spaced(&bytes[n - 4..])
        ),
    }
}

/// A name as hex, with its text when it is printable UTF-8.
fn name_text(name: &[u8]) -> String {
    let hex = bytes_text(name);
    match core::str::from_utf8(name) {
        Ok(text) if !text.is_empty() && text.len() <= 64 && !text.chars().any(char::is_control) => {
            format!("{hex}, “{}”", cell(text))
        }
        _ => hex,
    }
}

/// Text safe inside a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::citation::anchors;

    fn sample() -> (Vec<Vector>, Vec<FamilySummary>, Vec<(String, String)>) {
        let corpus = crate::Corpus::embedded().expect("the checked-in corpus loads");
        let family = FamilySummary {
            path: "generated/packed-masks.yaml".to_owned(),
            rule: "Every mask 00..ff,\ndecoded and encoded.".to_owned(),
            note: "the-mask-selects-byte-positions".to_owned(),
            ids: corpus
                .vectors
                .iter()
                .filter(|v| *v.location.file == *"generated/packed-masks.yaml")
                .map(|v| v.id.clone())
                .collect(),
        };
        let notes = vec![
            (
                "the-worked-example".to_owned(),
                "The worked example".to_owned(),
            ),
            (
                "the-mask-selects-byte-positions".to_owned(),
                "The mask selects byte positions".to_owned(),
            ),
        ];
        (corpus.vectors, vec![family], notes)
    }

    fn page_for(failures: &[KnownFailures]) -> String {
        let (vectors, families, notes) = sample();
        render(&Page {
            version: "9.8.7",
            notes: &notes,
            vectors: &vectors,
            families: &families,
            failures,
        })
    }

    #[test]
    fn every_vector_has_its_id_as_anchor_and_one_row() {
        let page = page_for(&[]);
        let found = anchors(&page);
        let (vectors, _, _) = sample();
        for v in &vectors {
            assert!(found.contains(&v.id), "no anchor for {}", v.id);
            assert_eq!(
                page.matches(&format!("<a id=\"{}\"></a>`{}`", v.id, v.id))
                    .count(),
                1,
                "{}",
                v.id
            );
        }
        assert!(
            page.contains("**This page is unreleased after corpus "),
            "{}",
            &page[..400]
        );
        assert!(page.contains("| release | vectors | sha256 of its canonical JSON |"));
        assert!(!page.contains("corpus-v"), "no release has a tag");
        assert!(!page.contains(".yaml:"), "a row shows a file position");
    }

    #[test]
    fn rows_are_grouped_under_their_note_in_the_notes_order() {
        let page = page_for(&[]);
        let worked = page.find("## The worked example").unwrap();
        let mask = page.find("## The mask selects byte positions").unwrap();
        let other = page
            .find("<a id=\"group.truncated-input-is-an-error\"></a>")
            .unwrap();
        assert!(worked < mask && mask < other);
        assert!(page[worked..mask].contains("<a id=\"packed.decode.doc-example\"></a>"));
        // A generated family is grouped under the note it names.
        assert!(page[mask..other].contains("<a id=\"packed.decode.mask-ff\"></a>"));
        assert!(page.contains(
            "The position: [`NOTES.md#the-worked-example`](NOTES.md#the-worked-example)."
        ));
    }

    #[test]
    fn a_row_shows_request_answer_outcome_and_failing_implementations() {
        let known = [KnownFailures {
            implementation: "spec-c-snippet".to_owned(),
            ids: ["packed.decode.doc-example".to_owned()].into(),
        }];
        let page = page_for(&known);
        assert!(page.contains(
            "| <a id=\"packed.decode.doc-example\"></a>`packed.decode.doc-example` | The spec's \
             worked example, mask 0a with bytes de and ad. | decode `0a de ad` (3 bytes) | GUID \
             `00000000ad00de00`, 3 consumed | `valid` | spec-c-snippet |"
        ));
        assert!(page.contains("| spec-c-snippet | 1 |"));
        let at = page.find("<a id=\"named.encode.no-name\"></a>").unwrap();
        assert!(page[at..].contains("or any error"));
        assert!(page[at..].contains("Why both answers are conformant:"));
    }

    /// The group a vector's row is in: the anchor of the last group
    /// heading above its row.
    fn group_of<'a>(page: &'a str, id: &str) -> &'a str {
        let at = page
            .find(&format!("<a id=\"{id}\"></a>`{id}`"))
            .unwrap_or_else(|| panic!("no row for {id}"));
        let heading = page[..at].rfind("<a id=\"group.").expect("a group above");
        let rest = &page[heading + "<a id=\"group.".len()..];
        &rest[..rest.find('"').unwrap()]
    }

    #[test]
    fn a_row_stands_under_the_note_its_case_rests_on() {
        let page = page_for(&[]);
        // Its own source before its family's note.
        assert_eq!(
            group_of(&page, "packed.decode.mask-00"),
            "guid-0-is-one-byte"
        );
        assert_eq!(
            group_of(&page, "packed.decode.mask-ff"),
            "the-mask-selects-byte-positions"
        );
        // Fault cells cite the two-fault note; only a pair stands there.
        assert_eq!(
            group_of(
                &page,
                "named.decode.cell.class-overlong.invalid_utf8.missing_terminator"
            ),
            TWO_FAULTS
        );
        assert_eq!(
            group_of(&page, "named.decode.cell.class-empty.valid"),
            "an-empty-name"
        );
        assert_eq!(
            group_of(&page, "named.decode.cell.guid-bytes-1.truncated_guid"),
            "truncated-input-is-an-error"
        );
    }

    #[test]
    fn the_steps_of_a_sequence_stand_together_in_order() {
        let page = page_for(&[]);
        let (vectors, _, _) = sample();
        let mut sequences: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for v in &vectors {
            if let Some(sequence) = &v.sequence {
                sequences.entry(sequence).or_default().push(&v.id);
            }
        }
        assert!(sequences.len() >= 4, "{sequences:?}");
        for (sequence, steps) in &sequences {
            let rows: Vec<usize> = steps
                .iter()
                .map(|id| page.find(&format!("<a id=\"{id}\"></a>`{id}`")).unwrap())
                .collect();
            assert!(
                rows.windows(2).all(|w| w[0] < w[1]),
                "{sequence} out of order"
            );
            let first = group_of(&page, steps[0]);
            for id in steps {
                assert_eq!(group_of(&page, id), first, "{id} apart from its sequence");
            }
        }
    }

    #[test]
    fn a_shortened_row_links_the_line_of_the_export_that_holds_every_byte() {
        let page = page_for(&[]);
        let (vectors, _, _) = sample();
        let export = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPORT_PATH),
        )
        .expect("vectors.json reads");
        let lines: Vec<&str> = export.lines().collect();
        let mut linked = 0;
        for (at, v) in vectors.iter().enumerate() {
            let line = export_line(at);
            let link = format!("({EXPORT_PATH}#L{line})");
            let row_at = page.find(&format!("<a id=\"{}\"></a>", v.id)).unwrap();
            let row = &page[row_at..row_at + page[row_at..].find('\n').unwrap()];
            assert_eq!(row.contains(&link), shortened(v), "{}: {row}", v.id);
            assert!(
                lines[line - 1].starts_with(&format!("{{\"id\":\"{}\"", v.id)),
                "line {line} of {EXPORT_PATH} is not {}",
                v.id
            );
            linked += usize::from(shortened(v));
        }
        assert!(linked > 100, "{linked}");
    }

    #[test]
    fn long_byte_strings_are_shortened_and_names_shown_as_text() {
        assert_eq!(bytes_text(&[]), "no bytes");
        assert_eq!(bytes_text(&[0x41; 30]).matches("41").count(), 16);
        assert_eq!(name_text(b"Bob"), "`42 6f 62` (3 bytes), “Bob”");
        assert_eq!(name_text(&[0xff]), "`ff` (1 byte)");
        assert_eq!(cell("a|b\nc"), "a\\|b c");
    }
}
