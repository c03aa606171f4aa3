//! The trait a codec author implements, and the codec speaking the
//! protocol's vocabulary.
//!
//! [`Codec`] is the four decode and encode operations of the protocol (not
//! its optional `size`, which [`answer`] answers `unsupported`) with its error
//! vocabulary ([`ErrorCode`]): everything else in this crate (the corpus
//! as a test, the oracle, the properties, the fuzz targets of the
//! downstream template) is written once against it. [`answer`] turns a
//! protocol [`Request`] into the [`Response`] a codec gives, so a codec is
//! judged by the same judge as a program behind the protocol.

use wow_guid_harness::protocol::Response;
use wow_guid_vectors::{ErrorCode, Request, Value};

/// A decoded packed GUID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The GUID.
    pub guid: u64,
    /// How many input bytes it took (the mask and the bytes it names).
    pub consumed: usize,
}

/// A decoded named GUID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The GUID.
    pub guid: u64,
    /// The name's bytes without the NUL; `None` exactly when `guid` is 0
    /// (the format writes no name after GUID 0).
    pub name: Option<Vec<u8>>,
    /// How many input bytes it took (the GUID, the name and its NUL).
    pub consumed: usize,
}

/// A `PackedGuid`/`NamedGuid` codec under test: the four decode and encode
/// operations of the conformance protocol (`PROTOCOL.md`), each refusing with one of the
/// protocol's error codes.
///
/// Map your codec's own errors onto [`ErrorCode`] as `PROTOCOL.md`'s table
/// says (`eof` for input that ends too soon, `invalid_utf8`,
/// `interior_nul`, `name_without_guid`, `name_too_long`, and `other` for
/// anything else); unless a test asks for strict error codes, any code
/// passes where the corpus expects an error.
pub trait Codec {
    /// Decodes a packed GUID from the front of `bytes`; bytes after it
    /// belong to the next field.
    ///
    /// # Errors
    /// The protocol's code for why `bytes` hold no packed GUID.
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode>;

    /// Encodes `guid` as a packed GUID.
    ///
    /// # Errors
    /// The protocol's code, if the codec refuses (a conformant one never
    /// does).
    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode>;

    /// Decodes a named GUID from the front of `bytes`.
    ///
    /// # Errors
    /// The protocol's code for why `bytes` hold no named GUID.
    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode>;

    /// Encodes `guid` with `name` (`None`: no name, which is not the empty
    /// name) as a named GUID. `name` is not necessarily valid UTF-8 nor
    /// free of NULs: the corpus passes such names on purpose.
    ///
    /// # Errors
    /// The protocol's code for why the value cannot be written.
    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode>;
}

impl<C: Codec + ?Sized> Codec for &C {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        (**self).decode_packed(bytes)
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        (**self).encode_packed(guid)
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        (**self).decode_named(bytes)
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        (**self).encode_named(guid, name)
    }
}

/// What `codec` answers to `request`, as a protocol response
/// (`unsupported` for a `size` request, which the trait does not ask).
#[must_use]
pub fn answer(codec: &impl Codec, request: &Request) -> Response {
    let value = match request {
        Request::DecodePacked { bytes } => codec
            .decode_packed(bytes)
            .map(|Packed { guid, consumed }| Value::Packed { guid, consumed }),
        Request::EncodePacked { guid } => codec
            .encode_packed(*guid)
            .map(|bytes| Value::Encoded { bytes }),
        Request::DecodeNamed { bytes } => codec.decode_named(bytes).map(
            |Named {
                 guid,
                 name,
                 consumed,
             }| Value::Named {
                guid,
                consumed,
                name,
            },
        ),
        Request::EncodeNamed { guid, name } => codec
            .encode_named(*guid, name.as_deref())
            .map(|bytes| Value::Encoded { bytes }),
        // The trait has no `size` operation; the protocol's answer for a
        // kind of request not implemented is `unsupported`.
        Request::SizePacked { .. } | Request::SizeNamed { .. } => return Response::Unsupported,
    };
    match value {
        Ok(value) => Response::Ok(value),
        Err(code) => Response::Error(code),
    }
}
