//! `list`: the vectors a selection picks, without running anything.
//!
//! Two layouts. Text: one vector per line, `id type op flags`, in columns
//! (the id padded to the longest; flags joined by commas, `-` for none), so
//! that `awk '{print $1}'` gives the ids. JSON: one document, described by
//! `list.schema.json` beside this crate's manifest; [`FORMAT_VERSION`]
//! changes when a field's meaning does (fields are only added within a
//! version). Pure: this module turns vectors into text and touches no file.

use std::io;

use crate::format::Named;
use serde::Serialize;
use wow_guid_harness::report::Format;
use wow_guid_vectors::{GuidType, Op, Vector};

/// The version of the JSON layout, written into every document.
pub const FORMAT_VERSION: u32 = 1;

/// What `list` writes: the vectors a selection picked, from the corpus
/// named `corpus` (`embedded` or its directory).
#[derive(Clone, Copy, Debug)]
pub struct Listing<'a> {
    /// The corpus, as reports name it.
    pub corpus: &'a str,
    /// The vectors, in corpus order.
    pub vectors: &'a [&'a Vector],
}

/// A format of `list`.
pub type ListFormat = dyn for<'a> Format<Listing<'a>> + Sync;

/// The formats of `list`, by name.
pub const FORMATS: &[Named<ListFormat>] = &[
    Named {
        name: "text",
        about: "one vector per line: id, type, operation, flags",
        format: &Text,
    },
    Named {
        name: "json",
        about: "one JSON document, conformance/list.schema.json",
        format: &Json,
    },
];

/// One vector per line, in columns: id, type, operation, flags
/// (comma-separated, `-` for none).
#[derive(Clone, Copy, Debug)]
pub struct Text;

/// One JSON document (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Json;

/// The width of the longest of `words`.
fn widest(words: &[&str]) -> usize {
    words.iter().map(|w| w.len()).max().unwrap_or(0)
}

impl Format<Listing<'_>> for Text {
    fn write(&self, listing: &Listing<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        let vectors = listing.vectors;
        let id_width = vectors.iter().map(|v| v.id.len()).max().unwrap_or(0);
        let type_width = widest(GuidType::WORDS);
        let op_width = widest(Op::WORDS);
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

impl Format<Listing<'_>> for Json {
    fn write(&self, listing: &Listing<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        let doc = Document {
            format_version: FORMAT_VERSION,
            corpus: listing.corpus,
            count: listing.vectors.len(),
            vectors: listing
                .vectors
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
}
