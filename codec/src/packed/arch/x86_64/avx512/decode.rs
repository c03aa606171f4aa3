//! The AVX-512 list decoder: 64 bytes of the stream at a time, with no chain
//! from one value's mask to the next.
//!
//! # Why it exists
//!
//! Every other list decoder walks the stream one value at a time: where value
//! `k + 1` starts depends on value `k`'s mask, so decoding is a chain of
//! load, length, add, and the chain is the limit (the benchmarks' "floor"),
//! not memory. This loop takes the chain apart. Inside a block of 64 bytes
//! it computes, for *every* byte, where the next value would start if that
//! byte were a mask; those links do not depend on where the values really
//! start, so they and their powers are computed for all 64 bytes at once,
//! off any chain. The only thing one block hands the next is where its
//! first value starts: one byte permutation per block of about a dozen
//! values. The rest (finding the masks, placing their bytes) is throughput.
//!
//! ```text
//! decode_many(input, out):
//!     base = 0; start = 0; done = 0            // block offset, first mask in it
//!     while input[base .. base + 129] is there:
//!         B = input[base ..][..64]             // the block
//!         A, F = input[base + 1 ..][..64], input[base + 65 ..][..64]
//!         P[0][i] = i + 1 + popcount(B[i])     // VPOPCNTB: where the next value
//!                                              // starts if a mask is at i (<= 72)
//!         P[k+1][i] = P[k][P[k][i]] if P[k][i] < 64, else P[k][i]
//!                                              // a masked VPERMB: past the block is
//!                                              // a fixed point, so P[k] = P[0]^(2^k)
//!         C[t] = start for every lane t        // C[t]: where value t of the block
//!         for k in 0..4:                       // starts
//!             C[t] = P[k][C[t]] where bit k of t is set  // one masked VPERMB
//!                                              // (so C[t] = P[0]^t (start), t < 16)
//!         count = #{t : C[0..=t] all < 64}
//!         if count is 16 (a block of short values, rare):
//!             rounds 4 and 5 as well (t < 64), count again
//!         if out has no room for count values, rounded up to 8 and at
//!         least 16: stop
//!         for each group of 8 values t (2 groups, more when count > 16):
//!             mask  = B[C[t]]                  // VPERMB, each mask on its 8 lanes
//!             lane i of GUID t = (mask bit i) ? byte C[t] + popcount(mask & (2^i - 1))
//!                                of A ++ F : 0   // VPERMI2B, zero-masked
//!             store the 8 GUIDs at out[done ..]
//!         done += count; base += 64
//!         start = P[6][start] - 64             // the only link to the next block
//!     the rest of the list, the last bytes of the input and any error:
//!         the shared windowed loop from (base + start, done), one VPEXPANDB
//!         and one POPCNT per value
//! ```
//!
//! A value that starts in the block may end in the next one (its bytes come
//! from `F`), and the next block's first mask is then 0 to 8 bytes into
//! that block. Nothing past the block is trusted without reading it: the
//! block runs only while 129 bytes of input are there, so the last
//! 65 to 129 bytes, short lists and every error go through the shared loop
//! in `generic`, which reports exactly what every other implementation
//! reports. `start` stays in a vector register from one block to the next,
//! so the chain is one `VPERMB` per block.
//!
//! # What it costs
//!
//! Byte permutations run on one vector port, and on this loop's CPUs a
//! two-table `VPERMI2B` takes that port twice as long as a one-table
//! `VPERMB` (measured in `codec/benches/README.md`). So positions are
//! encoded to keep every table one block wide: a position inside the block
//! is `0xc0 + position` and one past it is its offset into the next block
//! (0 to 8), so bit 7 says which it is (`VPMOVB2M`, on another port, makes
//! it the mask of a masked `VPERMB`), the low six bits index the block, and
//! adding the bit count to `0xc0 + i + 1` wraps to the offset by itself.
//! The doubling stops at 16 values, the two groups every block writes,
//! unless the block has more; and the links of a block are computed two
//! blocks before its values are placed, so that the six squarings (one
//! chain) of one block overlap the rounds and groups (another) of the
//! blocks before it.
//!
//! This module may touch the input and output slices and its own read-only
//! tables.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi8, _mm512_and_si512, _mm512_castsi512_si128,
    _mm512_mask_permutexvar_epi8, _mm512_maskz_permutex2var_epi8, _mm512_movepi8_mask,
    _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_popcnt_epi8, _mm512_set1_epi8,
    _mm512_test_epi8_mask, _mm_cvtsi128_si32, _mm_cvtsi128_si64, _mm_cvtsi64_si128,
    _mm_maskz_expand_epi8,
};

use super::vector::{lanes, load, store, BLOCK, GROUP};
use crate::packed::error::DecodeManyError;
use crate::packed::generic;
use crate::packed::value::{PackedGuid, MAX_ENCODED_LEN};

/// Bits 7 and 6, set in a position inside the block (`0xc0 + position`)
/// and clear in one past it (its offset into the next block, 0 to 8).
const INSIDE: u8 = 0xc0;

