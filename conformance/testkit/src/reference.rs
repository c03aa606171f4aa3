//! The reference codec (`wow-guid-codec`) behind [`Codec`]: what the
//! oracle compares with, and what the codec's own fuzz targets run the
//! generic properties on.

use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference;
use wow_guid_vectors::{ErrorCode, Request, Value};

use crate::codec::{Codec, Named, Packed};

/// The reference codec, answering exactly as the harness's reference does
/// (the same mapping of its errors onto the protocol's codes).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

/// The reference's answer to `request`, as a value or an error code.
fn ask(request: &Request) -> Result<Value, ErrorCode> {
    match reference::answer(request) {
        Response::Ok(value) => Ok(value),
        Response::Error(code) => Err(code),
        // The reference answers every request.
        Response::Unsupported => Err(ErrorCode::Other),
    }
}

/// The bytes of an encode's value.
fn encoded(value: Value) -> Result<Vec<u8>, ErrorCode> {
    match value {
        Value::Encoded { bytes } => Ok(bytes),
        Value::Packed { .. } | Value::Named { .. } | Value::Size { .. } => Err(ErrorCode::Other),
    }
}

impl Codec for Reference {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        match ask(&Request::DecodePacked {
            bytes: bytes.to_vec(),
        })? {
            Value::Packed { guid, consumed } => Ok(Packed { guid, consumed }),
            Value::Named { .. } | Value::Encoded { .. } | Value::Size { .. } => {
                Err(ErrorCode::Other)
            }
        }
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        encoded(ask(&Request::EncodePacked { guid })?)
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        match ask(&Request::DecodeNamed {
            bytes: bytes.to_vec(),
        })? {
            Value::Named {
                guid,
                consumed,
                name,
            } => Ok(Named {
                guid,
                name,
                consumed,
            }),
            Value::Packed { .. } | Value::Encoded { .. } | Value::Size { .. } => {
                Err(ErrorCode::Other)
            }
        }
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        encoded(ask(&Request::EncodeNamed {
            guid,
            name: name.map(<[u8]>::to_vec),
        })?)
    }
}
