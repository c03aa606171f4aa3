//! This codec behind `wow_guid_testkit::Codec`: its errors mapped onto the
//! protocol's codes, for the corpus test and the fuzz targets.

use wow_guid_testkit::{Codec, Named, Packed};
use wow_guid_vectors::ErrorCode;

use crate::Error;

/// The codec, for the testkit.
#[derive(Clone, Copy, Debug, Default)]
pub struct MyCodec;

impl From<Error> for ErrorCode {
    fn from(error: Error) -> Self {
        match error {
            Error::Eof => ErrorCode::Eof,
            Error::InvalidUtf8 => ErrorCode::InvalidUtf8,
            Error::InteriorNul => ErrorCode::InteriorNul,
            Error::NameWithoutGuid => ErrorCode::NameWithoutGuid,
            Error::NameTooLong => ErrorCode::NameTooLong,
            Error::MissingName => ErrorCode::Other,
        }
    }
}

impl Codec for MyCodec {
    fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
        let (guid, consumed) = crate::decode_packed(bytes)?;
        Ok(Packed { guid, consumed })
    }

    fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
        Ok(crate::encode_packed(guid))
    }

    fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
        let (guid, name, consumed) = crate::decode_named(bytes)?;
        Ok(Named {
            guid,
            name: name.map(|n| n.as_bytes().to_vec()),
            consumed,
        })
    }

    fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
        // This codec takes names as `&str`: bytes that are not UTF-8 never
        // reach it.
        let name = name
            .map(std::str::from_utf8)
            .transpose()
            .map_err(|_| ErrorCode::InvalidUtf8)?;
        Ok(crate::encode_named(guid, name)?)
    }
}