/// Lane `i`: where the next value starts if a mask with no bit set is at
/// `i`, in the positions' encoding: `i + 1` inside the block (`0xc0 +
/// i + 1`, wrapping to the offset `i + 1 - 64` past it, which is what
/// adding the mask's bit count does too).
static AFTER_MASK: [u8; BLOCK] = lanes!(|i| (INSIDE as usize + i + 1) % 256);

/// `STEPS[k]`: the lanes `t` with bit `k` set, those that take the step of
/// `2^k` links at round `k` of the doubling.
const STEPS: [u64; 6] = [
    0xaaaa_aaaa_aaaa_aaaa,
    0xcccc_cccc_cccc_cccc,
    0xf0f0_f0f0_f0f0_f0f0,
    0xff00_ff00_ff00_ff00,
    0xffff_0000_ffff_0000,
    0xffff_ffff_0000_0000,
];

/// The rounds of the doubling every block takes: enough for lanes 0 to 15,
/// the values two groups of GUIDs hold. A block of more values (rare: a
/// value is five or six bytes on average) takes the rest.
const USUAL_ROUNDS: usize = 4;

/// The values of the usual block: two groups of GUIDs, as many as the
/// usual rounds find (a block of this many or more takes the long path).
const USUAL_VALUES: usize = 16;
const _: () = assert!(USUAL_VALUES == 2 * GROUP && USUAL_VALUES == 1 << USUAL_ROUNDS);

/// Lane `j`: `j / 8`, the value whose GUID byte lane `j` of a group holds.
static VALUE_OF_LANE: [u8; BLOCK] = lanes!(|j| j / GROUP);

/// Lane `j`: the mask bit for byte `j % 8` of a GUID.
static BIT_OF_LANE: [u8; BLOCK] = lanes!(|j| 1 << (j % GROUP));

/// Lane `j`: the mask bits below byte `j % 8` of a GUID, whose count says
/// how many sent bytes come before that byte.
static BITS_BELOW_LANE: [u8; BLOCK] = lanes!(|j| (1 << (j % GROUP)) - 1);

/// `links` composed with itself: each lane inside the block takes the lane
/// its position names, a lane past the block keeps its offset.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn square(links: __m512i) -> __m512i {
    _mm512_mask_permutexvar_epi8(links, _mm512_movepi8_mask(links), links, links)
}

/// Bytes the block loop reads for the block at `base`: the block, and the
/// 64 bytes after it plus one (a value at position 63 ends by 72, read from
/// the vectors of bytes 1 to 64 and 65 to 128 positions on).
const WINDOW: usize = 129;
const _: () = assert!(WINDOW == 2 * BLOCK + 1);

/// The block at `base` and the bytes 1 to 64 and 65 to 128 positions on,
/// when the input has them.
#[inline]
fn window_at(input: &[u8], base: usize) -> Option<[&[u8; BLOCK]; 3]> {
    fn at(from: &[u8]) -> Option<&[u8; BLOCK]> {
        from.first_chunk()
    }
    let window: &[u8; WINDOW] = input.get(base..)?.first_chunk()?;
    Some([at(window)?, at(&window[1..])?, at(&window[1 + BLOCK..])?])
}

/// The 64 bytes at `base`, when the input has them.
#[inline]
fn block_at(input: &[u8], base: usize) -> Option<&[u8; BLOCK]> {
    input.get(base..)?.first_chunk()
}

/// Where the values of a block lead, computed from its bytes alone: for
/// each position `i`, `powers[k][i]` is where the value `2^k` values after
/// a mask at `i` starts (for the rounds every block takes), and `past[i]`
/// the offset into the next block of the first value that starts past
/// this one (made a position inside it).
#[derive(Clone, Copy)]
struct Links {
    powers: [__m512i; USUAL_ROUNDS],
    past: __m512i,
}

/// The [`Links`] of `block`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
#[inline]
fn links(block: &[u8; BLOCK]) -> Links {
    let mut powers =
        [_mm512_add_epi8(_mm512_popcnt_epi8(load(block)), load(&AFTER_MASK)); USUAL_ROUNDS];
    for k in 1..USUAL_ROUNDS {
        powers[k] = square(powers[k - 1]);
    }
    // 2^6 = 64 links from any position leave the block.
    let mut past = powers[USUAL_ROUNDS - 1];
    for _ in USUAL_ROUNDS - 1..6 {
        past = square(past);
    }
    let past = _mm512_or_si512(past, _mm512_set1_epi8(INSIDE as i8));
    Links { powers, past }
}

