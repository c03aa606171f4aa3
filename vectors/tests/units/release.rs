//! The unit tests of `release`, through the crate's API.

use wow_guid_vectors::release::*;
use wow_guid_vectors::{Expectation, Vector};

fn vector(id: &str) -> Vector {
    let corpus = wow_guid_vectors::Corpus::embedded().expect("the checked-in corpus loads");
    corpus.vectors.into_iter().find(|v| v.id == id).unwrap()
}

#[test]
fn the_canonical_text_holds_request_and_answer_only() {
    let v = vector("packed.decode.doc-example");
    assert_eq!(
        canonical(&v),
        "packed_guid decode bytes=0adead outcome=valid guid=00000000ad00de00 consumed=3"
    );
    let mut reworded = v.clone();
    reworded.description = "Other words.".to_owned();
    reworded.source = None;
    assert_eq!(fingerprint(&reworded), fingerprint(&v));
    let mut changed = v;
    changed.expect = Expectation::Invalid(wow_guid_vectors::ErrorCode::Eof);
    assert_eq!(
        canonical(&changed),
        "packed_guid decode bytes=0adead outcome=invalid error=eof"
    );
    assert_ne!(fingerprint(&changed), fingerprint(&reworded));
    let no_name = canonical(&vector("named.encode.no-name"));
    assert!(no_name.starts_with("named_guid encode guid="), "{no_name}");
    assert!(
        no_name.contains(" name=- outcome=acceptable bytes="),
        "{no_name}"
    );
}

#[test]
fn fingerprints_are_fixed_by_definition() {
    // FNV-1a 64 of the empty string and of "a", the published test values.
    let fnv = |text: &str| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    };
    assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
    let v = vector("packed.decode.doc-example");
    assert_eq!(fingerprint(&v), format!("{:016x}", fnv(&canonical(&v))));
}

#[test]
fn a_release_list_reads_back_and_bad_lines_are_refused() {
    let v = vector("packed.decode.doc-example");
    let text = write_release("1.2.3", &[&v]);
    assert!(!text.contains("corpus-v"), "{text}");
    let digest = sha256(&canonical_json("1.2.3", &[&v]));
    assert_eq!(
        parse_release("releases/1.2.3.txt", &text),
        Ok(Release {
            version: "1.2.3".to_owned(),
            sha256: digest.clone(),
            entries: vec![Entry::of(&v)],
        })
    );
    let bad = |text: &str| parse_release("releases/x.txt", text).unwrap_err();
    assert_eq!(bad("# only\n").line, 1);
    assert_eq!(bad("a b\n").line, 1);
    assert_eq!(bad("version 1\n").line, 1);
    assert_eq!(bad("version 1.0.0\nx y z\n").line, 2);
    assert_eq!(bad("version 1.0.0\nsha256 00\n").line, 2);
    let head = format!("version 1.0.0\nsha256 {digest}\n");
    assert_eq!(bad(&format!("{head}x 0123456789abcdef\n")).line, 3);
    assert_eq!(bad(&format!("{head}x 0123456789abcdef 0123\n")).line, 3);
    assert_eq!(
        bad(&format!("{head}x 0123456789ABCDEF 0123456789abcdef\n")).to_string(),
        "releases/x.txt:3: a fingerprint is 16 lowercase hex digits"
    );
}

#[test]
fn versions_order_as_numbers() {
    assert_eq!(Release::parse_version("1.10.0"), Some((1, 10, 0)));
    assert!(Release::parse_version("1.10.0") > Release::parse_version("1.9.9"));
    for bad in ["1.0", "1.0.0.0", "v1.0.0", "1.0.x", "1..0", "1.0.0-rc1", ""] {
        assert_eq!(Release::parse_version(bad), None, "{bad}");
    }
}

#[test]
fn the_digest_is_sha256_of_the_canonical_json() {
    // The published SHA-256 test value of "abc".
    assert_eq!(
        sha256("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let a = vector("packed.decode.doc-example");
    let b = vector("named.encode.no-name");
    let json = canonical_json("1.2.3", &[&a, &b]);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("canonical JSON is JSON");
    assert_eq!(doc["version"], "1.2.3");
    assert_eq!(doc["vector_count"], 2);
    assert_eq!(doc["vectors"][0]["id"], "packed.decode.doc-example");
    assert_eq!(doc["vectors"][0]["vector"], canonical(&a).as_str());
    assert_eq!(doc["vectors"][1]["accepts"], "value=yes strict=any lax=any");
    assert_eq!(json.lines().count(), 4, "one line per vector:\n{json}");
    // Rewording is not part of it.
    let mut reworded = a.clone();
    reworded.description = "Other words.".to_owned();
    assert_eq!(canonical_json("1.2.3", &[&reworded, &b]), json);
}

#[test]
fn a_changed_missing_or_reused_id_breaks_the_promise() {
    let a = vector("packed.decode.doc-example");
    let b = vector("packed.encode.doc-example");
    let release = parse_release("r", &write_release("1.0.0", &[&a, &b])).unwrap();
    assert!(broken_promises(&release, &[], &[a.clone(), b.clone()]).is_empty());
    let mut changed = a.clone();
    changed.expect = Expectation::Invalid(wow_guid_vectors::ErrorCode::Other);
    let found = broken_promises(&release, &[], &[changed, b.clone()]);
    assert_eq!(found.len(), 1);
    assert!(found[0].contains("expects something else"), "{found:?}");
    let found = broken_promises(&release, &[], core::slice::from_ref(&a));
    assert!(
        found[0].contains("is in release 1.0.0 but not in the corpus"),
        "{found:?}"
    );
    let retired = vec![b.id.clone()];
    assert!(broken_promises(&release, &retired, core::slice::from_ref(&a)).is_empty());
    let found = broken_promises(&release, &retired, &[a.clone(), b.clone()]);
    assert!(found[0].contains("used again"), "{found:?}");
    // A list whose digest is not its vectors' (edited after the cut).
    let mut edited = release.clone();
    edited.entries.pop();
    let found = broken_promises(&edited, &[], &[a, b]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("records"), "{found:?}");
}

#[test]
fn retired_ids_are_the_listed_lines() {
    let md = "# Retired\n\n```text\n- `example.id`: shown, not listed\n```\nProse with `code`.\n\n- `packed.decode.old`: expected the wrong consumed\n- `named.x` (2.0.0): gone\n";
    assert_eq!(retired_ids(md), ["packed.decode.old", "named.x"]);
}
