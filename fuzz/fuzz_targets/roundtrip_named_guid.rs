//! Arbitrary `NamedGuid` values (any name without NUL, and GUID 0 without a
//! name) through encode and decode. The checks live in
//! `wow_guid_codec::properties::named_roundtrip`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::NamedGuid;

fuzz_target!(|value: NamedGuid| wow_guid_codec::properties::named_roundtrip(&value));
