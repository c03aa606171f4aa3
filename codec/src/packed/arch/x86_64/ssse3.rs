//! The SSSE3 list encoder and decoder: one byte shuffle per GUID, for lists
//! of GUIDs, chosen at run time.
//!
//! ```text
//! encode(guid):
//!     v    = guid in the low 8 lanes of a 16-byte vector, zeros above
//!     mask = not movemask(v == 0), low 8 bits    // PCMPEQB + PMOVMSKB
//!     v[8] = mask                                  // PINSRW
//!     out[0..8] = shuffle(v, SHUFFLE[mask])        // PSHUFB: the mask, then
//!                                                  // the set bytes in order
//!     out[8]    = guid >> 56                       // the ninth byte, used
//!                                                  // only when all 8 are set
//!
//! decode(window = the mask and the 8 bytes after it):
//!     guid     = shuffle(window[1..9], EXPAND[mask])   // PSHUFB: each sent
//!                                                      // byte to its lane
//!     consumed = 1 + popcount(mask)                    // POPCNT
//! ```
//!
//! # Why it is fast
//!
//! - **Encoding.** [`crate::packed::table`] compresses the GUID's bytes with three
//!   masked shifts, each a table load and four dependent integer operations,
//!   after a multiply-based mask. Here the mask is two vector instructions and
//!   the compression one `PSHUFB` whose control comes from a 2 KiB table, so
//!   a GUID takes about half the instructions, most of them on the vector
//!   ports.
//! - **Decoding.** Where the next value starts depends on this one's mask:
//!   load the mask, find its length, add. The table path finds the length
//!   with a second load (`POPCNT` is not in the default target), so that
//!   chain is two loads long; here it is one load and one `POPCNT`, and the
//!   expansion is one `PSHUFB` beside it. That takes the loop below the
//!   table walk the benchmarks call the floor.
//!
//! `codec/benches/README.md` has the measured figures.
//!
//! # When it applies
//!
//! On x86-64 CPUs with SSSE3 (Intel since 2006, AMD since 2011) and, for
//! decoding, POPCNT (both since 2008 and 2011), and only for whole lists:
//! neither is part of the default x86-64 target, so the loops live in
//! functions compiled for them, which cannot be inlined into ordinary code.
//! Checking the CPU and calling such a function once per list costs nothing
//! measurable; doing it once per GUID in [`PackedGuid::encode_into`] or
//! [`PackedGuid::decode`] would cost a call for every value, so the
//! one-value API stays on the inlined table path.
//!
//! The module has memchr's shape: [`encoder`] and [`decoder`] return the
//! list loop when this CPU runs it and `None` when it does not, and choose
//! nothing else. Falling back is the dispatcher's job (the module `dispatch`,
//! which walks the registry in `arch`), so the choice is made once, in one
//! place. Without `std` the CPU cannot be asked, so both return `None`
//! unless the crate is compiled for the features.
//!
//! # Why `unsafe` is allowed here
//!
//! One of the crate's modules with `unsafe` (with [`crate::packed::avx512`]):
//! two blocks here, one per direction, each calling the function compiled
//! for the features from the private function that [`encoder`] or
//! [`decoder`] hands out only after checking that the CPU has them (the
//! rule for calling a `#[target_feature]` function from code compiled
//! without it). The
//! intrinsics themselves are safe inside those functions, and every load and
//! store goes through ordinary bounds-checked slices. The module is held to
//! [`crate::naive`] by the same differential tests and fuzz targets as the
//! other implementations (it is in
//! [`crate::packed::encode_many_implementations`] and
//! [`crate::packed::decode_many_implementations`]).
//!
//! This module may touch the input and output slices and its own read-only
//! tables.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_insert_epi16, _mm_movemask_epi8,
    _mm_setzero_si128, _mm_shuffle_epi8,
};

