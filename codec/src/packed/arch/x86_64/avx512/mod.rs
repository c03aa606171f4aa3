//! The AVX-512 list loops, chosen at run time: a decoder that takes the
//! stream 64 bytes at a time with no chain from one value's mask to the
//! next (`decode`), and an encoder that compresses seven GUIDs per
//! `VPCOMPRESSB` (`encode`).
//!
//! # When it applies
//!
//! On x86-64 CPUs with the AVX-512 extensions each loop lists
//! ([`decoder`]: F, BW, VL, VBMI, VBMI2, BITALG and POPCNT; [`encoder`]: F,
//! BW, VL, VBMI, VBMI2, GFNI and POPCNT; Intel since Ice Lake, AMD since
//! Zen 4), and only for whole lists. As with [`crate::packed::ssse3`], each
//! loop lives in a function compiled for those features; [`decoder`] and
//! [`encoder`] return it when this CPU has them and `None` when it does
//! not, and choosing it (or not, for short lists) is the dispatcher's job.
//! Without `std` the CPU cannot be asked, so both return `None` unless the
//! crate is compiled for the features.
//!
//! # Why `unsafe` is allowed here
//!
//! Like [`crate::packed::ssse3`], to call each function compiled for the
//! features from the private function that [`decoder`] or [`encoder`] hands
//! out only after checking the CPU: one block per direction, here. Besides
//! that, the vector loads and stores take raw pointers, each in a small
//! function of `vector` that takes a reference to exactly the 64 bytes it
//! reads or writes. The loops are held to [`crate::naive`] by the same
//! differential tests and fuzz targets as the other implementations (they
//! are in [`crate::packed::decode_many_implementations`] and
//! [`crate::packed::encode_many_implementations`]).
//!
//! This module may touch the input and output slices, and its submodules
//! their own read-only tables.

mod decode;
mod encode;
mod vector;

use crate::packed::arch::cpu::{x86_features, Features};
use crate::packed::error::{DecodeManyError, EncodeManyError};
use crate::packed::generic::{DecodeManyFn, EncodeManyFn};
use crate::packed::value::PackedGuid;

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

/// What the list encoder is compiled for.
pub(crate) const ENCODER_FEATURES: Features = x86_features!(
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi",
    "avx512vbmi2",
    "gfni",
    "popcnt",
);

/// The AVX-512 list decoder, when this CPU has AVX-512 F, BW, VL, VBMI,
/// VBMI2 and BITALG and POPCNT; `None` when it does not. The function has
/// the contract of [`crate::packed::decode_many`].
#[must_use]
pub fn decoder() -> Option<DecodeManyFn> {
    (DECODER_FEATURES.detect)().then_some(decode_many as DecodeManyFn)
}

/// The AVX-512 list encoder, when this CPU has AVX-512 F, BW, VL, VBMI and
/// VBMI2, GFNI and POPCNT; `None` when it does not. The function has the
/// contract of [`crate::packed::encode_many`].
#[must_use]
pub fn encoder() -> Option<EncodeManyFn> {
    (ENCODER_FEATURES.detect)().then_some(encode_many as EncodeManyFn)
}

/// The list decoder [`decoder`] hands out.
#[allow(unsafe_code)]
fn decode_many(input: &[u8], out: &mut [PackedGuid]) -> Result<usize, DecodeManyError> {
    // SAFETY: `decode_many_avx512` enables only AVX-512 F, BW, VL, VBMI,
    // VBMI2, BITALG and POPCNT (and what they imply), the features of
    // `DECODER_FEATURES`. This function is private, and the only way to it
    // is the pointer `decoder` returns after `DECODER_FEATURES.detect` found
    // all of them on this CPU; a CPU's features do not change while a
    // process runs.
    unsafe { decode::decode_many_avx512(input, out) }
}

/// The list encoder [`encoder`] hands out.
#[allow(unsafe_code)]
fn encode_many(guids: &[PackedGuid], out: &mut [u8]) -> Result<usize, EncodeManyError> {
    // SAFETY: `encode_many_avx512` enables only AVX-512 F, BW, VL, VBMI and
    // VBMI2, GFNI and POPCNT (and what they imply), the features of
    // `ENCODER_FEATURES`. This function is private, and the only way to it
    // is the pointer `encoder` returns after `ENCODER_FEATURES.detect` found
    // all of them on this CPU; a CPU's features do not change while a
    // process runs.
    unsafe { encode::encode_many_avx512(guids, out) }
}
