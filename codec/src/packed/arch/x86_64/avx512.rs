//! The AVX-512 list decoder: 64 bytes of the stream at a time, with no chain
//! from one value's mask to the next, for lists of GUIDs, chosen at run time.
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
//!     while input[base .. base + 128] is there:
//!         B0, B1 = input[base ..][..64], input[base + 64 ..][..64]
//!         P[0][i] = i + 1 + popcount(B0[i])    // VPOPCNTB: where the next value
//!                                              // starts if a mask is at i (<= 72)
//!         P[k+1][i] = P[k][P[k][i]]            // VPERMI2B over (P[k], 64..127):
//!                                              // a position past the block maps
//!                                              // to itself, so P[k] = P[0]^(2^k)
//!         C[t] = start for every lane t        // C[t]: where value t of the block
//!         for k in 0..6:                       // starts (past the block: >= 64)
//!             C[t] = P[k][C[t]] where bit k of t is set  // one masked VPERMI2B
//!                                              // (so C[t] = P[0]^t (start))
//!         count = #{t : C[t] < 64}
//!         if out has no room for count values, rounded up to 8 and at
//!         least 16: stop
//!         for each group of 8 values t (at least 2 groups): // 64 bytes of GUIDs
//!             mask  = B0[C[t]]                 // VPERMB, each mask on its 8 lanes
//!             lane i of GUID t = (mask bit i) ? byte C[t] + 1 + popcount(mask & (2^i - 1))
//!                                of B0 ++ B1 : 0                // VPERMI2B, zero-masked
//!             store the 8 GUIDs at out[done ..]
//!         done += count; base += 64
//!         start = P[6][start] - 64             // the only link to the next block
//!     the rest of the list, the last bytes of the input and any error:
//!         the shared windowed loop from (base + start, done), one VPEXPANDB
//!         and one POPCNT per value
//! ```
//!
//! A value that starts in the block may end in the next one (its bytes come
//! from `B1`), and the next block's first mask is then 0 to 8 bytes into
//! that block. Nothing past the block is trusted without reading it: the
//! block runs only while 128 bytes of input are there, so the last
//! 64 to 128 bytes, short lists and every error go through the shared loop in
//! `generic`, which reports exactly what every other implementation
//! reports. `start` stays in a vector register from one block to the next,
//! so the chain is one `VPERMB` and one subtraction per block.
//!
//! # When it applies
//!
//! On x86-64 CPUs with AVX-512 F, BW, VL, VBMI, VBMI2 and BITALG, and POPCNT
//! (Intel since Ice Lake, AMD since Zen 4), and only for whole lists. As with
//! [`crate::packed::ssse3`], the loop lives in a function compiled for those
//! features; [`decoder`] returns it when this CPU has them and `None` when it
//! does not, and choosing it (or not, for short lists) is the dispatcher's
//! job. Without `std` the CPU cannot be asked, so [`decoder`] returns `None`
//! unless the crate is compiled for the features.
//!
//! # Why `unsafe` is allowed here
//!
//! Like [`crate::packed::ssse3`], to call the function compiled for the features
//! from the private function that [`decoder`] hands out only after checking
//! the CPU. Besides that, the vector loads and stores take raw pointers: one
//! block in `load`, reading a `&[u8; 64]`, and one in `store`, writing a
//! `&mut [PackedGuid; 8]` ([`PackedGuid`] is `#[repr(transparent)]` over its
//! `u64`). Both get their references from bounds-checked slicing, so no
//! access can leave the caller's slices. The module is held to
//! [`crate::naive`] by the same differential tests and fuzz targets as the
//! other implementations (it is in [`crate::packed::decode_many_implementations`]).
//!
//! This module may touch the input and output slices and its own read-only
//! tables.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi8, _mm512_and_si512, _mm512_castsi512_si128, _mm512_cmplt_epu8_mask,
    _mm512_loadu_si512, _mm512_mask2_permutex2var_epi8, _mm512_maskz_permutex2var_epi8,
    _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_popcnt_epi8, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi8, _mm512_test_epi8_mask,
    _mm_cvtsi128_si32, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_maskz_expand_epi8,
};

use crate::packed::arch::cpu::{x86_features, Features};
use crate::packed::error::DecodeManyError;
use crate::packed::generic::{self, DecodeManyFn};
use crate::packed::value::{PackedGuid, MAX_ENCODED_LEN};

/// Bytes in a block: one 512-bit vector.
const BLOCK: usize = 64;

/// GUIDs in one 512-bit vector.
const GROUP: usize = 8;

/// A block of 64 lanes, lane `i` holding `$lane` (a `usize` below 256).
macro_rules! lanes {
    (|$i:ident| $lane:expr) => {{
        let mut table = [0u8; BLOCK];
        let mut $i = 0;
        while $i < BLOCK {
            table[$i] = $lane as u8;
            $i += 1;
        }
        table
    }};
}

/// Lane `i`: `i + 1`, the next value's offset from a mask at `i` before its
/// sent bytes are counted.
static AFTER_MASK: [u8; BLOCK] = lanes!(|i| i + 1);

/// Lane `i`: `64 + i`, the second table of every two-table permutation, so
/// that a position past the block (64 or more) maps to itself.
static PAST_BLOCK: [u8; BLOCK] = lanes!(|i| BLOCK + i);

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

/// Lane `j`: `j / 8`, the value whose GUID byte lane `j` of a group holds.
static VALUE_OF_LANE: [u8; BLOCK] = lanes!(|j| j / GROUP);

/// Lane `j`: the mask bit for byte `j % 8` of a GUID.
static BIT_OF_LANE: [u8; BLOCK] = lanes!(|j| 1 << (j % GROUP));

