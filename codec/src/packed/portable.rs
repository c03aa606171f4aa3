//! The straightforward packed-GUID codec: a loop over the mask's set bits.
//!
//! ```text
//! decode(input):
//!     mask = input[0]; count = popcount(mask)
//!     check input has 1 + count bytes
//!     guid = 0
//!     for each set bit i of mask, lowest first:
//!         guid |= next byte << 8·i
//! encode(guid):
//!     for each byte i of guid, lowest first:
//!         if it is non-zero: set mask bit i, append the byte
//! ```
//!
//! This is the codec's first and simplest implementation, kept always
//! compiled as the readable baseline for the fast paths beside it: it needs
//! no tables and no tricks, so it is easy to audit, and the differential tests
//! hold the fast paths to it as well as to [`crate::naive`]. It is not the
//! default: its loops branch on every mask bit (or every GUID byte), which
//! costs a misprediction for about every other bit when masks vary, and on the
//! default x86-64 target `count_ones` is a dozen instructions, not one.
//! See [`super::table`] for the path [`PackedGuid::decode`] uses.
//!
//! This module may touch the input slice and the output buffer only.

use super::{PackedGuid, PackedGuidError, MAX_ENCODED_LEN};
use crate::Decoded;

/// Decodes one packed GUID from the front of `input` by walking the mask's
/// set bits. Same contract as [`PackedGuid::decode`].
///
/// # Errors
/// [`PackedGuidError::UnexpectedEof`] when `input` is empty or shorter than
/// the mask promises.
#[inline]
pub fn decode(input: &[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError> {
    let Some((&mask, rest)) = input.split_first() else {
        return Err(PackedGuidError::UnexpectedEof {
            mask: None,
            needed: 1,
            available: 0,
        });
    };
    let count = mask.count_ones() as usize;
    let Some(bytes) = rest.get(..count) else {
        return Err(PackedGuidError::UnexpectedEof {
            mask: Some(mask),
            needed: 1 + count,
            available: input.len(),
        });
    };
    let mut guid = 0u64;
    let mut bytes = bytes.iter();
    let mut remaining = mask;
    while remaining != 0 {
        let position = remaining.trailing_zeros();
        // `bytes` holds exactly one byte per set bit, checked above.
        if let Some(&byte) = bytes.next() {
            guid |= u64::from(byte) << (8 * position);
        }
        remaining &= remaining - 1;
    }
    Ok(Decoded {
        value: PackedGuid(guid),
        consumed: 1 + count,
    })
}

/// Writes the canonical encoding of `guid` into `out` byte by byte and
/// returns its length (1..=9). Same contract as [`PackedGuid::encode_into`].
#[inline]
pub fn encode(guid: PackedGuid, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
    let mut len = 1;
    let mut mask = 0u8;
    for (i, byte) in guid.0.to_le_bytes().into_iter().enumerate() {
        if byte != 0 {
            mask |= 1 << i;
            out[len] = byte;
            len += 1;
        }
    }
    out[0] = mask;
    len
}
