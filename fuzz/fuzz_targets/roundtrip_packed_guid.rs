//! Arbitrary `PackedGuid` values through encode and decode. The checks live
//! in `wow_guid_codec::properties::packed_roundtrip`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::PackedGuid;

fuzz_target!(|value: PackedGuid| wow_guid_codec::properties::packed_roundtrip(value));
