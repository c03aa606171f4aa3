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
fn a_snapshot_reads_back_and_bad_lines_are_refused() {
    let v = vector("packed.decode.doc-example");
    let text = write_snapshot("1.2.3", core::slice::from_ref(&v));
    assert!(text.contains("corpus-v1.2.3"));
    assert_eq!(
        parse_snapshot(&text),
        Ok(Snapshot {
            version: "1.2.3".to_owned(),
            entries: vec![(v.id.clone(), fingerprint(&v))],
        })
    );
    assert_eq!(parse_snapshot("# only\n").unwrap_err().line, 1);
    assert_eq!(parse_snapshot("a b\n").unwrap_err().line, 1);
    assert_eq!(parse_snapshot("version 1\nx zz\n").unwrap_err().line, 2);
    assert_eq!(parse_snapshot("version 1\nx y z\n").unwrap_err().line, 2);
}

#[test]
fn a_changed_missing_or_reused_id_breaks_the_promise() {
    let a = vector("packed.decode.doc-example");
    let b = vector("packed.encode.doc-example");
    let snapshot = parse_snapshot(&write_snapshot("1.0.0", &[a.clone(), b.clone()])).unwrap();
    assert!(broken_promises(&snapshot, &[], &[a.clone(), b.clone()]).is_empty());
    let mut changed = a.clone();
    changed.expect = Expectation::Invalid(wow_guid_vectors::ErrorCode::Other);
    let found = broken_promises(&snapshot, &[], &[changed, b.clone()]);
    assert_eq!(found.len(), 1);
    assert!(found[0].contains("expects something else"), "{found:?}");
    let found = broken_promises(&snapshot, &[], core::slice::from_ref(&a));
    assert!(found[0].contains("is not in the corpus"), "{found:?}");
    let retired = vec![b.id.clone()];
    assert!(broken_promises(&snapshot, &retired, core::slice::from_ref(&a)).is_empty());
    let found = broken_promises(&snapshot, &retired, &[a, b]);
    assert!(found[0].contains("used again"), "{found:?}");
}

#[test]
fn retired_ids_are_the_listed_lines() {
    let md = "# Retired\n\n```text\n- `example.id`: shown, not listed\n```\nProse with `code`.\n\n- `packed.decode.old`: expected the wrong consumed\n- `named.x` (2.0.0): gone\n";
    assert_eq!(retired_ids(md), ["packed.decode.old", "named.x"]);
    assert_eq!(tag("1.0.0"), "corpus-v1.0.0");
}
