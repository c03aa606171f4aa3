//! The unit tests of `shrink`, through the library.

use wow_guid_conformance::history::Limits;
use wow_guid_conformance::shrink::*;
use wow_guid_harness::implementation::mock::Scripted;
use wow_guid_harness::implementation::Query;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference;
use wow_guid_vectors::Request;
use wow_guid_vectors::Value;

/// The spec's C snippet: `data[cursor]` promoted to `int` before the
/// shift, so bit 3 sign-extends and bits 4 to 7 shift modulo 32.
fn sign_extending(bytes: &[u8]) -> Response {
    let Some((&mask, data)) = bytes.split_first() else {
        return Response::Error(wow_guid_vectors::ErrorCode::Eof);
    };
    if data.len() < mask.count_ones() as usize {
        return Response::Error(wow_guid_vectors::ErrorCode::Eof);
    }
    let mut guid = 0u64;
    let mut cursor = 0;
    for i in 0..8u32 {
        if mask & (1 << i) != 0 {
            let promoted = i32::from(data[cursor]).wrapping_shl(i * 8);
            guid |= promoted as i64 as u64;
            cursor += 1;
        }
    }
    Response::Ok(Value::Packed {
        guid,
        consumed: 1 + cursor,
    })
}

fn shrunk_from(bytes: &[u8]) -> Shrunk {
    let request = Request::DecodePacked {
        bytes: bytes.to_vec(),
    };
    let mut launch = || {
        Scripted::new(|q: &Query<'_>| {
            Ok(match q.request {
                Request::DecodePacked { bytes } => sign_extending(bytes),
                other => reference::answer(other),
            })
        })
    };
    let mut t = OneImplementation::new(&mut launch, JudgeOptions::default());
    let found = t.test(std::slice::from_ref(&request)).unwrap()[0]
        .clone()
        .expect("the start disagrees");
    shrink(request, found, &mut t, &Limits::default()).unwrap()
}

/// The spec's C bug is two causes, each shrunk to its own minimum from
/// anywhere it shows: a byte >= 80 at position 3 sign-extended (a larger
/// GUID) to `08 80`, a byte at 4 to 7 shifted modulo 32 (a smaller one)
/// to `10 01`. Both at once (`80 80`: bit 7 shifted to bit 31 and
/// sign-extended) give a larger GUID, so the sign extension.
#[test]
fn each_cause_of_the_c_bug_shrinks_to_its_own_minimum() {
    let high = |larger| {
        format!(
            "wrong GUID (high 32 bits, too {})",
            if larger { "large" } else { "small" }
        )
    };
    for (start, minimum, larger) in [
        (
            &[0xff, 1, 2, 3, 0x90, 5, 6, 7, 8, 0xaa, 0xbb][..],
            [0x08, 0x80],
            true,
        ),
        (&[0x3c, 0x12, 0x80, 0xff, 0x00, 0x55], [0x08, 0x80], true),
        (&[0x08, 0xff], [0x08, 0x80], true),
        (&[0x80, 0x01], [0x10, 0x01], false),
        (&[0x80, 0x80], [0x08, 0x80], true),
        (&[0xf7, 1, 2, 3, 5, 6, 7, 8, 9], [0x10, 0x01], false),
        (&[0x11, 0xff, 0x01], [0x10, 0x01], false),
    ] {
        let s = shrunk_from(start);
        assert_eq!(
            s.request,
            Request::DecodePacked {
                bytes: minimum.to_vec()
            },
            "from {start:02x?}"
        );
        assert!(s.complete);
        assert_eq!(s.disagreement.signature.difference(), high(larger));
    }
}

#[test]
fn candidates_are_smaller_sorted_and_unique() {
    let r = Request::DecodeNamed {
        bytes: b"\x05\0\0\0\0\0\0\0abc\0".to_vec(),
    };
    let c = candidates(&r, false);
    assert!(!c.is_empty());
    let keys: Vec<Key> = c.iter().map(key).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    assert!(keys.iter().all(|k| *k < key(&r)));
    assert_eq!(
        c[0],
        Request::DecodeNamed { bytes: vec![] },
        "the empty input is the smallest"
    );
}

