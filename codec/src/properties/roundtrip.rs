//! What the encoders write, the decoders read back: the value, every byte,
//! no strict prefix, trailing bytes left alone.

use alloc::vec::Vec;

use crate::named::GUID_LEN;
use crate::packed::MAX_ENCODED_LEN;
use crate::PackedGuidError;
use crate::{Decoded, NamedGuid, NamedGuidDecodeError, NamedGuidRef, PackedGuid};

use super::message::{violated, Hex};

/// Checks the round trip of one packed GUID through every encoding helper.
///
/// - `decode(encode(v)) == (v, encode(v).len())`, the result is canonical,
///   and [`PackedGuid::encoded_len`] is the encoding's length (1..=9).
/// - [`PackedGuid::encode_to_vec`] appends the same bytes, and so does
///   [`PackedGuid::write_to`] (with the `std` feature), which reports their
///   length.
/// - Every strict prefix of the encoding is an `UnexpectedEof` error, and
///   bytes after the encoding are left for the next field.
///
/// # Panics
/// When any of the above does not hold.
pub fn packed_roundtrip(value: PackedGuid) {
    let encoded = value.encode();
    let bytes: &[u8] = &encoded;
    if bytes.len() != value.encoded_len() || !(1..=MAX_ENCODED_LEN).contains(&bytes.len()) {
        violated(
            "packed.encoded-len",
            bytes,
            format_args!(
                "encode({value}) has {} bytes but encoded_len() = {}",
                bytes.len(),
                value.encoded_len()
            ),
        );
    }
    let decoded = PackedGuid::decode(bytes);
    let expected = Ok(Decoded {
        value,
        consumed: bytes.len(),
    });
    if decoded != expected || !decoded.is_ok_and(|d| d.is_canonical()) {
        violated(
            "packed.roundtrip",
            bytes,
            format_args!(
                "encode({value}) decodes to {decoded:?}, expected {expected:?}, canonical"
            ),
        );
    }
    let mut appended = Vec::with_capacity(1 + 2 * MAX_ENCODED_LEN);
    appended.push(0xee);
    value.encode_to_vec(&mut appended);
    if appended[1..] != *bytes || appended[0] != 0xee {
        violated(
            "packed.encode-to-vec",
            bytes,
            format_args!(
                "encode_to_vec({value}) after one byte gives \"{}\"",
                Hex(&appended)
            ),
        );
    }
    #[cfg(feature = "std")]
    {
        let result = value.write_to(&mut appended);
        if result.as_ref().ok() != Some(&bytes.len()) || appended[1 + bytes.len()..] != *bytes {
            violated(
                "packed.write-to",
                bytes,
                format_args!(
                    "write_to({value}) after the same bytes from encode_to_vec returned \
                     {result:?} and the buffer holds \"{}\"",
                    Hex(&appended)
                ),
            );
        }
    }
    for cut in 0..bytes.len() {
        let truncated = PackedGuid::decode(&bytes[..cut]);
        if !matches!(truncated, Err(PackedGuidError::UnexpectedEof { .. })) {
            violated(
                "packed.truncated",
                bytes,
                format_args!(
                    "the first {cut} bytes of encode({value}) decode to {truncated:?}, \
                     expected an UnexpectedEof error"
                ),
            );
        }
    }
    let tail = [0xff, 0x00, 0x80];
    let mut followed = Vec::with_capacity(bytes.len() + tail.len());
    followed.extend_from_slice(bytes);
    followed.extend_from_slice(&tail);
    let with_tail = PackedGuid::decode(&followed);
    if with_tail != expected {
        violated(
            "packed.trailing-bytes",
            &followed,
            format_args!("encode({value}) followed by other bytes decodes to {with_tail:?}"),
        );
    }
}

