//! The fuzzing loop: generate a batch, have the implementation answer it,
//! judge every answer, investigate every new kind of disagreement, repeat
//! until the budget is spent.
//!
//! The first batch is a probe with one request of each kind; a kind answered
//! `unsupported` is not generated again (later batches apply the same rule
//! to any kind that answers `unsupported`). A batch grows to
//! [`MAX_BATCH`] requests while the implementation answers everything, and
//! drops to one after a fault that ends the process (a timeout, a crash, a
//! malformed line): the runner re-sends every request that was in flight to
//! a fresh process of its own, so with many in flight each fault would cost
//! many starts, or many timeouts.
//!
//! A new [`Signature`] is investigated at once, before fuzzing goes on:
//! replayed alone in a fresh process; if it disagrees there it is shrunk in
//! a process of its own; if not, the implementation keeps state, so the
//! requests sent before it are cut down to the few it needs
//! ([`shrink::minimize_prefix`]) and the sequence is shrunk with a fresh
//! process per test.
//!
//! The time budget is a deadline for everything: generating, answering,
//! replaying and shrinking. Investigating one finding takes at most the
//! shrink limit's time and at most half the time left, so that hunting
//! always keeps the other half. At the deadline shrinking stops (the
//! finding says it was cut short), and the implementations are expected to stop
//! waiting there too, answering [`HarnessError::is_out_of_time`]
//! ([`wow_guid_harness::process::ProcessConfig::deadline`]): a batch cut short that way
//! is not judged, and the run ends. Implementations come from the caller's `launch`
//! closure, which is told what each is for ([`Role`]); this module starts
//! nothing itself and does no I/O beyond what the [`Observer`] does.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use wow_guid_vectors::{Request, RequestKind, Vector};

use super::finding::{Finding, Novelty, Reproduction, ShrinkStats};
use super::requests::Generator;
use crate::disagreement::Disagreement;
use crate::disagreement::{check, Check};
use crate::history::Limits;
use crate::shrink::{self, AfterPrefix, OneImplementation, Tester};
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{HarnessError, Implementation, Query};
use wow_guid_harness::judge::JudgeOptions;

/// Requests in one batch at most.
pub const MAX_BATCH: usize = 512;

/// Faults in a row, without any answer ever, after which an implementation
/// is taken to be broken beyond fuzzing (a command that only crashes).
pub const DEAD_AFTER: usize = 8;

/// Earlier requests kept for finding what a stateful disagreement needs.
const HISTORY: usize = 4096;

/// What to do.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The seed of the generators.
    pub seed: u64,
    /// When the run ends, shrinking included (see the module docs).
    pub deadline: Option<Instant>,
    /// Stop after this many requests.
    pub count: Option<u64>,
    /// Stop after this many distinct findings.
    pub max_findings: Option<usize>,
    /// How answers are judged.
    pub judge: JudgeOptions,
    /// How much work shrinking one finding may take.
    pub shrink: Limits,
}

impl Plan {
    /// The seed unless one is given: fixed, so that a CI job is
    /// reproducible unless it asks for variety.
    pub const DEFAULT_SEED: u64 = 1;

    /// The time budget when no budget is given at all.
    pub const DEFAULT_TIME: Duration = Duration::from_secs(10);
}

/// What an implementation from `launch` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The long-running one that answers generated requests.
    Fuzz,
    /// One that answers many shrinking candidates (it will be sent requests
    /// that make it fail, over and over).
    Shrink,
    /// A fresh one for a single short sequence.
    Replay,
}

/// Where the run stands, for progress reports.
#[derive(Clone, Copy, Debug)]
pub struct Status {
    /// Requests answered.
    pub done: u64,
    /// Since the start.
    pub elapsed: Duration,
    /// Distinct findings so far.
    pub findings: usize,
    /// Requests answered `unsupported`.
    pub unsupported: u64,
}

/// Hears about the run as it goes.
pub trait Observer {
    /// After each batch.
    fn progress(&mut self, _status: &Status) {}
    /// Before a new signature is investigated (it may take a while).
    fn investigating(&mut self, _signature: &Signature) {}
    /// When a finding is complete. Its occurrence count keeps growing
    /// afterwards; the final one is in [`FuzzResults::findings`].
    fn finding(&mut self, _finding: &Finding) {}
}

