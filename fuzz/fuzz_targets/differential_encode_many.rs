//! A buffer-size selector and a list of GUIDs into every list encoder in
//! `packed::encode_many_implementations()` and `packed::encode_many_to_vec`,
//! against the naive encodings laid end to end. The checks live in
//! `wow_guid_codec::properties::differential_encode_many`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::differential_encode_many(input));
