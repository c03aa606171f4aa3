//! `export`: the corpus as JSON, for test runners in any language.
//!
//! Implementers who would rather load the vectors into their own test
//! framework than run an adapter get every field of every vector, with
//! requests and expected answers both in protocol form (the exact lines
//! `run` sends and expects) and as raw bytes (arrays of numbers 0 to 255), so
//! no hex or YAML parsing is needed. Two layouts: one JSON document
//! ([`Format::Json`]) and JSON Lines, one vector per line ([`Format::Jsonl`]).
//! `export.schema.json` beside this crate's manifest describes both as a JSON
//! Schema (draft 2020-12); [`FORMAT_VERSION`] changes when a field's meaning
//! does.
//!
//! GUIDs are 16 hex digits, as in the vector files, because many JSON
//! readers turn numbers above 2^53 into floating point. Pure: this module
//! turns vectors into text and touches no file.

use core::fmt;
use core::str::FromStr;

use serde::Serialize;
use wow_guid_vectors::{ErrorCode, Expectation, Request, Value, Vector};

use crate::protocol::{request_line, response_line, Response};

/// Where `generate` keeps the corpus exported as [`Format::Json`], relative
/// to the corpus root: one file anyone can download and load without the
/// runner. `generate --check` fails when it is stale.
pub const COMMITTED_PATH: &str = "vectors.json";

/// The version of the export's layout, written into every document.
pub const FORMAT_VERSION: u32 = 1;

/// The name of the export format, written into every document.
pub const FORMAT_NAME: &str = "wow-guid-vectors";

/// The layout of an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON document: a header and the array `vectors`.
    Json,
    /// JSON Lines: one vector object per line, nothing else.
    Jsonl,
}

impl Format {
    /// Every format, by its name on the command line.
    pub const ALL: &'static [(&'static str, Format)] =
        &[("json", Format::Json), ("jsonl", Format::Jsonl)];
}

/// A format name that is not `json` or `jsonl`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown export format `{}`; expected `json` (one document) or `jsonl` (one vector per line)",
            self.0.escape_debug()
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, format)| *format)
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Jsonl => "jsonl",
        })
    }
}

