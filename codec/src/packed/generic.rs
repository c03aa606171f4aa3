//! The loops every packed-GUID implementation shares, written once over the
//! per-value step each implementation supplies.
//!
//! ```text
//! encode_many(guids, out, encode_one):          // encode_one writes into a 9-byte slot
//!     (encode_many_from starts at a given GUID and offset instead)
//!     pos = 0
//!     for each guid:
//!         if 9 bytes of out remain from pos: pos += encode_one(guid, out[pos..pos + 9])
//!         else: encode it into a scratch slot; copy it if it fits, else OutputTooSmall
//!     return pos
//!
//! decode_many_windowed(input, out, decode_one): // decode_one reads a 9-byte window
//!     (decode_many_windowed_from starts at a given slot and offset instead)
//!     for each slot of out:
//!         window = input[pos..pos + 9], or the bytes left padded with zeros
//!         (guid, consumed) = decode_one(window)
//!         when the window was padded and consumed > bytes left: UnexpectedEof
//!         slot = guid; pos += consumed
//!
//! decode_many_checked(input, out, decode):      // decode checks its own length
//!     for each slot of out: slot = decode(input[pos..]) or UnexpectedEof; step past it
//! ```
//!
//! The bottom of the implementations' layers: it builds on [`super::value`]
//! and [`super::error`] only, so [`super::table`] and [`super::ssse3`] each
//! pass their own one-value step and none of them depends on another. It
//! also names the function types every implementation has ([`DecodeFn`],
//! [`EncodeFn`], [`EncodeManyFn`], [`DecodeManyFn`]). Every
//! loop is `#[inline(always)]` so that the step is inlined into it, as it
//! would be in a hand-written loop; the paths for the last few bytes of a
//! buffer are out of line and cold, since they run at most once per call.
//!
//! The slice-level contract lives here, so it is the same for every
//! implementation: where each value goes, what the error says when the input
//! or the buffer runs out, and that a GUID that does not fit leaves the
//! buffer as it was from its offset on. This module may touch the input and
//! output slices only, and its own read-only length table.

use super::error::{DecodeManyError, EncodeManyError, PackedGuidError};
use super::value::{PackedGuid, MAX_ENCODED_LEN};
use crate::decoded::Decoded;

/// Signature shared by every packed-GUID decoder in this crate: the contract
/// of [`super::PackedGuid::decode`].
pub type DecodeFn = fn(&[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError>;

/// Signature shared by every packed-GUID encoder in this crate: writes the
/// canonical encoding and returns its length, the contract of
/// [`super::PackedGuid::encode_into`].
pub type EncodeFn = fn(PackedGuid, &mut [u8; MAX_ENCODED_LEN]) -> usize;

/// Signature shared by every list encoder: writes the encodings of a list of
/// GUIDs back to back and returns the bytes written, the contract of
/// [`super::encode_many`].
pub type EncodeManyFn = fn(&[PackedGuid], &mut [u8]) -> Result<usize, EncodeManyError>;

/// Signature shared by every list decoder: decodes as many values as the
/// output slice holds and returns the bytes they took, the contract of
/// [`super::decode_many`].
pub type DecodeManyFn = fn(&[u8], &mut [PackedGuid]) -> Result<usize, DecodeManyError>;

/// Bytes a value with this mask takes on the wire: 1 + the number of set
/// bits. A table, because the default x86-64 target has no `POPCNT`, and
/// there `count_ones` is a dozen dependent instructions where this is one
/// load.
static CONSUMED: [u8; 256] = consumed_table();

const fn consumed_table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = 1 + (mask as u8).count_ones() as u8;
        mask += 1;
    }
    table
}

/// Bytes a value with this mask takes on the wire, from [`CONSUMED`].
#[inline(always)]
pub(super) fn encoded_len(mask: u8) -> usize {
    usize::from(CONSUMED[usize::from(mask)])
}

/// Writes the encodings of `guids` into `out` back to back and returns the
/// bytes written. `encode` writes one GUID into a slot with room for the
/// longest encoding and returns its length.
///
/// While at least nine bytes of `out` remain, each GUID goes straight into
/// the buffer; the last few GUIDs before the end of a tight buffer go through
/// [`encode_tail`], which checks that each one fits before copying it.
#[inline(always)]
pub(super) fn encode_many(
    guids: &[PackedGuid],
    out: &mut [u8],
    encode: impl Fn(u64, &mut [u8; MAX_ENCODED_LEN]) -> usize,
) -> Result<usize, EncodeManyError> {
    encode_many_from(guids, 0, out, 0, encode)
}

/// [`encode_many`] from GUID `first` on, written from offset `pos`: for a
/// loop that encoded `guids[..first]` into `out[..pos]` its own way and
/// leaves the rest of the list (and the exact errors) to this one.
#[inline(always)]
pub(super) fn encode_many_from(
    guids: &[PackedGuid],
    first: usize,
    out: &mut [u8],
    mut pos: usize,
    encode: impl Fn(u64, &mut [u8; MAX_ENCODED_LEN]) -> usize,
) -> Result<usize, EncodeManyError> {
    for (index, guid) in guids.iter().enumerate().skip(first) {
        let Some(slot) = out
            .get_mut(pos..)
            .and_then(<[u8]>::first_chunk_mut::<MAX_ENCODED_LEN>)
        else {
            return encode_tail(&guids[index..], index, out, pos, encode);
        };
        pos += encode(guid.0, slot);
    }
    Ok(pos)
}

