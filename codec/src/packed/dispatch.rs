//! The one dispatch: which implementation each operation of
//! [`crate::packed`] runs, chosen here and nowhere else.
//!
//! | operation | runs |
//! | --- | --- |
//! | [`PackedGuid::decode`], [`PackedGuid::encode_into`] and everything built on them | [`super::table`], inlined, on every target |
//! | [`encode_many`] | the loop [`super::ssse3::encoder`] returns where the CPU has SSSE3, else [`super::table::encode_many`] |
//! | [`decode_many`] | for lists of at least `AVX512_MIN_VALUES` values, the loop [`super::avx512::decoder`] returns where the CPU has its AVX-512 features; else the loop [`super::ssse3::decoder`] returns where the CPU has SSSE3 and POPCNT; else [`super::table::decode_many`] |
//!
//! The one-value operations never ask the CPU: the table path is plain Rust
//! that inlines into the caller, and a run-time choice would cost a call per
//! value (the paths weighed are in `codec/benches/README.md`). The list
//! operations ask once per call; the implementations themselves never fall
//! back to one another.
//!
//! Above the implementation modules and below the public API in
//! [`super`]: it imports the implementations, [`super::value`] and
//! [`super::error`], and nothing imports it but [`super`]. It may touch the
//! caller's slices only, through the implementation it calls.

use super::error::{DecodeManyError, EncodeManyError, PackedGuidError};
use super::table;
use super::value::{PackedGuid, MAX_ENCODED_LEN};
#[cfg(target_arch = "x86_64")]
use super::{avx512, ssse3};
use crate::decoded::Decoded;

/// The shortest list [`decode_many`] gives the AVX-512 loop: below it the
/// SSSE3 loop is as fast or faster (`codec/benches/README.md`).
#[cfg(target_arch = "x86_64")]
const AVX512_MIN_VALUES: usize = 32;

/// The decoder behind [`PackedGuid::decode`].
#[inline]
pub(super) fn decode(input: &[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError> {
    table::decode(input)
}

/// The encoder behind [`PackedGuid::encode_into`].
#[inline]
pub(super) fn encode(guid: PackedGuid, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
    table::encode(guid, out)
}

/// Writes the packed encodings of `guids` into `out`, one after another, and
/// returns the number of bytes written.
///
/// This is a list *without* its count: a message that sends a count before
/// the GUIDs (the out-of-range block of `SMSG_UPDATE_OBJECT` sends a `u32`)
/// has the caller write the count first.
///
/// Uses the fastest implementation this CPU runs (see
/// [`super::encode_many_implementations`]); they all write the same bytes.
/// Bytes of `out` past the returned length are unspecified.
///
/// # Errors
/// [`EncodeManyError::OutputTooSmall`] when an encoding does not fit: the
/// GUIDs before it are written (to `out[..offset]`), nothing from it on is.
///
/// ```
/// use wow_guid_codec::packed::{encode_many, EncodeManyError};
/// use wow_guid_codec::PackedGuid;
///
/// let guids = [PackedGuid(0xF130_0000_1234_0001), PackedGuid(0), PackedGuid(0x42)];
/// let mut out = [0u8; 32];
/// let len = encode_many(&guids, &mut out).unwrap();
/// assert_eq!(&out[..len], &[0xCD, 0x01, 0x34, 0x12, 0x30, 0xF1, 0x00, 0x01, 0x42]);
///
/// // Room for the first two encodings (6 + 1 bytes) but not the third.
/// let mut small = [0u8; 7];
/// assert_eq!(
///     encode_many(&guids, &mut small),
///     Err(EncodeManyError::OutputTooSmall { index: 2, offset: 7, needed: 2, available: 7 })
/// );
/// ```
pub fn encode_many(guids: &[PackedGuid], out: &mut [u8]) -> Result<usize, EncodeManyError> {
    #[cfg(target_arch = "x86_64")]
    if let Some(encode_many) = ssse3::encoder() {
        return encode_many(guids, out);
    }
    table::encode_many(guids, out)
}

/// Decodes `out.len()` packed GUIDs, back to back from the front of `input`,
/// into `out`, and returns the number of bytes they took. Bytes after them
/// are the next field of the message and are left alone.
///
/// The count is the caller's: a message that sends one before the GUIDs has
/// the caller read it and size `out` (or use
/// [`super::decode_many_to_vec`], which takes the count and does not trust
/// it).
///
/// Uses the fastest implementation this CPU runs (see
/// [`super::decode_many_implementations`]); they all give the same result.
///
/// # Errors
/// [`DecodeManyError::UnexpectedEof`] when the input ends before the last
/// value does: the values before the failing one are in `out[..index]`, the
/// rest of `out` is unspecified.
///
/// ```
/// use wow_guid_codec::packed::{decode_many, DecodeManyError};
/// use wow_guid_codec::PackedGuid;
///
/// // A count of 3 came before these bytes; 0xAA belongs to the next field.
/// let input = [0x0A, 0xDE, 0xAD, 0x00, 0x01, 0x42, 0xAA];
/// let mut guids = [PackedGuid(0); 3];
/// assert_eq!(decode_many(&input, &mut guids), Ok(6));
/// assert_eq!(guids, [PackedGuid(0xAD00_DE00), PackedGuid(0), PackedGuid(0x42)]);
///
/// // A fourth value would start at offset 6 with mask 0xAA (four bytes).
/// let mut four = [PackedGuid(0); 4];
/// assert_eq!(
///     decode_many(&input, &mut four),
///     Err(DecodeManyError::UnexpectedEof { index: 3, offset: 6, mask: Some(0xAA), needed: 5, end: 7 })
/// );
/// ```
pub fn decode_many(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    #[cfg(target_arch = "x86_64")]
    if out.len() >= AVX512_MIN_VALUES {
        if let Some(decode_many) = avx512::decoder() {
            return decode_many(input, out);
        }
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(decode_many) = ssse3::decoder() {
        return decode_many(input, out);
    }
    table::decode_many(input, out)
}
