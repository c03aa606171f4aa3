//! The unit tests of `classify::oracle`, through the crate's API.

use wow_guid_harness::classify::oracle::*;
use wow_guid_vectors::{Corpus, ErrorCode};
use wow_guid_vectors::{Expectation, Request, Value};

/// An expectation without the prose of `why`, which is not part of
/// what is judged.
fn judged_part(e: &Expectation) -> Expectation {
    match e {
        Expectation::Acceptable { value, .. } => Expectation::Acceptable {
            value: value.clone(),
            why: String::new(),
        },
        other => other.clone(),
    }
}

#[test]
fn agrees_with_every_vector_of_the_corpus() {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let mut disagreements = Vec::new();
    for v in &corpus.vectors {
        let ours = judged_part(&corpus_expectation(&v.request));
        if ours != judged_part(&v.expect) {
            disagreements.push(format!("{}: corpus {:?}, oracle {ours:?}", v.id, v.expect));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn acceptable_rules_cover_every_request_of_their_shape() {
    let e = corpus_expectation(&Request::EncodeNamed {
        guid: 0x0102_0304_0506_0708,
        name: None,
    });
    assert_eq!(
        judged_part(&e),
        Expectation::Acceptable {
            value: Value::Encoded {
                bytes: vec![8, 7, 6, 5, 4, 3, 2, 1, 0]
            },
            why: String::new()
        }
    );
    assert_eq!(
        corpus_expectation(&Request::EncodeNamed {
            guid: 0,
            name: Some(b"a".to_vec())
        }),
        Expectation::Invalid(ErrorCode::NameWithoutGuid)
    );
    assert_eq!(
        corpus_expectation(&Request::DecodePacked { bytes: vec![0x08] }),
        Expectation::Invalid(ErrorCode::Eof)
    );
}
