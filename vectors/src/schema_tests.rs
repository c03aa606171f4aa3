//! Keeps `schema.json` honest: its word lists, field lists and patterns must
//! be the ones the loader uses. A schema that drifted from the loader would
//! send spec authors' editors the wrong way.

use serde_json::Value as Json;

use crate::yaml::fields::{
    expect_fields, input_fields, EXPECT_FIELDS, INPUT_FIELDS, VECTOR_FIELDS, VECTOR_REQUIRED,
};
use crate::{ErrorCode, Flag, GuidType, Op, Outcome, Version};

fn schema() -> Json {
    serde_json::from_str(include_str!("../schema.json")).expect("schema.json is valid JSON")
}

fn def<'a>(schema: &'a Json, name: &str) -> &'a Json {
    schema
        .pointer(&format!("/$defs/{name}"))
        .unwrap_or_else(|| panic!("schema.json has no $defs/{name}"))
}

/// The words of an `enum` or of a `oneOf` of `const`s.
fn words(def: &Json) -> Vec<String> {
    if let Some(list) = def.get("enum").and_then(Json::as_array) {
        return list
            .iter()
            .map(|w| w.as_str().unwrap().to_owned())
            .collect();
    }
    def["oneOf"]
        .as_array()
        .expect("an enum or a oneOf")
        .iter()
        .map(|item| {
            assert!(item["description"].is_string(), "{item} has no description");
            item["const"].as_str().unwrap().to_owned()
        })
        .collect()
}

fn strings(json: &Json) -> Vec<String> {
    json.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn property_names(def: &Json) -> Vec<String> {
    let mut names: Vec<String> = def["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect();
    names.sort();
    names
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut list: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
    list.sort();
    list
}

#[test]
fn declares_draft_2020_12() {
    assert_eq!(
        schema()["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}

#[test]
fn word_lists_match_the_rust_enums() {
    let schema = schema();
    assert_eq!(words(def(&schema, "guidType")), GuidType::WORDS);
    assert_eq!(words(def(&schema, "op")), Op::WORDS);
    assert_eq!(words(def(&schema, "outcome")), Outcome::WORDS);
    assert_eq!(words(def(&schema, "errorCode")), ErrorCode::WORDS);
    assert_eq!(words(def(&schema, "version")), Version::WORDS);
    assert_eq!(words(def(&schema, "flag")), Flag::WORDS);
}

#[test]
fn vector_fields_match_the_loader() {
    let schema = schema();
    let vector = def(&schema, "vector");
    assert_eq!(property_names(vector), sorted(VECTOR_FIELDS));
    assert_eq!(strings(&vector["required"]), VECTOR_REQUIRED);
    assert_eq!(vector["additionalProperties"], false);
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn input_and_expect_fields_match_the_loader() {
    let schema = schema();
    let cases = [
        ("decodeInput", GuidType::PackedGuid, Op::Decode),
        ("decodeInput", GuidType::NamedGuid, Op::Decode),
        ("encodePackedInput", GuidType::PackedGuid, Op::Encode),
        ("encodeNamedInput", GuidType::NamedGuid, Op::Encode),
        // A size request takes its value as an encode does.
        ("encodePackedInput", GuidType::PackedGuid, Op::Size),
        ("encodeNamedInput", GuidType::NamedGuid, Op::Size),
    ];
    for (name, guid_type, op) in cases {
        let fields = input_fields(guid_type, op);
        let d = def(&schema, name);
        assert_eq!(property_names(d), sorted(fields), "{name}");
        assert_eq!(d["additionalProperties"], false, "{name}");
        assert!(fields.iter().all(|f| INPUT_FIELDS.contains(f)));
    }
    for guid_type in GuidType::ALL {
        for op in Op::ALL {
            for outcome in Outcome::ALL {
                let name = match (outcome, op, guid_type) {
                    (Outcome::Invalid, _, _) => "invalidExpect",
                    (_, Op::Encode, _) => "encodeExpect",
                    (_, Op::Size, _) => "sizeExpect",
                    (_, Op::Decode, GuidType::PackedGuid) => "decodePackedExpect",
                    (_, Op::Decode, GuidType::NamedGuid) => "decodeNamedExpect",
                };
                let fields = expect_fields(*guid_type, *op, *outcome);
                let d = def(&schema, name);
                assert_eq!(property_names(d), sorted(fields), "{name}");
                assert_eq!(d["additionalProperties"], false, "{name}");
                assert!(fields.iter().all(|f| EXPECT_FIELDS.contains(f)));
            }
        }
    }
}

#[test]
fn named_guid_versions_match_the_loader() {
    let schema = schema();
    let rule = def(&schema, "vector")["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .find(|rule| {
            rule.pointer("/if/properties/type/const") == Some(&Json::from("named_guid"))
                && rule.pointer("/then/properties/versions").is_some()
        })
        .expect("a rule restricting named_guid versions");
    let allowed: Vec<&str> = GuidType::NamedGuid
        .versions()
        .iter()
        .map(|v| v.as_str())
        .collect();
    assert_eq!(
        strings(&rule["then"]["properties"]["versions"]["items"]["enum"]),
        allowed
    );
}

#[test]
fn patterns_match_the_loader() {
    let schema = schema();
    assert_eq!(def(&schema, "id")["pattern"], "^[a-z0-9][a-z0-9._-]*$");
    assert_eq!(def(&schema, "guid")["pattern"], "^[0-9A-Fa-f]{16}$");
}
