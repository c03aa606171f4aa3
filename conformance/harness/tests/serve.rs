//! The unit tests of `serve`, through the crate's API.

use std::io::{self, Read};
use wow_guid_harness::protocol::Response;
use wow_guid_harness::serve::*;
use wow_guid_vectors::Request;

fn run(input: &[u8]) -> (Result<(), ServeError>, String) {
    let mut out = Vec::new();
    let r = serve(input, &mut out);
    (r, String::from_utf8(out).unwrap())
}

#[test]
fn answers_each_line_in_order() {
    let (r, out) = run(b"a decode packed_guid 0adead\nb encode packed_guid 0000000000000000\r\nc decode named_guid 01");
    r.unwrap();
    assert_eq!(out, "a ok 00000000ad00de00 3\nb ok 00\nc error eof\n");
}

#[test]
fn any_codec_can_answer_behind_the_same_line_handling() {
    let mut asked = Vec::new();
    let mut out = Vec::new();
    serve_with(
        &b"a decode packed_guid 0adead\r\nb encode named_guid 0000000000000001 -"[..],
        &mut out,
        |request| {
            asked.push(request.clone());
            Response::Unsupported
        },
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "a unsupported\nb unsupported\n"
    );
    assert_eq!(
        asked,
        [
            Request::DecodePacked {
                bytes: vec![0x0a, 0xde, 0xad]
            },
            Request::EncodeNamed {
                guid: 1,
                name: Some(vec![])
            }
        ]
    );
}

/// A line that does not follow the protocol is answered and serving goes
/// on: `unsupported` for a kind of request the protocol lacks (a newer
/// runner's), `error other` for anything else, under the line's first
/// field; an empty line is no request and is not answered.
#[test]
fn a_bad_request_is_answered_and_serving_goes_on() {
    let (r, out) = run(b"a encode packed_guid 0000000000000000\nb decode packed_guid xyz\n\nc transcode packed_guid 0000000000000001\nd decode\ne decode packed_guid 01ff\n");
    r.unwrap();
    assert_eq!(
        out,
        "a ok 00\nb error other\nc unsupported\nd error other\ne ok 00000000000000ff 2\n"
    );
}

/// A reader that hands out its data in the pieces given, to check that a
/// line split across reads is put back together.
struct Pieces(Vec<&'static [u8]>);

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Ok(0);
        }
        let piece = self.0.remove(0);
        buf[..piece.len()].copy_from_slice(piece);
        Ok(piece.len())
    }
}

#[test]
fn lines_split_across_reads_are_joined() {
    let mut out = Vec::new();
    serve(
        Pieces(vec![
            b"a decode pa",
            b"cked_guid 00\nb deco",
            b"de packed_guid 01ff\n",
        ]),
        &mut out,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "a ok 0000000000000000 1\nb ok 00000000000000ff 2\n"
    );
}
