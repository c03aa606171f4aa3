//! Panic freedom: the decoders take any bytes without panicking, consume
//! only what they were given, and leave bytes after the value alone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use my_guid_codec::testkit::MyCodec;
use wow_guid_testkit::properties::decode;
use wow_guid_vectors::Request;

fuzz_target!(|input: &[u8]| {
    // The first byte picks the decoder; the rest is its input, raw.
    let Some((&which, bytes)) = input.split_first() else {
        return;
    };
    let bytes = bytes.to_vec();
    let request = if which & 1 == 0 {
        Request::DecodePacked { bytes }
    } else {
        Request::DecodeNamed { bytes }
    };
    decode(&MyCodec, &request);
});
