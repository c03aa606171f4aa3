//! What a codec writes, it must read back: the own round trip
//! ([`crate::round_trip`]), and no strict prefix of what it writes is a
//! value.

use wow_guid_harness::protocol::{request_line, response_line, Response};
use wow_guid_vectors::{Request, Value};

use crate::codec::{answer, Codec};
use crate::round_trip::{check, read_back};

/// Checks an encode request (others pass): if the codec writes bytes, it
/// decodes them back to the value encoded, consuming all of them, and
/// refuses every strict prefix of them.
///
/// # Panics
/// "writes what it cannot read" with both requests and both answers, or
/// the prefix it took for a value.
#[track_caller]
pub fn round_trip(codec: &impl Codec, request: &Request) {
    let wrote = answer(codec, request);
    let Some(decode) = read_back(request, &wrote) else {
        return;
    };
    let bytes = decode.input_bytes().unwrap_or_default();
    if let Err(failure) = check(request, bytes, &answer(codec, &decode)) {
        panic!("property `round trip` violated: {failure}");
    }
    for cut in 0..bytes.len() {
        let prefix = match &decode {
            Request::DecodePacked { .. } => Request::DecodePacked {
                bytes: bytes[..cut].to_vec(),
            },
            _ => Request::DecodeNamed {
                bytes: bytes[..cut].to_vec(),
            },
        };
        let got = answer(codec, &prefix);
        if let Response::Ok(value @ (Value::Packed { .. } | Value::Named { .. })) = &got {
            panic!(
                "property `strict prefixes are refused` violated: {cut} of the {} bytes written decode as {value:?}\n  encode  {}\n  decode  {}\n  got     {}",
                bytes.len(),
                request_line("e", request),
                request_line("d", &prefix),
                response_line("d", &got),
            );
        }
    }
}
