//! `export`: the corpus as JSON, for test runners in any language.
//!
//! Implementers who would rather load the vectors into their own test
//! framework than run an adapter get every field of every vector, with
//! requests and expected answers both in protocol form (the exact lines `run`
//! sends and expects) and as raw bytes (arrays of numbers 0 to 255), so no
//! hex or YAML parsing is needed. Two layouts: one JSON document ([`Json`])
//! and JSON Lines, one vector per line ([`Jsonl`]), listed in [`FORMATS`].
//! `export.schema.json` beside this crate's manifest describes both as a JSON
//! Schema (draft 2020-12); [`FORMAT_VERSION`] changes when a field's meaning
//! does.
//!
//! GUIDs are 16 hex digits, as in the vector files, because many JSON
//! readers turn numbers above 2^53 into floating point. Pure: this module
//! turns vectors into text and touches no file.

use std::io;

use serde::Serialize;
use wow_guid_vectors::release::{self, Label};
use wow_guid_vectors::{ErrorCode, Expectation, Request, Value, Vector};

use crate::disagreement::expected_response;
use crate::format::Named;
use wow_guid_harness::protocol::{request_line, response_line};
use wow_guid_harness::report::Format;

/// Where `generate` keeps the corpus exported as [`Json`], relative
/// to the corpus root: one file anyone can download and load without the
/// runner. `generate --check` fails when it is stale.
pub const COMMITTED_PATH: &str = "vectors.json";

/// The version of the export's layout, written into every document.
pub const FORMAT_VERSION: u32 = 1;

/// The name of the export format, written into every document.
pub const FORMAT_NAME: &str = "wow-guid-vectors";

/// A format of an export: it writes a list of vectors.
pub type ExportFormat = dyn Format<[Vector]> + Sync;

/// The formats of an export, by name.
pub const FORMATS: &[Named<ExportFormat>] = &[
    Named {
        name: "json",
        about: "one document with every vector",
        format: &Json,
    },
    Named {
        name: "jsonl",
        about: "one vector per line",
        format: &Jsonl,
    },
];

/// One JSON document: a header and the array `vectors`.
#[derive(Clone, Copy, Debug)]
pub struct Json;

/// JSON Lines: one vector object per line, nothing else.
#[derive(Clone, Copy, Debug)]
pub struct Jsonl;

/// The whole document of [`Json`].
#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    format_version: u32,
    corpus_version: String,
    vector_count: usize,
    vectors: Vec<Exported<'a>>,
}

/// One vector, as both formats write it.
#[derive(Serialize)]
struct Exported<'a> {
    id: &'a str,
    sequence: Option<&'a str>,
    description: &'a str,
    #[serde(rename = "type")]
    guid_type: &'static str,
    op: &'static str,
    request: ExportedRequest,
    outcome: &'static str,
    expect: ExportedExpect,
    why: Option<&'a str>,
    flags: Vec<&'static str>,
    versions: Vec<&'static str>,
    source: Option<&'a str>,
    file: &'a str,
    line: usize,
}

#[derive(Serialize)]
struct ExportedRequest {
    /// The protocol line `run` sends, without the newline.
    line: String,
    /// Decode: the input bytes.
    bytes: Option<Vec<u8>>,
    /// Encode: the GUID.
    guid: Option<String>,
    /// Encode `named_guid`: the name's bytes; `null` also when no name is given.
    name: Option<Vec<u8>>,
    /// Encode `named_guid`: whether a name is given at all.
    has_name: bool,
}

#[derive(Serialize)]
struct ExportedExpect {
    /// The response line a conformant implementation may answer with
    /// (`ok ...` for `valid` and `acceptable`, `error CODE` for `invalid`).
    line: String,
    guid: Option<String>,
    consumed: Option<usize>,
    name: Option<Vec<u8>>,
    bytes: Option<Vec<u8>>,
    size: Option<usize>,
    error: Option<&'static str>,
    /// The error a bounded implementation may answer instead: set for a
    /// request whose name is long enough to be refused as too long.
    or_error: Option<&'static str>,
}

