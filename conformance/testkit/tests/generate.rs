//! The generators reach what raw bytes do not.

use arbitrary::{Arbitrary, Unstructured};
use wow_guid_testkit::generate::{DecodeRequest, Guid, Name};
use wow_guid_vectors::Request;

/// Values drawn from `seeds` inputs of pseudo-random bytes.
fn draws<T: for<'a> Arbitrary<'a>>(seeds: u64) -> Vec<T> {
    (0..seeds)
        .map(|seed| {
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let bytes: Vec<u8> = (0..4096)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            T::arbitrary(&mut Unstructured::new(&bytes)).expect("generators never run out")
        })
        .collect()
}

#[test]
fn names_of_every_width_and_past_every_bound() {
    let names: Vec<Name> = draws(2000);
    assert!(names.iter().any(|Name(n)| n.len() > 256));
    assert!(names.iter().any(|Name(n)| n.is_empty()));
    for lead in [0xc2..=0xdf, 0xe0..=0xef, 0xf0..=0xf4] {
        assert!(
            names
                .iter()
                .any(|Name(n)| n.iter().any(|b| lead.contains(b))),
            "no character led by {lead:?}"
        );
    }
    assert!(names.iter().any(|Name(n)| std::str::from_utf8(n).is_err()));
    assert!(names.iter().any(|Name(n)| n.contains(&0)));
}

#[test]
fn guids_with_zero_bytes_between_set_ones() {
    let guids: Vec<Guid> = draws(500);
    assert!(guids.iter().any(|Guid(g)| {
        let bytes = g.to_le_bytes();
        let first = bytes.iter().position(|&b| b != 0);
        let last = bytes.iter().rposition(|&b| b != 0);
        matches!((first, last), (Some(f), Some(l)) if bytes[f..l].contains(&0))
    }));
    assert!(guids.iter().any(|Guid(g)| *g == 0));
}

#[test]
fn damaged_encodings_of_both_kinds() {
    let requests: Vec<DecodeRequest> = draws(2000);
    let named: Vec<&[u8]> = requests
        .iter()
        .filter_map(|DecodeRequest(r)| match r {
            Request::DecodeNamed { bytes } => Some(bytes.as_slice()),
            _ => None,
        })
        .collect();
    assert!(named.iter().any(|b| b.len() < 8), "a cut GUID");
    assert!(
        named.iter().any(|b| b.len() > 8 && !b.contains(&0)),
        "no NUL"
    );
    assert!(requests
        .iter()
        .any(|DecodeRequest(r)| matches!(r, Request::DecodePacked { bytes } if bytes.is_empty())));
}
