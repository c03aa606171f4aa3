//! The unit tests of `topics`, through the crate's API.

use wow_guid_vectors::topics::*;
use wow_guid_vectors::{ErrorCode, Flag};
use wow_guid_vectors::{Expectation, Request, Value};

#[test]
fn packed_flags_come_from_the_bytes_and_the_value() {
    let decode = |bytes: &[u8], expect| {
        derived_flags(
            &Request::DecodePacked {
                bytes: bytes.to_vec(),
            },
            &expect,
        )
    };
    let valid = |guid, consumed| Expectation::Valid(Value::Packed { guid, consumed });
    assert_eq!(
        decode(&[0x01, 0x00, 0x99], valid(0, 2)),
        [
            Flag::ZeroGuid,
            Flag::SingleByte,
            Flag::NonCanonical,
            Flag::TrailingBytes
        ]
    );
    assert_eq!(
        decode(&[], Expectation::Invalid(ErrorCode::Eof)),
        [Flag::Truncated, Flag::EmptyInput]
    );
    assert_eq!(
        decode(&[0x03, 0x01], Expectation::Invalid(ErrorCode::Eof)),
        [Flag::Truncated]
    );
    assert_eq!(
        derived_flags(
            &Request::EncodePacked { guid: u64::MAX },
            &Expectation::Valid(Value::Encoded {
                bytes: vec![0xff; 9]
            })
        ),
        [Flag::MaxGuid, Flag::SignBit]
    );
}

#[test]
fn named_flags_come_from_the_guid_and_the_name() {
    let decode = |bytes: &[u8]| {
        derived_flags(
            &Request::DecodeNamed {
                bytes: bytes.to_vec(),
            },
            &Expectation::Invalid(ErrorCode::Other),
        )
    };
    assert_eq!(decode(&[0; 9]), [Flag::ZeroGuid, Flag::TrailingBytes]);
    // A name cut off is flagged for what is missing, and for what its
    // bytes so far are (here: not UTF-8).
    assert_eq!(
        decode(&[1, 0, 0, 0, 0, 0, 0, 0, 0xff]),
        [Flag::Truncated, Flag::InvalidUtf8, Flag::MissingNul]
    );
    // No name bytes at all: only what is missing.
    assert_eq!(
        decode(&[1, 0, 0, 0, 0, 0, 0, 0]),
        [Flag::Truncated, Flag::MissingNul]
    );
    assert_eq!(
        decode(&[0, 1, 0, 0, 0, 0, 0, 0, 0, 9]),
        [Flag::TrailingBytes, Flag::EmptyName, Flag::NulInGuid]
    );
    assert_eq!(
        decode(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, b'a', 0]),
        [Flag::MaxGuid]
    );
    let encode = |guid, name: Option<&[u8]>| {
        derived_flags(
            &Request::EncodeNamed {
                guid,
                name: name.map(<[u8]>::to_vec),
            },
            &Expectation::Invalid(ErrorCode::Other),
        )
    };
    assert_eq!(
        encode(0, Some(b"x")),
        [Flag::ZeroGuid, Flag::NameWithoutGuid]
    );
    assert_eq!(encode(0x2a, None), [Flag::NoName]);
    assert_eq!(
        encode(0x2a, Some("\u{e9}\0".as_bytes())),
        [Flag::Utf8, Flag::InteriorNul]
    );
}
