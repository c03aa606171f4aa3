//! One row of the page: a vector's request, outcome and expected answer,
//! shortened where its bytes are long, and the note it is filed under.

use core::fmt::Write as _;

use crate::hex_text::{format_guid, format_spaced};
use crate::model::{Expectation, Request, Value, Vector};
use crate::vocab::{Flag, Op};

/// The row of `v`, the vector on `line` of the export, which the
/// implementations in `failing` fail.
pub(super) fn row(out: &mut String, v: &Vector, line: usize, failing: &[&str]) {
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
    let mut expected = match &v.expect {
        Expectation::Invalid(code) => format!("error `{code}`"),
        Expectation::Valid(value) => value_text(value),
        Expectation::Acceptable { value, .. } => format!("{}, or any error", value_text(value)),
    };
    if v.request.may_refuse_as_too_long() {
        // NOTES.md, "Names longer than a bound": the permission follows
        // from the request, so the row states it.
        expected.push_str("; or error `name_too_long` from a bounded implementation");
    }
    let _ = writeln!(
        out,
        "| <a id=\"{id}\"></a>`{id}` | {} | {request} | {expected} | `{}` | {} |",
        cell(&v.description),
        v.expect.outcome(),
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
pub(super) fn shortened(v: &Vector) -> bool {
    let long = |bytes: &[u8]| bytes.len() > SHOWN;
    let request = match &v.request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => long(bytes),
        Request::EncodeNamed {
            name: Some(name), ..
        }
        | Request::SizeNamed {
            name: Some(name), ..
        } => long(name),
        _ => false,
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
pub(super) const TWO_FAULTS: &str = "two-faults-in-one-input";

/// The note a case citing [`TWO_FAULTS`] rests on. That note also holds
/// the rule for a single fault (its own code), so the generator's fault
/// cells all cite it; a row is filed there only with two faults, and
/// otherwise under the note of its one fault, or of what it shows.
pub(super) fn rested_on(v: &Vector) -> &'static str {
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
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            format!("decode {}", bytes_text(bytes))
        }
        Request::EncodePacked { guid } => format!("encode GUID `{}`", format_guid(*guid)),
        Request::SizePacked { guid } => format!("size of GUID `{}`", format_guid(*guid)),
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            let op = if r.op() == Op::Size {
                "size of"
            } else {
                "encode"
            };
            format!("{op} GUID `{}`, {}", format_guid(*guid), maybe_name(name))
        }
    }
}

/// A name to encode or decoded, or `no name`.
fn maybe_name(name: &Option<Vec<u8>>) -> String {
    name.as_deref().map_or("no name".to_owned(), |name| {
        format!("name {}", name_text(name))
    })
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
            maybe_name(name)
        ),
        Value::Encoded { bytes } => bytes_text(bytes),
        Value::Size { size: 1 } => "1 byte".to_owned(),
        Value::Size { size } => format!("{size} bytes"),
    }
}

/// Bytes in hex; long runs are shortened in the middle (the row links the
/// vector's line of the export, which has them all).
pub(super) fn bytes_text(bytes: &[u8]) -> String {
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
pub(super) fn name_text(name: &[u8]) -> String {
    let hex = bytes_text(name);
    match core::str::from_utf8(name) {
        Ok(text) if !text.is_empty() && text.len() <= 64 && !text.chars().any(char::is_control) => {
            format!("{hex}, “{}”", cell(text))
        }
        _ => hex,
    }
}

/// Text safe inside a Markdown table cell.
pub(super) fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
