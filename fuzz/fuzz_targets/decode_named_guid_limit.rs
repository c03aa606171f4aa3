//! Raw bytes into `NamedGuidRef::decode_with_max_name_len` at the limits
//! around 256 and around the name's own length, against the unlimited
//! decoder. The checks live in
//! `wow_guid_codec::properties::named_decode_limits`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::named_decode_limits(input));
