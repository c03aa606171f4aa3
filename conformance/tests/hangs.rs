//! An implementation that hangs on one input shape costs a few timeouts
//! per run of hangs, not two per hang: once a process has hung, the
//! suspects of the next faults are isolated in several processes at once.
//! Counted in waits (`ProcessStats::timeout_waits`), not seconds, so that a
//! loaded machine cannot make the test flaky; the verdicts are checked too.
//!
//! The adapter is `tests/buggy_adapters/hang.py`, which loops forever on a
//! packed GUID to decode whose mask byte is `ff` (36 vectors of corpus
//! 1.1.0, in five runs). Without `python3` the test is skipped with a
//! message, and fails when `CI` is set.

use std::path::Path;

use wow_guid_harness::implementation::{Fault, Implementation, Query};
use wow_guid_harness::process::{ProcessConfig, ProcessImplementation, PARALLEL_ISOLATION};
use wow_guid_vectors::{Corpus, Request};

fn python() -> bool {
    crate::common::find_python().is_some()
}

/// A query for every vector of `corpus`, in order.
fn queries(corpus: &Corpus) -> Vec<Query<'_>> {
    corpus
        .vectors
        .iter()
        .map(|v| Query {
            id: &v.id,
            request: &v.request,
        })
        .collect()
}

/// Whether `request` is one `hang.py` never answers.
fn hangs_on(request: &Request) -> bool {
    matches!(request, Request::DecodePacked { bytes } if bytes.first() == Some(&0xff))
}

#[test]
fn hangs_are_waited_out_a_group_at_a_time_with_the_same_verdicts() {
    if !python() {
        return;
    }
    let corpus = Corpus::embedded().expect("the corpus loads");
    let queries = queries(&corpus);
    let hanging = queries.iter().filter(|q| hangs_on(q.request)).count();
    assert!(
        hanging >= 30,
        "only {hanging} requests hang: the test needs a run of them"
    );

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/hang.py");
    // The default timeout (5 s): a loaded machine still answers every other
    // request in time, and the group size is what a user gets.
    let config = ProcessConfig::new(vec![crate::common::python().into(), script.into()]);
    let mut implementation = ProcessImplementation::new(config);
    let answers = implementation
        .answer_all(&queries)
        .expect("the adapter answers");

    // The verdicts: exactly the hanging requests time out.
    assert_eq!(answers.len(), queries.len());
    for (query, answer) in queries.iter().zip(&answers) {
        if hangs_on(query.request) {
            assert!(
                matches!(answer.reply, Err(Fault::Timeout { .. })),
                "{}: {:?}",
                query.id,
                answer.reply
            );
        } else {
            assert!(answer.reply.is_ok(), "{}: {:?}", query.id, answer.reply);
        }
    }

    // One after another, each hang costs two waits (the one it shows up
    // on, and its isolation alone): 72. In parallel, a run of hangs costs
    // one wait where it shows up, then one per PARALLEL_ISOLATION suspects
    // at most, their waits overlapping while the requests between them are
    // answered: about seven for the five runs on a quiet machine, at most
    // one per two hangs on a loaded one.
    let waits = implementation.stats().timeout_waits;
    let bound = hanging / 2;
    eprintln!("{waits} timeouts waited out one after another for {hanging} hangs");
    assert!(
        waits <= bound,
        "{waits} timeouts waited out one after another for {hanging} hangs (at most {bound}, \
         groups of up to {PARALLEL_ISOLATION})"
    );
    // No more than PARALLEL_ISOLATION processes wait at once.
    let floor = hanging.div_ceil(PARALLEL_ISOLATION);
    assert!(
        waits >= floor,
        "{waits} waits for {hanging} hangs: at most {PARALLEL_ISOLATION} can wait at once"
    );
}

/// An adapter that hangs on every request (and answers the liveness
/// probes, so the command works) is judged a group at a time: after a
/// fresh process hangs on its one request, the next go alone,
/// `PARALLEL_ISOLATION` at a time, and once 64 in a row have timed out with
/// nothing answered, the rest are not sent (`Fault::NotSent`, counted as
/// timed out, never as passed). A handful of waits for the whole corpus,
/// where it was one per request.
#[test]
fn an_adapter_that_hangs_on_every_request_is_judged_in_a_few_waits() {
    if !python() {
        return;
    }
    let corpus = Corpus::embedded().expect("the corpus loads");
    let queries = queries(&corpus);
    let command = crate::common::broken("hang_all");
    let mut config = ProcessConfig::new(command.into_iter().map(Into::into).collect());
    config.timeout = std::time::Duration::from_millis(300);
    config.startup_timeout = std::time::Duration::from_secs(2);
    let mut implementation = ProcessImplementation::new(config);
    let answers = implementation
        .answer_all(&queries)
        .expect("the command answers its probes");
    assert_eq!(answers.len(), queries.len());
    let (mut timed_out, mut not_sent) = (0, 0);
    for (query, answer) in queries.iter().zip(&answers) {
        match &answer.reply {
            Err(Fault::Timeout { .. }) => timed_out += 1,
            Err(Fault::NotSent) => not_sent += 1,
            other => panic!("{}: {other:?}", query.id),
        }
    }
    assert!(
        (64..=64 + PARALLEL_ISOLATION).contains(&timed_out),
        "{timed_out} timed out, {not_sent} not sent"
    );
    assert_eq!(timed_out + not_sent, queries.len());
    let waits = implementation.stats().timeout_waits;
    assert!(waits <= 8, "{waits} timeouts waited out one after another");
}

/// Suspects isolated in parallel are waited for at least as long as the
/// slowest one done took on top of the timeout, but never past the run's
/// deadline (`fuzz --time`): the call ends out of time at the deadline,
/// not a timeout later. (Once the wait ran to the whole timeout past it.)
#[test]
fn isolating_hangs_stops_at_the_deadline() {
    if !python() {
        return;
    }
    let corpus = Corpus::embedded().expect("the corpus loads");
    let queries = queries(&corpus);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/hang.py");
    let mut config = ProcessConfig::new(vec![crate::common::python().into(), script.into()]);
    let timeout = std::time::Duration::from_secs(3);
    config.timeout = timeout;
    let deadline = std::time::Instant::now() + timeout + timeout / 3;
    config.deadline = Some(deadline);
    let mut implementation = ProcessImplementation::new(config);
    let error = implementation
        .answer_all(&queries)
        .expect_err("the corpus takes longer than the deadline");
    assert!(error.is_out_of_time(), "{error}");
    let late = deadline.elapsed();
    assert!(
        late < timeout / 2,
        "ended {late:?} after the deadline, with a {timeout:?} timeout"
    );
}
