//! NamedGuid decoding, encoding and value rules, case by case.
//!
//! Each case is checked against the real decoder, the borrowed decoder and
//! the naive model, so the three cannot drift apart.

use std::num::NonZeroU64;

use wow_guid_codec::naive;
use wow_guid_codec::{Name, NamedGuid, NamedGuidDecodeError, NamedGuidRef, NamedGuidValueError};

const GUID: u64 = 0x0000_0000_0000_002a;

fn wire(guid: u64, name: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut out = guid.to_le_bytes().to_vec();
    out.extend_from_slice(name);
    out.extend_from_slice(tail);
    out
}

/// Decodes with all three decoders, checks they agree, and returns the result.
fn decode(input: &[u8]) -> Result<(u64, Option<Vec<u8>>, usize), NamedGuidDecodeError> {
    let owned = NamedGuid::decode(input).map(|d| {
        (
            d.value.guid(),
            d.value.name().map(|n| n.as_bytes().to_vec()),
            d.consumed,
        )
    });
    let borrowed = NamedGuidRef::decode(input).map(|d| {
        (
            d.value.guid(),
            d.value.name().map(|n| n.as_bytes().to_vec()),
            d.consumed,
        )
    });
    let model = naive::decode_named(input).map(|(g, n, c)| (g, n.map(<[u8]>::to_vec), c));
    assert_eq!(owned, borrowed, "input {input:02x?}");
    assert_eq!(owned, model, "input {input:02x?}");
    owned
}

#[test]
fn zero_guid_is_eight_bytes_and_leaves_the_rest() {
    assert_eq!(decode(&[0; 8]), Ok((0, None, 8)));
    // What follows a zero GUID is the next field, even if it looks like a name.
    assert_eq!(decode(&wire(0, b"Bob\0", &[0xff])), Ok((0, None, 8)));
    assert_eq!(NamedGuid::Zero.to_vec(), vec![0; 8]);
}

#[test]
fn empty_name_is_just_the_nul() {
    let input = wire(GUID, b"\0", &[]);
    assert_eq!(input.len(), 9);
    assert_eq!(decode(&input), Ok((GUID, Some(vec![]), 9)));
    assert_eq!(NamedGuid::new(GUID, Some("")).unwrap().to_vec(), input);
}

#[test]
fn utf8_names_of_every_sequence_length_decode() {
    for name in ["Bob", "Zoë", "€uro", "戦士", "🐉 dragon", "a\u{10FFFF}"] {
        let input = wire(GUID, name.as_bytes(), b"\0\x01\x02");
        let consumed = 8 + name.len() + 1;
        assert_eq!(
            decode(&input),
            Ok((GUID, Some(name.as_bytes().to_vec()), consumed)),
            "{name}"
        );
        let value = NamedGuid::new(GUID, Some(name)).unwrap();
        assert_eq!(value.to_vec(), &input[..consumed]);
        assert_eq!(value.encoded_len(), consumed);
    }
}

#[test]
fn each_class_of_invalid_utf8_is_rejected_at_its_offset() {
    let cases: &[(&str, &[u8], usize)] = &[
        ("lone continuation byte", b"ab\x80cd", 2),
        ("overlong two-byte NUL", b"a\xc0\x80", 1),
        ("overlong three-byte slash", b"\xe0\x80\xaf", 0),
        ("UTF-16 surrogate U+D800", b"ok\xed\xa0\x80", 2),
        ("above U+10FFFF", b"\xf4\x90\x80\x80", 0),
        ("cut three-byte sequence", b"xy\xe2\x82", 2),
        ("cut four-byte sequence before the NUL", b"\xf0\x9f\x90", 0),
        ("invalid lead byte 0xff", b"\xff", 0),
    ];
    for &(what, name, bad_at) in cases {
        let input = wire(GUID, name, b"\0");
        assert_eq!(
            decode(&input),
            Err(NamedGuidDecodeError::InvalidUtf8 {
                name_start: 8,
                offset: 8 + bad_at
            }),
            "{what}"
        );
        assert_eq!(
            NamedGuid::from_raw_parts(GUID, Some(name)),
            Err(NamedGuidValueError::InvalidUtf8 { offset: bad_at }),
            "{what}"
        );
    }
}

#[test]
fn missing_nul_is_an_error_at_the_end_of_input() {
    let input = wire(GUID, b"Bob", &[]);
    let err = decode(&input).unwrap_err();
    assert_eq!(
        err,
        NamedGuidDecodeError::MissingNul {
            name_start: 8,
            end: 11
        }
    );
    assert_eq!(err.offset(), 11);
    assert!(err.to_string().contains("no NUL terminator"), "{err}");
    // A non-zero GUID with nothing after it is the same fault.
    assert_eq!(
        decode(&GUID.to_le_bytes()),
        Err(NamedGuidDecodeError::MissingNul {
            name_start: 8,
            end: 8
        })
    );
}

#[test]
fn truncated_guid_is_an_eof_error() {
    for len in 0..8 {
        let input = &wire(GUID, b"\0", &[])[..len];
        let err = decode(input).unwrap_err();
        assert_eq!(err, NamedGuidDecodeError::GuidEof { available: len });
        assert_eq!(err.offset(), len);
    }
}

