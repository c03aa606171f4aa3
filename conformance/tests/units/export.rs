//! The unit tests of `export`, through the crate's API.

use serde_json::Value;
use wow_guid_conformance::export::*;
use wow_guid_conformance::format::{Named, UnknownFormat};
use wow_guid_vectors::Corpus;

fn corpus() -> Corpus {
    Corpus::embedded().expect("the checked-in corpus loads")
}

#[test]
fn the_document_holds_every_vector_with_every_field() {
    let corpus = corpus();
    let doc: Value = serde_json::from_str(&render(&corpus.vectors, &Json)).unwrap();
    assert_eq!(doc["format"], FORMAT_NAME);
    assert_eq!(doc["format_version"], FORMAT_VERSION);
    assert_eq!(doc["vector_count"], corpus.vectors.len());
    let vectors = doc["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), corpus.vectors.len());
    let example = vectors
        .iter()
        .find(|v| v["id"] == "packed.decode.doc-example")
        .unwrap();
    assert_eq!(
        example["request"]["line"],
        "packed.decode.doc-example decode packed_guid 0adead"
    );
    assert_eq!(
        example["request"]["bytes"],
        serde_json::json!([10, 222, 173])
    );
    assert_eq!(example["expect"]["guid"], "00000000ad00de00");
    assert_eq!(example["expect"]["consumed"], 3);
    assert_eq!(
        example["expect"]["line"],
        "packed.decode.doc-example ok 00000000ad00de00 3"
    );
    assert_eq!(example["file"], "packed_guid/doc-example.yaml");
    assert!(example["source"].as_str().unwrap().starts_with("NOTES.md#"));
    let mut fields = [
        "id",
        "sequence",
        "description",
        "type",
        "op",
        "request",
        "outcome",
        "expect",
        "why",
        "flags",
        "versions",
        "source",
        "file",
        "line",
    ];
    fields.sort_unstable();
    for v in vectors {
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, fields, "{}", v["id"]);
    }
    // Written in the order of the schema, id first, for people reading it.
    let text = render(&corpus.vectors[..1], &Jsonl);
    assert!(text.starts_with("{\"id\":"), "{text}");
}

#[test]
fn names_keep_no_name_apart_from_an_empty_name() {
    let doc: Value = serde_json::from_str(&render(&corpus().vectors, &Json)).unwrap();
    let find = |id: &str| {
        doc["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == id)
            .unwrap()
            .clone()
    };
    let no_name = find("named.encode.no-name");
    assert_eq!(no_name["request"]["has_name"], false);
    assert_eq!(no_name["request"]["name"], Value::Null);
    assert_eq!(no_name["outcome"], "acceptable");
    assert!(no_name["why"].is_string());
    let empty = find("named.encode.empty-name");
    assert_eq!(empty["request"]["has_name"], true);
    assert_eq!(empty["request"]["name"], serde_json::json!([]));
    let invalid = find("packed.decode.empty");
    assert_eq!(invalid["expect"]["error"], "eof");
    assert_eq!(invalid["expect"]["line"], "packed.decode.empty error eof");
    assert_eq!(
        invalid["request"]["line"],
        "packed.decode.empty decode packed_guid -"
    );
}

/// The schema names exactly the fields written, at every level, and
/// requires all of them: a field added here without the schema (or the
/// other way round) fails.
#[test]
fn the_schema_describes_every_field_written() {
    let schema: Value = serde_json::from_str(include_str!("../../export.schema.json")).unwrap();
    let doc: Value = serde_json::from_str(&render(&corpus().vectors, &Json)).unwrap();
    let vector = &doc["vectors"][0];
    let levels = [
        (&schema, &doc),
        (&schema["$defs"]["vector"], vector),
        (&schema["$defs"]["request"], &vector["request"]),
        (&schema["$defs"]["expect"], &vector["expect"]),
    ];
    for (part, written) in levels {
        let mut described: Vec<&str> = part["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut required: Vec<&str> = part["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        let mut keys: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        described.sort_unstable();
        required.sort_unstable();
        keys.sort_unstable();
        assert_eq!(described, keys);
        assert_eq!(required, keys);
    }
    assert_eq!(schema["properties"]["format"]["const"], FORMAT_NAME);
    assert_eq!(
        schema["properties"]["format_version"]["const"],
        FORMAT_VERSION
    );
}

#[test]
fn formats_parse_from_their_names_and_unknown_ones_say_what_is_allowed() {
    for named in FORMATS {
        assert_eq!(Named::find(FORMATS, named.name).unwrap().name, named.name);
    }
    let err = Named::find(FORMATS, "yaml").unwrap_err();
    assert_eq!(
        err,
        UnknownFormat {
            name: "yaml".into(),
            known: vec![
                ("json", "one document with every vector"),
                ("jsonl", "one vector per line")
            ],
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown format `yaml`; expected `json` (one document with every vector) or `jsonl` \
         (one vector per line)"
    );
}

#[test]
fn json_lines_hold_the_same_objects_one_per_line() {
    let corpus = corpus();
    let doc: Value = serde_json::from_str(&render(&corpus.vectors, &Json)).unwrap();
    let lines = render(&corpus.vectors, &Jsonl);
    assert!(lines.ends_with('\n'));
    let parsed: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&parsed, doc["vectors"].as_array().unwrap());
    assert_eq!(render(&[], &Jsonl), "");
}
