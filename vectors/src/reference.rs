//! The corpus as a page to read and link to: `REFERENCE.md` at the corpus
//! root.
//!
//! Every hand-written vector gets a section with a stable anchor, its id
//! (`REFERENCE.md#packed.decode.doc-example`), showing what it asks, what a
//! conformant implementation answers, why (for `acceptable` vectors) and its
//! source, linked to the note it cites. Each generated family gets a summary:
//! its file, how many vectors, the generator's rule and the range of its ids.
//!
//! The page is written by [`render`] and kept up to date like the generated
//! vector files: the generator's `write_all` rewrites it and its `check`
//! fails when it is stale, so the runner's `generate` and `generate --check`
//! cover it. Pure: this module formats vectors it is given, knows nothing of
//! the generator, and touches no file.

use core::fmt::Write as _;

use crate::citation::Citation;
use crate::hex_text::{format_guid, format_spaced};
use crate::model::{Expectation, Request, Value, Vector};

/// The page's path, relative to the corpus root.
pub const PATH: &str = "REFERENCE.md";

/// A generated family as the reference summarises it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySummary {
    /// The family's file, relative to the corpus root.
    pub path: String,
    /// The generator's rule for the family, as its file header states it.
    pub rule: String,
    /// The family's vector ids, in file order.
    pub ids: Vec<String>,
}

/// The page for `hand_written` vectors (in corpus order) and the generated
/// `families`, from its title on (the generator puts its do-not-edit note
/// above it).
#[must_use]
pub fn render(hand_written: &[Vector], families: &[FamilySummary]) -> String {
    let generated: usize = families.iter().map(|f| f.ids.len()).sum();
    let mut out = String::new();
    let _ = write!(
        out,
        "# The corpus, vector by vector\n\n\
         {} vectors: {} written by hand, each listed below under an anchor that is\n\
         its id, so a document can link to one (`REFERENCE.md#packed.decode.doc-example`),\n\
         and {generated} generated in {} families, summarised at the end with the rule\n\
         that generates them. `README.md` explains the fields and how answers are\n\
         judged; `NOTES.md` explains the positions the vectors take.\n\n",
        hand_written.len() + generated,
        hand_written.len(),
        families.len(),
    );

    out.push_str("## Contents\n\n");
    for (file, count) in files(hand_written) {
        let _ = writeln!(out, "- [`{file}`](#{}) ({count})", file_anchor(&file));
    }
    out.push_str("- [Generated families](#generated-families)\n");

    let mut current = "";
    for v in hand_written {
        if *v.location.file != *current {
            current = &v.location.file;
            let _ = write!(
                out,
                "\n<a id=\"{}\"></a>\n\n## `{current}`\n",
                file_anchor(current)
            );
        }
        vector(&mut out, v);
    }

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
            let _ = write!(out, ", from `{first}` to `{last}`");
        }
        let _ = write!(out, ".\n\n{}\n", family.rule.replace('\n', " "));
    }
    out
}

/// The files of `vectors` with their vector counts, in corpus order.
fn files(vectors: &[Vector]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for v in vectors {
        match out.last_mut() {
            Some((file, count)) if **file == *v.location.file => *count += 1,
            _ => out.push((v.location.file.to_string(), 1)),
        }
    }
    out
}

/// The anchor of a file's section: its path with `/` as `.`, prefixed so it
/// cannot collide with a vector id.
fn file_anchor(path: &str) -> String {
    format!("file.{}", path.replace('/', "."))
}

fn vector(out: &mut String, v: &Vector) {
    let _ = write!(
        out,
        "\n<a id=\"{id}\"></a>\n\n### `{id}`\n\n{}\n\n| | |\n| --- | --- |\n",
        v.description,
        id = v.id
    );
    let _ = writeln!(out, "| request | {} |", request(&v.request));
    if let Some(sequence) = &v.sequence {
        let _ = writeln!(
            out,
            "| sequence | `{sequence}`: run after the steps above it, in one session |"
        );
    }
    let (outcome, expected) = outcome_and_expected(&v.expect);
    let _ = writeln!(out, "| outcome | `{outcome}` |");
    let _ = writeln!(out, "| expected | {expected} |");
    if let Expectation::Acceptable { why, .. } = &v.expect {
        let _ = writeln!(out, "| why | {} |", cell(why));
    }
    if !v.flags.is_empty() {
        let flags: Vec<String> = v.flags.iter().map(|f| format!("`{f}`")).collect();
        let _ = writeln!(out, "| flags | {} |", flags.join(", "));
    }
    let versions: Vec<&str> = v.versions.iter().map(|v| v.as_str()).collect();
    let _ = writeln!(out, "| versions | {} |", versions.join(", "));
    if let Some(source) = &v.source {
        let _ = writeln!(out, "| source | {} |", source_cell(source));
    }
    let _ = writeln!(out, "| file | `{}` |", v.location);
}