#[test]
fn long_names_decode_whole_with_no_hidden_cap() {
    for len in [255, 256, 257, 300, 4096, 70_000] {
        let name: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        // The byte after the NUL must stay the next field: an implementation
        // that stops at 256 bytes and swallows one more is caught here.
        let input = wire(GUID, &name, b"\0\x07\x08");
        assert_eq!(
            decode(&input),
            Ok((GUID, Some(name.clone()), 8 + len + 1)),
            "name of {len} bytes"
        );
        let value = NamedGuid::from_raw_parts(GUID, Some(&name)).unwrap();
        assert_eq!(value.to_vec(), &input[..8 + len + 1]);
    }
}

#[test]
fn caller_chosen_name_limit_is_a_typed_error() {
    let name = [b'x'; 300];
    let input = wire(GUID, &name, b"\0");
    assert_eq!(
        NamedGuid::decode_with_max_name_len(&input, 300).map(|d| d.consumed),
        Ok(309)
    );
    let err = NamedGuid::decode_with_max_name_len(&input, 299).unwrap_err();
    assert_eq!(
        err,
        NamedGuidDecodeError::NameTooLong {
            name_start: 8,
            max: 299
        }
    );
    assert_eq!(err.offset(), 8 + 299);
    // A short input without NUL is still reported as missing NUL, not too long.
    assert_eq!(
        NamedGuid::decode_with_max_name_len(&wire(GUID, b"abc", &[]), 10),
        Err(NamedGuidDecodeError::MissingNul {
            name_start: 8,
            end: 11
        })
    );
    // Exactly at the limit with no NUL yet: the input ran out first.
    assert_eq!(
        NamedGuid::decode_with_max_name_len(&wire(GUID, b"abc", &[]), 3),
        Err(NamedGuidDecodeError::MissingNul {
            name_start: 8,
            end: 11
        })
    );
    assert_eq!(
        NamedGuid::decode_with_max_name_len(&wire(GUID, b"abcd", &[]), 3),
        Err(NamedGuidDecodeError::NameTooLong {
            name_start: 8,
            max: 3
        })
    );
    // GUID 0 has no name, so no limit applies.
    assert!(NamedGuid::decode_with_max_name_len(&[0; 8], 0).is_ok());
}

#[test]
fn value_rules_are_enforced_when_building() {
    assert_eq!(
        NamedGuid::new(0, Some("Bob")),
        Err(NamedGuidValueError::NameWithoutGuid)
    );
    assert_eq!(
        NamedGuid::new(0, Some("")),
        Err(NamedGuidValueError::NameWithoutGuid)
    );
    assert_eq!(
        NamedGuid::new(GUID, None),
        Err(NamedGuidValueError::GuidWithoutName)
    );
    assert_eq!(
        NamedGuid::new(GUID, Some("Bo\0b")),
        Err(NamedGuidValueError::InteriorNul { offset: 2 })
    );
    // NUL is valid UTF-8, but the interior NUL is the fault worth reporting.
    assert_eq!(
        NamedGuid::from_raw_parts(GUID, Some(b"\xff\0")),
        Err(NamedGuidValueError::InteriorNul { offset: 1 })
    );
    assert_eq!(
        Name::new("a\0"),
        Err(NamedGuidValueError::InteriorNul { offset: 1 })
    );
    assert_eq!(NamedGuid::new(0, None), Ok(NamedGuid::Zero));
    let value = NamedGuid::new(GUID, Some("Bob")).unwrap();
    assert_eq!(
        value,
        NamedGuid::Named {
            guid: NonZeroU64::new(GUID).unwrap(),
            name: Name::new("Bob").unwrap()
        }
    );
    for err in [
        NamedGuidValueError::NameWithoutGuid,
        NamedGuidValueError::GuidWithoutName,
        NamedGuidValueError::InteriorNul { offset: 2 },
        NamedGuidValueError::InvalidUtf8 { offset: 0 },
    ] {
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn encoders_agree_and_round_trip() {
    let value = NamedGuid::new(0xF130_0000_1234_0001, Some("Kel'Thuzad")).unwrap();
    let bytes = value.to_vec();
    let mut via_writer = Vec::new();
    assert_eq!(value.write_to(&mut via_writer).unwrap(), bytes.len());
    assert_eq!(via_writer, bytes);
    let mut slice = vec![0; bytes.len()];
    assert_eq!(value.as_ref().encode_to_slice(&mut slice), Ok(bytes.len()));
    assert_eq!(slice, bytes);
    let mut short = vec![0; bytes.len() - 1];
    assert!(value.as_ref().encode_to_slice(&mut short).is_err());
    let decoded = NamedGuid::decode(&bytes).unwrap();
    assert_eq!(decoded.value, value);
    assert_eq!(decoded.consumed, bytes.len());
}

#[test]
fn error_messages_name_the_offsets() {
    let cases = [
        (
            NamedGuidDecodeError::GuidEof { available: 5 },
            "named GUID truncated: the GUID needs 8 bytes but the input ends at offset 5",
        ),
        (
            NamedGuidDecodeError::MissingNul {
                name_start: 8,
                end: 11,
            },
            "named GUID name starting at offset 8 has no NUL terminator before the input ends at offset 11",
        ),
        (
            NamedGuidDecodeError::InvalidUtf8 {
                name_start: 8,
                offset: 10,
            },
            "named GUID name starting at offset 8 is not valid UTF-8: invalid byte sequence at offset 10",
        ),
    ];
    for (err, text) in cases {
        assert_eq!(err.to_string(), text);
    }
}
