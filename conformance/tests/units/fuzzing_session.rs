//! The unit tests of `fuzzing::session`, through the crate's API.

use wow_guid_conformance::fuzzing::finding::Reproduction;
use wow_guid_conformance::fuzzing::session::*;
use wow_guid_conformance::history::Limits;
use wow_guid_conformance::shrink;
use wow_guid_harness::implementation::mock::Scripted;
use wow_guid_harness::implementation::Query;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference::{self, Reference};
use wow_guid_vectors::{Corpus, Value};
use wow_guid_vectors::{Request, RequestKind, Vector};

fn plan(count: u64) -> Plan {
    Plan {
        seed: 5,
        deadline: None,
        count: Some(count),
        max_findings: None,
        judge: JudgeOptions::default(),
        shrink: Limits::default(),
    }
}

fn corpus() -> Vec<Vector> {
    Corpus::embedded().expect("corpus loads").vectors
}

#[test]
fn the_reference_never_disagrees_with_itself() {
    let outcome = fuzz(&plan(3000), &corpus(), &mut |_| Reference, &mut Quiet).unwrap();
    assert!(outcome.findings.is_empty());
    assert_eq!(outcome.done, 3000);
    assert_eq!(outcome.stop, Stop::Budget);
    // About 500 of each of the six kinds.
    assert!(
        outcome.done_by_kind.iter().all(|&n| n > 350),
        "{:?}",
        outcome.done_by_kind
    );
}

#[test]
fn unsupported_kinds_stop_being_generated_and_all_unsupported_stops_the_run() {
    let mut launch = |_| {
        Scripted::new(|q: &Query<'_>| {
            Ok(match q.request {
                Request::DecodeNamed { .. } | Request::EncodeNamed { .. } => Response::Unsupported,
                other => reference::answer(other),
            })
        })
    };
    let outcome = fuzz(&plan(2000), &corpus(), &mut launch, &mut Quiet).unwrap();
    assert_eq!(outcome.done_by_kind[2..4], [1, 1]);
    assert_eq!(outcome.unsupported, 2);
    assert_eq!(
        outcome.unsupported_kinds,
        [RequestKind::DecodeNamed, RequestKind::EncodeNamed]
    );
    assert!(outcome.findings.is_empty());

    let mut none = |_| Scripted::new(|_: &Query<'_>| Ok(Response::Unsupported));
    let outcome = fuzz(&plan(2000), &corpus(), &mut none, &mut Quiet).unwrap();
    assert_eq!(outcome.stop, Stop::NothingSupported);
    assert_eq!(outcome.done, RequestKind::ALL.len() as u64);
}

/// An encoder whose mask byte is never cleared: every launch is a fresh
/// process with fresh state, as the command line's launcher gives.
#[test]
fn a_stateful_bug_becomes_a_minimal_sequence() {
    let mut launch = |_| {
        let mut mask = 0u8;
        Scripted::new(move |q: &Query<'_>| {
            Ok(match q.request {
                Request::EncodePacked { guid } => {
                    let mut bytes = vec![0];
                    for (i, b) in guid.to_le_bytes().into_iter().enumerate() {
                        if b != 0 {
                            mask |= 1 << i;
                            bytes.push(b);
                        }
                    }
                    bytes[0] = mask;
                    Response::Ok(Value::Encoded { bytes })
                }
                other => reference::answer(other),
            })
        })
    };
    let outcome = fuzz(&plan(2000), &corpus(), &mut launch, &mut Quiet).unwrap();
    assert_eq!(outcome.findings.len(), 1);
    let f = &outcome.findings[0];
    assert_eq!(f.reproduction, Reproduction::AfterPrefix);
    assert_eq!(f.prefix, [Request::EncodePacked { guid: 1 }]);
    assert_eq!(f.request, Request::EncodePacked { guid: 0 });
    assert!(f.occurrences > 1);
}

type Script =
    Box<dyn FnMut(&Query<'_>) -> Result<Response, wow_guid_harness::implementation::Fault>>;

/// A packed decoder with the causes of the spec's C bug asked for: bit 3
/// sign-extended, bits 4 to 7 shifted modulo 32. It decodes packed GUIDs
/// and nothing else, so every request after the first few is one.
fn c_bug(sign_extends: bool, shifts_mod_32: bool) -> impl FnMut(Role) -> Scripted<Script> {
    move |_| {
        Scripted::new(Box::new(move |q: &Query<'_>| {
            let Request::DecodePacked { bytes } = q.request else {
                return Ok(Response::Unsupported);
            };
            let right = reference::answer(q.request);
            let Response::Ok(Value::Packed { consumed, .. }) = right else {
                return Ok(right);
            };
            let mut guid = 0u64;
            let mut data = bytes[1..].iter();
            for i in 0..8u32 {
                if bytes[0] & (1 << i) == 0 {
                    continue;
                }
                let b = u64::from(*data.next().unwrap_or(&0));
                let shift = if shifts_mod_32 { (i * 8) % 32 } else { i * 8 };
                let mut v = b << shift;
                if sign_extends && i == 3 && b >= 0x80 {
                    v |= 0xffff_ffff_0000_0000;
                }
                guid |= v;
            }
            Ok(Response::Ok(Value::Packed { guid, consumed }))
        }) as Script)
    }
}