/// An observer that ignores everything.
pub struct Quiet;

impl Observer for Quiet {}

/// Why the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time or request budget ran out.
    Budget,
    /// `max_findings` distinct findings were found.
    MaxFindings,
    /// Every kind was answered `unsupported`.
    NothingSupported,
    /// The implementation has never answered a request, only failed
    /// [`DEAD_AFTER`] times in a row. (A process implementation finds that
    /// out sooner, with its liveness check, and says so as a harness error.)
    NoAnswers,
}

/// How a fuzzing session went: counts, findings, and why it stopped.
#[derive(Clone, Debug)]
pub struct FuzzResults {
    /// Requests answered.
    pub done: u64,
    /// Requests answered, by kind (in [`RequestKind::ALL`] order).
    pub done_by_kind: [u64; RequestKind::ALL.len()],
    /// Requests answered `unsupported`.
    pub unsupported: u64,
    /// Kinds that answered `unsupported`, in the order they did.
    pub unsupported_kinds: Vec<RequestKind>,
    /// Total time.
    pub elapsed: Duration,
    /// The findings, in the order found.
    pub findings: Vec<Finding>,
    /// Why the run ended.
    pub stop: Stop,
    /// Requests generated but left unjudged because the time ran out while
    /// the implementation was answering them.
    pub unjudged: usize,
}

