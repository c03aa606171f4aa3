//! A buffer-size selector and a list of GUIDs into every list encoder in
//! `packed::encode_many_implementations()` and `packed::encode_many_to_vec`,
//! against the naive encodings laid end to end. The checks live in
//! `wow_guid_codec::properties::differential_encode_many`.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::properties::{differential_encode_many_with, EncodeManyScratch};

thread_local! {
    // The naive model's lists, kept from one input to the next.
    static SCRATCH: RefCell<EncodeManyScratch> = RefCell::new(EncodeManyScratch::default());
}

fuzz_target!(|input: &[u8]| {
    SCRATCH.with_borrow_mut(|scratch| differential_encode_many_with(input, scratch));
});
