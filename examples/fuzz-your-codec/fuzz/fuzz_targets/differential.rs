//! Differential: every answer of the codec is one the conformance runner
//! accepts, judged against the reference codec on requests drawn from the
//! fault model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use my_guid_codec::testkit::MyCodec;
use wow_guid_testkit::generate::AnyRequest;
use wow_guid_testkit::properties::differential;

fuzz_target!(|request: AnyRequest| {
    differential(&MyCodec, &request.0);
});
