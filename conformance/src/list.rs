//! `list`: the vectors a selection picks, without running anything.
//!
//! Two layouts. Text: one vector per line, `id type op flags`, in columns
//! (the id padded to the longest; flags joined by commas, `-` for none), so
//! that `awk '{print $1}'` gives the ids. JSON: one document, described by
//! `list.schema.json` beside this crate's manifest; [`FORMAT_VERSION`]
//! changes when a field's meaning does (fields are only added within a
//! version). Pure: this module turns vectors into text and touches no file.

use std::io;

use serde::Serialize;
use wow_guid_vectors::Vector;

/// The version of the JSON layout, written into every document.
pub const FORMAT_VERSION: u32 = 1;

/// Writes `vectors` as text, one per line: id, type, operation, flags.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_text(vectors: &[&Vector], out: &mut dyn io::Write) -> io::Result<()> {
    let id_width = vectors.iter().map(|v| v.id.len()).max().unwrap_or(0);
    let type_width = "packed_guid".len();
    let op_width = "decode".len();
    for v in vectors {
        let flags = if v.flags.is_empty() {
            "-".to_owned()
        } else {
            v.flags
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        writeln!(
            out,
            "{:id_width$}  {:type_width$}  {:op_width$}  {flags}",
            v.id,
            v.request.guid_type().as_str(),
            v.request.op().as_str(),
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
struct Document<'a> {
    format_version: u32,
    corpus: &'a str,
    count: usize,
    vectors: Vec<Item<'a>>,
}

#[derive(Serialize)]
struct Item<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    guid_type: &'static str,
    op: &'static str,
    flags: Vec<&'static str>,
    versions: Vec<&'static str>,
    sequence: Option<&'a str>,
    location: String,
}

/// Writes `vectors`, taken from the corpus named `corpus` (`embedded` or its
/// directory), as one JSON document (see the module docs), newline-ended.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_json(corpus: &str, vectors: &[&Vector], out: &mut dyn io::Write) -> io::Result<()> {
    let doc = Document {
        format_version: FORMAT_VERSION,
        corpus,
        count: vectors.len(),
        vectors: vectors
            .iter()
            .map(|v| Item {
                id: &v.id,
                guid_type: v.request.guid_type().as_str(),
                op: v.request.op().as_str(),
                flags: v.flags.iter().map(|f| f.as_str()).collect(),
                versions: v.versions.iter().map(|f| f.as_str()).collect(),
                sequence: v.sequence.as_deref(),
                location: v.location.to_string(),
            })
            .collect(),
    };
    // `io::Error::from` keeps the error's kind (a reader gone away is
    // `BrokenPipe`, which `list | head` relies on); `other` would not.
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::tests::with_a_sequence;

    #[test]
    fn text_is_one_aligned_line_per_vector() {
        let vectors = with_a_sequence();
        let refs: Vec<&Vector> = vectors.iter().take(3).collect();
        let mut out = Vec::new();
        write_text(&refs, &mut out).unwrap();
        let flag = vectors[0].flags[0].as_str();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "packed.decode.doc-example  packed_guid  decode  {flag}\n\
                 packed.decode.empty        packed_guid  decode  stateful\n\
                 packed.encode.zero         packed_guid  encode  stateful\n"
            )
        );
        let none: Vec<&Vector> = vectors.iter().skip(3).take(1).collect();
        let mut out = Vec::new();
        write_text(&none, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "named.decode.zero  named_guid   decode  -\n"
        );
    }

    #[test]
    fn json_has_every_field_of_the_selection() {
        let vectors = with_a_sequence();
        let refs: Vec<&Vector> = vectors.iter().skip(1).take(2).collect();
        let mut out = Vec::new();
        write_json("embedded", &refs, &mut out).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(doc["format_version"], 1);
        assert_eq!(doc["corpus"], "embedded");
        assert_eq!(doc["count"], 2);
        let first = &doc["vectors"][0];
        assert_eq!(first["id"], "packed.decode.empty");
        assert_eq!(first["type"], "packed_guid");
        assert_eq!(first["op"], "decode");
        assert_eq!(first["flags"], serde_json::json!(["stateful"]));
        assert_eq!(
            first["versions"],
            serde_json::json!(["vanilla", "tbc", "wrath"])
        );
        assert_eq!(first["sequence"], "s");
        assert_eq!(first["location"], "sample.yaml:1:5");
    }
}
