//! The unit tests of `seed`, through the crate's API.

use crate::fixtures::sample;
use wow_guid_conformance::seed::*;

#[test]
fn decode_inputs_go_to_their_target_and_to_differential() {
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
            "decode_named_guid/named.decode.zero",
            "differential/named.decode.zero",
        ]
    );
    assert_eq!(files[0].1, [0x0a, 0xde, 0xad]);
    assert!(files[2].1.is_empty());
}
