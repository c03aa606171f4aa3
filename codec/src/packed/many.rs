//! Many packed GUIDs at once: a list of GUIDs written back to back into one
//! buffer, or read back from one.
//!
//! Messages carry lists of packed GUIDs: the out-of-range block of
//! `SMSG_UPDATE_OBJECT` is a `u32` count followed by that many packed GUIDs,
//! hundreds of them when a player teleports into a busy zone. Such a list can
//! be handled one value at a time ([`PackedGuid::encode_into`],
//! [`PackedGuid::decode`]), but a call that takes the whole list can choose a
//! CPU-specific loop once per list instead of once per value: that is what
//! [`encode_many`] and [`decode_many`] do, with the loops of
//! [`super::ssse3`] where the CPU has the instructions and the table loops of
//! [`super::table`] everywhere else.
//!
//! This module owns the slice-level contract (where each value goes, what
//! happens when the buffer runs out) and the dispatch; the per-value work
//! belongs to the implementation modules. It may touch the input and output
//! slices only.

use core::fmt;

use super::{table, PackedGuid, PackedGuidError, MAX_ENCODED_LEN};

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

/// Decodes `out.len()` packed GUIDs, back to back from the front of `input`,
/// into `out`, and returns the number of bytes they took. Bytes after them
/// are the next field of the message and are left alone.
///
/// Uses the fastest implementation this CPU runs (see
/// [`super::DECODE_MANY`]); they all give the same result.
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
    {
        super::ssse3::decode_many(input, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        table::decode_many(input, out)
    }
}

/// Decodes `count` packed GUIDs from the front of `input` with
/// [`decode_many`], appends them to `out`, and returns the number of bytes
/// they took.
///
/// `count` usually comes from the message itself, so it is not trusted: at
/// most one value per input byte is reserved, however large it is.
///
/// # Errors
/// As [`decode_many`]; `out` then ends with the values before the failing
/// one.
#[cfg(feature = "alloc")]
pub fn decode_many_to_vec(
    input: &[u8],
    count: usize,
    out: &mut alloc::vec::Vec<PackedGuid>,
) -> Result<usize, DecodeManyError> {
    let start = out.len();
    // Every value takes at least one byte, so more than `input.len()` values
    // cannot all be there.
    let there = count.min(input.len());
    out.resize(start + there, PackedGuid(0));
    match decode_many(input, &mut out[start..]) {
        Ok(consumed) if there == count => Ok(consumed),
        Ok(consumed) => {
            // `there` values of at least one byte each filled the input.
            Err(DecodeManyError::UnexpectedEof {
                index: there,
                offset: consumed,
                mask: None,
                needed: 1,
                end: input.len(),
            })
        }
        Err(e) => {
            let DecodeManyError::UnexpectedEof { index, .. } = e;
            out.truncate(start + index);
            Err(e)
        }
    }
}

/// The loop of the list decoders that read a window of nine bytes at a time
/// (the SSSE3 one): `decode` reads one value from a window starting at its
/// mask (enough for the longest value) and returns it with its length.
///
/// While nine bytes remain, every value is decoded from such a window with
/// no further check; the last few values of the input go through
/// [`decode_each`], which checks each length.
#[inline(always)]
pub(crate) fn decode_many_with(
    input: &[u8],
    out: &mut [PackedGuid],
    decode: impl Fn(&[u8; MAX_ENCODED_LEN]) -> (u64, usize),
) -> Result<usize, DecodeManyError> {
    let mut pos = 0;
    for index in 0..out.len() {
        let Some(window) = input
            .get(pos..)
            .and_then(<[u8]>::first_chunk::<MAX_ENCODED_LEN>)
        else {
            return decode_each(input, pos, out, index);
        };
        let (guid, consumed) = decode(window);
        out[index] = PackedGuid(guid);
        pos += consumed;
    }
    Ok(pos)
}

/// Decodes `out[first..]` from `input[pos..]` one checked value at a time
/// with [`table::decode`], and returns where the last one ends: the whole of
/// [`table::decode_many`], and the end of the input for the window loops.
#[inline]
pub(crate) fn decode_each(
    input: &[u8],
    pos: usize,
    out: &mut [PackedGuid],
    first: usize,
) -> Result<usize, DecodeManyError> {
    let mut rest = input.get(pos..).unwrap_or_default();
    for (index, slot) in out.iter_mut().enumerate().skip(first) {
        match table::decode(rest) {
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

/// Why [`decode_many`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeManyError {
    /// Value `index` (counting from 0) starts at `offset` and needs `needed`
    /// bytes from there, but the input ends at `end`. `mask` is its mask
    /// byte, or `None` when the input ends right where the mask should be.
    UnexpectedEof {
        /// Position of the value in the list.
        index: usize,
        /// Offset of its mask byte in the input: the bytes the values
        /// before it took.
        offset: usize,
        /// Its mask byte, when the input has one there.
        mask: Option<u8>,
        /// Bytes the value needs from `offset`: 1 + the mask's set bits
        /// (1 when the mask itself is missing).
        needed: usize,
        /// The input's length.
        end: usize,
    },
}

impl fmt::Display for DecodeManyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnexpectedEof {
                index,
                offset,
                mask: None,
                end,
                ..
            } => write!(
                f,
                "packed GUID {index} missing: the input ends at offset {end}, where its mask \
                 byte should be (offset {offset})"
            ),
            Self::UnexpectedEof {
                index,
                offset,
                mask: Some(mask),
                needed,
                end,
            } => write!(
                f,
                "packed GUID {index} truncated: its mask {mask:#04x} at offset {offset} \
                 announces {} GUID byte(s), so it needs offsets {offset}..{}, but the input \
                 ends at offset {end}",
                needed - 1,
                offset + needed
            ),
        }
    }
}

impl core::error::Error for DecodeManyError {}
