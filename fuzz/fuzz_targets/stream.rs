//! Arbitrary sequences of packed and named GUIDs encoded back to back and
//! decoded one after the other. The checks live in
//! `wow_guid_codec::properties::stream_input`, which reads the items from
//! the raw input as `Vec<StreamItem>` would, borrowing the names; its
//! scratch space is kept from one input to the next, so a run allocates
//! nothing per input.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use wow_guid_codec::properties::{stream_input, StreamScratch};

thread_local! {
    static SCRATCH: RefCell<StreamScratch> = RefCell::new(StreamScratch::default());
}

fuzz_target!(|input: &[u8]| {
    SCRATCH.with_borrow_mut(|scratch| stream_input(input, scratch));
});
