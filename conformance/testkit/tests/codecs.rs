//! Codecs for the tests: the reference with one planted bug each.

use wow_guid_testkit::{Codec, Named, Packed, Reference};
use wow_guid_vectors::ErrorCode;

/// The longest name [`Bounded`]'s decoder takes.
pub const BOUND: usize = 256;

/// The reference, with a decoder that refuses names over [`BOUND`] bytes
/// (as the corpus allows) and an encoder that writes them all the same: it
/// writes what it cannot read.
pub struct Bounded;

impl Codec for Bounded {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        Reference.decode_packed(bytes)
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        Reference.encode_packed(guid)
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        let named = Reference.decode_named(bytes)?;
        match &named.name {
            Some(name) if name.len() > BOUND => Err(ErrorCode::NameTooLong),
            _ => Ok(named),
        }
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        Reference.encode_named(guid, name)
    }
}

/// The reference, with a packed decoder that drops the GUID's top byte.
pub struct TopByteLost;

impl Codec for TopByteLost {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        Reference.decode_packed(bytes).map(|p| Packed {
            guid: p.guid & 0x00ff_ffff_ffff_ffff,
            ..p
        })
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        Reference.encode_packed(guid)
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        Reference.decode_named(bytes)
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        Reference.encode_named(guid, name)
    }
}

/// The reference, with a named encoder that panics on GUID 0.
pub struct PanicsOnZero;

impl Codec for PanicsOnZero {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        Reference.decode_packed(bytes)
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        Reference.encode_packed(guid)
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        Reference.decode_named(bytes)
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        assert_ne!(guid, 0, "GUID 0 has no name");
        Reference.encode_named(guid, name)
    }
}
