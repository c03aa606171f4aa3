//! Raw bytes as an implementation's response line, parsed as the answer to
//! one of the six kinds of request (picked by the first byte). Whatever
//! parses, written back with the runner's own writer, must parse to the same
//! value, and the written line must be the canonical form of the answer
//! (lowercase hex, no leading zeros in the count). Whatever does not parse
//! must name a column inside the line (or one past its end, for a missing
//! field), and its message must render.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_harness::protocol::{parse_response, write_response};
use wow_guid_vectors::Request;

/// The id every request is sent under; the dictionary holds it, so the
/// fuzzer gets past the id check at once.
const ID: &str = "v";

fuzz_target!(|input: &[u8]| {
    let Some((&selector, line)) = input.split_first() else {
        return;
    };
    let request = match selector % 6 {
        0 => Request::DecodePacked {
            bytes: vec![0x01, 0x01],
        },
        1 => Request::DecodeNamed {
            bytes: vec![0x01, 0x01, 0x41, 0x00],
        },
        2 => Request::EncodePacked { guid: 1 },
        3 => Request::SizePacked { guid: 1 },
        4 => Request::SizeNamed {
            guid: 1,
            name: Some(b"A".to_vec()),
        },
        _ => Request::EncodeNamed {
            guid: 1,
            name: Some(b"A".to_vec()),
        },
    };
    match parse_response(line, ID, &request) {
        Ok(response) => {
            let mut written = Vec::new();
            write_response(&mut written, ID, &response);
            assert_eq!(
                written.pop(),
                Some(b'\n'),
                "the writer ends its line with \\n"
            );
            let again = parse_response(&written, ID, &request).unwrap_or_else(|e| {
                panic!(
                    "{:?} parsed to {response:?}, written back as {:?}, which fails: {e}",
                    String::from_utf8_lossy(line),
                    String::from_utf8_lossy(&written)
                )
            });
            assert_eq!(
                again,
                response,
                "written back as {:?}",
                String::from_utf8_lossy(&written)
            );
            // The writer's form is canonical: writing the reparsed value
            // gives the same bytes.
            let mut twice = Vec::new();
            write_response(&mut twice, ID, &again);
            twice.pop();
            assert_eq!(twice, written);
        }
        Err(error) => {
            let len = line.strip_suffix(b"\r").unwrap_or(line).len();
            assert!(
                (1..=len + 1).contains(&error.column),
                "column {} outside a line of {len} bytes: {error:?}",
                error.column
            );
            let message = error.to_string();
            assert!(!message.is_empty());
            // The message quotes untrusted fields; they are cut, so it stays
            // bounded whatever the line's length.
            assert!(message.len() <= 1024, "{} bytes of message", message.len());
        }
    }
});
