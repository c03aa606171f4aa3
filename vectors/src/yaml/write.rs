//! Writes vectors as YAML in the corpus's house style, for the generator.
//!
//! The output is deterministic text (no serializer settings to drift), and
//! every value that YAML could reinterpret is quoted. Tests read the output
//! back with the loader and compare, so the writer and the reader cannot
//! disagree about the format.

use core::fmt::Write as _;

use crate::hex_text;
use crate::model::{Expectation, Request, Value, Vector};

/// Bytes per line when a byte string is too long for one line.
const BYTES_PER_LINE: usize = 24;

/// A flow mapping longer than this is written as a block mapping instead.
const MAX_FLOW_LINE: usize = 100;

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

    /// The scalar in a block mapping whose keys sit at `indent`: long byte
    /// strings continue on further lines, which YAML folds back with spaces.
    fn block(&self, indent: usize) -> String {
        let Scalar::Hex(bytes) = *self else {
            return self.inline();
        };
        let lines: Vec<String> = bytes
            .chunks(BYTES_PER_LINE)
            .map(hex_text::format_spaced)
            .collect();
        let continuation = format!("\n{:width$}", "", width = indent + 2);
        format!("\"{}\"", lines.join(&continuation))
    }
}

/// Writes a mapping field either as `key: { a: 1, b: 2 }` or, when that is
/// too long, as a block mapping under `key:`.
fn mapping(out: &mut String, key: &str, entries: &[(&str, Scalar<'_>)]) {
    let flow: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{k}: {}", v.inline()))
        .collect();
    let line = format!("    {key}: {{ {} }}", flow.join(", "));
    if line.len() <= MAX_FLOW_LINE {
        out.push_str(&line);
        out.push('\n');
        return;
    }
    let _ = writeln!(out, "    {key}:");
    for (k, v) in entries {
        let _ = writeln!(out, "      {k}: {}", v.block(6));
    }
}

/// A YAML double-quoted string.
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

fn write_vector(out: &mut String, v: &Vector) {
    let _ = writeln!(out, "  - id: {}", id(&v.id));
    let _ = writeln!(out, "    description: {}", quote(&v.description));
    let _ = writeln!(out, "    type: {}", v.request.guid_type());
    let _ = writeln!(out, "    op: {}", v.request.op());
    match &v.request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            mapping(out, "input", &[("bytes", Scalar::Hex(bytes))]);
        }
        Request::EncodePacked { guid } => mapping(out, "input", &[("guid", Scalar::Guid(*guid))]),
        Request::EncodeNamed { guid, name } => {
            let mut entries = vec![("guid", Scalar::Guid(*guid))];
            if let Some(name) = name {
                entries.push(("name", Scalar::Hex(name)));
            }
            mapping(out, "input", &entries);
        }
    }
    let _ = writeln!(out, "    outcome: {}", v.expect.outcome());
    match &v.expect {
        Expectation::Invalid(code) => {
            mapping(out, "expect", &[("error", Scalar::Word(code.as_str()))])
        }
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => match value {
            Value::Packed { guid, consumed } => mapping(
                out,
                "expect",
                &[
                    ("guid", Scalar::Guid(*guid)),
                    ("consumed", Scalar::Count(*consumed)),
                ],
            ),
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
                mapping(out, "expect", &entries);
            }
            Value::Encoded { bytes } => mapping(out, "expect", &[("bytes", Scalar::Hex(bytes))]),
        },
    }
    if let Expectation::Acceptable { why, .. } = &v.expect {
        let _ = writeln!(out, "    why: {}", quote(why));
    }
    if !v.flags.is_empty() {
        let _ = writeln!(
            out,
            "    flags: {}",
            list(v.flags.iter().map(|f| f.as_str()))
        );
    }
    let _ = writeln!(
        out,
        "    versions: {}",
        list(v.versions.iter().map(|v| v.as_str()))
    );
    if let Some(source) = &v.source {
        let _ = writeln!(out, "    source: {}", quote(source));
    }
}

/// A whole vector file: `header` as `#` comment lines, then the vectors in
/// order, separated by blank lines. Locations are ignored.
pub(crate) fn write_file(header: &str, vectors: &[Vector]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {line}");
        }
    }
    out.push_str("vectors:\n");
    for (i, v) in vectors.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_vector(&mut out, v);
    }
    out
}
