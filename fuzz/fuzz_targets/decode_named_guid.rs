//! Raw bytes into the `NamedGuid` decoders, owned and borrowed. The checks
//! live in `wow_guid_codec::properties::named_decode`; the name limit has its
//! own target, `decode_named_guid_limit`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::named_decode(input));
