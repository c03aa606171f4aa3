//! The unit tests of `lint`, through the crate's API.

use crate::fixtures::sample;
use wow_guid_conformance::lint::*;
use wow_guid_harness::protocol::{self};
use wow_guid_vectors::{ErrorCode, Value};
use wow_guid_vectors::{Expectation, Vector};

#[test]
fn a_clean_corpus_has_no_disagreements() {
    assert!(vector_bugs(&sample()).is_empty());
}

#[test]
fn disagreements_name_the_place_and_both_sides() {
    let mut vectors = sample();
    vectors[0].expect = Expectation::Valid(Value::Packed {
        guid: 0xffff_ffff_ad00_de00,
        consumed: 3,
    });
    vectors[1].expect = Expectation::Invalid(ErrorCode::Other);
    let found = vector_bugs(&vectors);
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0].to_string(),
        "sample.yaml:1:5: vector `packed.decode.doc-example` expects \
         `packed.decode.doc-example ok ffffffffad00de00 3` but the reference codec answers \
         `packed.decode.doc-example ok 00000000ad00de00 3`: wrong value: GUID 00000000ad00de00, \
         expected ffffffffad00de00 (bytes 4, 5, 6, 7 differ)"
    );
    assert!(found[1]
        .to_string()
        .contains("wrong error code `eof`, expected `other`"));
}

#[test]
fn a_response_over_the_line_bound_is_found_and_one_just_under_is_not() {
    // `ID ok GUID CONSUMED NAME`: the name's hex is most of the line.
    let with_name = |name_len: usize| {
        let mut bytes = vec![1, 0, 0, 0, 0, 0, 0, 0];
        bytes.extend(std::iter::repeat_n(b'a', name_len));
        bytes.push(0);
        let mut v = sample().remove(0);
        v.id = "named.decode.long".into();
        v.request = wow_guid_vectors::Request::DecodeNamed { bytes };
        v
    };
    let line = |v: &Vector| {
        protocol::response_line(&v.id, &wow_guid_harness::reference::answer(&v.request)).len() + 1
    };
    let probe = with_name(0);
    // Each name byte is two hex digits.
    let mut fits = (protocol::MAX_RESPONSE_LINE - line(&probe)) / 2;
    while line(&with_name(fits)) > protocol::MAX_RESPONSE_LINE {
        fits -= 1;
    }
    while line(&with_name(fits + 1)) <= protocol::MAX_RESPONSE_LINE {
        fits += 1;
    }
    let vectors = [with_name(fits), with_name(fits + 1)];
    assert!(line(&vectors[0]) >= protocol::MAX_RESPONSE_LINE - 1);
    let found = oversized(&vectors);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].vector, &vectors[1]);
    assert!(found[0].line_bytes > protocol::MAX_RESPONSE_LINE);
    assert!(
        found[0]
            .to_string()
            .contains("`named.decode.long`: the reference codec's response line would be 10485"),
        "{}",
        found[0]
    );
}
