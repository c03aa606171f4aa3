//! The checks any codec can be held to, generic over `wow_guid_testkit::Codec`,
//! on the reference codec: the same properties a codec author's fuzz targets
//! run on his codec (`examples/fuzz-your-codec/`), on requests the
//! testkit's generators draw from the fault model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_testkit::generate::AnyRequest;
use wow_guid_testkit::properties::{decode, differential, round_trip};
use wow_guid_testkit::Reference;

fuzz_target!(|request: AnyRequest| {
    decode(&Reference, &request.0);
    round_trip(&Reference, &request.0);
    differential(&Reference, &request.0);
});