/// One cause is one finding however many requests, of whatever shape,
/// it shows on; two causes of one request kind are two, and a third way
/// they fail together (the low half alone wrong: bytes 4 to 7 wrapped onto
/// it while byte 7's sign extension happens to give the right high half,
/// as for `f0 ff ff ff ff`) is a third.
#[test]
fn one_cause_is_one_finding_and_two_are_two() {
    let shown = |sign_extends, shifts_mod_32| {
        let mut launch = c_bug(sign_extends, shifts_mod_32);
        fuzz(&plan(6000), &corpus(), &mut launch, &mut Quiet).unwrap()
    };
    for (sign_extends, shifts, minimum) in [
        (true, false, vec![0x08, 0x80]),
        (false, true, vec![0x10, 0x01]),
    ] {
        let outcome = shown(sign_extends, shifts);
        assert_eq!(outcome.findings.len(), 1, "{:?}", outcome.findings);
        let f = &outcome.findings[0];
        assert_eq!(f.request, Request::DecodePacked { bytes: minimum });
        assert!(f.occurrences > 50, "{}", f.occurrences);
    }
    let both = shown(true, true);
    let signatures: std::collections::HashSet<String> = both
        .findings
        .iter()
        .map(|f| f.signature.to_string())
        .collect();
    assert_eq!(
        signatures.len(),
        both.findings.len(),
        "one finding per cause"
    );
    let mut minima: Vec<&Request> = both.findings.iter().map(|f| &f.request).collect();
    minima.sort_by_key(|r| shrink::key(r));
    assert_eq!(minima.len(), 3, "{minima:?}");
    assert_eq!(
        minima[..2],
        [
            &Request::DecodePacked {
                bytes: vec![0x08, 0x80]
            },
            &Request::DecodePacked {
                bytes: vec![0x10, 0x01]
            }
        ]
    );
    let low_half = both
        .findings
        .iter()
        .find(|f| f.request == *minima[2])
        .unwrap();
    assert!(
        low_half.signature.to_string().contains("low 32 bits"),
        "{}",
        low_half.signature
    );
}

#[test]
fn an_implementation_that_never_answers_ends_the_run() {
    let mut launch = |_| {
        Scripted::new(|_: &Query<'_>| {
            Err(wow_guid_harness::implementation::Fault::Exited {
                status: "exit status: 1".into(),
                partial: wow_guid_harness::implementation::Excerpt::default(),
            })
        })
    };
    let outcome = fuzz(&plan(5000), &corpus(), &mut launch, &mut Quiet).unwrap();
    assert_eq!(outcome.stop, Stop::NoAnswers);
    assert_eq!(outcome.done, DEAD_AFTER as u64);
    // One crash per kind, each shrunk to the smallest request of its kind.
    assert_eq!(outcome.findings.len(), RequestKind::ALL.len());
    assert_eq!(
        outcome.findings[0].request,
        Request::DecodePacked { bytes: vec![] }
    );
}

/// A budget spent before the first batch is sent (the runner starting up on
/// a loaded machine) judges nothing, and says so: such a run must not pass
/// as "no disagreement". (It once did: nothing was sent, so nothing was
/// counted as left unjudged either.)
#[test]
fn a_budget_spent_before_anything_is_sent_judges_nothing() {
    let mut p = plan(5000);
    p.deadline = Some(std::time::Instant::now());
    let outcome = fuzz(&p, &corpus(), &mut |_| Reference, &mut Quiet).unwrap();
    assert_eq!(outcome.done, 0);
    assert_eq!(outcome.stop, Stop::Budget);
    assert!(outcome.judged_nothing(), "{outcome:?}");
    let answered = fuzz(&plan(1), &corpus(), &mut |_| Reference, &mut Quiet).unwrap();
    assert!(!answered.judged_nothing(), "{answered:?}");
}

#[test]
fn max_findings_ends_the_run() {
    let mut launch = |_| {
        Scripted::new(|q: &Query<'_>| {
            Ok(match q.request {
                Request::EncodeNamed { .. } => Response::Error(wow_guid_vectors::ErrorCode::Other),
                Request::DecodeNamed { .. } => Response::Ok(Value::Named {
                    guid: 0,
                    consumed: 8,
                    name: None,
                }),
                other => reference::answer(other),
            })
        })
    };
    let mut p = plan(5000);
    p.max_findings = Some(1);
    let outcome = fuzz(&p, &corpus(), &mut launch, &mut Quiet).unwrap();
    assert_eq!(outcome.stop, Stop::MaxFindings);
    assert_eq!(outcome.findings.len(), 1);
    assert!(outcome.done < 5000);
}
