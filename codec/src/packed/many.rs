//! Many packed GUIDs at once: a slice of GUIDs written back to back into one
//! buffer.
//!
//! Messages carry lists of packed GUIDs: the out-of-range block of
//! `SMSG_UPDATE_OBJECT` is a `u32` count followed by that many packed GUIDs,
//! hundreds of them when a player teleports into a busy zone. Encoding such a
//! list one value at a time works ([`PackedGuid::encode_into`]), but a call
//! that takes the whole list can choose a CPU-specific loop once per list
//! instead of once per value: that is what [`encode_many`] does, with the
//! SSSE3 loop of [`super::ssse3`] where the CPU has it and the table loop of
//! [`super::table`] everywhere else.
//!
//! This module owns the slice-level contract (where each value goes, what
//! happens when the buffer runs out) and the dispatch; the per-value work
//! belongs to the implementation modules. It may touch the GUID slice and the
//! output buffer only.

use core::fmt;

use super::{table, PackedGuid, MAX_ENCODED_LEN};

/// Writes the packed encodings of `guids` into `out`, one after another, and
/// returns the number of bytes written.
///
/// Uses the fastest implementation this CPU runs (see [`super::ENCODE_MANY`]);
/// they all write the same bytes. Bytes of `out` past the returned length are
/// unspecified.
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
    {
        super::ssse3::encode_many(guids, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        table::encode_many(guids, out)
    }
}

/// Appends the packed encodings of `guids` to `out`, one after another, with
/// [`encode_many`].
#[cfg(feature = "alloc")]
pub fn encode_many_to_vec(guids: &[PackedGuid], out: &mut alloc::vec::Vec<u8>) {
    let start = out.len();
    // A slice of u64 has at most isize::MAX / 8 elements, so this cannot
    // overflow; saturating keeps that argument out of the reader's way.
    out.resize(
        start.saturating_add(guids.len().saturating_mul(MAX_ENCODED_LEN)),
        0,
    );
    let written = match encode_many(guids, &mut out[start..]) {
        Ok(written) => written,
        Err(e) => unreachable!("nine bytes per GUID always fit: {e}"),
    };
    out.truncate(start + written);
}

/// The loop every implementation of [`encode_many`] shares: `encode` writes
/// one GUID into a slot with room for the longest encoding and returns its
/// length.
///
/// While at least nine bytes of `out` remain, each GUID goes straight into
/// the buffer; the last few GUIDs before the end of a tight buffer go through
/// [`encode_tail`], which checks that each one fits before copying it.
#[inline(always)]
pub(crate) fn encode_many_with(
    guids: &[PackedGuid],
    out: &mut [u8],
    encode: impl Fn(u64, &mut [u8; MAX_ENCODED_LEN]) -> usize,
) -> Result<usize, EncodeManyError> {
    let mut pos = 0;
    for (index, guid) in guids.iter().enumerate() {
        let Some(slot) = out
            .get_mut(pos..)
            .and_then(<[u8]>::first_chunk_mut::<MAX_ENCODED_LEN>)
        else {
            return encode_tail(&guids[index..], index, out, pos);
        };
        pos += encode(guid.0, slot);
    }
    Ok(pos)
}

/// Encodes `guids` (the list from `first` on) into `out` from `pos`, where
/// fewer than nine bytes remain, each through a scratch buffer so that a GUID
/// that does not fit leaves the buffer as it was.
#[cold]
#[inline(never)]
fn encode_tail(
    guids: &[PackedGuid],
    first: usize,
    out: &mut [u8],
    mut pos: usize,
) -> Result<usize, EncodeManyError> {
    for (i, &guid) in guids.iter().enumerate() {
        let mut scratch = [0u8; MAX_ENCODED_LEN];
        let len = table::encode(guid, &mut scratch);
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

/// Why [`encode_many`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeManyError {
    /// The encoding of GUID `index` (counting from 0) takes `needed` bytes
    /// from `offset`, past the end of the `available`-byte buffer. The GUIDs
    /// before it fill `out[..offset]`.
    OutputTooSmall {
        /// Position of the GUID that did not fit in the input slice.
        index: usize,
        /// Where its encoding would have started: the bytes written so far.
        offset: usize,
        /// Its encoded length, 1 to 9.
        needed: usize,
        /// The length of the output buffer.
        available: usize,
    },
}

impl fmt::Display for EncodeManyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::OutputTooSmall {
                index,
                offset,
                needed,
                available,
            } => write!(
                f,
                "output buffer too small: packed GUID {index} needs {needed} byte(s) at offset \
                 {offset}, but the buffer ends at offset {available} (GUIDs 0..{index} were \
                 written to bytes 0..{offset})"
            ),
        }
    }
}

impl core::error::Error for EncodeManyError {}