/// Encodes `guids` (the list from `first` on) into `out` from `pos`, where
/// fewer than nine bytes remain, each through a scratch slot so that a GUID
/// that does not fit leaves the buffer as it was.
#[cold]
#[inline(never)]
fn encode_tail(
    guids: &[PackedGuid],
    first: usize,
    out: &mut [u8],
    mut pos: usize,
    encode: impl Fn(u64, &mut [u8; MAX_ENCODED_LEN]) -> usize,
) -> Result<usize, EncodeManyError> {
    for (i, guid) in guids.iter().enumerate() {
        let mut scratch = [0u8; MAX_ENCODED_LEN];
        let len = encode(guid.0, &mut scratch);
        let Some(dest) = out.get_mut(pos..pos + len) else {
            return Err(EncodeManyError::OutputTooSmall {
                index: first + i,
                offset: pos,
                needed: len,
                available: out.len(),
            });
        };
        dest.copy_from_slice(&scratch[..len]);
        pos += len;
    }
    Ok(pos)
}

/// Decodes `out.len()` values back to back from the front of `input` and
/// returns the bytes they took. `decode` reads one value from a window that
/// starts at its mask and holds nine bytes (enough for the longest value),
/// and returns the GUID and the value's length; it need not check anything.
///
/// While nine bytes remain, every value is decoded from the input itself;
/// the last few go through [`decode_tail`], which pads the window with zeros
/// and checks each length against the bytes that are really there.
#[inline(always)]
pub(super) fn decode_many_windowed(
    input: &[u8],
    out: &mut [PackedGuid],
    decode: impl Fn(&[u8; MAX_ENCODED_LEN]) -> (u64, usize),
) -> Result<usize, DecodeManyError> {
    decode_many_windowed_from(input, 0, out, 0, decode)
}

/// [`decode_many_windowed`] from value `first` on, which starts at offset
/// `pos`: for a loop that decoded `out[..first]` from `input[..pos]` its own
/// way and leaves the rest of the list (and the exact errors) to this one.
#[inline(always)]
pub(super) fn decode_many_windowed_from(
    input: &[u8],
    mut pos: usize,
    out: &mut [PackedGuid],
    first: usize,
    decode: impl Fn(&[u8; MAX_ENCODED_LEN]) -> (u64, usize),
) -> Result<usize, DecodeManyError> {
    for index in first..out.len() {
        let Some(window) = input
            .get(pos..)
            .and_then(<[u8]>::first_chunk::<MAX_ENCODED_LEN>)
        else {
            return decode_tail(input, pos, out, index, decode);
        };
        let (guid, consumed) = decode(window);
        out[index] = PackedGuid(guid);
        pos += consumed;
    }
    Ok(pos)
}

/// Decodes `out[first..]` from `input[pos..]`, where fewer than nine bytes
/// remain, each value from a zero-padded copy of what is left.
#[cold]
#[inline(never)]
fn decode_tail(
    input: &[u8],
    mut pos: usize,
    out: &mut [PackedGuid],
    first: usize,
    decode: impl Fn(&[u8; MAX_ENCODED_LEN]) -> (u64, usize),
) -> Result<usize, DecodeManyError> {
    for (index, slot) in out.iter_mut().enumerate().skip(first) {
        let rest = input.get(pos..).unwrap_or_default();
        let mut window = [0u8; MAX_ENCODED_LEN];
        let there = rest.len().min(MAX_ENCODED_LEN);
        window[..there].copy_from_slice(&rest[..there]);
        let (guid, consumed) = decode(&window);
        // With nothing left, the window is all zeros: mask 0, one byte
        // needed, none there.
        if consumed > rest.len() {
            return Err(DecodeManyError::UnexpectedEof {
                index,
                offset: pos,
                mask: rest.first().copied(),
                needed: consumed,
                end: input.len(),
            });
        }
        *slot = PackedGuid(guid);
        pos += consumed;
    }
    Ok(pos)
}

/// Decodes `out.len()` values back to back from the front of `input`, each
/// with `decode`, which checks its own input like [`super::PackedGuid::decode`],
/// and returns the bytes they took.
#[inline(always)]
pub(super) fn decode_many_checked(
    input: &[u8],
    out: &mut [PackedGuid],
    decode: impl Fn(&[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError>,
) -> Result<usize, DecodeManyError> {
    let mut rest = input;
    for (index, slot) in out.iter_mut().enumerate() {
        match decode(rest) {
            Ok(decoded) => {
                *slot = decoded.value;
                rest = rest.get(decoded.consumed..).unwrap_or_default();
            }
            Err(PackedGuidError::UnexpectedEof { mask, needed, .. }) => {
                return Err(DecodeManyError::UnexpectedEof {
                    index,
                    offset: input.len() - rest.len(),
                    mask,
                    needed,
                    end: input.len(),
                });
            }
        }
    }
    Ok(input.len() - rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_table_counts_the_mask_bits() {
        for mask in 0..=255u8 {
            assert_eq!(encoded_len(mask), 1 + mask.count_ones() as usize);
        }
    }
}
