//! The one dispatch: which implementation each operation of
//! [`crate::packed`] runs, chosen here and nowhere else.
//!
//! | operation | runs |
//! | --- | --- |
//! | [`PackedGuid::decode`], [`PackedGuid::encode_into`] and everything built on them | [`super::table`], inlined, on every target |
//! | [`encode_many`] | the first loop of the registry's list encoders (`arch`) that this CPU runs and that takes a list this long; else [`super::table::encode_many`] |
//! | [`decode_many`] | the same, from the registry's list decoders; else [`super::table::decode_many`] |
//!
//! The one-value operations never ask the CPU: the table path is plain Rust
//! that inlines into the caller, and a run-time choice would cost a call per
//! value (the paths weighed are in `codec/benches/README.md`). The list
//! operations ask once per call; the implementations themselves never fall
//! back to one another.
//!
//! Which SIMD loops exist, which CPU features each needs and the shortest
//! list each is chosen for are the registry's (`arch`); this module only
//! walks it, so a new backend needs no change here.
//!
//! Above the implementation modules and below the public API in
//! [`super`]: it imports the implementations, [`super::value`] and
//! [`super::error`], and nothing imports it but [`super`]. It may touch the
//! caller's slices only, through the implementation it calls.

use super::arch::cpu::Loop;
use super::arch::{DECODE_MANY, ENCODE_MANY};
use super::error::{DecodeManyError, EncodeManyError, PackedGuidError};
use super::table;
use super::value::{PackedGuid, MAX_ENCODED_LEN};
use crate::decoded::Decoded;

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
    choose(ENCODE_MANY, guids.len()).unwrap_or(table::encode_many)(guids, out)
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
    choose(DECODE_MANY, out.len()).unwrap_or(table::decode_many)(input, out)
}

/// The first of `loops` (fastest first) that takes a list of `len` values
/// and that this CPU runs.
#[inline]
fn choose<F>(loops: &[Loop<F>], len: usize) -> Option<F> {
    loops
        .iter()
        .filter(|simd| len >= simd.min_len)
        .find_map(|simd| (simd.get)())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For lists around each loop's shortest length, the dispatcher takes
    /// the first loop of the registry that this CPU runs and that takes a
    /// list that long, and none (so the table loop) when no loop does.
    /// Loops are told apart by address.
    fn takes_the_first_loop_that_runs_here<F: Copy>(loops: &[Loop<F>], address: fn(F) -> usize) {
        let lens = loops
            .iter()
            .flat_map(|simd| [simd.min_len.saturating_sub(1), simd.min_len])
            .chain([0, usize::MAX]);
        for len in lens {
            let want = loops
                .iter()
                .filter(|simd| len >= simd.min_len)
                .find_map(|simd| Some((simd.name, address((simd.get)()?))));
            let got = choose(loops, len).map(address);
            assert_eq!(got, want.map(|(_, f)| f), "{len} values: want {want:?}");
        }
    }

    #[test]
    fn encode_many_takes_the_first_loop_that_runs_here() {
        takes_the_first_loop_that_runs_here(ENCODE_MANY, |f| f as usize);
    }

    #[test]
    fn decode_many_takes_the_first_loop_that_runs_here() {
        takes_the_first_loop_that_runs_here(DECODE_MANY, |f| f as usize);
    }
}
