//! A count selector and a list of packed GUIDs into every list decoder in
//! `packed::decode_many_implementations()` and `packed::decode_many_to_vec`,
//! against the naive decoder walking the list. The checks live in
//! `wow_guid_codec::properties::differential_decode_many`.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::properties::{differential_decode_many_with, DecodeManyScratch};

thread_local! {
    // The naive walk's lists, kept from one input to the next.
    static SCRATCH: RefCell<DecodeManyScratch> = RefCell::new(DecodeManyScratch::default());
}

fuzz_target!(|input: &[u8]| {
    SCRATCH.with_borrow_mut(|scratch| differential_decode_many_with(input, scratch));
});
