//! Raw bytes into `PackedGuid::decode`: no panic, consumed within the input,
//! no read past it, canonical form. The checks live in
//! `wow_guid_codec::properties::packed_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::packed_decode(input));
