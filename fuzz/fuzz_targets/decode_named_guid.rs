//! Raw bytes into the `NamedGuid` decoders, owned, borrowed and with a name
//! limit. The checks live in `wow_guid_codec::properties::named_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| wow_guid_codec::properties::named_decode(input));
