//! Raw bytes into every packed decoder and encoder in `packed::DECODERS`,
//! `packed::ENCODERS`, `packed::decode_many_implementations()` and
//! `packed::encode_many_implementations()`, and into the named decoder, each
//! against the naive model. The checks live in
//! `wow_guid_codec::properties::differential`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::differential(input));