/// Runs the fuzzing loop (see the module docs) over requests generated
/// from `plan.seed`, mutating the requests of `corpus`.
///
/// # Errors
/// [`HarnessError`] when an implementation cannot be run at all.
pub fn fuzz<I: Implementation>(
    plan: &Plan,
    corpus: &[Vector],
    launch: &mut dyn FnMut(Role) -> I,
    observer: &mut dyn Observer,
) -> Result<FuzzResults, HarnessError> {
    let started = Instant::now();
    let mut generator = Generator::new(plan.seed, corpus);
    let known: HashMap<&Request, &str> = corpus
        .iter()
        .filter(|v| v.sequence.is_none())
        .map(|v| (&v.request, v.id.as_str()))
        .collect();
    let mut enabled = RequestKind::ALL.to_vec();
    let mut outcome = FuzzResults {
        done: 0,
        done_by_kind: [0; RequestKind::ALL.len()],
        unsupported: 0,
        unsupported_kinds: Vec::new(),
        elapsed: Duration::ZERO,
        findings: Vec::new(),
        stop: Stop::Budget,
        unjudged: 0,
    };
    let mut groups: HashMap<Signature, usize> = HashMap::new();
    // How the corpus fails this implementation, by signature: asked once,
    // at the first finding (a run without findings never pays for it).
    let mut corpus_failures: Option<Option<HashMap<Signature, String>>> = None;
    let mut history: VecDeque<Request> = VecDeque::new();
    let mut implementation = launch(Role::Fuzz);
    let mut batch_size = RequestKind::ALL.len();
    let mut answered_ever = false;
    let mut faults_in_a_row = 0;
    let budget_left = |done: u64| {
        plan.count.is_none_or(|c| done < c) && plan.deadline.is_none_or(|d| Instant::now() < d)
    };
    'run: while budget_left(outcome.done) {
        let room = plan.count.map_or(u64::MAX, |c| c - outcome.done);
        let n = (batch_size as u64).min(room) as usize;
        let first = outcome.done;
        let requests: Vec<Request> = (first..first + n as u64)
            .map(|i| match RequestKind::ALL.get(i as usize) {
                // The probe: one request of each kind.
                Some(&kind) => generator.request_of_kind(i, kind),
                None => generator.request(i, &enabled),
            })
            .collect();
        let ids: Vec<String> = (first..first + n as u64).map(|i| format!("f{i}")).collect();
        let queries: Vec<Query<'_>> = ids
            .iter()
            .zip(&requests)
            .map(|(id, request)| Query { id, request })
            .collect();
        let answers = match implementation.answer_all(&queries) {
            Err(e) if e.is_out_of_time() => {
                outcome.unjudged = n;
                break;
            }
            other => other?,
        };
        let answered_after = started.elapsed();
        // New signatures of this batch: where first seen, how, how often.
        let mut fresh: Vec<(usize, Disagreement, u64)> = Vec::new();
        let mut restarted = false;
        for (pos, (request, answer)) in requests.iter().zip(&answers).enumerate() {
            let kind = request.kind();
            outcome.done += 1;
            outcome.done_by_kind[kind.index()] += 1;
            if answer.reply.is_ok() {
                answered_ever = true;
                faults_in_a_row = 0;
            } else {
                faults_in_a_row += 1;
            }
            match check(request, &answer.reply, plan.judge) {
                Check::Agrees => {}
                Check::Unsupported => {
                    outcome.unsupported += 1;
                    if !outcome.unsupported_kinds.contains(&kind) {
                        outcome.unsupported_kinds.push(kind);
                    }
                    enabled.retain(|&k| k != kind);
                }
                Check::Disagrees(d) => {
                    let signature = d.signature;
                    restarted |= signature.restarts_the_process();
                    if let Some(&i) = groups.get(&d.signature) {
                        outcome.findings[i].occurrences += 1;
                    } else if let Some(f) = fresh.iter_mut().find(|f| f.1.signature == d.signature)
                    {
                        f.2 += 1;
                    } else {
                        fresh.push((pos, d, 1));
                    }
                }
            }
        }
        for (pos, d, occurrences) in fresh {
            observer.investigating(&d.signature);
            let before: Vec<Request> = history
                .iter()
                .chain(&requests[..pos])
                .cloned()
                .collect::<Vec<_>>();
            let before = &before[before.len().saturating_sub(HISTORY)..];
            let mut finding = investigate(plan, launch, requests[pos].clone(), d, before)?;
            finding.occurrences = occurrences;
            finding.first_index = first + pos as u64;
            finding.found_after = answered_after;
            finding.in_corpus = known.get(&finding.request).map(|id| (*id).to_owned());
            if !finding.prefix.is_empty() {
                finding.in_corpus = None;
            }
            let failures = match &corpus_failures {
                Some(failures) => failures,
                None => corpus_failures.insert(corpus_signatures(plan, corpus, launch)?),
            };
            finding.novelty = match failures {
                None => Novelty::Unchecked,
                Some(failures) => failures
                    .get(&finding.signature)
                    .map_or(Novelty::New, |id| Novelty::Known(id.clone())),
            };
            groups.insert(finding.signature, outcome.findings.len());
            observer.finding(&finding);
            outcome.findings.push(finding);
            if plan
                .max_findings
                .is_some_and(|m| outcome.findings.len() >= m)
            {
                outcome.stop = Stop::MaxFindings;
                break 'run;
            }
        }
        history.extend(requests);
        let excess = history.len().saturating_sub(HISTORY);
        history.drain(..excess);
        observer.progress(&Status {
            done: outcome.done,
            elapsed: started.elapsed(),
            findings: outcome.findings.len(),
            unsupported: outcome.unsupported,
        });
        if !answered_ever && faults_in_a_row >= DEAD_AFTER {
            outcome.stop = Stop::NoAnswers;
            break;
        }
        if enabled.is_empty() {
            outcome.stop = Stop::NothingSupported;
            break;
        }
        batch_size = if restarted {
            1
        } else {
            (batch_size * 2).min(MAX_BATCH)
        };
    }
    drop(implementation);
    outcome.elapsed = started.elapsed();
    Ok(outcome)
}

/// How the corpus fails the implementation: for each signature, the first
/// vector (in corpus order) that disagrees with the reference that way,
/// judged by the same oracle as generated requests, with every vector sent
/// in order to one fresh process as `run` sends them (so a stateful bug
/// shows on the corpus's sequences). `None` when the time ran out first.
fn corpus_signatures<I: Implementation>(
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
    let mut failures = HashMap::new();
    for (vector, answer) in corpus.iter().zip(&answers) {
        if let Check::Disagrees(d) = check(&vector.request, &answer.reply, plan.judge) {
            failures
                .entry(d.signature)
                .or_insert_with(|| vector.id.clone());
        }
    }
    Ok(Some(failures))
}