fn request(r: &Request) -> String {
    match r {
        Request::DecodePacked { bytes } => {
            format!("decode `packed_guid` from {}", bytes_text(bytes))
        }
        Request::DecodeNamed { bytes } => format!("decode `named_guid` from {}", bytes_text(bytes)),
        Request::EncodePacked { guid } => {
            format!("encode `packed_guid`, GUID `{}`", format_guid(*guid))
        }
        Request::EncodeNamed { guid, name } => format!(
            "encode `named_guid`, GUID `{}`, {}",
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
        Expectation::Invalid(code) => format!("an error, code `{code}`"),
        Expectation::Valid(value) => value_text(value),
        Expectation::Acceptable { value, .. } => format!("{}, or any error", value_text(value)),
    };
    (outcome, text)
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Packed { guid, consumed } => {
            format!("GUID `{}`, {consumed} bytes consumed", format_guid(*guid))
        }
        Value::Named {
            guid,
            consumed,
            name,
        } => format!(
            "GUID `{}`, {consumed} bytes consumed, {}",
            format_guid(*guid),
            match name {
                None => "no name".to_owned(),
                Some(name) => format!("name {}", name_text(name)),
            }
        ),
        Value::Encoded { bytes } => format!("the bytes {}", bytes_text(bytes)),
    }
}

/// Bytes in hex; long runs are shortened in the middle (the YAML file has
/// them all).
fn bytes_text(bytes: &[u8]) -> String {
    const SHOWN: usize = 24;
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

/// A source with its citation turned into a link.
fn source_cell(source: &str) -> String {
    match Citation::parse(source) {
        Ok(c) => {
            let target = match c.anchor {
                Some(anchor) => format!("{}#{anchor}", c.path),
                None => c.path.to_owned(),
            };
            format!("[`{target}`]({target}): {}", cell(c.text))
        }
        Err(_) => cell(source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::citation::anchors;

    fn sample() -> (Vec<Vector>, Vec<FamilySummary>) {
        let corpus = crate::Corpus::embedded().expect("the checked-in corpus loads");
        let (generated, hand): (Vec<Vector>, Vec<Vector>) = corpus
            .vectors
            .into_iter()
            .partition(|v| v.location.file.starts_with("generated/"));
        let family = FamilySummary {
            path: "generated/packed-masks.yaml".to_owned(),
            rule: "Every mask 00..ff,\ndecoded and encoded.".to_owned(),
            ids: generated
                .iter()
                .filter(|v| *v.location.file == *"generated/packed-masks.yaml")
                .map(|v| v.id.clone())
                .collect(),
        };
        (hand, vec![family])
    }

    #[test]
    fn every_hand_written_vector_has_its_id_as_anchor() {
        let (hand, families) = sample();
        let page = render(&hand, &families);
        let found = anchors(&page);
        for v in &hand {
            assert!(found.contains(&v.id), "no anchor for {}", v.id);
        }
        assert!(found.iter().any(|a| a == "packed.decode.doc-example"));
        assert!(page.contains(
            "### `generated/packed-masks.yaml`\n\n512 vectors, from `packed.decode.mask-00` \
             to `packed.encode.mask-ff`.\n\nEvery mask 00..ff, decoded and encoded.\n"
        ));
    }

    #[test]
    fn a_vector_shows_request_outcome_expectation_and_linked_source() {
        let (hand, families) = sample();
        let page = render(&hand, &families);
        let at = page.find("### `packed.decode.doc-example`").unwrap();
        let section = &page[at..at + page[at..].find("\n<a id").unwrap_or(page.len() - at)];
        assert!(
            section.contains("decode `packed_guid` from `0a de ad` (3 bytes)"),
            "{section}"
        );
        assert!(section.contains("| outcome | `valid` |"), "{section}");
        assert!(
            section.contains("GUID `00000000ad00de00`, 3 bytes consumed"),
            "{section}"
        );
        assert!(
            section.contains("[`NOTES.md#the-worked-example`](NOTES.md#the-worked-example)"),
            "{section}"
        );
        let acceptable = page.find("### `named.encode.no-name`").unwrap();
        assert!(page[acceptable..].contains("| why |"));
        assert!(page[acceptable..].contains("or any error"));
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
