//! The page's own tests: the rendering of rows and groups.

use super::row::{bytes_text, name_text, shortened};
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

/// The page of `vectors` (the corpus's when `None`).
fn page_of(vectors: Option<&[Vector]>, failures: &[KnownFailures]) -> String {
    let (corpus, families, notes) = sample();
    render(&Page {
        version: "9.8.7",
        notes: &notes,
        vectors: vectors.unwrap_or(&corpus),
        families: &families,
        failures,
    })
}

#[test]
fn every_vector_has_its_id_as_anchor_and_one_row() {
    let page = page_of(None, &[]);
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
    // The header says what the corpus is: this commit's label, whatever it
    // is, and "unreleased after" once a vector in no release joins it.
    let releases = crate::release::embedded().expect("the release lists parse");
    let label = crate::release::Label::of(&vectors, &releases);
    let header = match &label {
        crate::release::Label::Release { version, .. } => {
            format!("**This page is corpus {version}**")
        }
        other => format!("**This page is {other}"),
    };
    assert!(page.contains(&header), "{header}\n{}", &page[..400]);
    let mut more = vectors.clone();
    let mut extra = more[0].clone();
    extra.id = "packed.decode.in-no-release".to_owned();
    more.push(extra);
    let grown = page_of(Some(&more), &[]);
    assert!(
        grown.contains("**This page is unreleased after corpus "),
        "{}",
        &grown[..400]
    );
    assert!(page.contains("| release | vectors | sha256 of its canonical JSON |"));
    assert!(!page.contains("corpus-v"), "no release has a tag");
    assert!(!page.contains(".yaml:"), "a row shows a file position");
}

#[test]
fn rows_are_grouped_under_their_note_in_the_notes_order() {
    let page = page_of(None, &[]);
    let worked = page.find("## The worked example").unwrap();
    let mask = page.find("## The mask selects byte positions").unwrap();
    let other = page
        .find("<a id=\"group.truncated-input-is-an-error\"></a>")
        .unwrap();
    assert!(worked < mask && mask < other);
    assert!(page[worked..mask].contains("<a id=\"packed.decode.doc-example\"></a>"));
    // A generated family is grouped under the note it names.
    assert!(page[mask..other].contains("<a id=\"packed.decode.mask-ff\"></a>"));
    assert!(page
        .contains("The position: [`NOTES.md#the-worked-example`](NOTES.md#the-worked-example)."));
}

#[test]
fn a_row_shows_request_answer_outcome_and_failing_implementations() {
    let known = [KnownFailures {
        implementation: "spec-c-snippet".to_owned(),
        ids: ["packed.decode.doc-example".to_owned()].into(),
    }];
    let page = page_of(None, &known);
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
    let page = page_of(None, &[]);
    for (id, group) in [
        // Its own source before its family's note.
        ("packed.decode.mask-00", "guid-0-is-one-byte"),
        ("packed.decode.mask-ff", "the-mask-selects-byte-positions"),
        // Fault cells cite the two-fault note; only a pair stands there.
        (
            "named.decode.cell.class-overlong.invalid_utf8.missing_terminator",
            TWO_FAULTS,
        ),
        ("named.decode.cell.class-empty.valid", "an-empty-name"),
        (
            "named.decode.cell.guid-bytes-1.truncated_guid",
            "truncated-input-is-an-error",
        ),
    ] {
        assert_eq!(group_of(&page, id), group, "{id}");
    }
}

#[test]
fn the_steps_of_a_sequence_stand_together_in_order() {
    let page = page_of(None, &[]);
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
    let page = page_of(None, &[]);
    let (vectors, _, _) = sample();
    let export =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPORT_PATH))
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
