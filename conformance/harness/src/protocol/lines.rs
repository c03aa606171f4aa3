//! Writing the protocol's lines: requests, responses, and any raw line as
//! a person can read it; apart from parsing, so that writing never depends
//! on the code that reads.

use std::io::Write as _;

use wow_guid_vectors::hex_text;
use wow_guid_vectors::{Request, Value};

use super::Response;

fn write_decimal(out: &mut Vec<u8>, n: usize) {
    // Writing to a `Vec` cannot fail.
    let _ = write!(out, "{n}");
}

/// Appends the request line for `request` under `id`, with its `\n`. The
/// operation and type are the vocabulary's words (`decode packed_guid`).
pub(crate) fn write_request(out: &mut Vec<u8>, id: &str, request: &Request) {
    out.extend_from_slice(id.as_bytes());
    out.push(b' ');
    out.extend_from_slice(request.op().as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(request.guid_type().as_str().as_bytes());
    out.push(b' ');
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            hex_text::write(out, bytes)
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            hex_text::write_guid(out, *guid)
        }
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            hex_text::write_guid(out, *guid);
            if let Some(name) = name {
                out.push(b' ');
                hex_text::write(out, name);
            }
        }
    }
    out.push(b'\n');
}

/// The request line for `request` under `id`, without its `\n`, for reports.
#[must_use]
pub fn request_line(id: &str, request: &Request) -> String {
    let mut out = Vec::new();
    write_request(&mut out, id, request);
    out.pop();
    // Only ASCII was written: the id is checked by the caller's corpus and
    // everything else comes from fixed words and hex digits.
    String::from_utf8_lossy(&out).into_owned()
}

/// Appends the response line for `response` under `id`, with its `\n`.
pub fn write_response(out: &mut Vec<u8>, id: &str, response: &Response) {
    out.extend_from_slice(id.as_bytes());
    match response {
        Response::Ok(value) => {
            out.extend_from_slice(b" ok ");
            match value {
                Value::Packed { guid, consumed } | Value::Named { guid, consumed, .. } => {
                    hex_text::write_guid(out, *guid);
                    out.push(b' ');
                    write_decimal(out, *consumed);
                    if let Value::Named {
                        name: Some(name), ..
                    } = value
                    {
                        out.push(b' ');
                        hex_text::write(out, name);
                    }
                }
                Value::Encoded { bytes } => hex_text::write(out, bytes),
                Value::Size { size } => write_decimal(out, *size),
            }
        }
        Response::Error(code) => {
            out.extend_from_slice(b" error ");
            out.extend_from_slice(code.as_str().as_bytes());
        }
        Response::Unsupported => out.extend_from_slice(b" unsupported"),
    }
    out.push(b'\n');
}

/// The response line for `response` under `id`, without its `\n`, as the
/// reference would write it; reports use it for the expected side.
#[must_use]
pub fn response_line(id: &str, response: &Response) -> String {
    let mut out = Vec::new();
    write_response(&mut out, id, response);
    out.pop();
    String::from_utf8_lossy(&out).into_owned()
}

/// Shows a raw line to a person: printable ASCII as is, everything else
/// escaped, cut after `max_chars` characters with a note of the full length.
#[must_use]
pub fn printable(line: &[u8], max_chars: usize) -> String {
    let mut out = String::new();
    for (shown, &b) in line.iter().enumerate() {
        if shown == max_chars {
            out.push_str(&format!("… ({} bytes in all)", line.len()));
            break;
        }
        match b {
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(b)),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}
