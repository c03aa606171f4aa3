//! The unit tests of `classify::oracle`, through the crate's API.

use wow_guid_harness::classify::oracle::*;
use wow_guid_harness::implementation::Answer;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference;
use wow_guid_harness::run::judge_vector;
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

/// Answers worth judging for `request` under `expect`: the reference's,
/// the vector's own value, every error code, `unsupported`, and a value of
/// each kind that is wrong.
fn candidate_replies(request: &Request, expect: &Expectation) -> Vec<Response> {
    let mut replies = vec![reference::answer(request), Response::Unsupported];
    replies.extend(ErrorCode::ALL.iter().map(|&code| Response::Error(code)));
    if let Expectation::Valid(value) | Expectation::Acceptable { value, .. } = expect {
        replies.push(Response::Ok(value.clone()));
    }
    replies.push(Response::Ok(Value::Encoded { bytes: vec![0] }));
    replies.push(Response::Ok(Value::Packed {
        guid: 1,
        consumed: 2,
    }));
    replies.push(Response::Ok(Value::Named {
        guid: 1,
        consumed: 10,
        name: Some(b"a".to_vec()),
    }));
    replies
}

#[test]
fn judge_request_gives_runs_verdict_on_every_vector() {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let mut differ = Vec::new();
    for strict_errors in [false, true] {
        let options = JudgeOptions { strict_errors };
        for v in &corpus.vectors {
            for reply in candidate_replies(&v.request, &v.expect) {
                let run = judge_vector(v, Answer::response(reply.clone()), options, None);
                let oracle = judge_request(&v.request, &Ok(reply.clone()), options);
                if run.verdict.is_pass() != oracle.is_pass()
                    || (run.verdict == wow_guid_harness::judge::Verdict::Skip)
                        != (oracle == wow_guid_harness::judge::Verdict::Skip)
                {
                    differ.push(format!(
                        "{} (strict {strict_errors}) answered {reply:?}: run {:?}, oracle {oracle:?}",
                        v.id, run.verdict
                    ));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn judge_request_accepts_the_empty_name_for_a_guid_without_one() {
    // `named.encode.no-name`: `run` accepts it, so the oracle must.
    let request = Request::EncodeNamed {
        guid: 8,
        name: None,
    };
    let empty_name = Response::Ok(Value::Encoded {
        bytes: vec![8, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    assert!(judge_request(&request, &Ok(empty_name), JudgeOptions::default()).is_pass());
    let refused = Response::Error(ErrorCode::Other);
    assert!(judge_request(&request, &Ok(refused), JudgeOptions::default()).is_pass());
    let wrong = Response::Ok(Value::Encoded { bytes: vec![8] });
    assert!(!judge_request(&request, &Ok(wrong), JudgeOptions::default()).is_pass());
}