/// Checks the round trip of one named GUID through every encoding helper.
///
/// - `decode(encode(v)) == (v, encode(v).len())` for the owned and the
///   borrowed decoder, and [`NamedGuid::encoded_len`] is the real length.
/// - [`NamedGuidRef::encode_to_slice`] and [`NamedGuid::encode_to_slice`]
///   write the same bytes into a buffer of the exact length or longer (and
///   nothing past them), and refuse a shorter one without writing;
///   [`NamedGuid::write_to`] (with the `std` feature) appends the same bytes
///   and reports their length.
/// - The value can be rebuilt from its raw parts.
/// - Strict prefixes of the encoding are errors, and bytes after it are left
///   for the next field.
///
/// # Panics
/// When any of the above does not hold.
pub fn named_roundtrip(value: &NamedGuid) {
    let bytes = value.to_vec();
    let len = bytes.len();
    if len != value.encoded_len() || len != value.as_ref().encoded_len() {
        violated(
            "named.encoded-len",
            &bytes,
            format_args!(
                "encoding {value:?} gives {len} bytes but encoded_len() = {}",
                value.encoded_len()
            ),
        );
    }
    // Compared by reference: cloning the value for each comparison would
    // cost an allocation each.
    let expected = Ok((value, len));
    let decoded = NamedGuid::decode(&bytes);
    let borrowed = NamedGuidRef::decode(&bytes);
    if decoded.as_ref().map(|d| (&d.value, d.consumed)) != expected
        || borrowed
            != Ok(Decoded {
                value: value.as_ref(),
                consumed: len,
            })
    {
        violated(
            "named.roundtrip",
            &bytes,
            format_args!("{value:?} decodes to {decoded:?} (borrowed decoder: {borrowed:?})"),
        );
    }
    // One buffer, one byte longer than the encoding, for the three slice
    // lengths: every byte the encoder must leave alone is checked to still be
    // `ee`, the byte just past an exact-length slice included.
    let mut buf = alloc::vec![0xee; len + 1];
    let written = value.as_ref().encode_to_slice(&mut buf[..len]);
    if written != Ok(len) || buf[..len] != bytes[..] || buf[len] != 0xee {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice returned {written:?} and wrote \"{}\"",
                Hex(&buf)
            ),
        );
    }
    buf.fill(0xee);
    let written = value.encode_to_slice(&mut buf);
    if written != Ok(len) || buf[..len] != bytes[..] || buf[len] != 0xee {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice into {} bytes returned {written:?} and left \"{}\"",
                len + 1,
                Hex(&buf)
            ),
        );
    }
    buf.fill(0xee);
    if value.as_ref().encode_to_slice(&mut buf[..len - 1]).is_ok() || buf.iter().any(|&b| b != 0xee)
    {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice accepted or wrote to a buffer of {} bytes",
                len - 1
            ),
        );
    }
    // One buffer for `write_to` and then for the trailing-bytes check.
    let tail = [0x00, 0xff, 0x41, 0x00];
    let mut scratch = Vec::with_capacity(len + tail.len());
    #[cfg(feature = "std")]
    {
        let written = &mut scratch;
        written.push(0xee);
        let result = value.write_to(written);
        if result.as_ref().ok() != Some(&len) || written[0] != 0xee || written[1..] != bytes {
            violated(
                "named.write-to",
                &bytes,
                format_args!(
                    "write_to after one byte returned {result:?} and the buffer holds \"{}\"",
                    Hex(written)
                ),
            );
        }
    }
    let rebuilt = NamedGuid::from_raw_parts(value.guid(), value.name().map(str::as_bytes));
    if rebuilt.as_ref() != Ok(value) {
        violated(
            "named.from-raw-parts",
            &bytes,
            format_args!("from_raw_parts on the parts of {value:?} gives {rebuilt:?}"),
        );
    }
    // All prefixes would make long names quadratic; the ends and the middle
    // cover the GUID, the name and the missing NUL.
    for cut in [0, 1, GUID_LEN - 1, GUID_LEN, GUID_LEN + 1, len / 2, len - 1] {
        if cut >= len {
            continue;
        }
        let truncated = NamedGuidRef::decode(&bytes[..cut]);
        if !matches!(
            truncated,
            Err(NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. })
        ) {
            violated(
                "named.truncated",
                &bytes,
                format_args!(
                    "the first {cut} bytes of the encoding of {value:?} decode to {truncated:?}, \
                     expected a GuidEof or MissingNul error"
                ),
            );
        }
    }
    let mut followed = scratch;
    followed.clear();
    followed.extend_from_slice(&bytes);
    followed.extend_from_slice(&tail);
    // The borrowed decoder: the owned one is the same plus a copy of the
    // name, and was held to the borrowed one above on the same encoding.
    let with_tail = NamedGuidRef::decode(&followed);
    if with_tail
        != Ok(Decoded {
            value: value.as_ref(),
            consumed: len,
        })
    {
        violated(
            "named.trailing-bytes",
            &followed,
            format_args!(
                "the encoding of {value:?} followed by other bytes decodes to {with_tail:?}"
            ),
        );
    }
}
