//! The 512-bit loads and stores of the AVX-512 loops, and how their tables
//! are built.
//!
//! The only `unsafe` of the loops themselves: each function takes a
//! reference to exactly the 64 bytes it reads or writes, which the caller
//! got by bounds-checked slicing, so no access can leave the caller's
//! slices. [`PackedGuid`] is `#[repr(transparent)]` over its `u64`, so eight
//! of them are 64 bytes, and every bit pattern is a valid GUID.
//!
//! The bottom of the backend: the decoder and the encoder build on it.
#![allow(unsafe_code)]

use core::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_storeu_si512};

use crate::packed::value::PackedGuid;

/// Bytes in a block: one 512-bit vector.
pub(super) const BLOCK: usize = 64;

/// GUIDs in one 512-bit vector.
pub(super) const GROUP: usize = 8;

/// A block of 64 lanes, lane `i` holding `$lane` (a `usize` below 256);
/// for a module that imports [`BLOCK`].
macro_rules! lanes {
    (|$i:ident| $lane:expr) => {{
        let mut table = [0u8; BLOCK];
        let mut $i = 0;
        while $i < table.len() {
            table[$i] = $lane as u8;
            $i += 1;
        }
        table
    }};
}
pub(super) use lanes;

/// The 64 bytes of `bytes` as a vector.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn load(bytes: &[u8; BLOCK]) -> __m512i {
    // SAFETY: the reference is to 64 readable bytes, and the load is
    // unaligned, so any address is fine; AVX-512 F is enabled here.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// The eight GUIDs of `guids` as a vector, lane `8t + i` byte `i` of GUID
/// `t`.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn load_guids(guids: &[PackedGuid; GROUP]) -> __m512i {
    // SAFETY: `PackedGuid` is `#[repr(transparent)]` over a `u64`, so the
    // reference is to 64 readable bytes; the load is unaligned, so any
    // address is fine; AVX-512 F is enabled here.
    unsafe { _mm512_loadu_si512(guids.as_ptr().cast()) }
}

/// Writes the eight GUIDs of `guids` (lane `8t + i` is byte `i` of GUID `t`)
/// into `out`.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn store(out: &mut [PackedGuid; GROUP], guids: __m512i) {
    // SAFETY: `PackedGuid` is `#[repr(transparent)]` over a `u64`, so the
    // reference is to 64 writable bytes, and every bit pattern is a valid
    // `u64`; the store is unaligned, so any address is fine; AVX-512 F is
    // enabled here.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), guids) }
}

/// Writes the 64 bytes of `bytes` into `out`.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn store_bytes(out: &mut [u8; BLOCK], bytes: __m512i) {
    // SAFETY: the reference is to 64 writable bytes; the store is
    // unaligned, so any address is fine; AVX-512 F is enabled here.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), bytes) }
}
