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
pub(crate) fn packed_error_code(error: &PackedGuidError) -> ErrorCode {
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
pub(crate) fn named_decode_error_code(error: &NamedGuidDecodeError) -> ErrorCode {
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
pub(crate) fn named_value_error_code(error: &NamedGuidValueError) -> ErrorCode {
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
        Request::SizePacked { guid } => Response::Ok(Value::Size {
            size: PackedGuid(*guid).encode().len(),
        }),
        Request::SizeNamed { guid, name } => {
            match NamedGuidRef::from_raw_parts(*guid, name.as_deref()) {
                Ok(value) => Response::Ok(Value::Size {
                    size: value.encoded_len(),
                }),
                Err(e) => Response::Error(named_value_error_code(&e)),
            }
        }
    }
}

/// What the reference codec's answer to `request` comes to as an
/// expectation: `valid` with its value, or `invalid` with its error code.
/// Exact: it leaves no choice, so it is not how a request is judged; the
/// oracle widens it where the corpus leaves implementations one
/// ([`crate::classify::oracle::corpus_expectation`]), and
/// [`crate::classify::oracle::judge_request`] judges with that.
#[must_use]
pub(crate) fn exact_expectation(request: &Request) -> Expectation {
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