/// The block loop of the module docs, then the shared windowed loop for the
/// rest, compiled for the features `super::DECODER_FEATURES` lists.
///
/// The links of a block are computed two blocks ahead of placing its
/// values, so that the two long chains of a block, the squarings and the
/// rounds of the doubling, overlap with other blocks' work rather than
/// follow one another.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt")]
pub(super) fn decode_many_avx512(
    input: &[u8],
    out: &mut [PackedGuid],
) -> Result<usize, DecodeManyError> {
    let values = load(&VALUE_OF_LANE);
    let next_group = _mm512_set1_epi8(GROUP as i8);

    let mut base = 0;
    // Every lane: the block's first mask, at position 0 of the first block.
    let mut start = _mm512_set1_epi8(INSIDE as i8);
    let mut done = 0;
    let links_at = |base| block_at(input, base).map(|block| links(block));
    let mut current = links_at(base);
    let mut following = links_at(base + BLOCK);
    while let (Some(window), Some(Links { powers, past })) = (window_at(input, base), current) {
        current = following;
        following = links_at(base + 2 * BLOCK);
        let window = window.map(|bytes| load(bytes));
        // starts[t]: where value t of the block starts, for t up to the
        // first value past it; the lanes after that one hold anything.
        let mut starts = start;
        for k in 0..USUAL_ROUNDS {
            starts = _mm512_mask_permutexvar_epi8(starts, STEPS[k], starts, powers[k]);
        }
        let count = values_inside(starts, USUAL_VALUES);
        if count < USUAL_VALUES {
            // The usual block: at most 15 values, two groups of GUIDs.
            let Some(dest) = out
                .get_mut(done..)
                .and_then(<[_]>::first_chunk_mut::<USUAL_VALUES>)
            else {
                break;
            };
            let [first, second] = dest.as_chunks_mut().0 else {
                unreachable!("16 GUIDs are two groups of 8")
            };
            store(first, guids(values, starts, window));
            store(
                second,
                guids(_mm512_add_epi8(values, next_group), starts, window),
            );
            done += count;
        } else {
            let Some(count) = place_long_block(&mut out[done..], starts, powers, window) else {
                break;
            };
            done += count;
        }
        base += BLOCK;
        start = _mm512_permutexvar_epi8(start, past);
    }
    let first = _mm_cvtsi128_si32(_mm512_castsi512_si128(start)) as u8 & !INSIDE;
    let pos = base + usize::from(first);
    generic::decode_many_windowed_from(input, pos, out, done, |window| decode_one(window))
}

/// How many of the lanes of `starts`, up to `most`, come before the first
/// one past the block: the trailing ones of the lanes inside it, counted
/// as the trailing zeros of that mask plus one (written so, the count stays
/// off the vector port that the permutations need).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn values_inside(starts: __m512i, most: usize) -> usize {
    let inside = _mm512_movepi8_mask(starts).wrapping_add(1);
    (inside.trailing_zeros() as usize).min(most)
}

/// The eight GUIDs whose values the lanes of `values` name (value `8g + j /
/// 8` in lane `j` of group `g`), from the block's `starts` and its window
/// (the block, and the bytes 1 to 64 and 65 to 128 positions on).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
#[inline]
fn guids(values: __m512i, starts: __m512i, [here, after, further]: [__m512i; 3]) -> __m512i {
    let value_start = _mm512_permutexvar_epi8(values, starts);
    let mask = _mm512_permutexvar_epi8(value_start, here);
    let sent = _mm512_test_epi8_mask(mask, load(&BIT_OF_LANE));
    let rank = _mm512_popcnt_epi8(_mm512_and_si512(mask, load(&BITS_BELOW_LANE)));
    // 0xc0 + position + 1 + rank: bit 6 picks `after` while the byte is 1 to
    // 63 bytes on, and the sum wraps to pick `further` from 64 bytes on.
    let from = _mm512_add_epi8(value_start, rank);
    _mm512_maskz_permutex2var_epi8(sent, further, from, after)
}

/// A block of 16 values or more (short values: rare), after the usual
/// rounds of the doubling: the rest of the rounds, then every group of
/// GUIDs, into the front of `out`. The number of values, or `None` when
/// `out` has no room for them rounded up to a group.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg,popcnt")]
#[inline]
fn place_long_block(
    out: &mut [PackedGuid],
    mut starts: __m512i,
    powers: [__m512i; USUAL_ROUNDS],
    window: [__m512i; 3],
) -> Option<usize> {
    // The powers past the usual rounds, again: too rarely needed to keep
    // from one block to the next.
    let mut power = powers[USUAL_ROUNDS - 1];
    for step in &STEPS[USUAL_ROUNDS..] {
        power = square(power);
        starts = _mm512_mask_permutexvar_epi8(starts, *step, starts, power);
    }
    let count = values_inside(starts, BLOCK);
    let dest = out.get_mut(..count.next_multiple_of(GROUP))?;
    let mut values = load(&VALUE_OF_LANE);
    for group in dest.as_chunks_mut::<GROUP>().0 {
        store(group, guids(values, starts, window));
        values = _mm512_add_epi8(values, _mm512_set1_epi8(GROUP as i8));
    }
    Some(count)
}

/// Decodes the value whose mask is `window[0]`; the window always holds the
/// eight bytes after the mask, and `VPEXPANDB` drops those past the value.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
#[inline]
fn decode_one(&[mask, ref word @ ..]: &[u8; MAX_ENCODED_LEN]) -> (u64, usize) {
    let bytes = _mm_cvtsi64_si128(u64::from_le_bytes(*word) as i64);
    let guid = _mm_cvtsi128_si64(_mm_maskz_expand_epi8(u16::from(mask), bytes)) as u64;
    (guid, 1 + mask.count_ones() as usize)
}
