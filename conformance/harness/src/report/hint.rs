//! Hints: where a failure looks like what a common platform API does with
//! a name's bytes, the report names the API.
//!
//! Two patterns are recognised, from the answer alone:
//!
//! - U+FFFD (`ef bf bd`) in the answer where the request has none: a lossy
//!   UTF-8 decoder replaced bytes it could not read (C#'s `Encoding.UTF8`,
//!   Java's `new String(bytes, UTF_8)`, Python's `errors="replace"`, a
//!   default `TextDecoder`);
//! - the answer is the expected name or encoding less a byte-order mark
//!   (`ef bb bf`): a decoder dropped it (JavaScript's `TextDecoder` without
//!   `ignoreBOM`, Python's `utf-8-sig`).

use wow_guid_vectors::{Request, Value};

use crate::judge::{Mismatch, Verdict};
use crate::run::VectorResult;

const REPLACEMENT: &[u8] = b"\xef\xbf\xbd";
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The hint for `result`'s failure, when a platform API explains it.
#[must_use]
pub(crate) fn hint_text(result: &VectorResult<'_>) -> Option<&'static str> {
    let Verdict::Fail(mismatch) = &result.verdict else {
        return None;
    };
    let (expected, got) = match mismatch {
        Mismatch::WrongValue { expected, got } => (Some(expected), got),
        Mismatch::AcceptedInvalid { got, .. } => (None, got),
        _ => return None,
    };
    let got = value_bytes(got)?;
    if contains(got, REPLACEMENT) && !contains(request_bytes(&result.vector.request), REPLACEMENT) {
        return Some(
            "U+FFFD (ef bf bd) in the answer, none in the request: a lossy UTF-8 decoder \
             replaced bytes (C# `Encoding.UTF8`, Java `new String(bytes, UTF_8)`, a default \
             `TextDecoder`); use one that throws (C# `new UTF8Encoding(false, true)`, Java \
             `CodingErrorAction.REPORT`, `TextDecoder` with `fatal: true`) or keep names as bytes",
        );
    }
    let expected = value_bytes(expected?)?;
    if without_bom(expected).is_some_and(|shorter| shorter == got) {
        return Some(
            "the expected answer less its byte-order mark (ef bb bf): a decoder dropped it, as \
             JavaScript's `TextDecoder` does without `ignoreBOM: true` (and Python's \
             `utf-8-sig`); a BOM in a name is a character of the name",
        );
    }
    None
}

/// The bytes of a value a name can be in: a named GUID's name, or an
/// encoding.
fn value_bytes(value: &Value) -> Option<&[u8]> {
    match value {
        Value::Named { name, .. } => name.as_deref(),
        Value::Encoded { bytes } => Some(bytes),
        Value::Packed { .. } | Value::Size { .. } => None,
    }
}

/// The bytes a request carries: its input, or the name to encode.
fn request_bytes(request: &Request) -> &[u8] {
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => bytes,
        Request::EncodeNamed { name, .. } | Request::SizeNamed { name, .. } => {
            name.as_deref().unwrap_or_default()
        }
        Request::EncodePacked { .. } | Request::SizePacked { .. } => &[],
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// `bytes` with its first byte-order mark taken out, if it has one.
fn without_bom(bytes: &[u8]) -> Option<Vec<u8>> {
    let at = bytes.windows(BOM.len()).position(|w| w == BOM)?;
    Some([&bytes[..at], &bytes[at + BOM.len()..]].concat())
}

#[cfg(test)]
mod tests {
    use super::{contains, without_bom};

    #[test]
    fn a_bom_is_taken_out_where_it_is() {
        assert_eq!(
            without_bom(b"\x01\xef\xbb\xbfab").as_deref(),
            Some(&b"\x01ab"[..])
        );
        assert_eq!(without_bom(b"ab"), None);
        assert!(contains(b"a\xef\xbf\xbd", b"\xef\xbf\xbd"));
        assert!(!contains(b"\xef\xbf", b"\xef\xbf\xbd"));
    }
}