/// For every kind of request, both neighbourhoods are strictly smaller than
/// the request and strictly increasing: an unnamed encode first, then the
/// smaller names, then the smaller GUIDs with the same name.
#[test]
fn every_kind_s_candidates_are_smaller_sorted_and_unique() {
    let name = Some(b"ab\xc3\xa9\x01".to_vec());
    let guid = 0x0102_0000_0000_0304;
    let requests = [
        Request::DecodePacked {
            bytes: vec![0x85, 0x04, 0x03, 0x01, 0xff, 0x00],
        },
        Request::DecodeNamed {
            bytes: b"\x04\x03\0\0\0\0\0\x01ab\xc3\xa9\0\x07".to_vec(),
        },
        Request::EncodePacked { guid },
        Request::SizePacked { guid },
        Request::EncodeNamed {
            guid,
            name: name.clone(),
        },
        Request::SizeNamed { guid, name },
        Request::EncodeNamed { guid, name: None },
    ];
    for r in &requests {
        for wide in [false, true] {
            let c = candidates(r, wide);
            assert!(!c.is_empty(), "{r:?}, wide {wide}");
            let keys: Vec<Key> = c.iter().map(key).collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "{r:?}, wide {wide}");
            assert!(keys.iter().all(|k| *k < key(r)), "{r:?}, wide {wide}");
            assert!(c.iter().all(|x| x.kind() == r.kind()), "{r:?}, wide {wide}");
        }
    }
}

#[test]
fn guid_order_counts_bytes_first() {
    let one_high = Request::EncodePacked {
        guid: 0x0100_0000_0000_0000,
    };
    let two_low = Request::EncodePacked { guid: 0x0101 };
    assert!(key(&one_high) < key(&two_low));
    let c = candidates(&Request::EncodePacked { guid: 0xdead_beef }, false);
    assert_eq!(c[0], Request::EncodePacked { guid: 0 });
    assert_eq!(c[1], Request::EncodePacked { guid: 1 });
}

/// A tester none of whose candidates disagrees: the search tests every
/// candidate it builds, and finds nothing smaller.
struct NothingSmaller;

impl Tester for NothingSmaller {
    fn test(
        &mut self,
        candidates: &[Request],
    ) -> Result<
        Vec<Option<wow_guid_conformance::disagreement::Disagreement>>,
        wow_guid_harness::implementation::HarnessError,
    > {
        Ok(vec![None; candidates.len()])
    }

    fn batch_size(&self) -> usize {
        512
    }
}

/// The candidates of a long input are many (an 8 KiB name has about
/// 160,000, each a copy of it): the search makes them a batch at a time as
/// it reaches them and stops at its time limit between batches, having
/// made and tested a small part of them. (They were once all made, keyed
/// and sorted before the first test: 2.4 GB resident for a `fuzz` run, and
/// seconds past its budget on a loaded machine. `tests/fuzz_budget.rs`
/// bounds the memory of the whole command.)
#[test]
fn the_candidates_of_a_long_input_are_made_as_the_search_reaches_them() {
    let mut bytes = vec![0x2a, 0, 0, 0, 0, 0, 0, 0];
    bytes.extend(b"abcdefgh".repeat(1024));
    bytes.push(0);
    let request = Request::DecodeNamed { bytes };
    let mut launch =
        || Scripted::new(|_: &Query<'_>| Ok(Response::Error(wow_guid_vectors::ErrorCode::Eof)));
    let mut t = OneImplementation::new(&mut launch, JudgeOptions::default());
    let found = t.test(std::slice::from_ref(&request)).unwrap()[0]
        .clone()
        .expect("a valid named GUID answered with an error disagrees");
    let all = neighbours(&request, false).count() + neighbours(&request, true).count();
    let limits = Limits {
        max_tests: usize::MAX,
        max_time: std::time::Duration::from_millis(20),
        deadline: None,
    };
    let shrunk = shrink(request, found, &mut NothingSmaller, &limits).unwrap();
    assert!(!shrunk.complete && !shrunk.out_of_time, "{shrunk:?}");
    assert!(
        shrunk.tests < all / 4,
        "{} of {all} candidates tested within a 20 ms limit",
        shrunk.tests
    );
}
