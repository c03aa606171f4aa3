//! Writes vectors as YAML in the corpus's house style, so the generator's
//! files and differential fuzzing's findings spell the format one way.
//!
//! The output is deterministic text (no serializer settings to drift), and
//! every value that YAML could reinterpret is quoted. Tests read it back
//! with the loader, so the writer and the reader cannot disagree.

use core::fmt::Write as _;

use crate::hex_text;
use crate::model::{Expectation, Request, Value, Vector};

/// Bytes per line of a byte string written over several lines. A mapping
/// with a longer byte string is written in block style.
const BYTES_PER_LINE: usize = 24;

/// One scalar of an `input` or `expect` mapping.
enum Scalar<'a> {
    Hex(&'a [u8]),
    Guid(u64),
    Count(usize),
    Word(&'static str),
}

impl Scalar<'_> {
    /// The scalar on one line, as in a flow mapping.
    fn inline(&self) -> String {
        match *self {
            Scalar::Hex(bytes) => format!("\"{}\"", hex_text::format_spaced(bytes)),
            Scalar::Guid(guid) => format!("\"{}\"", hex_text::format_guid(guid)),
            Scalar::Count(n) => n.to_string(),
            Scalar::Word(word) => word.to_owned(),
        }
    }

    /// A byte string too long for one line.
    fn is_long(&self) -> bool {
        matches!(self, Scalar::Hex(bytes) if bytes.len() > BYTES_PER_LINE)
    }

    /// The scalar as the value of a block mapping: a long byte string goes on
    /// over further lines indented by `continuation` spaces, which YAML folds
    /// back into the spaces that hex strings allow between bytes.
    fn block(&self, continuation: usize) -> String {
        let Scalar::Hex(bytes) = *self else {
            return self.inline();
        };
        let lines: Vec<String> = bytes
            .chunks(BYTES_PER_LINE)
            .map(hex_text::format_spaced)
            .collect();
        let joint = format!("\n{:continuation$}", "");
        format!("\"{}\"", lines.join(&joint))
    }
}