use crate::packed::arch::cpu::{x86_features, Features};
use crate::packed::error::{DecodeManyError, EncodeManyError};
use crate::packed::generic::{self, encoded_len, DecodeManyFn, EncodeManyFn};
use crate::packed::value::{PackedGuid, MAX_ENCODED_LEN};

/// Lane of the vector where [`encode_one`] puts the mask, for the shuffle to
/// take it to lane 0.
const MASK_LANE: u8 = 8;

/// `PSHUFB` controls, one per mask, as the low 8 lanes of the control vector
/// (the upper lanes of the result are never read): lane 0 takes the mask from
/// [`MASK_LANE`]; lane `1 + k` takes byte `i` of the GUID for the `k`-th set
/// bit `i` of the mask; the other lanes are `0x80`, which `PSHUFB` turns into
/// zero bytes.
static SHUFFLE: [u64; 256] = shuffle_table();

const fn shuffle_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut mask = 0usize;
    while mask < 256 {
        let mut lanes = [0x80u8; 8];
        lanes[0] = MASK_LANE;
        let mut next = 1;
        let mut i = 0;
        // The eighth set byte (mask 0xff) has no lane left: encode_one writes
        // it separately.
        while i < 8 && next < 8 {
            if mask & (1 << i) != 0 {
                lanes[next] = i as u8;
                next += 1;
            }
            i += 1;
        }
        table[mask] = u64::from_le_bytes(lanes);
        mask += 1;
    }
    table
}

/// `PSHUFB` controls for decoding, one per mask: lane `i` takes value byte
/// `k` (counting from the byte after the mask) when bit `i` is the `k`-th set
/// bit of the mask, and is `0x80` (a zero byte) when bit `i` is clear.
static EXPAND: [u64; 256] = expand_table();

const fn expand_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut mask = 0usize;
    while mask < 256 {
        let mut lanes = [0x80u8; 8];
        let mut next = 0;
        let mut i = 0;
        while i < 8 {
            if mask & (1 << i) != 0 {
                lanes[i] = next;
                next += 1;
            }
            i += 1;
        }
        table[mask] = u64::from_le_bytes(lanes);
        mask += 1;
    }
    table
}

/// What the list encoder is compiled for.
pub(crate) const ENCODER_FEATURES: Features = x86_features!("ssse3");

/// What the list decoder is compiled for: the length of a value is on the
/// serial path from one value to the next, and one `POPCNT` is shorter
/// than a table load.
pub(crate) const DECODER_FEATURES: Features = x86_features!("ssse3", "popcnt");

/// The SSSE3 list encoder, when this CPU has SSSE3; `None` when it does
/// not. The function has the contract of [`crate::packed::encode_many`].
#[must_use]
pub fn encoder() -> Option<EncodeManyFn> {
    (ENCODER_FEATURES.detect)().then_some(encode_many as EncodeManyFn)
}

/// The SSSE3 and POPCNT list decoder, when this CPU has both; `None` when it
/// does not. The function has the contract of
/// [`crate::packed::decode_many`].
#[must_use]
pub fn decoder() -> Option<DecodeManyFn> {
    (DECODER_FEATURES.detect)().then_some(decode_many as DecodeManyFn)
}

/// The list encoder [`encoder`] hands out.
fn encode_many(guids: &[PackedGuid], out: &mut [u8]) -> Result<usize, EncodeManyError> {
    // SAFETY: `encode_many_ssse3` enables only SSSE3 (and what SSSE3
    // implies), the features of `ENCODER_FEATURES`. This function is
    // private, and the only way to it is the pointer `encoder` returns after
    // `ENCODER_FEATURES.detect` found them on this CPU; a CPU's features do
    // not change while a process runs.
    unsafe { encode_many_ssse3(guids, out) }
}

/// The list decoder [`decoder`] hands out.
fn decode_many(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    // SAFETY: `decode_many_ssse3` enables only SSSE3 and POPCNT (and what
    // they imply), the features of `DECODER_FEATURES`. This function is
    // private, and the only way to it is the pointer `decoder` returns after
    // `DECODER_FEATURES.detect` found both on this CPU; a CPU's features do
    // not change while a process runs.
    unsafe { decode_many_ssse3(input, out) }
}

