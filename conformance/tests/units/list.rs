//! The unit tests of `list`, through the crate's API.

use crate::fixtures::with_a_sequence;
use wow_guid_conformance::list::*;
use wow_guid_harness::report::Format as _;
use wow_guid_vectors::Vector;

#[test]
fn text_is_one_aligned_line_per_vector() {
    let vectors = with_a_sequence();
    let refs: Vec<&Vector> = vectors.iter().take(3).collect();
    let mut out = Vec::new();
    Text.write(
        &Listing {
            corpus: "embedded",
            vectors: &refs,
        },
        &mut out,
    )
    .unwrap();
    let flag = vectors[0].flags[0].as_str();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!(
            "packed.decode.doc-example  packed_guid  decode  {flag}\n\
             packed.decode.empty        packed_guid  decode  stateful\n\
             packed.encode.zero         packed_guid  encode  stateful\n"
        )
    );
    let none: Vec<&Vector> = vectors.iter().skip(3).take(1).collect();
    let mut out = Vec::new();
    Text.write(
        &Listing {
            corpus: "embedded",
            vectors: &none,
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "named.decode.zero  named_guid   decode  -\n"
    );
}

#[test]
fn json_has_every_field_of_the_selection() {
    let vectors = with_a_sequence();
    let refs: Vec<&Vector> = vectors.iter().skip(1).take(2).collect();
    let mut out = Vec::new();
    Json.write(
        &Listing {
            corpus: "embedded",
            vectors: &refs,
        },
        &mut out,
    )
    .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["format_version"], 1);
    assert_eq!(doc["corpus"], "embedded");
    assert_eq!(doc["count"], 2);
    let first = &doc["vectors"][0];
    assert_eq!(first["id"], "packed.decode.empty");
    assert_eq!(first["type"], "packed_guid");
    assert_eq!(first["op"], "decode");
    assert_eq!(first["flags"], serde_json::json!(["stateful"]));
    assert_eq!(
        first["versions"],
        serde_json::json!(["vanilla", "tbc", "wrath"])
    );
    assert_eq!(first["sequence"], "s");
    assert_eq!(first["location"], "sample.yaml:1:5");
}