/// The whole document of [`Format::Json`].
#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    format_version: u32,
    corpus_version: &'static str,
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
        Request::EncodePacked { guid } => (None, Some(guid_text(*guid)), None, false),
        Request::EncodeNamed { guid, name } => {
            (None, Some(guid_text(*guid)), name.clone(), name.is_some())
        }
    };
    let answer = match &v.expect {
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => {
            Response::Ok(value.clone())
        }
        Expectation::Invalid(code) => Response::Error(*code),
    };
    let mut expect = ExportedExpect {
        line: response_line(&v.id, &answer),
        guid: None,
        consumed: None,
        name: None,
        bytes: None,
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

/// `vectors`, in the order given, as `format`; ends with a newline.
#[must_use]
pub fn render(vectors: &[Vector], format: Format) -> String {
    match format {
        Format::Json => {
            // One vector a line, so a committed export diffs by vector.
            let header = to_json(&Document {
                format: FORMAT_NAME,
                format_version: FORMAT_VERSION,
                corpus_version: wow_guid_vectors::release::CORPUS_VERSION,
                vector_count: vectors.len(),
                vectors: Vec::new(),
            });
            let head = header
                .strip_suffix("[]}")
                .unwrap_or_else(|| unreachable!("the document ends with its empty vector list"));
            let body: Vec<String> = vectors.iter().map(|v| to_json(&exported(v))).collect();
            format!("{head}[\n{}\n]}}\n", body.join(",\n"))
        }
        Format::Jsonl => vectors
            .iter()
            .map(|v| to_json(&exported(v)) + "\n")
            .collect(),
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Structs of strings, numbers, booleans and arrays: serde_json cannot
    // fail on them (it fails only on maps with non-string keys and on
    // serialiser errors, neither of which these types have).
    serde_json::to_string(value)
        .unwrap_or_else(|err| unreachable!("plain data always serialises to JSON: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;
    use wow_guid_vectors::Corpus;

    fn corpus() -> Corpus {
        Corpus::embedded().expect("the checked-in corpus loads")
    }

    #[test]
    fn the_document_holds_every_vector_with_every_field() {
        let corpus = corpus();
        let doc: Json = serde_json::from_str(&render(&corpus.vectors, Format::Json)).unwrap();
        assert_eq!(doc["format"], FORMAT_NAME);
        assert_eq!(doc["format_version"], FORMAT_VERSION);
        assert_eq!(doc["vector_count"], corpus.vectors.len());
        let vectors = doc["vectors"].as_array().unwrap();
        assert_eq!(vectors.len(), corpus.vectors.len());
        let example = vectors
            .iter()
            .find(|v| v["id"] == "packed.decode.doc-example")
            .unwrap();
        assert_eq!(
            example["request"]["line"],
            "packed.decode.doc-example decode packed_guid 0adead"
        );
        assert_eq!(
            example["request"]["bytes"],
            serde_json::json!([10, 222, 173])
        );
        assert_eq!(example["expect"]["guid"], "00000000ad00de00");
        assert_eq!(example["expect"]["consumed"], 3);
        assert_eq!(
            example["expect"]["line"],
            "packed.decode.doc-example ok 00000000ad00de00 3"
        );
        assert_eq!(example["file"], "packed_guid/doc-example.yaml");
        assert!(example["source"].as_str().unwrap().starts_with("NOTES.md#"));
        let mut fields = [
            "id",
            "sequence",
            "description",
            "type",
            "op",
            "request",
            "outcome",
            "expect",
            "why",
            "flags",
            "versions",
            "source",
            "file",
            "line",
        ];
        fields.sort_unstable();
        for v in vectors {
            let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, fields, "{}", v["id"]);
        }
        // Written in the order of the schema, id first, for people reading it.
        let text = render(&corpus.vectors[..1], Format::Jsonl);
        assert!(text.starts_with("{\"id\":"), "{text}");
    }

    #[test]
    fn names_keep_no_name_apart_from_an_empty_name() {
        let doc: Json = serde_json::from_str(&render(&corpus().vectors, Format::Json)).unwrap();
        let find = |id: &str| {
            doc["vectors"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["id"] == id)
                .unwrap()
                .clone()
        };
        let no_name = find("named.encode.no-name");
        assert_eq!(no_name["request"]["has_name"], false);
        assert_eq!(no_name["request"]["name"], Json::Null);
        assert_eq!(no_name["outcome"], "acceptable");
        assert!(no_name["why"].is_string());
        let empty = find("named.encode.empty-name");
        assert_eq!(empty["request"]["has_name"], true);
        assert_eq!(empty["request"]["name"], serde_json::json!([]));
        let invalid = find("packed.decode.empty");
        assert_eq!(invalid["expect"]["error"], "eof");
        assert_eq!(invalid["expect"]["line"], "packed.decode.empty error eof");
        assert_eq!(
            invalid["request"]["line"],
            "packed.decode.empty decode packed_guid -"
        );
    }

    /// The schema names exactly the fields written, at every level, and
    /// requires all of them: a field added here without the schema (or the
    /// other way round) fails.
    #[test]
    fn the_schema_describes_every_field_written() {
        let schema: Json = serde_json::from_str(include_str!("../export.schema.json")).unwrap();
        let doc: Json = serde_json::from_str(&render(&corpus().vectors, Format::Json)).unwrap();
        let vector = &doc["vectors"][0];
        let levels = [
            (&schema, &doc),
            (&schema["$defs"]["vector"], vector),
            (&schema["$defs"]["request"], &vector["request"]),
            (&schema["$defs"]["expect"], &vector["expect"]),
        ];
        for (part, written) in levels {
            let mut described: Vec<&str> = part["properties"]
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut required: Vec<&str> = part["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .collect();
            let mut keys: Vec<&str> = written
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            described.sort_unstable();
            required.sort_unstable();
            keys.sort_unstable();
            assert_eq!(described, keys);
            assert_eq!(required, keys);
        }
        assert_eq!(schema["properties"]["format"]["const"], FORMAT_NAME);
        assert_eq!(
            schema["properties"]["format_version"]["const"],
            FORMAT_VERSION
        );
    }

    #[test]
    fn formats_parse_from_their_names_and_unknown_ones_say_what_is_allowed() {
        for (name, format) in Format::ALL {
            assert_eq!(name.parse::<Format>(), Ok(*format));
            assert_eq!(format.to_string(), *name);
        }
        let err = "yaml".parse::<Format>().unwrap_err();
        assert_eq!(err, UnknownFormat("yaml".into()));
        assert!(err.to_string().contains("`json`"), "{err}");
    }

    #[test]
    fn json_lines_hold_the_same_objects_one_per_line() {
        let corpus = corpus();
        let doc: Json = serde_json::from_str(&render(&corpus.vectors, Format::Json)).unwrap();
        let lines = render(&corpus.vectors, Format::Jsonl);
        assert!(lines.ends_with('\n'));
        let parsed: Vec<Json> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(&parsed, doc["vectors"].as_array().unwrap());
        assert_eq!(render(&[], Format::Jsonl), "");
    }
}
