//! The fast packed-GUID codec: one table entry per mask, a whole word at a
//! time, no branch that depends on the mask.
//!
//! ```text
//! decode(input):
//!     mask     = input[0]
//!     consumed = CONSUMED[mask]                 // 1 + popcount(mask), one load
//!                                               // (the table is generic's)
//!     word     = input[1..9] as a little-endian u64 when 9 bytes are there,
//!                else the 1 + popcount bytes there are, zero-padded (or EOF)
//!     for k in 2, 1, 0:                         // expand: lift bytes to their slots
//!         word = select(STAGE[mask][k], word << 8·2^k, word)
//!     guid     = word & BYTES[mask]
//!
//! encode(guid):
//!     mask = nonzero_byte_mask(guid)            // branch-free
//!     word = guid
//!     for k in 0, 1, 2:                         // compress: the same stages backwards
//!         moving = word & STAGE[mask][k]
//!         word   = (word ^ moving) | (moving >> 8·2^k)
//!     out[0] = mask; out[1..9] = word           // `out` always has room for 8
//! ```
//!
//! # Why it is fast
//!
//! - **No branch depends on the mask.** The naive loop takes one
//!   data-dependent branch per mask bit; on varied masks about half of them
//!   mispredict, at 15 or so cycles each. Here the only branches are the
//!   length checks, which go the same way everywhere but in the last eight
//!   bytes of a buffer.
//! - **The serial part is as short as the format allows.** In a stream of
//!   values, where the next one starts depends on this mask. Here that chain is
//!   load the mask, load `CONSUMED[mask]`, add: the same as the bare walk that
//!   only skips values (the benchmarks' "floor"). The word load and the three
//!   stages hang off the chain and overlap with the next values.
//! - **Three steps instead of eight.** The bytes move as a block in log2(8) = 3
//!   masked shifts (Hacker's Delight's expand and compress, at byte rather
//!   than bit granularity), with each mask's stage masks computed at compile
//!   time.
//! - **A table load instead of `count_ones`.** The default x86-64 target has
//!   no POPCNT; there `count_ones` is a dozen dependent instructions, and a
//!   256-byte table lookup (`generic`'s) is one load. The
//!   benchmarks' `floor-count-ones` row shows the difference.
//!
//! # When it applies
//!
//! Everywhere: it is plain safe Rust, so [`PackedGuid::decode`] and
//! [`PackedGuid::encode_into`] use it on every target. Decoding loads eight
//! bytes at once when at least nine remain; nearer the end of the input it
//! gathers the (at most seven) value bytes one by one, which is slower but
//! happens at most once per buffer. The tables take 8 KiB: four arrays of
//! 256 `u64` (the three stage masks and the byte mask, kept apart so that a
//! mask indexes each with one scaled load and no multiply), besides the
//! 256-byte length table in `generic`.
//!
//! `codec/benches/README.md` has the measured figures.
//!
//! This module may touch the input slice, the output buffer and its own
//! read-only tables.

use super::error::{DecodeManyError, EncodeManyError, PackedGuidError};
use super::generic::{self, encoded_len};
use super::value::{nonzero_byte_mask, PackedGuid, MAX_ENCODED_LEN};
use crate::decoded::Decoded;

/// How the bytes of each mask move between the packed and the in-place form.
///
/// Byte `i` of a GUID whose mask bit is set sits, in the packed form, below
/// its slot by `gap(i)` bytes: the number of clear mask bits below `i`.
/// Compressing moves such a byte down by `2^k` bytes at stage `k` (k = 0, 1, 2)
/// when bit `k` of `gap(i)` is set; `STAGES[k][mask]` has `0xff` in every byte
/// position such a byte occupies *before* stage `k` moves it, which is also
/// where expanding must put it back. No two bytes ever meet at one position,
/// because a byte with a larger gap sits further up and the partial moves
/// keep the order (Hacker's Delight, section 7-4). `STAGES[BYTES][mask]` has
/// `0xff` in each byte whose mask bit is set.
static STAGES: [[u64; 256]; 4] = stages_table();

/// Index of the byte masks in [`STAGES`].
const BYTES: usize = 3;

/// `0xff` in byte `i` for each set bit `i` of `bits`.
const fn spread(bits: u8) -> u64 {
    let mut out = 0u64;
    let mut i = 0;
    while i < 8 {
        if bits & (1 << i) != 0 {
            out |= 0xff << (8 * i);
        }
        i += 1;
    }
    out
}

const fn stages_table() -> [[u64; 256]; 4] {
    let mut table = [[0u64; 256]; 4];
    let mut mask = 0usize;
    while mask < 256 {
        let mut stages = [0u8; 3];
        let mut gap = 0u32;
        let mut i = 0u32;
        while i < 8 {
            if mask & (1 << i) == 0 {
                gap += 1;
            } else {
                let mut k = 0;
                while k < 3 {
                    if gap & (1 << k) != 0 {
                        // Before stage k the byte has already moved by the
                        // lower bits of its gap.
                        stages[k] |= 1 << (i - (gap & ((1 << k) - 1)));
                    }
                    k += 1;
                }
            }
            i += 1;
        }
        table[0][mask] = spread(stages[0]);
        table[1][mask] = spread(stages[1]);
        table[2][mask] = spread(stages[2]);
        table[BYTES][mask] = spread(mask as u8);
        mask += 1;
    }
    table
}

