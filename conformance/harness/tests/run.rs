//! The unit tests of `run`, through the crate's API.

use crate::fixtures::sample;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::Duration;
use wow_guid_harness::expect_fail::ExpectedFailures;
use wow_guid_harness::implementation::mock::Scripted;
use wow_guid_harness::implementation::Fault;
use wow_guid_harness::implementation::{Answer, HarnessError, Implementation, Query};
use wow_guid_harness::judge::{JudgeOptions, Mismatch};
use wow_guid_harness::protocol::Response;
use wow_guid_harness::reference;
use wow_guid_harness::run::*;
use wow_guid_vectors::Vector;
use wow_guid_vectors::{ErrorCode, Expectation, Value};

fn plan<'c>(vectors: &'c [Vector], jobs: usize) -> RunPlan<'c, 'static> {
    RunPlan {
        vectors: vectors.iter().collect(),
        judge: JudgeOptions::default(),
        expected_failures: None,
        jobs: NonZeroUsize::new(jobs).unwrap(),
    }
}

#[test]
fn the_reference_passes_everything() {
    let vectors = sample();
    let results = run(
        &plan(&vectors, 1),
        || wow_guid_harness::reference::Reference,
        None,
    )
    .unwrap();
    assert_eq!(results.counts.get(RunOutcome::Passed), vectors.len());
    assert!(results.counts.conforms());
}

#[test]
fn faults_and_wrong_answers_fail_and_unsupported_skips() {
    let vectors = sample();
    let results = run(
        &plan(&vectors, 1),
        || {
            Scripted::new(|q: &Query<'_>| match q.id {
                "packed.decode.doc-example" => Ok(Response::Ok(Value::Packed {
                    guid: 0xffff_ffff_ad00_de00,
                    consumed: 3,
                })),
                "packed.decode.empty" => Err(Fault::Timeout {
                    after: Duration::from_secs(1),
                    partial: wow_guid_harness::implementation::Excerpt::default(),
                }),
                id if id.starts_with("named.") => Ok(Response::Unsupported),
                _ => Ok(reference::answer(q.request)),
            })
        },
        None,
    )
    .unwrap();
    let outcomes: Vec<RunOutcome> = results.results.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            RunOutcome::Failed,
            RunOutcome::TimedOut,
            RunOutcome::Passed,
            RunOutcome::Skipped,
            RunOutcome::Skipped
        ]
    );
    assert!(!results.counts.conforms());
}

#[test]
fn expected_failures_pass_and_stale_entries_fail() {
    let vectors = sample();
    let ids: Vec<&str> = vectors.iter().map(|v| v.id.as_str()).collect();
    let list = ExpectedFailures::parse(
        "x",
        "packed.decode.doc-example # sign\npacked.encode.zero\n",
        ids.iter().copied(),
    )
    .unwrap();
    let mut p = plan(&vectors, 1);
    p.expected_failures = Some(&list);
    let results = run(
        &p,
        || {
            Scripted::new(|q: &Query<'_>| {
                if q.id == "packed.decode.doc-example" {
                    Ok(Response::Error(ErrorCode::Other))
                } else {
                    Ok(reference::answer(q.request))
                }
            })
        },
        None,
    )
    .unwrap();
    assert_eq!(results.results[0].outcome, RunOutcome::ExpectedFailure);
    assert_eq!(
        results.results[0].expected_failure,
        Some(Some("sign".into()))
    );
    assert_eq!(results.results[2].outcome, RunOutcome::Stale);
    assert_eq!(results.counts.get(RunOutcome::Stale), 1);
    assert!(!results.counts.conforms());
}

#[test]
fn a_vector_the_reference_disagrees_with_is_a_vector_bug() {
    let mut vectors = sample();
    vectors[1].expect = Expectation::Invalid(ErrorCode::Other);
    let results = run(
        &plan(&vectors, 1),
        || wow_guid_harness::reference::Reference,
        None,
    )
    .unwrap();
    let bug = &results.results[1];
    assert_eq!(bug.outcome, RunOutcome::VectorBug);
    let (response, mismatch) = *bug.vector_bug.clone().unwrap();
    assert_eq!(response, Response::Error(ErrorCode::Eof));
    assert!(matches!(mismatch, Mismatch::WrongErrorCode { .. }));
    assert_eq!(results.counts.get(RunOutcome::VectorBug), 1);
}

#[test]
fn jobs_split_into_contiguous_chunks_and_keep_order() {
    let vectors = sample();
    let seen = Mutex::new(Vec::<Vec<String>>::new());
    let progress = Progress::default();
    let results = run(
        &plan(&vectors, 2),
        || ChunkRecorder {
            seen: &seen,
            ids: Vec::new(),
        },
        Some(&progress),
    )
    .unwrap();
    assert_eq!(progress.done(), vectors.len());
    let order: Vec<&str> = results
        .results
        .iter()
        .map(|r| r.vector.id.as_str())
        .collect();
    let expected: Vec<&str> = vectors.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(order, expected);
    let mut chunks = seen.into_inner().unwrap();
    chunks.sort();
    assert_eq!(chunks.len(), 2);
    let mut joined: Vec<String> = chunks.concat();
    joined.sort();
    let mut all: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    all.sort();
    assert_eq!(joined, all);
    // Contiguous: each chunk is a run of consecutive corpus vectors.
    for chunk in &chunks {
        let first = expected.iter().position(|id| *id == chunk[0]).unwrap();
        let run: Vec<String> = expected[first..first + chunk.len()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(chunk, &run);
    }
}

#[test]
fn chunks_never_cut_a_stateful_sequence() {
    use std::ops::Range;
    let mut vectors = sample();
    for v in &mut vectors[1..4] {
        v.flags = [wow_guid_vectors::Flag::Stateful].into();
        v.sequence = Some("s".into());
    }
    let chunks = |jobs: usize| {
        RunPlan {
            vectors: vectors.iter().collect(),
            judge: JudgeOptions::default(),
            expected_failures: None,
            jobs: NonZeroUsize::new(jobs).unwrap(),
        }
        .job_ranges()
    };
    assert_eq!(chunks(2), [0..4, 4..5]);
    assert_eq!(chunks(5), [0..1, 1..4, 4..5]);
    assert_eq!(chunks(1), vec![Range { start: 0, end: 5 }]);
}

struct ChunkRecorder<'a> {
    seen: &'a Mutex<Vec<Vec<String>>>,
    ids: Vec<String>,
}

impl Implementation for ChunkRecorder<'_> {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        self.ids.extend(queries.iter().map(|q| q.id.to_owned()));
        Ok(queries
            .iter()
            .map(|q| Answer::response(reference::answer(q.request)))
            .collect())
    }
}

impl Drop for ChunkRecorder<'_> {
    fn drop(&mut self) {
        self.seen
            .lock()
            .unwrap()
            .push(std::mem::take(&mut self.ids));
    }
}
