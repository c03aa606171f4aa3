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
//! An implementation with the same signatures as the fast paths (it is in
//! [`super::DECODERS`] and [`super::ENCODERS`]) that is easy to audit: no
//! tables, no tricks. It is not the default: its loops branch on every mask
//! bit (or every GUID byte), which costs a misprediction for about every
//! other bit when masks vary, and on the default x86-64 target `count_ones`
//! is a dozen instructions, not one. [`PackedGuid::decode`] uses
//! [`super::table`].
//!
//! # Why both this module and [`crate::naive`]
//!
//! Both are simple, for different jobs, and merging them would cost one of
//! the jobs.
//!
//! - [`crate::naive`] is the **oracle**: the spec's loop transcribed, indexing
//!   and all, returning plain tuples. It lives outside [`crate::packed`],
//!   shares only the error types with it, and is not in the implementation
//!   lists, since comparing it with itself would prove nothing. Tests and
//!   fuzz targets hold every implementation to it, and the corpus test holds
//!   it to the vectors. Giving it the codec's types and idioms would let a
//!   mistake in those show up in the oracle too, and go unseen.
//! - This module is an **implementation**: the codec's contract
//!   ([`Decoded`], [`Decoded::is_canonical`], the function types of the
//!   lists) in the idioms the fast paths use (checked slicing, no index that
//!   could panic), without the 8 KiB of tables of [`super::table`]. It is the
//!   reading to start from before the fast paths, and the implementation to
//!   call for a caller who wants the codec's API without the tables.
//!
//! This module may touch the input slice and the output buffer only.

use super::error::PackedGuidError;
use super::value::{PackedGuid, MAX_ENCODED_LEN};
use crate::decoded::Decoded;

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
