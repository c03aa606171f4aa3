//! The public API as a Rust user meets it: one method-naming scheme across
//! the wire types (the crate docs' "Method names" table), slice encoders
//! that take any slice long enough, and values that print readably.
//!
//! Each type gets the same checks through one macro, so a method missing or
//! named differently on one of them fails to compile here.

use wow_guid_codec::{BufferSizeError, Decoded, Name, NamedGuid, NamedGuidRef, PackedGuid};

/// Runs every method of the scheme on `$value` of type `$ty` and checks that
/// they all write `$bytes`, and that `decode` reads it back.
macro_rules! scheme {
    ($ty:ty, $value:expr, $bytes:expr) => {{
        let value = $value;
        let bytes: &[u8] = $bytes;
        let len = bytes.len();
        assert_eq!(value.encoded_len(), len, "{}", stringify!($ty));
        assert_eq!(value.to_vec(), bytes, "{}::to_vec", stringify!($ty));
        let mut appended = vec![0xaa];
        value.encode_to_vec(&mut appended);
        assert_eq!(&appended[1..], bytes, "{}::encode_to_vec", stringify!($ty));
        assert_eq!(appended[0], 0xaa, "{}::encode_to_vec", stringify!($ty));
        let mut written = Vec::new();
        assert_eq!(value.write_to(&mut written).unwrap(), len);
        assert_eq!(written, bytes, "{}::write_to", stringify!($ty));
        slice_encoder(stringify!($ty), bytes, |out| value.encode_to_slice(out));
        let decoded = <$ty>::decode(bytes).unwrap();
        assert_eq!(decoded.consumed, len, "{}::decode", stringify!($ty));
        assert_eq!(decoded.value, value, "{}::decode", stringify!($ty));
    }};
}

/// A slice encoder accepts any slice at least as long as the encoding,
/// writes the encoding at its front, returns its length and leaves the rest
/// alone; a shorter slice is an error that says both lengths, and nothing is
/// written.
fn slice_encoder(
    name: &str,
    bytes: &[u8],
    encode: impl Fn(&mut [u8]) -> Result<usize, BufferSizeError>,
) {
    let len = bytes.len();
    for spare in [0, 1, 7, 64] {
        let mut out = vec![0xcc; len + spare];
        assert_eq!(encode(&mut out), Ok(len), "{name}: {spare} spare bytes");
        assert_eq!(&out[..len], bytes, "{name}: {spare} spare bytes");
        assert!(
            out[len..].iter().all(|&b| b == 0xcc),
            "{name}: wrote past the encoding with {spare} spare bytes: {out:02x?}"
        );
    }
    for short in 0..len {
        let mut out = vec![0xcc; short];
        assert_eq!(
            encode(&mut out),
            Err(BufferSizeError {
                needed: len,
                available: short
            }),
            "{name}: a {short}-byte slice"
        );
        assert!(
            out.iter().all(|&b| b == 0xcc),
            "{name}: wrote into {out:02x?}"
        );
    }
}

#[test]
fn every_type_follows_the_naming_scheme() {
    let bob = b"\x2a\0\0\0\0\0\0\0Bob\0";
    scheme!(PackedGuid, PackedGuid(0xAD00_DE00), &[0x0A, 0xDE, 0xAD]);
    scheme!(PackedGuid, PackedGuid(0), &[0x00]);
    scheme!(PackedGuid, PackedGuid(u64::MAX), &[0xff; 9]);
    scheme!(NamedGuid, NamedGuid::new(42, Some("Bob")).unwrap(), bob);
    scheme!(NamedGuid, NamedGuid::Zero, &[0; 8]);
    scheme!(
        NamedGuidRef<'_>,
        NamedGuidRef::new(42, Some("Bob")).unwrap(),
        bob
    );
    scheme!(
        NamedGuidRef<'_>,
        NamedGuidRef::new(7, Some("")).unwrap(),
        b"\x07\0\0\0\0\0\0\0\0"
    );
}

#[test]
fn packed_guid_encodings_agree() {
    for guid in [0, 1, 0x80, 0xAD00_DE00, 0xF130_0000_1234_0001, u64::MAX] {
        let value = PackedGuid(guid);
        let mut fixed = [0; 9];
        let len = value.encode_into(&mut fixed);
        assert_eq!(&*value.encode(), &fixed[..len]);
        assert_eq!(value.to_vec(), &fixed[..len]);
    }
}

#[test]
fn debug_of_a_packed_guid_is_hex_like_display() {
    let guid = PackedGuid(0x0000_0000_AD00_DE00);
    assert_eq!(guid.to_string(), "00000000ad00de00");
    assert_eq!(format!("{guid:?}"), "PackedGuid(00000000ad00de00)");
    // As an assert_eq! failure shows a decoded value.
    let decoded = PackedGuid::decode(&[0x0a, 0xde, 0xad]).unwrap();
    assert_eq!(
        format!("{decoded:?}"),
        "Decoded { value: PackedGuid(00000000ad00de00), consumed: 3 }"
    );
}

#[test]
fn named_guids_and_names_display() {
    let bob = NamedGuid::new(42, Some("Bob")).unwrap();
    assert_eq!(bob.to_string(), "000000000000002a \"Bob\"");
    assert_eq!(bob.as_ref().to_string(), bob.to_string());
    assert_eq!(NamedGuid::Zero.to_string(), "0000000000000000");
    assert_eq!(NamedGuidRef::Zero.to_string(), "0000000000000000");
    // An empty name and control characters stay visible.
    let empty = NamedGuid::new(u64::MAX, Some("")).unwrap();
    assert_eq!(empty.to_string(), "ffffffffffffffff \"\"");
    let odd = NamedGuid::new(1, Some("a\"b\n\u{1b}[31m")).unwrap();
    assert_eq!(odd.to_string(), "0000000000000001 \"a\\\"b\\n\\u{1b}[31m\"");
    // A name shows itself, as a String does.
    let name = Name::new("Kel'Thuzad").unwrap();
    assert_eq!(name.to_string(), "Kel'Thuzad");
    assert_eq!(format!("{name:>12}|"), "  Kel'Thuzad|");
}

#[test]
fn a_slice_encoder_fits_a_value_into_a_larger_message() {
    // A message with a header, a named GUID, then a packed GUID: each
    // encoder writes into the rest of one buffer and says how far it got.
    let mut message = [0u8; 64];
    message[0] = 0x96;
    let mut pos = 1;
    pos += NamedGuid::new(42, Some("Bob"))
        .unwrap()
        .encode_to_slice(&mut message[pos..])
        .unwrap();
    pos += PackedGuid(0xAD00_DE00)
        .encode_to_slice(&mut message[pos..])
        .unwrap();
    assert_eq!(&message[..pos], b"\x96\x2a\0\0\0\0\0\0\0Bob\0\x0a\xde\xad");
    let named = NamedGuid::decode(&message[1..]).unwrap();
    let packed = PackedGuid::decode(&message[1 + named.consumed..]).unwrap();
    assert_eq!(
        packed,
        Decoded {
            value: PackedGuid(0xAD00_DE00),
            consumed: 3
        }
    );
    assert_eq!(
        BufferSizeError {
            needed: 12,
            available: 5
        }
        .to_string(),
        "output buffer too small: the encoding needs 12 bytes but the buffer has 5"
    );
}
