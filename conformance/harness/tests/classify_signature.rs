//! The unit tests of `classify::signature`, through the crate's API.

use std::time::Duration;
use wow_guid_harness::classify::signature::*;
use wow_guid_harness::implementation::Fault;
use wow_guid_harness::judge::Mismatch;
use wow_guid_vectors::Value;
use wow_guid_vectors::{ErrorCode, RequestKind};

/// What differed, in the words of the class.
fn wrong(kind: RequestKind, expected: Value, got: Value) -> String {
    Signature::of(kind, &Mismatch::WrongValue { expected, got }).difference()
}

fn packed(guid: u64, consumed: usize) -> Value {
    Value::Packed { guid, consumed }
}

#[test]
fn consumed_takes_precedence_over_guid_and_name() {
    let named = |guid, consumed, name: &[u8]| Value::Named {
        guid,
        consumed,
        name: Some(name.to_vec()),
    };
    let k = RequestKind::DecodeNamed;
    assert_eq!(
        wrong(k, named(1, 10, b"a"), named(2, 11, b"ab")),
        "wrong byte count (too many)"
    );
    assert_eq!(
        wrong(k, named(1, 10, b"a"), named(1, 9, b"a")),
        "wrong byte count (too few)"
    );
    assert_eq!(
        wrong(k, named(1, 10, b"a"), named(2, 10, b"b")),
        "wrong GUID (low 32 bits, too large)"
    );
    assert_eq!(
        wrong(k, named(1, 10, b"a"), named(1, 10, b"b")),
        "wrong name (other bytes)"
    );
    let k = RequestKind::DecodePacked;
    assert_eq!(
        wrong(k, packed(1, 2), packed(1, 3)),
        "wrong byte count (too many)"
    );
}

/// The spec's C bug has two causes, and each keeps its class on every
/// request it shows on: the byte at position 3 sign-extended sets high
/// bits (larger), a byte at 4 to 7 shifted modulo 32 leaves the high
/// half for the low one (smaller), whatever the other bytes are.
#[test]
fn sign_extension_and_shift_modulo_32_are_two_classes() {
    let k = RequestKind::DecodePacked;
    let sign_extended = [
        (0x8000_0000, 0xffff_ffff_8000_0000),
        (0x0000_0012_ab00_0001, 0xffff_ffff_ab00_0001),
        (0xff00_0000_9000_0000, 0xffff_ffff_9000_0000),
    ];
    for (expected, got) in sign_extended {
        assert_eq!(
            wrong(k, packed(expected, 3), packed(got, 3)),
            "wrong GUID (high 32 bits, too large)",
            "{got:016x} for {expected:016x}"
        );
    }
    let shifted = [
        (0x0000_0001_0000_0000, 0x0000_0000_0000_0001),
        (0x0000_0001_0000_0001, 0x0000_0000_0000_0001),
        (0xff00_0000_0000_0000, 0x0000_0000_ff00_0000),
        (0x1234_5678_0000_00ff, 0x0000_0000_1234_56ff),
    ];
    for (expected, got) in shifted {
        assert_eq!(
            wrong(k, packed(expected, 3), packed(got, 3)),
            "wrong GUID (high 32 bits, too small)",
            "{got:016x} for {expected:016x}"
        );
    }
    assert_eq!(
        wrong(k, packed(0x100, 2), packed(0x1, 2)),
        "wrong GUID (low 32 bits, too small)"
    );
}

#[test]
fn names_and_encodings_say_where_they_go_wrong() {
    let named = |name: Option<&[u8]>| Value::Named {
        guid: 1,
        consumed: 12,
        name: name.map(<[u8]>::to_vec),
    };
    let k = RequestKind::DecodeNamed;
    let name = |e, g| wrong(k, named(e), named(g));
    assert_eq!(name(Some(b"ab"), None), "wrong name (missing)");
    assert_eq!(name(None, Some(b"ab")), "wrong name (where there is none)");
    assert_eq!(name(Some(b"ab"), Some(b"a")), "wrong name (too short)");
    assert_eq!(name(Some(b"ab"), Some(b"abc")), "wrong name (too long)");
    assert_eq!(name(Some(b"ab"), Some(b"ba")), "wrong name (other bytes)");

    let encoded = |kind, e: &[u8], g: &[u8]| {
        wrong(
            kind,
            Value::Encoded { bytes: e.to_vec() },
            Value::Encoded { bytes: g.to_vec() },
        )
    };
    let head = "wrong encoding (from its first part)";
    let body = "wrong encoding (after its first part)";
    assert_eq!(
        encoded(RequestKind::EncodePacked, &[1, 5], &[3, 5, 0]),
        head
    );
    assert_eq!(encoded(RequestKind::EncodePacked, &[1, 5], &[1, 6]), body);
    assert_eq!(encoded(RequestKind::EncodePacked, &[0], &[]), head);
    let guid = [1, 0, 0, 0, 0, 0, 0, 0];
    let mut with_name = guid.to_vec();
    with_name.extend_from_slice(b"a\0");
    assert_eq!(encoded(RequestKind::EncodeNamed, &with_name, &guid), body);
    assert_eq!(
        encoded(RequestKind::EncodeNamed, &with_name, &[2; 10]),
        head
    );
}

/// A missing NUL check and a missing UTF-8 check both accept invalid
/// input; the reference's code tells them apart.
#[test]
fn errors_keep_their_codes() {
    let accepted = |expected| {
        Signature::of(
            RequestKind::DecodeNamed,
            &Mismatch::AcceptedInvalid {
                expected,
                got: Value::Named {
                    guid: 1,
                    consumed: 8,
                    name: Some(vec![]),
                },
                past_end: None,
            },
        )
    };
    assert_ne!(accepted(ErrorCode::Eof), accepted(ErrorCode::InvalidUtf8));
    assert_eq!(
        accepted(ErrorCode::InvalidUtf8).to_string(),
        "decode named_guid: a value instead of an error (`invalid_utf8`)"
    );
    let sig = Signature::of(
        RequestKind::DecodePacked,
        &Mismatch::RejectedValid {
            expected: packed(0, 2),
            code: ErrorCode::Eof,
        },
    );
    assert_eq!(
        sig.to_string(),
        "decode packed_guid: `error eof` instead of a value"
    );
}

#[test]
fn faults_have_their_own_classes() {
    let sig = Signature::of(
        RequestKind::DecodeNamed,
        &Mismatch::Fault(Fault::Timeout {
            after: Duration::from_secs(1),
            partial: wow_guid_harness::implementation::Excerpt::default(),
        }),
    );
    assert_eq!(sig.to_string(), "decode named_guid: timeout");
    assert!(sig.is_timeout() && sig.restarts_the_process() && sig.is_about_one_request());
    let pipelined = Signature::of(
        RequestKind::DecodeNamed,
        &Mismatch::Fault(Fault::OnlyWhenPipelined {
            in_flight: 2,
            fault: Box::new(Fault::Exited {
                status: "exit status: 1".into(),
                partial: wow_guid_harness::implementation::Excerpt::default(),
            }),
        }),
    );
    assert!(!pipelined.is_about_one_request() && !pipelined.is_timeout());
}
