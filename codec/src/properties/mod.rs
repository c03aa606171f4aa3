//! Property checks over the codec, shared by every fuzz harness, in one
//! file per kind of check: `decode` (any bytes), `roundtrip`, `differential`
//! (every implementation inside the codec against the naive baseline, one
//! value or a list) and `stream`. The checks any codec can be held to
//! (decode, round trip, agreement with the reference) are also written
//! generic over a codec trait in `wow-guid-testkit`, which the fuzz
//! target `testkit_properties` runs on this codec.
//!
//! The cargo-fuzz targets in `fuzz/`, the bolero harnesses in
//! `tests/properties.rs` and the regression replay in
//! `tests/fuzz_regressions.rs` are all thin calls into this module, so a
//! property is written once and every harness checks the same thing. The
//! module only reads the codec's public API (and [`crate::naive`] as the
//! baseline); it never changes state and never touches the file system.
//!
//! Each function takes one input and **panics with a precise message** when
//! the codec breaks a property, the convention of fuzz targets: libFuzzer and
//! bolero both turn a panic into a saved reproducer. Every message names the
//! property, what was expected, what happened, and the input as hex in the
//! form the vector files use (`"0a de ad"`), so a finding can be pasted into a
//! vector.
//!
//! | function | property |
//! | --- | --- |
//! | [`packed_decode`], [`named_decode`] | no panic on any bytes; `consumed <= len`; `decode(input) == decode(input[..consumed])`; canonical form; encoded length; error offsets inside the input |
//! | [`named_decode_limits`], [`named_decode_with_limit`] | the name limit turns exactly the too-long names into `NameTooLong` and changes nothing else |
//! | [`packed_roundtrip`], [`named_roundtrip`] | `decode(encode(v)) == (v, encode(v).len())`; length function; every strict prefix is an error; trailing bytes are left alone |
//! | [`packed_differential`], [`named_differential`], [`differential`] | every entry of [`packed::DECODERS`](crate::packed::DECODERS) and [`packed::ENCODERS`](crate::packed::ENCODERS), and the named decoder, agree with [`crate::naive`]: same value, same consumed, same error |
//! | [`packed_encode_many`], [`differential_encode_many`] | every entry of [`packed::encode_many_implementations`](crate::packed::encode_many_implementations) writes the naive encodings end to end, and stops at exactly the first GUID that does not fit (every buffer size, or one chosen by the input) |
//! | [`packed_decode_many`], [`differential_decode_many`] | every entry of [`packed::decode_many_implementations`](crate::packed::decode_many_implementations) reads what the naive decoder reads value after value, and fails at exactly the value where it fails (every count, or one chosen by the input) |
//! | [`stream`], [`stream_input`] | values encoded back to back decode back to the same sequence |
//!
//! New fast paths added to [`packed::DECODERS`](crate::packed::DECODERS), [`packed::ENCODERS`](crate::packed::ENCODERS),
//! [`packed::encode_many_implementations`](crate::packed::encode_many_implementations) or
//! [`packed::decode_many_implementations`](crate::packed::decode_many_implementations) are covered without touching this
//! module: the differential properties walk all four lists.

use crate::NamedGuidValueError;
use crate::{NamedGuid, PackedGuid};

mod decode;
mod differential;
mod message;
mod roundtrip;
mod stream;

use message::violated;

pub use decode::{named_decode, named_decode_limits, named_decode_with_limit, packed_decode};
pub use differential::{
    differential, differential_decode_many, differential_decode_many_with,
    differential_encode_many, differential_encode_many_with, named_differential,
    packed_decode_many, packed_differential, packed_encode_many, packed_encoders,
    DecodeManyScratch, EncodeManyScratch,
};
pub use roundtrip::{named_roundtrip, packed_roundtrip};
pub use stream::{stream, StreamItem};
#[cfg(feature = "arbitrary")]
pub use stream::{stream_input, StreamScratch};

/// Values that must never be rejected or mangled, whatever else the fuzzer
/// finds: GUID 0 without a name, the spec's example, and the extremes.
///
/// # Panics
/// When one of them fails its round trip.
pub fn fixed_values() {
    let fixed = [0, 1, 0x0000_0000_AD00_DE00, 0x8000_0000_0000_0000, u64::MAX];
    for guid in fixed {
        packed_roundtrip(PackedGuid(guid));
        packed_encoders(guid);
    }
    packed_encode_many(&fixed);
    let zero = NamedGuid::from_raw_parts(0, None);
    if zero != Ok(NamedGuid::Zero) {
        violated(
            "named.zero-without-name",
            &[],
            format_args!("from_raw_parts(0, None) gives {zero:?}"),
        );
    }
    named_roundtrip(&NamedGuid::Zero);
    if NamedGuid::from_raw_parts(0, Some(b"")) != Err(NamedGuidValueError::NameWithoutGuid) {
        violated(
            "named.zero-without-name",
            &[],
            format_args!("from_raw_parts(0, Some(\"\")) must be refused: GUID 0 carries no name"),
        );
    }
}
