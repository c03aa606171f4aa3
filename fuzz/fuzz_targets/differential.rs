//! Raw bytes into every packed decoder and encoder in `packed::DECODERS`,
//! `packed::ENCODERS`, `packed::DECODE_MANY` and `packed::ENCODE_MANY`, and
//! into the named decoder, each against the naive model. The checks live in
//! `wow_guid_codec::properties::differential`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::differential(input));