/// Lane `j`: the mask bits below byte `j % 8` of a GUID, whose count says
/// how many sent bytes come before that byte.
static BITS_BELOW_LANE: [u8; BLOCK] = lanes!(|j| (1 << (j % GROUP)) - 1);

/// What the list decoder is compiled for.
pub(crate) const DECODER_FEATURES: Features = x86_features!(
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi",
    "avx512vbmi2",
    "avx512bitalg",
    "popcnt",
);

/// The AVX-512 list decoder, when this CPU has AVX-512 F, BW, VL, VBMI,
/// VBMI2 and BITALG and POPCNT; `None` when it does not. The function has
/// the contract of [`crate::packed::decode_many`].
#[must_use]
pub fn decoder() -> Option<DecodeManyFn> {
    (DECODER_FEATURES.detect)().then_some(decode_many as DecodeManyFn)
}

/// The list decoder [`decoder`] hands out.
fn decode_many(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    // SAFETY: `decode_many_avx512` enables only AVX-512 F, BW, VL, VBMI,
    // VBMI2, BITALG and POPCNT (and what they imply), the features of
    // `DECODER_FEATURES`. This function is private, and the only way to it
    // is the pointer `decoder` returns after `DECODER_FEATURES.detect` found
    // all of them on this CPU; a CPU's features do not change while a
    // process runs.
    unsafe { decode_many_avx512(input, out) }
}

/// The 64 bytes of `bytes` as a vector.
#[target_feature(enable = "avx512f")]
#[inline]
fn load(bytes: &[u8; BLOCK]) -> __m512i {
    // SAFETY: the reference is to 64 readable bytes, and the load is
    // unaligned, so any address is fine; AVX-512 F is enabled here.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Writes the eight GUIDs of `guids` (lane `8t + i` is byte `i` of GUID `t`)
/// into `out`.
#[target_feature(enable = "avx512f")]
#[inline]
fn store(out: &mut [PackedGuid; GROUP], guids: __m512i) {
    // SAFETY: `PackedGuid` is `#[repr(transparent)]` over a `u64`, so the
    // reference is to 64 writable bytes, and every bit pattern is a valid
    // `u64`; the store is unaligned, so any address is fine; AVX-512 F is
    // enabled here.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), guids) }
}

/// The block loop of the module docs, then the shared windowed loop for the
/// rest, compiled for the features [`decoder`] checks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt")]
fn decode_many_avx512(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    let after_mask = load(&AFTER_MASK);
    let past_block = load(&PAST_BLOCK);
    let value_of_lane = load(&VALUE_OF_LANE);
    let bit_of_lane = load(&BIT_OF_LANE);
    let bits_below_lane = load(&BITS_BELOW_LANE);
    let block = _mm512_set1_epi8(BLOCK as i8);
    let group = _mm512_set1_epi8(GROUP as i8);
    let one = _mm512_set1_epi8(1);

    let mut base = 0;
    // Every lane: the offset of the block's first mask from `base`.
    let mut start = _mm512_setzero_si512();
    let mut done = 0;
    while let Some((here, rest)) = input.get(base..).and_then(<[u8]>::split_first_chunk) {
        let Some(after) = rest.first_chunk() else {
            break;
        };
        let b0 = load(here);
        let b1 = load(after);
        // links[i]: where the next value starts if a mask is at i.
        let mut links = _mm512_add_epi8(_mm512_popcnt_epi8(b0), after_mask);
        let mut starts = start;
        for step in STEPS {
            // `links` is links^(2^k): lane t takes it when bit k of t is
            // set, so after the six rounds lane t has taken t links.
            starts = _mm512_mask2_permutex2var_epi8(links, starts, step, past_block);
            links = _mm512_permutex2var_epi8(links, links, past_block);
        }
        // `links` is links^64 now: from any start in the block, past it.
        let next = _mm512_sub_epi8(_mm512_permutexvar_epi8(start, links), block);
        let count = _mm512_cmplt_epu8_mask(starts, block).count_ones() as usize;
        // Two groups (16 values) always, so that the usual block takes no
        // branch that depends on its count; more only for blocks of short
        // values.
        let groups = count.div_ceil(GROUP).max(2);
        let Some(dest) = out.get_mut(done..done + groups * GROUP) else {
            break;
        };
        let masks = _mm512_permutexvar_epi8(starts, b0);
        let first_bytes = _mm512_add_epi8(starts, one);
        // Eight GUIDs from the lanes `values` names (value 8g + j / 8 in
        // lane j of group g).
        let expand = |values| {
            let mask = _mm512_permutexvar_epi8(values, masks);
            let sent = _mm512_test_epi8_mask(mask, bit_of_lane);
            let rank = _mm512_popcnt_epi8(_mm512_and_si512(mask, bits_below_lane));
            let from = _mm512_add_epi8(_mm512_permutexvar_epi8(values, first_bytes), rank);
            _mm512_maskz_permutex2var_epi8(sent, b0, from, b1)
        };
        if let [first, second, more @ ..] = dest.as_chunks_mut::<GROUP>().0 {
            let mut values = value_of_lane;
            store(first, expand(values));
            values = _mm512_add_epi8(values, group);
            store(second, expand(values));
            for guids in more {
                values = _mm512_add_epi8(values, group);
                store(guids, expand(values));
            }
        }
        done += count;
        base += BLOCK;
        start = next;
    }
    let pos = base + usize::from(_mm_cvtsi128_si32(_mm512_castsi512_si128(start)) as u8);
    generic::decode_many_windowed_from(input, pos, out, done, |window| decode_one(window))
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
