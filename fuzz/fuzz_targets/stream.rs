//! Arbitrary sequences of packed and named GUIDs encoded back to back and
//! decoded one after the other. The checks live in
//! `wow_guid_codec::properties::stream`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::properties::StreamItem;

fuzz_target!(|items: Vec<StreamItem>| wow_guid_codec::properties::stream(&items));