/// The shared decoding loop with [`decode_one`] inlined into it, compiled
/// for SSSE3 and POPCNT.
#[target_feature(enable = "ssse3,popcnt")]
fn decode_many_ssse3(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    generic::decode_many_windowed(input, out, |window| decode_one(window))
}

/// Decodes the value whose mask is `window[0]`; the window always holds the
/// eight bytes after the mask, and `PSHUFB` drops those past the value.
#[target_feature(enable = "ssse3,popcnt")]
#[inline]
fn decode_one(&[mask, ref word @ ..]: &[u8; MAX_ENCODED_LEN]) -> (u64, usize) {
    let bytes = _mm_cvtsi64_si128(u64::from_le_bytes(*word) as i64);
    let control = _mm_cvtsi64_si128(EXPAND[usize::from(mask)] as i64);
    let guid = _mm_cvtsi128_si64(_mm_shuffle_epi8(bytes, control)) as u64;
    (guid, 1 + mask.count_ones() as usize)
}

/// The shared encoding loop with [`encode_one`] inlined into it, compiled
/// for SSSE3.
#[target_feature(enable = "ssse3")]
fn encode_many_ssse3(guids: &[PackedGuid], out: &mut [u8]) -> Result<usize, EncodeManyError> {
    generic::encode_many(guids, out, |guid, slot| encode_one(guid, slot))
}

/// Writes the canonical encoding of `guid` into `out` and returns its length.
/// `out[len..]` is left with leftovers of the shuffle.
#[target_feature(enable = "ssse3")]
#[inline]
fn encode_one(guid: u64, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
    // Lanes 8..16 are zero, so lanes 8..16 of the movemask are set and the
    // `as u8` keeps exactly the eight GUID bytes.
    let v = _mm_cvtsi64_si128(guid as i64);
    let zero_bytes = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
    let mask = !(zero_bytes as u8);
    // Lane 8 is the low byte of 16-bit lane 4; its high byte stays zero.
    let v = _mm_insert_epi16::<4>(v, i32::from(mask));
    let control = _mm_cvtsi64_si128(SHUFFLE[usize::from(mask)] as i64);
    let packed = _mm_cvtsi128_si64(_mm_shuffle_epi8(v, control)) as u64;
    out[..8].copy_from_slice(&packed.to_le_bytes());
    // The ninth byte is the GUID's top byte when all eight are sent; for
    // shorter encodings it lies past the length and is not read.
    out[8] = (guid >> 56) as u8;
    encoded_len(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lane by lane, the decoding controls say what their documentation says.
    #[test]
    fn expand_controls_put_each_sent_byte_in_its_lane() {
        for mask in 0..=255u8 {
            let lanes = EXPAND[usize::from(mask)].to_le_bytes();
            let mut next = 0;
            for (i, &lane) in lanes.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    assert_eq!(lane, next, "mask {mask:#04x} lane {i}");
                    next += 1;
                } else {
                    assert_eq!(lane, 0x80, "mask {mask:#04x} lane {i}");
                }
            }
        }
    }

    /// Lane by lane, the encoding controls say what their documentation says.
    #[test]
    fn shuffle_controls_pick_the_mask_then_the_set_bytes() {
        for mask in 0..=255u8 {
            let lanes = SHUFFLE[usize::from(mask)].to_le_bytes();
            assert_eq!(lanes[0], MASK_LANE, "mask {mask:#04x}");
            let set: std::vec::Vec<u8> = (0..8).filter(|i| mask & (1 << i) != 0).collect();
            for (k, &lane) in lanes[1..].iter().enumerate() {
                let want = set.get(k).copied().unwrap_or(0x80);
                assert_eq!(lane, want, "mask {mask:#04x} lane {}", k + 1);
            }
        }
    }
}
