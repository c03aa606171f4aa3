//! The reference codec speaking the protocol's vocabulary.
//!
//! [`answer`] turns a protocol [`Request`] into the reference codec's
//! [`Response`], mapping its typed errors onto the protocol's codes as the
//! team contract fixes them: what `lint` judges the corpus against, `run`
//! tells vector bugs with, `serve` answers with and the fuzzer compares
//! against.

use wow_guid_codec::{
    NamedGuidDecodeError, NamedGuidRef, NamedGuidValueError, PackedGuid, PackedGuidError,
};
use wow_guid_vectors::{ErrorCode, Expectation, Request, Value};

use crate::implementation::{Answer, HarnessError, Implementation, Query};
use crate::protocol::Response;

/// The protocol code for a named-GUID value that cannot be encoded. The
/// codec's error enums are non-exhaustive; a kind added later has no code
/// of its own in the protocol yet.
fn named_value_error_code(error: &NamedGuidValueError) -> ErrorCode {
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
            Err(PackedGuidError::UnexpectedEof { .. }) => Response::Error(ErrorCode::Eof),
            #[allow(unreachable_patterns)]
            Err(_) => Response::Error(ErrorCode::Other),
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
            Err(NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. }) => {
                Response::Error(ErrorCode::Eof)
            }
            Err(NamedGuidDecodeError::InvalidUtf8 { .. }) => {
                Response::Error(ErrorCode::InvalidUtf8)
            }
            Err(NamedGuidDecodeError::NameTooLong { .. }) => {
                Response::Error(ErrorCode::NameTooLong)
            }
            #[allow(unreachable_patterns)]
            Err(_) => Response::Error(ErrorCode::Other),
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

/// The reference codec's answer to `request` as an exact expectation,
/// which the oracle widens where the corpus leaves a choice
/// ([`crate::classify::oracle::corpus_expectation`]).
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
