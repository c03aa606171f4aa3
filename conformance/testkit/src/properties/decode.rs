//! What any decoder must do with any bytes: not panic, consume only what it
//! was given, look at nothing past what it consumed, and leave the bytes
//! after its value alone.

use wow_guid_harness::protocol::{request_line, response_line, Response};
use wow_guid_vectors::{Request, Value};

use crate::codec::{answer, Codec};

/// The bytes a value of this answer took, if it is a decoded value.
fn consumed(response: &Response) -> Option<usize> {
    match response {
        Response::Ok(Value::Packed { consumed, .. } | Value::Named { consumed, .. }) => {
            Some(*consumed)
        }
        _ => None,
    }
}

/// `request` with its input bytes replaced by `bytes`.
fn with_bytes(request: &Request, bytes: Vec<u8>) -> Request {
    match request {
        Request::DecodePacked { .. } => Request::DecodePacked { bytes },
        _ => Request::DecodeNamed { bytes },
    }
}

/// Checks a decode request (others pass): the decoder does not panic; on
/// success it consumed at most the input; decoding only the consumed bytes
/// gives the same answer, and so does decoding the input with bytes after
/// it.
///
/// # Panics
/// When the codec breaks one of these, with the request and the answers.
#[track_caller]
pub fn decode(codec: &impl Codec, request: &Request) {
    let Some(input) = request.input_bytes() else {
        return;
    };
    let got = answer(codec, request);
    let Some(used) = consumed(&got) else {
        return;
    };
    let line = || request_line("d", request);
    assert!(
        used <= input.len(),
        "property `consumed within the input` violated: consumed {used} of {} bytes\n  request  {}\n  got      {}",
        input.len(),
        line(),
        response_line("d", &got),
    );
    let exact = with_bytes(request, input[..used].to_vec());
    let again = answer(codec, &exact);
    assert!(
        again == got,
        "property `decodes from what it consumed` violated: the first {used} bytes decode otherwise\n  request  {}\n  got      {}\n  then     {}\n  got      {}",
        line(),
        response_line("d", &got),
        request_line("d", &exact),
        response_line("d", &again),
    );
    let mut longer = input.to_vec();
    longer.extend_from_slice(&[0x00, 0xff, 0x80]);
    let longer = with_bytes(request, longer);
    let after = answer(codec, &longer);
    assert!(
        after == got,
        "property `trailing bytes left alone` violated: bytes after the value change it\n  request  {}\n  got      {}\n  then     {}\n  got      {}",
        line(),
        response_line("d", &got),
        request_line("d", &longer),
        response_line("d", &after),
    );
}