/// Moves the low `popcount(mask)` bytes of `word` up to the mask's byte
/// positions and clears every other byte.
#[inline(always)]
fn expand(word: u64, mask: u8) -> u64 {
    let m = usize::from(mask);
    let mut word = word;
    // select(m, a, b) = b ^ ((b ^ a) & m): four operations, no branch.
    word ^= (word ^ (word << 32)) & STAGES[2][m];
    word ^= (word ^ (word << 16)) & STAGES[1][m];
    word ^= (word ^ (word << 8)) & STAGES[0][m];
    word & STAGES[BYTES][m]
}

/// Moves the bytes of `word` at the mask's positions down to the low end, in
/// order. Every byte outside the mask must already be zero.
#[inline(always)]
fn compress(word: u64, mask: u8) -> u64 {
    let m = usize::from(mask);
    let mut word = word;
    let moving = word & STAGES[0][m];
    word = (word ^ moving) | (moving >> 8);
    let moving = word & STAGES[1][m];
    word = (word ^ moving) | (moving >> 16);
    let moving = word & STAGES[2][m];
    (word ^ moving) | (moving >> 32)
}

/// Decodes one packed GUID from the front of `input` with a table lookup, an
/// eight-byte load and three masked shifts. Same contract as
/// [`PackedGuid::decode`], which calls it.
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
    let consumed = encoded_len(mask);
    let word = match rest.first_chunk::<8>() {
        // Nine or more bytes: every byte the mask can ask for is there, and
        // the ones past the value are cleared by `expand`.
        Some(chunk) => u64::from_le_bytes(*chunk),
        None => tail_word(input, mask, consumed)?,
    };
    Ok(Decoded {
        value: PackedGuid(expand(word, mask)),
        consumed,
    })
}

/// The value bytes of a value near the end of the input (fewer than nine bytes
/// left), gathered one by one into a word, or the error if they are not all
/// there.
///
/// Out of line and cold: it runs at most once per buffer, and keeping it out
/// of [`decode`] leaves the common path a straight line.
#[cold]
#[inline(never)]
fn tail_word(input: &[u8], mask: u8, consumed: usize) -> Result<u64, PackedGuidError> {
    let Some(bytes) = input.get(1..consumed) else {
        return Err(PackedGuidError::UnexpectedEof {
            mask: Some(mask),
            needed: consumed,
            available: input.len(),
        });
    };
    let mut word = 0u64;
    for (i, &byte) in bytes.iter().enumerate() {
        word |= u64::from(byte) << (8 * i);
    }
    Ok(word)
}

/// Writes the canonical encoding of `guid` into `out` with a branch-free mask,
/// three masked shifts and one eight-byte store, and returns its length
/// (1..=9). Same contract as [`PackedGuid::encode_into`], which calls it.
#[inline]
pub fn encode(guid: PackedGuid, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
    let mask = nonzero_byte_mask(guid.0);
    // The bytes outside the mask are the zero bytes, as `compress` needs.
    let packed = compress(guid.0, mask);
    out[0] = mask;
    // All eight bytes: the caller reads only the first `len - 1`, and one
    // store is cheaper than a length-dependent copy.
    out[1..].copy_from_slice(&packed.to_le_bytes());
    encoded_len(mask)
}

/// Decodes `out.len()` packed GUIDs from the front of `input` with the
/// shared checked loop, [`decode`] inlined into it. Same contract as
/// [`super::decode_many`], which uses it where the SSSE3 loop does not run.
///
/// This is the one-value loop a caller would write; a variant that reads
/// nine-byte windows with the expansion inlined, like the SSSE3 loop, was
/// measured slower (`codec/benches/README.md`, "Paths weighed and left out").
///
/// # Errors
/// [`DecodeManyError::UnexpectedEof`] when the input ends early.
pub fn decode_many(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    generic::decode_many_checked(input, out, decode)
}

/// Writes the packed encodings of `guids` into `out` back to back with the
/// shared loop, [`encode`] inlined into it. Same contract as
/// [`super::encode_many`], which uses it where the SSSE3 loop does not run.
///
/// # Errors
/// [`EncodeManyError::OutputTooSmall`] when an encoding does not fit.
pub fn encode_many(guids: &[PackedGuid], out: &mut [u8]) -> Result<usize, EncodeManyError> {
    generic::encode_many(guids, out, |guid, slot| encode(PackedGuid(guid), slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stage masks agree with the byte-by-byte definition of expand and
    /// compress for every mask, including garbage above the packed bytes.
    #[test]
    fn stages_expand_and_compress_every_mask() {
        for mask in 0..=255u8 {
            let mut packed = 0u64;
            let mut placed = 0u64;
            let mut rank = 0;
            for i in 0..8 {
                if mask & (1 << i) != 0 {
                    let byte = 0x81u64 + 0x11 * rank;
                    packed |= byte << (8 * rank);
                    placed |= byte << (8 * i);
                    rank += 1;
                }
            }
            let garbage = if rank == 8 {
                0
            } else {
                0xa5a5_a5a5_a5a5_a5a5 << (8 * rank)
            };
            assert_eq!(expand(packed | garbage, mask), placed, "mask {mask:#04x}");
            assert_eq!(compress(placed, mask), packed, "mask {mask:#04x}");
        }
    }
}
