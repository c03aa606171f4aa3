//! What happens to a new [`Signature`] once the loop has seen it: it is
//! replayed alone in a fresh process; if it disagrees there it is shrunk in
//! a process of its own; if not, the implementation keeps state, so the
//! requests sent before it are cut down to the few it needs
//! ([`shrink::minimize_prefix`]) and the sequence is shrunk with a fresh
//! process per test. A failed round trip ([`super::round_trip`]) is
//! replayed and shrunk the same way as a pair (its encode, then the decode
//! of the answer), alone only. And how the corpus fails the implementation,
//! which marks each finding known or new.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{HarnessError, Implementation, Query};
use wow_guid_testkit::round_trip::read_back_id;
use wow_guid_vectors::{Request, Vector};

use super::finding::{Finding, Novelty, Reproduction, ShrinkStats};
use super::plan::{Plan, Role};
use super::round_trip::{self, RoundTrips};
use crate::disagreement::{check, Check, Disagreement};
use crate::history::{unless_out_of_time, Limits};
use crate::shrink::{self, AfterPrefix, OneImplementation, Tester};

/// How the corpus fails the implementation: for each signature, the first
/// vector (in corpus order) that disagrees with the reference that way,
/// judged by the same oracle as generated requests, with every vector sent
/// in order to one fresh process as `run` sends them (so a stateful bug
/// shows on the corpus's sequences); then, as `run` does, every
/// encode that agreed with bytes read back by another fresh process, a
/// failed round trip's signature named by its read-back
/// (`<id>.read-back`). `None` when the time ran out first.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn corpus_signatures<I: Implementation>(
    plan: &Plan,
    corpus: &[Vector],
    launch: &mut dyn FnMut(Role) -> I,
) -> Result<Option<HashMap<Signature, String>>, HarnessError> {
    let mut implementation = launch(Role::Replay);
    let queries: Vec<Query<'_>> = corpus
        .iter()
        .map(|v| Query {
            id: &v.id,
            request: &v.request,
        })
        .collect();
    let answers = match implementation.answer_all(&queries) {
        Err(e) if e.is_out_of_time() => return Ok(None),
        other => other?,
    };
    drop(implementation);
    let mut failures = HashMap::new();
    let mut agreed = Vec::with_capacity(corpus.len());
    for (vector, answer) in corpus.iter().zip(&answers) {
        let judged = check(&vector.request, &answer.reply, plan.judge);
        agreed.push(matches!(judged, Check::Agrees));
        if let Check::Disagrees(d) = judged {
            failures
                .entry(d.signature)
                .or_insert_with(|| vector.id.clone());
        }
    }
    let decodes = round_trip::read_backs(corpus.iter().map(|v| &v.request), &answers, &agreed);
    let mut implementation = launch(Role::Replay);
    let read = match round_trip::send_read_backs(&mut implementation, &decodes, plan.judge) {
        Err(e) if e.is_out_of_time() => return Ok(None),
        other => other?,
    };
    for (i, d) in read.failures {
        failures
            .entry(d.signature)
            .or_insert_with(|| read_back_id(&corpus[i].id));
    }
    Ok(Some(failures))
}

/// The limits of one finding's shrinking, started at `started`: hunting
/// keeps at least half the time left, so it gets at most `--shrink-time`
/// and at most half of what is left.
fn limits(plan: &Plan, started: Instant) -> impl Fn() -> Limits + '_ {
    let share = plan.deadline.map_or(plan.shrink.max_time, |deadline| {
        plan.shrink
            .max_time
            .min(deadline.saturating_duration_since(started) / 2)
    });
    move || Limits {
        max_tests: plan.shrink.max_tests,
        max_time: share.saturating_sub(started.elapsed()),
        deadline: plan.deadline,
    }
}

/// Replays `request` alone in a fresh implementation, as a round trip when
/// `round`: how it disagrees, if it does.
fn replay<I: Implementation>(
    launch: &mut dyn FnMut() -> I,
    request: &Request,
    plan: &Plan,
    round: bool,
) -> Result<Option<Disagreement>, HarnessError> {
    if round {
        round_trip::replay(launch, request, plan.judge)
    } else {
        shrink::replay(launch, std::slice::from_ref(request), plan.judge)
    }
}

/// Reproduces and shrinks one new disagreement (see the module docs); a
/// failed round trip when its disagreement has a read-back.
///
/// # Errors
/// [`HarnessError`] when an implementation cannot be run.
pub fn investigate<I: Implementation>(
    plan: &Plan,
    launch: &mut dyn FnMut(Role) -> I,
    request: Request,
    found: Disagreement,
    history: &[Request],
) -> Result<Finding, HarnessError> {
    let started = Instant::now();
    let round = found.read_back.is_some();
    let target = found.signature;
    // As first seen, before it is replayed.
    let mut finding = Finding {
        signature: found.signature,
        prefix: Vec::new(),
        request: request.clone(),
        disagreement: found,
        original: request,
        reproduction: Reproduction::NotTried,
        shrink: None,
        occurrences: 1,
        first_index: 0,
        found_after: Duration::ZERO,
        seed: plan.seed,
        in_corpus: None,
        novelty: Novelty::Unchecked,
    };
    if !target.is_about_one_request() {
        return Ok(finding);
    }
    let mut replay_launch = || launch(Role::Replay);
    let Some(alone) =
        unless_out_of_time(replay(&mut replay_launch, &finding.request, plan, round))?
    else {
        finding.reproduction = Reproduction::OutOfTime;
        return Ok(finding);
    };
    if let Some(alone) = alone.filter(|d| d.signature == target) {
        shrink_alone(plan, launch, &mut finding, alone, started, round)?;
    } else if round {
        // A round trip that fails only after other requests is not
        // searched for its prefix: reported as first seen.
        finding.reproduction = Reproduction::NotReproduced;
    } else {
        shrink_after_prefix(plan, launch, &mut finding, history, started)?;
    }
    Ok(finding)
}