/// Writes a field of the vector whose `-` is at `indent`, either as
/// `key: { a: 1, b: 2 }` or, when a byte string is too long for one line,
/// as a block mapping under `key:`.
fn mapping(out: &mut String, indent: usize, key: &str, entries: &[(&str, Scalar<'_>)]) {
    let pad = " ".repeat(indent);
    if !entries.iter().any(|(_, v)| v.is_long()) {
        let flow: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{k}: {}", v.inline()))
            .collect();
        let _ = writeln!(out, "{pad}  {key}: {{ {} }}", flow.join(", "));
        return;
    }
    let _ = writeln!(out, "{pad}  {key}:");
    for (k, v) in entries {
        let _ = writeln!(out, "{pad}    {k}: {}", v.block(indent + 6));
    }
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An id, plain when YAML cannot take it for anything but a string.
fn id(id: &str) -> String {
    if id.starts_with(|c: char| c.is_ascii_lowercase()) && id.contains('.') {
        id.to_owned()
    } else {
        quote(id)
    }
}

fn list(words: impl Iterator<Item = &'static str>) -> String {
    format!("[{}]", words.collect::<Vec<_>>().join(", "))
}

/// Appends `vector` to `out` as one item of a file's `vectors` list, with its
/// `-` after `indent` spaces and its fields two further in. The vector's
/// location is not written.
///
/// `input` and `expect` are flow mappings (`input: { bytes: "0a de ad" }`)
/// unless one of their byte strings is longer than 24 bytes; then they are
/// block mappings, and each long byte string goes on over lines of 24 bytes.
/// Strings are double-quoted wherever YAML could read them as something
/// else, with control characters escaped, so every line is one line of text.
///
/// Items of one list are usually separated by a blank line, and comment lines
/// ([`write_comment`]) at the same `indent` may stand before an item.
///
/// ```
/// use wow_guid_vectors::{yaml, Corpus, Expectation, Location, Request, Value, Vector, Version};
///
/// let vector = Vector {
///     id: "packed.decode.doc-example".into(),
///     sequence: None,
///     description: "The spec's worked example.".into(),
///     request: Request::DecodePacked { bytes: vec![0x0a, 0xde, 0xad] },
///     expect: Expectation::Valid(Value::Packed { guid: 0xad00_de00, consumed: 3 }),
///     flags: [].into(),
///     versions: [Version::Vanilla].into(),
///     source: None,
///     location: Location::whole_file("example.yaml"),
/// };
/// let mut text = String::from("vectors:\n");
/// yaml::write_vector(&mut text, &vector, 2);
/// assert_eq!(
///     text,
///     "vectors:
///   - id: packed.decode.doc-example
///     description: \"The spec's worked example.\"
///     type: packed_guid
///     op: decode
///     input: { bytes: \"0a de ad\" }
///     outcome: valid
///     expect: { guid: \"00000000ad00de00\", consumed: 3 }
///     versions: [vanilla]
/// "
/// );
/// let corpus = Corpus::from_sources(&[("example.yaml".into(), text)]).unwrap();
/// assert_eq!(corpus.vectors[0].request, vector.request);
/// ```
pub fn write_vector(out: &mut String, vector: &Vector, indent: usize) {
    let v = vector;
    let pad = " ".repeat(indent);
    let _ = writeln!(out, "{pad}- id: {}", id(&v.id));
    if let Some(sequence) = &v.sequence {
        let _ = writeln!(out, "{pad}  sequence: {}", id(sequence));
    }
    let _ = writeln!(out, "{pad}  description: {}", quote(&v.description));
    let _ = writeln!(out, "{pad}  type: {}", v.request.guid_type());
    let _ = writeln!(out, "{pad}  op: {}", v.request.op());
    match &v.request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            mapping(out, indent, "input", &[("bytes", Scalar::Hex(bytes))]);
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            mapping(out, indent, "input", &[("guid", Scalar::Guid(*guid))]);
        }
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            let mut entries = vec![("guid", Scalar::Guid(*guid))];
            if let Some(name) = name {
                entries.push(("name", Scalar::Hex(name)));
            }
            mapping(out, indent, "input", &entries);
        }
    }
    let _ = writeln!(out, "{pad}  outcome: {}", v.expect.outcome());
    let expect = match &v.expect {
        Expectation::Invalid(code) => vec![("error", Scalar::Word(code.as_str()))],
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => match value {
            Value::Packed { guid, consumed } => vec![
                ("guid", Scalar::Guid(*guid)),
                ("consumed", Scalar::Count(*consumed)),
            ],
            Value::Named {
                guid,
                consumed,
                name,
            } => {
                let mut entries = vec![
                    ("guid", Scalar::Guid(*guid)),
                    ("consumed", Scalar::Count(*consumed)),
                ];
                if let Some(name) = name {
                    entries.push(("name", Scalar::Hex(name)));
                }
                entries
            }
            Value::Encoded { bytes } => vec![("bytes", Scalar::Hex(bytes))],
            Value::Size { size } => vec![("size", Scalar::Count(*size))],
        },
    };
    mapping(out, indent, "expect", &expect);
    if let Expectation::Acceptable { why, .. } = &v.expect {
        let _ = writeln!(out, "{pad}  why: {}", quote(why));
    }
    if !v.flags.is_empty() {
        let _ = writeln!(
            out,
            "{pad}  flags: {}",
            list(v.flags.iter().map(|f| f.as_str()))
        );
    }
    let _ = writeln!(
        out,
        "{pad}  versions: {}",
        list(v.versions.iter().map(|v| v.as_str()))
    );
    if let Some(source) = &v.source {
        let _ = writeln!(out, "{pad}  source: {}", quote(source));
    }
}

/// Appends `text` to `out` as YAML comment lines after `indent` spaces:
/// `# ` before each line, a bare `#` for an empty one.
pub fn write_comment(out: &mut String, text: &str, indent: usize) {
    let pad = " ".repeat(indent);
    for line in text.lines() {
        let gap = if line.is_empty() { "" } else { " " };
        let _ = writeln!(out, "{pad}#{gap}{line}");
    }
}

/// A whole vector file: `header` as `#` comment lines, then the vectors in
/// order, separated by blank lines. Locations are ignored.
pub(crate) fn write_file(header: &str, vectors: &[Vector]) -> String {
    let mut out = String::new();
    write_comment(&mut out, header, 0);
    out.push_str("vectors:\n");
    for (i, v) in vectors.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_vector(&mut out, v, 2);
    }
    out
}
