//! The unit tests of `seed`, through the crate's API.

use crate::fixtures::sample;
use wow_guid_conformance::seed::*;

#[test]
fn decode_inputs_go_to_their_target_and_to_differential_encodes_to_their_round_trip() {
    let files = seed_files(&sample());
    let names: Vec<String> = files
        .iter()
        .map(|(p, _)| p.to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "decode_packed_guid/packed.decode.doc-example",
            "differential/packed.decode.doc-example",
            "decode_packed_guid/packed.decode.empty",
            "differential/packed.decode.empty",
            "roundtrip_packed_guid/packed.encode.zero",
            "decode_named_guid/named.decode.zero",
            "differential/named.decode.zero",
        ]
    );
    assert_eq!(files[0].1, [0x0a, 0xde, 0xad]);
    assert!(files[2].1.is_empty());
}

#[test]
fn encode_values_seed_the_round_trip_targets_as_arbitrary_reads_them() {
    use arbitrary::{Arbitrary, Unstructured};
    use wow_guid_vectors::{Corpus, Request};

    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let files = seed_files(&corpus.vectors);
    let seed = |dir: &str, id: &str| {
        let path: std::path::PathBuf = [dir, id].iter().collect();
        files
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| b.clone())
    };
    let (mut packed, mut named) = (0, 0);
    for v in &corpus.vectors {
        match &v.request {
            Request::EncodePacked { guid } => {
                let bytes = seed(PACKED_ROUNDTRIP_DIR, &v.id).expect("every packed encode seeds");
                let read = u64::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
                assert_eq!(read, *guid, "{}", v.id);
                packed += 1;
            }
            Request::EncodeNamed {
                guid,
                name: Some(name),
            } if *guid != 0 && std::str::from_utf8(name).is_ok() && !name.contains(&0) => {
                let bytes = seed(NAMED_ROUNDTRIP_DIR, &v.id).expect("every writable name seeds");
                let mut u = Unstructured::new(&bytes);
                let read = (
                    u64::arbitrary(&mut u).unwrap(),
                    String::arbitrary(&mut u).unwrap(),
                );
                assert_eq!(read.0, *guid, "{}", v.id);
                assert_eq!(read.1.as_bytes(), name.as_slice(), "{}", v.id);
                named += 1;
            }
            _ => {}
        }
    }
    assert!(
        packed > 10 && named > 10,
        "{packed} packed, {named} named seeds"
    );
}
