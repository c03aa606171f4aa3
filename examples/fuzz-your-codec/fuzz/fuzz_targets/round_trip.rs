//! Round trip: what the codec encodes, it decodes back to the same value,
//! and no strict prefix of it is a value. Finds an encoder that writes what
//! its own decoder refuses, which no vector and no differential can.
#![no_main]

use libfuzzer_sys::fuzz_target;
use my_guid_codec::testkit::MyCodec;
use wow_guid_testkit::generate::EncodeRequest;
use wow_guid_testkit::properties::round_trip;

fuzz_target!(|request: EncodeRequest| {
    round_trip(&MyCodec, &request.0);
});
