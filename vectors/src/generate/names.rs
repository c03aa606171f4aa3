//! Names longer than the bounds real readers keep, decoded and encoded.

use super::{vector, NAMED_GUID, NEXT_FIELD};
use crate::hex_text::format_spaced;
use crate::model::{Expectation, Request, Value, Vector, NAME_BOUND_FLOOR};
use crate::vocab::{ErrorCode, Flag};

/// What a long-name vector's description adds about bounds: a name of
/// [`NAME_BOUND_FLOOR`] bytes or more may also be refused.
pub(super) fn bound_note(len: usize) -> &'static str {
    if len >= NAME_BOUND_FLOOR {
        " (or refused as name_too_long by an implementation with a bound)"
    } else {
        " (below every allowed bound)"
    }
}

pub(super) fn long_names() -> Vec<Vector> {
    const FILE: &str = "generated/named-long-names.yaml";
    const SOURCE: &str =
        "NOTES.md#names-longer-than-a-bound: a name is never cut; from 256 bytes on it may be refused as name_too_long";
    let mut cases: Vec<(String, Vec<u8>, &str)> = [255usize, 256, 257, 300, 4096]
        .into_iter()
        .map(|len| {
            // Letters a..z over and over: valid UTF-8, and a misplaced cut shows.
            let name = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            (len.to_string(), name, "letters a to z, repeated")
        })
        .collect();
    // 86 three-byte characters: byte 256 falls inside the 86th character, so
    // a cap at 256 bytes also cuts a UTF-8 sequence.
    cases.push((
        "258-utf8".to_owned(),
        "\u{20ac}".repeat(86).into_bytes(),
        "the 3-byte character U+20AC 86 times, so byte 256 is inside a character",
    ));
    let mut out = Vec::new();
    for (name_id, name, what) in cases {
        let len = name.len();
        let mut encoded = NAMED_GUID.to_le_bytes().to_vec();
        encoded.extend_from_slice(&name);
        encoded.push(0);
        let mut input = encoded.clone();
        input.extend_from_slice(&NEXT_FIELD);
        out.push(vector(
            FILE,
            format!("named.decode.long-name.{name_id}"),
            format!(
                "A {len}-byte name ({what}), then NUL and the next field ({}); all of the name is read{}.",
                format_spaced(&NEXT_FIELD),
                bound_note(len),
            ),
            Request::DecodeNamed { bytes: input },
            Expectation::Valid(Value::Named {
                guid: NAMED_GUID,
                consumed: encoded.len(),
                name: Some(name.clone()),
            }),
            Flag::LongName,
            Some(SOURCE),
        ));
        // The same name running to the end of the input: a reader with a
        // fixed buffer that takes the end of its buffer, or of the input,
        // for the end of the name accepts it.
        out.push(vector(
            FILE,
            format!("named.decode.long-name.{name_id}.unterminated"),
            format!(
                "A {len}-byte name ({what}) that runs to the end of the input without its NUL: the input is cut short{}.",
                bound_note(len),
            ),
            Request::DecodeNamed {
                bytes: encoded[..encoded.len() - 1].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::LongName,
            Some(SOURCE),
        ));
        out.push(vector(
            FILE,
            format!("named.encode.long-name.{name_id}"),
            format!(
                "A {len}-byte name ({what}) is written whole, then NUL{}.",
                bound_note(len)
            ),
            Request::EncodeNamed {
                guid: NAMED_GUID,
                name: Some(name),
            },
            Expectation::Valid(Value::Encoded { bytes: encoded }),
            Flag::LongName,
            Some(SOURCE),
        ));
    }
    out
}