fn exported(v: &Vector) -> Exported<'_> {
    let (bytes, guid, name, has_name) = match &v.request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            (Some(bytes.clone()), None, None, false)
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            (None, Some(guid_text(*guid)), None, false)
        }
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            (None, Some(guid_text(*guid)), name.clone(), name.is_some())
        }
    };
    let mut expect = ExportedExpect {
        line: response_line(&v.id, &expected_response(&v.expect)),
        guid: None,
        consumed: None,
        name: None,
        bytes: None,
        size: None,
        error: None,
        or_error: v
            .request
            .may_refuse_as_too_long()
            .then_some(ErrorCode::NameTooLong.as_str()),
    };
    match &v.expect {
        Expectation::Invalid(code) => expect.error = Some(code.as_str()),
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => match value {
            Value::Packed { guid, consumed } => {
                expect.guid = Some(guid_text(*guid));
                expect.consumed = Some(*consumed);
            }
            Value::Named {
                guid,
                consumed,
                name,
            } => {
                expect.guid = Some(guid_text(*guid));
                expect.consumed = Some(*consumed);
                expect.name.clone_from(name);
            }
            Value::Encoded { bytes } => expect.bytes = Some(bytes.clone()),
            Value::Size { size } => expect.size = Some(*size),
        },
    }
    Exported {
        id: &v.id,
        sequence: v.sequence.as_deref(),
        description: &v.description,
        guid_type: v.request.guid_type().as_str(),
        op: v.request.op().as_str(),
        request: ExportedRequest {
            line: request_line(&v.id, &v.request),
            bytes,
            guid,
            name,
            has_name,
        },
        outcome: v.expect.outcome().as_str(),
        expect,
        why: match &v.expect {
            Expectation::Acceptable { why, .. } => Some(why),
            _ => None,
        },
        flags: v.flags.iter().map(|f| f.as_str()).collect(),
        versions: v.versions.iter().map(|v| v.as_str()).collect(),
        source: v.source.as_deref(),
        file: &v.location.file,
        line: v.location.line,
    }
}

fn guid_text(guid: u64) -> String {
    wow_guid_vectors::hex_text::format_guid(guid)
}

impl Format<[Vector]> for Json {
    fn write(&self, vectors: &[Vector], out: &mut dyn io::Write) -> io::Result<()> {
        // One vector a line, so a committed export diffs by vector.
        let header = to_json(&Document {
            format: FORMAT_NAME,
            format_version: FORMAT_VERSION,
            corpus_version: corpus_version(vectors),
            vector_count: vectors.len(),
            vectors: Vec::new(),
        });
        let head = header
            .strip_suffix("[]}")
            .unwrap_or_else(|| unreachable!("the document ends with its empty vector list"));
        let body: Vec<String> = vectors.iter().map(|v| to_json(&exported(v))).collect();
        write!(out, "{head}[\n{}\n]}}\n", body.join(",\n"))
    }
}

impl Format<[Vector]> for Jsonl {
    fn write(&self, vectors: &[Vector], out: &mut dyn io::Write) -> io::Result<()> {
        for v in vectors {
            writeln!(out, "{}", to_json(&exported(v)))?;
        }
        Ok(())
    }
}

/// `vectors`, in the order given, as `format`; ends with a newline.
#[must_use]
pub fn render(vectors: &[Vector], format: &ExportFormat) -> String {
    let mut out = Vec::new();
    format
        .write(vectors, &mut out)
        .expect("writing to a Vec cannot fail");
    // Only JSON was written.
    String::from_utf8(out).unwrap_or_default()
}

/// What `vectors` are, as a version string: `1.1.0` when they are exactly
/// that release, `1.1.0+unreleased` when they hold it and more
/// ([`Label::version`]).
fn corpus_version(vectors: &[Vector]) -> String {
    match release::embedded() {
        Ok(releases) => Label::of(vectors, &releases).version(),
        // The lists are compiled in and their test keeps them parsing.
        Err(_) => Label::NoRelease.version(),
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Structs of strings, numbers, booleans and arrays: serde_json cannot
    // fail on them (it fails only on maps with non-string keys and on
    // serialiser errors, neither of which these types have).
    serde_json::to_string(value)
        .unwrap_or_else(|err| unreachable!("plain data always serialises to JSON: {err}"))
}
