//! The unit tests of `protocol`, through the crate's API.

use wow_guid_harness::protocol::*;
use wow_guid_vectors::hex_text::{
    parse_field, parse_guid_field, write, write_guid, GuidTextError, HexError,
};
use wow_guid_vectors::{ErrorCode, Request, Value};

fn line_of(id: &str, r: &Request) -> Vec<u8> {
    format!("{}\n", request_line(id, r)).into_bytes()
}

#[test]
fn request_lines_round_trip() {
    let requests = [
        Request::DecodePacked {
            bytes: vec![0x0a, 0xde, 0xad],
        },
        Request::DecodePacked { bytes: vec![] },
        Request::EncodePacked { guid: 0xad00_de00 },
        Request::DecodeNamed {
            bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, 0],
        },
        Request::EncodeNamed {
            guid: 7,
            name: Some(vec![]),
        },
        Request::EncodeNamed {
            guid: 0,
            name: None,
        },
        Request::SizePacked { guid: 0xad00_de00 },
        Request::SizeNamed {
            guid: 0xabc,
            name: Some("Café".as_bytes().to_vec()),
        },
        Request::SizeNamed {
            guid: 1,
            name: None,
        },
    ];
    for r in &requests {
        let line = line_of("t.1", r);
        assert_eq!(line.last(), Some(&b'\n'));
        let (id, back) = parse_request(&line[..line.len() - 1]).unwrap();
        assert_eq!(id, "t.1");
        assert_eq!(&back, r);
    }
    assert_eq!(
        request_line("x", &requests[0]),
        "x decode packed_guid 0adead"
    );
    assert_eq!(request_line("x", &requests[1]), "x decode packed_guid -");
    assert_eq!(
        request_line("x", &requests[2]),
        "x encode packed_guid 00000000ad00de00"
    );
    assert_eq!(
        request_line("x", &requests[4]),
        "x encode named_guid 0000000000000007 -"
    );
    assert_eq!(
        request_line("x", &requests[6]),
        "x size packed_guid 00000000ad00de00"
    );
    assert_eq!(
        request_line("x", &requests[7]),
        "x size named_guid 0000000000000abc 436166c3a9"
    );
    assert_eq!(
        request_line("x", &requests[8]),
        "x size named_guid 0000000000000001"
    );
}

/// A size is a decimal count of bytes, in the form only a `size` request
/// takes: the same line is a wrong form for an encode.
#[test]
fn size_responses_are_decimal_counts() {
    let sp = Request::SizePacked { guid: 0 };
    let sn = Request::SizeNamed {
        guid: 1,
        name: None,
    };
    assert_eq!(
        parse_response(b"i ok 14", "i", &sn),
        Ok(Response::Ok(Value::Size { size: 14 }))
    );
    assert_eq!(
        parse_response(b"i error other", "i", &sn),
        Ok(Response::Error(ErrorCode::Other))
    );
    assert_eq!(
        response_line("i", &Response::Ok(Value::Size { size: 265 })),
        "i ok 265"
    );
    let message = |line: &[u8], r: &Request| parse_response(line, "i", r).unwrap_err().to_string();
    assert_eq!(
        message(b"i ok 0e", &sp),
        "column 6: size `0e` is not a decimal number of bytes"
    );
    assert_eq!(
        message(b"i ok", &sp),
        "column 5: the line ends before the size"
    );
    assert_eq!(
        message(b"i ok 9 09", &sp),
        "column 8: unexpected extra field `09` for this kind of response"
    );
    // `ok 14` is hex bytes to an encode, not a size.
    assert_eq!(
        parse_response(b"i ok 14", "i", &Request::EncodePacked { guid: 0 }),
        Ok(Response::Ok(Value::Encoded { bytes: vec![0x14] }))
    );
}

#[test]
fn request_errors_name_the_column() {
    let err = parse_request(b"a decode packed_guid 0ad").unwrap_err();
    assert_eq!(err.column, 22);
    assert_eq!(
        err.to_string(),
        "column 22: bad byte string: odd number of hex digits"
    );
    let message = |line: &[u8]| parse_request(line).unwrap_err().to_string();
    assert_eq!(
        message(b"a frob packed_guid 00"),
        "column 3: unknown operation `frob`; expected `decode`, `encode` or `size`"
    );
    assert_eq!(
        message(b"a encode packed_guid 00"),
        "column 22: bad GUID: a GUID is exactly 16 hex digits, this has 2 characters"
    );
    assert_eq!(
        message(b"a decode packed_guid"),
        "column 21: the line ends before the input bytes"
    );
    assert_eq!(
        message(b"a decode packed_guid 00 11"),
        "column 25: unexpected extra field `11` after a complete request"
    );
    let err = parse_request(b"a  decode packed_guid 00").unwrap_err();
    assert_eq!(err.column, 3);
    assert!(err.to_string().starts_with("column 3: empty field"));
}

