//! The reference codec speaking the protocol's vocabulary.
//!
//! [`answer`] turns a protocol [`Request`] into the [`Response`] the
//! reference codec gives, mapping the codec's typed errors onto the
//! protocol's error codes as the team contract fixes them. It is what `lint`
//! judges the corpus against, what `run` uses to tell vector bugs from
//! implementation failures, what `serve` answers with, and what the
//! differential fuzzer compares against. It calls the codec and nothing else.

use wow_guid_codec::{
    NamedGuidDecodeError, NamedGuidRef, NamedGuidValueError, PackedGuid, PackedGuidError,
};
use wow_guid_vectors::{ErrorCode, Expectation, Request, Value};

use crate::implementation::{Answer, HarnessError, Implementation, Query};
use crate::protocol::Response;

/// The protocol code for a packed-GUID decoding error.
#[must_use]
pub fn packed_error_code(error: &PackedGuidError) -> ErrorCode {
    match error {
        PackedGuidError::UnexpectedEof { .. } => ErrorCode::Eof,
        // The codec's error enums are non-exhaustive; a kind added later has
        // no code of its own in the protocol yet.
        #[allow(unreachable_patterns)]
        _ => ErrorCode::Other,
    }
}

/// The protocol code for a named-GUID decoding error.
#[must_use]
pub fn named_decode_error_code(error: &NamedGuidDecodeError) -> ErrorCode {
    match error {
        NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. } => {
            ErrorCode::Eof
        }
        NamedGuidDecodeError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
        NamedGuidDecodeError::NameTooLong { .. } => ErrorCode::NameTooLong,
        #[allow(unreachable_patterns)]
        _ => ErrorCode::Other,
    }
}

/// The protocol code for a named-GUID value that cannot be encoded.
#[must_use]
pub fn named_value_error_code(error: &NamedGuidValueError) -> ErrorCode {
    match error {
        NamedGuidValueError::NameWithoutGuid => ErrorCode::NameWithoutGuid,
        NamedGuidValueError::InteriorNul { .. } => ErrorCode::InteriorNul,
        NamedGuidValueError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
        NamedGuidValueError::GuidWithoutName => ErrorCode::Other,
        #[allow(unreachable_patterns)]
        _ => ErrorCode::Other,
    }
}

/// What the reference codec answers to `request`. Never `unsupported`.
#[must_use]
pub fn answer(request: &Request) -> Response {
    match request {
        Request::DecodePacked { bytes } => match PackedGuid::decode(bytes) {
            Ok(d) => Response::Ok(Value::Packed {
                guid: d.value.get(),
                consumed: d.consumed,
            }),
            Err(e) => Response::Error(packed_error_code(&e)),
        },
        Request::EncodePacked { guid } => Response::Ok(Value::Encoded {
            bytes: PackedGuid(*guid).encode().to_vec(),
        }),
        Request::DecodeNamed { bytes } => match NamedGuidRef::decode(bytes) {
            Ok(d) => Response::Ok(Value::Named {
                guid: d.value.guid(),
                consumed: d.consumed,
                name: d.value.name().map(|n| n.as_bytes().to_vec()),
            }),
            Err(e) => Response::Error(named_decode_error_code(&e)),
        },
        Request::EncodeNamed { guid, name } => {
            match NamedGuidRef::from_raw_parts(*guid, name.as_deref()) {
                Ok(value) => {
                    let mut bytes = Vec::with_capacity(value.encoded_len());
                    value.encode_to_vec(&mut bytes);
                    Response::Ok(Value::Encoded { bytes })
                }
                Err(e) => Response::Error(named_value_error_code(&e)),
            }
        }
    }
}

/// What a vector for `request` would expect, taken from the reference
/// codec: `valid` with its value, or `invalid` with its error code. Judging
/// an answer against this (see [`crate::judge::judge`]) is how requests
/// without a vector, such as generated ones, are judged exactly as `run`
/// judges vectors. Exact: it leaves no choice. Where the corpus leaves
/// implementations one (`acceptable` vectors), the fuzzer's oracle widens
/// it: [`crate::classify::oracle::corpus_expectation`].
#[must_use]
pub fn exact_expectation(request: &Request) -> Expectation {
    match answer(request) {
        Response::Ok(value) => Expectation::Valid(value),
        Response::Error(code) => Expectation::Invalid(code),
        // `answer` never gives up on a request; if it ever did, nothing
        // but that would satisfy it.
        Response::Unsupported => Expectation::Invalid(ErrorCode::Other),
    }
}

/// The reference codec as an [`Implementation`], in this process: no pipes,
/// no faults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Implementation for Reference {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        Ok(queries
            .iter()
            .map(|q| Answer::response(answer(q.request)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_follow_the_reference() {
        assert_eq!(
            exact_expectation(&Request::EncodePacked { guid: 0 }),
            Expectation::Valid(Value::Encoded { bytes: vec![0] })
        );
        assert_eq!(
            exact_expectation(&Request::DecodePacked { bytes: vec![] }),
            Expectation::Invalid(ErrorCode::Eof)
        );
    }

    #[test]
    fn answers_the_spec_example_and_maps_errors() {
        assert_eq!(
            answer(&Request::DecodePacked {
                bytes: vec![0x0a, 0xde, 0xad]
            }),
            Response::Ok(Value::Packed {
                guid: 0xad00_de00,
                consumed: 3
            })
        );
        assert_eq!(
            answer(&Request::DecodePacked {
                bytes: vec![0x03, 1]
            }),
            Response::Error(ErrorCode::Eof)
        );
        assert_eq!(
            answer(&Request::EncodePacked { guid: 0 }),
            Response::Ok(Value::Encoded { bytes: vec![0] })
        );
        assert_eq!(
            answer(&Request::DecodeNamed {
                bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, b'a']
            }),
            Response::Error(ErrorCode::Eof)
        );
        assert_eq!(
            answer(&Request::DecodeNamed {
                bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0]
            }),
            Response::Error(ErrorCode::InvalidUtf8)
        );
        assert_eq!(
            answer(&Request::DecodeNamed { bytes: vec![0; 8] }),
            Response::Ok(Value::Named {
                guid: 0,
                consumed: 8,
                name: None
            })
        );
        let enc = |guid, name: Option<&[u8]>| {
            answer(&Request::EncodeNamed {
                guid,
                name: name.map(<[u8]>::to_vec),
            })
        };
        assert_eq!(
            enc(0, Some(b"x")),
            Response::Error(ErrorCode::NameWithoutGuid)
        );
        assert_eq!(enc(1, None), Response::Error(ErrorCode::Other));
        assert_eq!(
            enc(1, Some(b"a\0")),
            Response::Error(ErrorCode::InteriorNul)
        );
        assert_eq!(
            enc(1, Some(b"\xff")),
            Response::Error(ErrorCode::InvalidUtf8)
        );
        assert_eq!(
            enc(2, Some(b"")),
            Response::Ok(Value::Encoded {
                bytes: vec![2, 0, 0, 0, 0, 0, 0, 0, 0]
            })
        );
        assert_eq!(
            enc(0, None),
            Response::Ok(Value::Encoded { bytes: vec![0; 8] })
        );
    }
}