/// Reproduces and shrinks one new disagreement (see the module docs).
fn investigate<I: Implementation>(
    plan: &Plan,
    launch: &mut dyn FnMut(Role) -> I,
    request: Request,
    found: Disagreement,
    history: &[Request],
) -> Result<Finding, HarnessError> {
    let started = Instant::now();
    let target = found.signature;
    let mut finding = Finding {
        signature: target,
        prefix: Vec::new(),
        request: request.clone(),
        disagreement: found.clone(),
        original: request.clone(),
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
    // Hunting keeps at least half the time left: one finding's shrinking
    // gets at most --shrink-time and at most half of what is left.
    let share = plan.deadline.map_or(plan.shrink.max_time, |deadline| {
        plan.shrink
            .max_time
            .min(deadline.saturating_duration_since(started) / 2)
    });
    let limits_left = || Limits {
        max_tests: plan.shrink.max_tests,
        max_time: share.saturating_sub(started.elapsed()),
        deadline: plan.deadline,
    };
    let mut replay_launch = || launch(Role::Replay);
    let Some(alone) = crate::history::unless_out_of_time(shrink::replay(
        &mut replay_launch,
        std::slice::from_ref(&request),
        plan.judge,
    ))?
    else {
        finding.reproduction = Reproduction::OutOfTime;
        return Ok(finding);
    };
    let alone = alone.filter(|d| d.signature == target);
    if let Some(alone) = alone {
        finding.reproduction = Reproduction::Alone;
        let mut shrink_launch = || launch(Role::Shrink);
        let mut tester = OneImplementation::new(&mut shrink_launch, plan.judge);
        let shrunk = shrink::shrink(request.clone(), alone.clone(), &mut tester, &limits_left())?;
        drop(tester);
        // The shrinking process answered many requests; make sure the
        // result does not depend on them.
        let mut replay_launch = || launch(Role::Replay);
        let confirmed = crate::history::unless_out_of_time(shrink::replay(
            &mut replay_launch,
            std::slice::from_ref(&shrunk.request),
            plan.judge,
        ))?
        .flatten()
        .filter(|d| d.signature == target);
        let (request, disagreement) = match confirmed {
            Some(d) => (shrunk.request, d),
            None => (request, alone),
        };
        finding.request = request;
        finding.disagreement = disagreement;
        finding.shrink = Some(ShrinkStats {
            steps: shrunk.steps,
            tests: shrunk.tests,
            complete: shrunk.complete,
            out_of_time: shrunk.out_of_time,
            time: started.elapsed(),
        });
        return Ok(finding);
    }
    let Some(prefix) = crate::history::unless_out_of_time(shrink::minimize_prefix(
        &mut replay_launch,
        history,
        &request,
        target,
        plan.judge,
        &limits_left(),
    ))?
    else {
        finding.reproduction = Reproduction::OutOfTime;
        return Ok(finding);
    };
    let Some(mut prefix) = prefix else {
        finding.reproduction = Reproduction::NotReproduced;
        return Ok(finding);
    };
    finding.reproduction = Reproduction::AfterPrefix;
    let mut tests = 0;
    let mut steps = 0;
    let mut complete = true;
    let mut out_of_time = false;
    // Each pass shrinks one request of the sequence with the rest fixed in
    // `tester`; the passes' costs add up to the finding's.
    let mut pass = |request: Request,
                    disagreement: Disagreement,
                    tester: &mut dyn Tester|
     -> Result<(Request, Disagreement), HarnessError> {
        let shrunk = shrink::shrink(request, disagreement, tester, &limits_left())?;
        tests += shrunk.tests;
        steps += shrunk.steps;
        complete &= shrunk.complete;
        out_of_time |= shrunk.out_of_time;
        Ok((shrunk.request, shrunk.disagreement))
    };
    // The disagreeing request first, then each request before it, each
    // with the rest of the sequence fixed.
    let mut tester = AfterPrefix::new(&mut replay_launch, prefix.clone(), Vec::new(), plan.judge);
    let (mut last, mut disagreement) = pass(request, found, &mut tester)?;
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
    finding.shrink = Some(ShrinkStats {
        steps,
        tests,
        complete,
        out_of_time,
        time: started.elapsed(),
    });
    Ok(finding)
}
