//! The x86-64 backends, and their list loops in the order the dispatcher
//! prefers them.
//!
//! A new backend is a file here with its `encoder()` or `decoder()` (or
//! both), its module line below, and its loops in [`ENCODE_MANY`] or
//! [`DECODE_MANY`]: the dispatcher, the implementation lists, the tests,
//! the fuzz targets and the benchmarks all read these lists.

pub mod avx512;
pub mod ssse3;

use super::cpu::Loop;
use crate::packed::generic::{DecodeManyFn, EncodeManyFn};

/// The list encoders of this architecture, fastest first.
pub(crate) const ENCODE_MANY: &[Loop<EncodeManyFn>] = &[
    Loop {
        name: "avx512",
        features: avx512::ENCODER_FEATURES,
        get: avx512::encoder,
        min_len: 0,
    },
    Loop {
        name: "ssse3",
        features: ssse3::ENCODER_FEATURES,
        get: ssse3::encoder,
        min_len: 0,
    },
];

/// The list decoders of this architecture, fastest first.
pub(crate) const DECODE_MANY: &[Loop<DecodeManyFn>] = &[
    Loop {
        name: "avx512",
        features: avx512::DECODER_FEATURES,
        get: avx512::decoder,
        // Below 32 values the SSSE3 loop is as fast or faster
        // (`codec/benches/README.md`).
        min_len: 32,
    },
    Loop {
        name: "ssse3",
        features: ssse3::DECODER_FEATURES,
        get: ssse3::decoder,
        min_len: 0,
    },
];
