//! A count selector and a list of packed GUIDs into every list decoder in
//! `packed::decode_many_implementations()` and `packed::decode_many_to_vec`,
//! against the naive decoder walking the list. The checks live in
//! `wow_guid_codec::properties::differential_decode_many`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::differential_decode_many(input));
