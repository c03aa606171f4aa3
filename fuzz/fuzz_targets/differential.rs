//! Raw bytes into every packed decoder and encoder in `packed::DECODERS` and
//! `packed::ENCODERS`, and into the named decoder, each against the naive
//! model, one value at a time. The list functions have their own targets
//! (`differential_decode_many`, `differential_encode_many`). The checks live
//! in `wow_guid_codec::properties::differential`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::differential(input));