#[test]
fn responses_parse_by_request_kind() {
    let dp = Request::DecodePacked { bytes: vec![0] };
    let dn = Request::DecodeNamed { bytes: vec![] };
    let ep = Request::EncodePacked { guid: 0 };
    assert_eq!(
        parse_response(b"i ok 00000000AD00DE00 3", "i", &dp),
        Ok(Response::Ok(Value::Packed {
            guid: 0xad00_de00,
            consumed: 3
        }))
    );
    assert_eq!(
        parse_response(b"i ok 0000000000000001 9 -\r", "i", &dn),
        Ok(Response::Ok(Value::Named {
            guid: 1,
            consumed: 9,
            name: Some(vec![])
        }))
    );
    assert_eq!(
        parse_response(b"i ok 0000000000000000 8", "i", &dn),
        Ok(Response::Ok(Value::Named {
            guid: 0,
            consumed: 8,
            name: None
        }))
    );
    assert_eq!(
        parse_response(b"i ok 0AdEaD", "i", &ep),
        Ok(Response::Ok(Value::Encoded {
            bytes: vec![0x0a, 0xde, 0xad]
        }))
    );
    assert_eq!(
        parse_response(b"i error interior_nul", "i", &ep),
        Ok(Response::Error(ErrorCode::InteriorNul))
    );
    assert_eq!(
        parse_response(b"i unsupported", "i", &ep),
        Ok(Response::Unsupported)
    );
}