/// Shrinks `finding`, which disagrees as `alone` alone in a fresh
/// implementation, in a process of its own, and confirms the result in a
/// fresh one.
fn shrink_alone<I: Implementation>(
    plan: &Plan,
    launch: &mut dyn FnMut(Role) -> I,
    finding: &mut Finding,
    alone: Disagreement,
    started: Instant,
    round: bool,
) -> Result<(), HarnessError> {
    let target = finding.signature;
    finding.reproduction = Reproduction::Alone;
    let limits = limits(plan, started)();
    let request = finding.request.clone();
    let mut shrink_launch = || launch(Role::Shrink);
    let shrunk = if round {
        let mut tester = RoundTrips::new(&mut shrink_launch, plan.judge);
        shrink::shrink(request.clone(), alone.clone(), &mut tester, &limits)?
    } else {
        let mut tester = OneImplementation::new(&mut shrink_launch, plan.judge);
        shrink::shrink(request.clone(), alone.clone(), &mut tester, &limits)?
    };
    // The shrinking process answered many requests; make sure the result
    // does not depend on them.
    let mut replay_launch = || launch(Role::Replay);
    let confirmed = unless_out_of_time(replay(&mut replay_launch, &shrunk.request, plan, round))?
        .flatten()
        .filter(|d| d.signature == target);
    (finding.request, finding.disagreement) = match confirmed {
        Some(d) => (shrunk.request, d),
        None => (request, alone),
    };
    finding.shrink = Some(ShrinkStats {
        steps: shrunk.steps,
        tests: shrunk.tests,
        complete: shrunk.complete,
        out_of_time: shrunk.out_of_time,
        time: started.elapsed(),
    });
    Ok(())
}

/// Finds the requests of `history` that `finding` needs before it, then
/// shrinks the request and each of those, each with the rest of the
/// sequence fixed, with a fresh implementation per test.
fn shrink_after_prefix<I: Implementation>(
    plan: &Plan,
    launch: &mut dyn FnMut(Role) -> I,
    finding: &mut Finding,
    history: &[Request],
    started: Instant,
) -> Result<(), HarnessError> {
    let target = finding.signature;
    let limits_left = limits(plan, started);
    let mut replay_launch = || launch(Role::Replay);
    let Some(prefix) = unless_out_of_time(shrink::minimize_prefix(
        &mut replay_launch,
        history,
        &finding.request,
        target,
        plan.judge,
        &limits_left(),
    ))?
    else {
        finding.reproduction = Reproduction::OutOfTime;
        return Ok(());
    };
    let Some(mut prefix) = prefix else {
        finding.reproduction = Reproduction::NotReproduced;
        return Ok(());
    };
    finding.reproduction = Reproduction::AfterPrefix;
    let mut stats = ShrinkStats {
        steps: 0,
        tests: 0,
        complete: true,
        out_of_time: false,
        time: Duration::ZERO,
    };
    // Each pass shrinks one request of the sequence with the rest fixed in
    // `tester`; the passes' costs add up to the finding's.
    let mut pass = |request: Request,
                    disagreement: Disagreement,
                    tester: &mut dyn Tester|
     -> Result<(Request, Disagreement), HarnessError> {
        let shrunk = shrink::shrink(request, disagreement, tester, &limits_left())?;
        stats.tests += shrunk.tests;
        stats.steps += shrunk.steps;
        stats.complete &= shrunk.complete;
        stats.out_of_time |= shrunk.out_of_time;
        Ok((shrunk.request, shrunk.disagreement))
    };
    // The disagreeing request first, then each request before it, each
    // with the rest of the sequence fixed.
    let mut tester = AfterPrefix::new(&mut replay_launch, prefix.clone(), Vec::new(), plan.judge);
    let (mut last, mut disagreement) = pass(
        finding.request.clone(),
        finding.disagreement.clone(),
        &mut tester,
    )?;
    for i in 0..prefix.len() {
        let mut suffix = prefix[i + 1..].to_vec();
        suffix.push(last.clone());
        let mut tester =
            AfterPrefix::new(&mut replay_launch, prefix[..i].to_vec(), suffix, plan.judge);
        (prefix[i], disagreement) = pass(prefix[i].clone(), disagreement, &mut tester)?;
    }
    // Shrinking the steps before may have made the last one shrinkable again.
    let mut tester = AfterPrefix::new(&mut replay_launch, prefix.clone(), Vec::new(), plan.judge);
    (last, disagreement) = pass(last, disagreement, &mut tester)?;
    finding.prefix = prefix;
    finding.request = last;
    finding.disagreement = disagreement;
    stats.time = started.elapsed();
    finding.shrink = Some(stats);
    Ok(())
}
