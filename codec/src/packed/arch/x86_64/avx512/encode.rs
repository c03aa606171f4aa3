//! The AVX-512 VBMI2 list encoder: seven GUIDs per `VPCOMPRESSB`.
//!
//! # Why it exists
//!
//! The SSSE3 encoder compresses one GUID per `PSHUFB`, with a table load
//! for its control and a scalar mask, length and store for each GUID, so
//! its cost is mostly the instructions around the shuffle. `VPCOMPRESSB`
//! drops the zero bytes of a whole vector at once under a bit mask, and
//! seven encodings of at most nine bytes fill one vector: lay seven GUIDs
//! out as their encodings would be if every byte were sent (the mask, then
//! the eight bytes), and keep each mask byte and every GUID byte that is
//! not zero.
//!
//! ```text
//! encode_many(guids, out):
//!     index = 0; pos = 0
//!     while guids[index ..][..8] and out[pos ..][..64] are there:
//!         G = guids[index ..][..8] as 64 bytes        // one load; the eighth waits
//!         flags = min(G, 1)                            // 1 for each byte that is not 0
//!         R = affine(1, flags)                         // GF2P8AFFINEQB, the flags of
//!                                                      // each GUID as a bit matrix:
//!                                                      // its mask, bits reversed, in
//!                                                      // each of its 8 lanes
//!         M = affine(R, reversal)                      // GF2P8AFFINEQB: the mask
//!         S = M[0], G[0..8], M[8], G[8..16], ..., M[48], G[48..56]
//!                                                      // VPERMI2B: 7 slots of 9 bytes
//!         keep = lanes 0, 9, ..., 54                   // each mask, even 0, and
//!              | lanes 0..63 of S that are not 0       // VPTESTMB: the sent bytes
//!         out[pos ..][..64] = compress(S, keep)        // VPCOMPRESSB, one store
//!         pos += popcount(keep); index += 7
//!     the rest: the shared loop, one VPCOMPRESSB (128-bit) per GUID
//! ```
//!
//! The block store writes all 64 bytes, past the seven encodings (at most
//! 63 bytes), so it runs only while 64 bytes of `out` are left; the last
//! GUIDs, the end of a tight buffer and the error go through the shared
//! loop in `generic`, which reports exactly what every other encoder
//! reports. `pos` is the only chain from one step to the next: one add.
//!
//! This module may touch the GUIDs, the output buffer and its own read-only
//! table.

use core::arch::x86_64::{
    _mm512_gf2p8affine_epi64_epi8, _mm512_mask_test_epi8_mask, _mm512_maskz_compress_epi8,
    _mm512_min_epu8, _mm512_permutex2var_epi8, _mm512_set1_epi64, _mm512_set1_epi8,
    _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_maskz_compress_epi8, _mm_test_epi8_mask,
};

use super::vector::{lanes, load, load_guids, store_bytes, BLOCK, GROUP};
use crate::packed::error::EncodeManyError;
use crate::packed::generic::{self, encoded_len};
use crate::packed::value::{PackedGuid, MAX_ENCODED_LEN};

/// GUIDs encoded per step: seven slots of nine bytes fill 63 lanes.
const PER_STEP: usize = 7;

/// Lane `j` of a step's slots: for slot `s = j / 9`, its mask (lane `8s` of
/// the masks, the second table of `VPERMI2B`) and then byte `j % 9 - 1` of
/// GUID `s`; lane 63 is left out.
static SLOTS: [u8; BLOCK] = lanes!(|j| {
    let (slot, lane) = (j / MAX_ENCODED_LEN, j % MAX_ENCODED_LEN);
    match (slot < PER_STEP, lane) {
        (false, _) => 0,
        (true, 0) => BLOCK + GROUP * slot,
        (true, byte) => GROUP * slot + byte - 1,
    }
});

/// The lanes of the slots, 0 to 62.
const SLOT_LANES: u64 = u64::MAX >> 1;

