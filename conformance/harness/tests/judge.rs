//! The judge against the corpus's statement of the rules: for every vector,
//! the answers `judge` passes are exactly those `Accepted` lists, so what a
//! release fingerprints (`wow_guid_vectors::release::accepts_fingerprint`)
//! is what the runner judges.

use wow_guid_harness::judge::{judge, JudgeOptions};
use wow_guid_harness::protocol::Response;
use wow_guid_vectors::{Accepted, Corpus, ErrorCode, Request, Value};

/// A value no vector expects: a GUID and a byte count of the request's
/// shape that no decode can give (consumed 0), or two bytes no encoder
/// writes for a GUID alone, or a size no encoding has (0).
fn wrong_value(request: &Request) -> Value {
    match request {
        Request::DecodePacked { .. } => Value::Packed {
            guid: 0x5a5a,
            consumed: 0,
        },
        Request::DecodeNamed { .. } => Value::Named {
            guid: 0x5a5a,
            consumed: 0,
            name: Some(b"?".to_vec()),
        },
        Request::EncodePacked { .. } | Request::EncodeNamed { .. } => Value::Encoded {
            bytes: vec![0xff, 0xff],
        },
        // No encoding is 0 bytes long.
        Request::SizePacked { .. } | Request::SizeNamed { .. } => Value::Size { size: 0 },
    }
}

#[test]
fn the_judge_passes_exactly_the_answers_the_corpus_accepts() {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let mut disagreements = Vec::new();
    for v in &corpus.vectors {
        let accepted = Accepted::of(&v.request, &v.expect);
        for strict in [false, true] {
            let options = JudgeOptions {
                strict_errors: strict,
            };
            let mut answers: Vec<(Response, bool)> = ErrorCode::ALL
                .iter()
                .map(|&code| {
                    (
                        Response::Error(code),
                        accepted.errors(strict).contains(code),
                    )
                })
                .collect();
            if let Some(value) = accepted.value {
                answers.push((Response::Ok(value.clone()), true));
            }
            let wrong = wrong_value(&v.request);
            answers.push((Response::Ok(wrong.clone()), accepted.value == Some(&wrong)));
            for (answer, passes) in answers {
                let verdict = judge(&v.request, &v.expect, &Ok(answer.clone()), options);
                if verdict.is_pass() != passes {
                    disagreements.push(format!(
                        "{} (strict {strict}): {answer:?} is {verdict:?}, Accepted says {}",
                        v.id,
                        if passes { "pass" } else { "fail" }
                    ));
                }
            }
            assert!(!judge(&v.request, &v.expect, &Ok(Response::Unsupported), options).is_pass());
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s):\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn a_valid_long_name_refused_with_another_code_fails_strict_or_not() {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let v = corpus
        .get("named.decode.long-name.4096")
        .expect("the corpus has a valid long name");
    assert!(v.request.may_refuse_as_too_long());
    for strict in [false, true] {
        let options = JudgeOptions {
            strict_errors: strict,
        };
        let verdict = |code| judge(&v.request, &v.expect, &Ok(Response::Error(code)), options);
        assert!(verdict(ErrorCode::NameTooLong).is_pass(), "strict {strict}");
        for code in [ErrorCode::InvalidUtf8, ErrorCode::Eof, ErrorCode::Other] {
            assert!(!verdict(code).is_pass(), "{code}, strict {strict}");
        }
    }
}

/// A wrong size says which size came back, the right one and by how much:
/// the one number an implementation's size function got wrong.
#[test]
fn a_wrong_size_says_by_how_much() {
    use wow_guid_harness::judge::Verdict;
    use wow_guid_vectors::Expectation;
    let cafe = Request::SizeNamed {
        guid: 0xabc,
        name: Some("Café".as_bytes().to_vec()),
    };
    let expect = Expectation::Valid(Value::Size { size: 14 });
    let options = JudgeOptions::default();
    let answer = |size| Ok(Response::Ok(Value::Size { size }));
    assert_eq!(judge(&cafe, &expect, &answer(14), options), Verdict::Pass);
    assert_eq!(
        judge(&cafe, &expect, &Ok(Response::Unsupported), options),
        Verdict::Skip
    );
    let Verdict::Fail(mismatch) = judge(&cafe, &expect, &answer(13), options) else {
        panic!("a size in characters passed");
    };
    assert_eq!(
        mismatch.to_string(),
        "wrong size: 13 bytes, expected 14 (1 too few)"
    );
}