/// `is_wrong_id` marks exactly the responses that answer another request
/// (the pipeline reads them as an implementation out of step).
#[test]
fn only_a_response_with_another_id_is_a_wrong_id() {
    let dp = Request::DecodePacked { bytes: vec![0] };
    let error = |line: &[u8]| parse_response(line, "i", &dp).unwrap_err();
    assert!(error(b"j ok 0000000000000000 1").is_wrong_id());
    assert!(error(b"j error eof").is_wrong_id());
    for line in [
        &b""[..],
        b"i ok",
        b"i okay",
        b"i ok zz 1",
        b"i error nonsense",
    ] {
        assert!(
            !error(line).is_wrong_id(),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
}

#[test]
fn malformed_responses_say_what_is_wrong() {
    let dp = Request::DecodePacked { bytes: vec![0] };
    let dn = Request::DecodeNamed { bytes: vec![] };
    let message = |line: &[u8], r: &Request| parse_response(line, "i", r).unwrap_err().to_string();
    assert_eq!(
        message(b"j ok 0000000000000000 1", &dp),
        "column 1: the response starts with id `j` but answers request `i`; responses must echo each request's id, in request order"
    );
    assert_eq!(
        message(b"", &dp),
        "column 1: empty line; expected `<id> ok|error|unsupported ...`"
    );
    assert_eq!(
        message(b"i OK 0000000000000000 1", &dp),
        "column 3: unknown status `OK`; expected `ok`, `error` or `unsupported` (lowercase)"
    );
    assert_eq!(
        message(b"i ok 0000000000000000", &dp),
        "column 22: the line ends before the consumed count"
    );
    assert_eq!(
        message(b"i ok 0000000000000000 +1", &dp),
        "column 23: consumed count `+1` is not a decimal number"
    );
    assert_eq!(
        message(b"i ok 0000000000000000 1 ", &dp),
        "column 25: empty field: fields are separated by exactly one space, with none at either end"
    );
    assert_eq!(
        message(b"i ok 0000000000000000 1 00", &dp),
        "column 25: unexpected extra field `00` for this kind of response"
    );
    assert_eq!(
        message(b"i ok 0000000000000000 8 00", &dn),
        "column 25: a decoded named GUID of 0 has no name, so the response must end after the consumed count"
    );
    assert_eq!(
        message(b"i ok 0000000000000001 8", &dn),
        "column 24: a decoded non-zero named GUID always has a name (`-` when empty) after the consumed count"
    );
    assert_eq!(
        message(b"i ok \xff", &dp),
        "column 6: byte 0xff is not printable ASCII; response lines are ASCII"
    );
    assert_eq!(
        message(b"i ok 0g", &Request::EncodePacked { guid: 0 }),
        "column 6: bad byte string: character 2 is not a hex digit"
    );
    assert!(message(b"i error EOF", &dp)
        .starts_with("column 9: unknown error code `EOF`; expected `eof`, "));
    // A lone `\r` is the terminator; any other control byte is not ASCII text.
    assert_eq!(
        message(b"i unsupported\r\r", &dp),
        "column 14: byte 0x0d is not printable ASCII; response lines are ASCII"
    );
}

#[test]
fn responses_round_trip_through_the_writer() {
    let cases = [
        (
            Request::DecodeNamed { bytes: vec![] },
            Response::Ok(Value::Named {
                guid: 5,
                consumed: 12,
                name: Some(b"Bob".to_vec()),
            }),
        ),
        (
            Request::EncodeNamed {
                guid: 0,
                name: None,
            },
            Response::Ok(Value::Encoded { bytes: vec![] }),
        ),
        (
            Request::DecodePacked { bytes: vec![] },
            Response::Error(ErrorCode::Eof),
        ),
        (
            Request::DecodePacked { bytes: vec![] },
            Response::Unsupported,
        ),
    ];
    for (req, resp) in &cases {
        let line = response_line("x", resp);
        assert_eq!(parse_response(line.as_bytes(), "x", req).as_ref(), Ok(resp));
    }
}

/// The protocol's fields are the one spelling of hex text
/// (`wow_guid_vectors::hex_text`) without spaces: a bad character is named
/// before an odd length or a GUID's wrong length, wherever it is.
#[test]
fn hex_fields_name_the_first_problem() {
    let invalid = |offset, ch| Err(HexError::InvalidChar { offset, ch });
    assert_eq!(parse_field(b"0aDE"), Ok(vec![0x0a, 0xde]));
    assert_eq!(parse_field(b"-"), Ok(vec![]));
    assert_eq!(
        parse_field(b"abc"),
        Err(HexError::OddDigits {
            offset: 2,
            digits: 3
        })
    );
    assert_eq!(parse_field(b"g0a"), invalid(0, 'g'));
    assert_eq!(parse_field(b"0ag"), invalid(2, 'g'));
    assert_eq!(parse_field(b"0a-"), invalid(2, '-'));
    assert_eq!(
        parse_field(b"0a0\xff"),
        invalid(3, char::REPLACEMENT_CHARACTER)
    );
    assert_eq!(parse_guid_field(b"00000000AD00de00"), Ok(0xad00_de00));
    let guid_char = |offset, ch| Err(GuidTextError::InvalidChar { offset, ch });
    assert_eq!(parse_guid_field(b"000000000000000g"), guid_char(15, 'g'));
    assert_eq!(parse_guid_field(b"g00000000000000"), guid_char(0, 'g'));
    assert_eq!(
        parse_guid_field(b"000000000000000000"),
        Err(GuidTextError::WrongLength { digits: 18 })
    );
    let mut out = b"x ".to_vec();
    write(&mut out, &[0x0a, 0xde, 0xad]);
    out.push(b' ');
    write_guid(&mut out, 0x0123_4567_89ab_cdef);
    out.push(b' ');
    write(&mut out, &[]);
    assert_eq!(out, b"x 0adead 0123456789abcdef -");
}

#[test]
fn printable_escapes_and_truncates() {
    assert_eq!(printable(b"a\tb\xff\\", 80), "a\\tb\\xff\\\\");
    assert_eq!(printable(b"abcdef", 3), "abc… (6 bytes in all)");
    assert_eq!(printable(b"abc", 3), "abc");
    assert_eq!(printable(b" ~\r\n\x7f\x1f", 80), " ~\\r\\n\\x7f\\x1f");
}

/// Every message a request error shows, in full: the column (1-based)
/// and what is wrong, with the words the field may hold.
#[test]
fn request_errors_read_in_full() {
    let shown = |line: &[u8]| parse_request(line).unwrap_err().to_string();
    assert_eq!(
        shown(b""),
        "column 1: empty line; expected `<id> <op> <type> ...`"
    );
    assert_eq!(
        shown(b"a"),
        "column 2: the line ends before the operation (`decode`, `encode` or `size`)"
    );
    assert_eq!(
        shown(b"a decode"),
        "column 9: the line ends before the type (`packed_guid` or `named_guid`)"
    );
    assert_eq!(
        shown(b"a decode packed_guid"),
        "column 21: the line ends before the input bytes"
    );
    assert_eq!(
        shown(b"a encode named_guid"),
        "column 20: the line ends before the GUID"
    );
    assert_eq!(
        shown(b"a frob packed_guid 00"),
        "column 3: unknown operation `frob`; expected `decode`, `encode` or `size`"
    );
    assert_eq!(
        shown(b"a decode uuid 00"),
        "column 10: unknown type `uuid`; expected `packed_guid` or `named_guid`"
    );
    assert_eq!(
        shown(b"a decode named_guid 0g"),
        "column 21: bad byte string: character 2 is not a hex digit"
    );
    assert_eq!(
        shown(b"a decode named_guid 0a0"),
        "column 21: bad byte string: odd number of hex digits"
    );
    assert_eq!(
        shown(b"a encode packed_guid 00"),
        "column 22: bad GUID: a GUID is exactly 16 hex digits, this has 2 characters"
    );
    assert_eq!(
        shown(b"a encode packed_guid 000000000000000x"),
        "column 22: bad GUID: character 16 is not a hex digit"
    );
    assert_eq!(
        shown(b"a encode named_guid 0000000000000001 - 00"),
        "column 40: unexpected extra field `00` after a complete request"
    );
    assert_eq!(
        shown(b"a decode named_guid "),
        "column 21: empty field: fields are separated by exactly one space, with none at either end"
    );
    for id in [&b"a\x01"[..], b"\xc3\xa9", b"\xff"] {
        let mut line = id.to_vec();
        line.extend_from_slice(b" decode packed_guid 00");
        assert_eq!(
            shown(&line),
            "column 1: the id must be printable ASCII",
            "{line:?}"
        );
    }
    // A named encode takes its name or not; nothing else.
    assert_eq!(
        parse_request(b"a encode named_guid 0000000000000001 00"),
        Ok((
            "a",
            Request::EncodeNamed {
                guid: 1,
                name: Some(vec![0])
            }
        ))
    );
}

/// Every message a response error shows, in full, at its column.
#[test]
fn response_errors_read_in_full() {
    let dp = Request::DecodePacked { bytes: vec![0] };
    let dn = Request::DecodeNamed { bytes: vec![] };
    let ep = Request::EncodePacked { guid: 0 };
    let shown = |line: &[u8], r: &Request| parse_response(line, "i", r).unwrap_err().to_string();
    assert_eq!(
        shown(b"", &dp),
        "column 1: empty line; expected `<id> ok|error|unsupported ...`"
    );
    assert_eq!(
        shown(b"i ok \x01", &dp),
        "column 6: byte 0x01 is not printable ASCII; response lines are ASCII"
    );
    assert_eq!(
        shown(b"i  ok", &dp),
        "column 3: empty field: fields are separated by exactly one space, with none at either end"
    );
    assert_eq!(
        shown(b"j ok", &dp),
        "column 1: the response starts with id `j` but answers request `i`; \
         responses must echo each request's id, in request order"
    );
    assert_eq!(
        shown(b"i", &dp),
        "column 2: the line ends before the status (`ok`, `error` or `unsupported`)"
    );
    assert_eq!(
        shown(b"i error", &dp),
        "column 8: the line ends before the error code"
    );
    assert_eq!(
        shown(b"i okay", &dp),
        "column 3: unknown status `okay`; expected `ok`, `error` or `unsupported` (lowercase)"
    );
    assert_eq!(
        shown(b"i error bad", &dp),
        "column 9: unknown error code `bad`; expected `eof`, `invalid_utf8`, `interior_nul`, \
         `name_without_guid`, `name_too_long` or `other`"
    );
    assert_eq!(
        shown(b"i ok 0 1", &dp),
        "column 6: bad GUID: a GUID is exactly 16 hex digits, this has 1 character"
    );
    assert_eq!(
        shown(b"i ok 0000000000000000 x1", &dp),
        "column 23: consumed count `x1` is not a decimal number"
    );
    assert_eq!(
        shown(b"i ok 0g", &ep),
        "column 6: bad byte string: character 2 is not a hex digit"
    );
    assert_eq!(
        shown(b"i ok 0000000000000000 8 00", &dn),
        "column 25: a decoded named GUID of 0 has no name, so the response must end after the consumed count"
    );
    assert_eq!(
        shown(b"i ok 0000000000000002 8", &dn),
        "column 24: a decoded non-zero named GUID always has a name (`-` when empty) after the consumed count"
    );
    assert_eq!(
        shown(b"i unsupported now", &dp),
        "column 15: unexpected extra field `now` for this kind of response"
    );
    assert_eq!(
        shown(b"i ok 0000000000000002 8 0g", &dn),
        "column 25: bad byte string: character 2 is not a hex digit"
    );
}

/// Counts are written in decimal, with every digit, whatever their size.
#[test]
fn consumed_counts_are_written_in_decimal() {
    for consumed in [0, 7, 10, 12, 305, 1_000_000, usize::MAX] {
        let line = response_line("i", &Response::Ok(Value::Packed { guid: 1, consumed }));
        assert_eq!(line, format!("i ok 0000000000000001 {consumed}"));
    }
}