/// The lanes of the slots that hold a mask, 0, 9, ..., 54: kept whatever
/// their value, as GUID 0 is sent as its mask, 0.
const MASK_LANES: u64 = {
    let mut lanes = 0;
    let mut slot = 0;
    while slot < PER_STEP {
        lanes |= 1 << (MAX_ENCODED_LEN * slot);
        slot += 1;
    }
    lanes
};

/// The bit matrix that reverses the bits of a byte (`GF2P8AFFINEQB` takes
/// bit `i` of its result from row `7 - i`, byte `7 - i` of the matrix).
const REVERSAL: u64 = 0x8040_2010_0804_0201;

/// The step of the module docs while eight GUIDs and 64 bytes of `out`
/// remain, then the shared loop for the rest, compiled for the features
/// `super::ENCODER_FEATURES` lists.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,popcnt")]
pub(super) fn encode_many_avx512(
    guids: &[PackedGuid],
    out: &mut [u8],
) -> Result<usize, EncodeManyError> {
    let slots = load(&SLOTS);
    let ones = _mm512_set1_epi8(1);
    let reversal = _mm512_set1_epi64(REVERSAL as i64);
    let mut index = 0;
    let mut pos = 0;
    while let (Some(eight), Some(dest)) = (
        guids.get(index..).and_then(<[_]>::first_chunk::<GROUP>),
        out.get_mut(pos..).and_then(<[_]>::first_chunk_mut::<BLOCK>),
    ) {
        let guids = load_guids(eight);
        let flags = _mm512_min_epu8(guids, ones);
        let reversed = _mm512_gf2p8affine_epi64_epi8::<0>(ones, flags);
        let masks = _mm512_gf2p8affine_epi64_epi8::<0>(reversed, reversal);
        let slots = _mm512_permutex2var_epi8(guids, slots, masks);
        let keep = _mm512_mask_test_epi8_mask(SLOT_LANES, slots, slots) | MASK_LANES;
        store_bytes(dest, _mm512_maskz_compress_epi8(keep, slots));
        pos += keep.count_ones() as usize;
        index += PER_STEP;
    }
    generic::encode_many_from(guids, index, out, pos, |guid, slot| encode_one(guid, slot))
}

/// Writes the canonical encoding of `guid` into `out` and returns its
/// length: the mask, then the GUID's bytes compressed under it. `out[len..]`
/// is left with the compression's zeros.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2")]
#[inline]
fn encode_one(guid: u64, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
    // Lanes 8 to 15 are zero, so the mask has eight bits at most.
    let bytes = _mm_cvtsi64_si128(guid as i64);
    let mask = _mm_test_epi8_mask(bytes, bytes);
    let sent = _mm_cvtsi128_si64(_mm_maskz_compress_epi8(mask, bytes)) as u64;
    let mask = mask as u8;
    out[0] = mask;
    out[1..].copy_from_slice(&sent.to_le_bytes());
    encoded_len(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each slot is its mask's lane, then its GUID's eight bytes in order,
    /// and the lanes of `MASK_LANES` are the masks'.
    #[test]
    fn the_slots_are_a_mask_then_eight_bytes() {
        for slot in 0..PER_STEP {
            let first = MAX_ENCODED_LEN * slot;
            assert_eq!(usize::from(SLOTS[first]), BLOCK + GROUP * slot);
            assert_ne!(MASK_LANES & 1 << first, 0, "slot {slot}");
            for byte in 0..GROUP {
                assert_eq!(usize::from(SLOTS[first + 1 + byte]), GROUP * slot + byte);
                assert_eq!(MASK_LANES & 1 << (first + 1 + byte), 0);
            }
        }
        assert_eq!(MASK_LANES.count_ones() as usize, PER_STEP);
        assert_eq!(SLOT_LANES.count_ones() as usize, PER_STEP * MAX_ENCODED_LEN);
    }
}
