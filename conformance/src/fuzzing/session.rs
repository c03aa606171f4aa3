//! The fuzzing loop: generate a batch, have the implementation answer it,
//! judge every answer, investigate every new kind of disagreement, repeat
//! until the budget is spent. Each batch is generated while the one before
//! is answered, on a thread of its own ([`super::ahead`]).
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
//! After each batch, every encode answered with bytes the reference agrees
//! with is read back: the same implementation is sent the decode of its
//! answer, which must give back the value encoded ([`super::round_trip`]).
//! The read-backs are not generated requests: they draw nothing from the
//! seed, do not count against `--count`, and are counted apart
//! ([`FuzzResults::read_backs`]).
//!
//! A new [`Signature`] is investigated at once, before fuzzing goes on
//! ([`super::investigate`]): replayed and shrunk, or, for an implementation
//! that keeps state, cut down to the requests before it that it needs.
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

use super::ahead::Ahead;
use super::finding::{Finding, Novelty};
use super::investigate::{corpus_signatures, investigate};
pub use super::plan::{Plan, Role};
use super::requests::Generator;
use super::round_trip;
use crate::disagreement::Disagreement;
use crate::disagreement::{check, Check};
use crate::shrink;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{Answer, HarnessError, Implementation};

/// Requests in one batch at most.
pub const MAX_BATCH: usize = 512;

/// Faults in a row, without any answer ever, after which an implementation
/// is taken to be broken beyond fuzzing (a command that only crashes).
pub const DEAD_AFTER: usize = 8;

/// Earlier requests kept for finding what a stateful disagreement needs.
const HISTORY: usize = 4096;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stop {
    /// The time or request budget ran out.
    #[default]
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
#[derive(Clone, Debug, Default)]
pub struct FuzzResults {
    /// Requests answered.
    pub done: u64,
    /// Requests answered, by kind (in [`RequestKind::ALL`] order).
    pub done_by_kind: [u64; RequestKind::ALL.len()],
    /// Requests answered `unsupported`.
    pub unsupported: u64,
    /// Read-backs sent: decodes of the implementation's own encodes (not
    /// counted in `done`).
    pub read_backs: u64,
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

impl FuzzResults {
    /// Whether the session judged nothing at all: no request answered and
    /// no finding, the time having run out first (while the implementation
    /// was answering, or before anything was sent: a budget spent starting
    /// up on a loaded machine). No verdict can come of that (an
    /// implementation that hangs on every request must not pass). A run
    /// always asks for at least one request, so it is never the plan.
    #[must_use]
    pub fn judged_nothing(&self) -> bool {
        self.done == 0 && self.findings.is_empty()
    }
}

/// New signatures of one batch: where first seen (the index of the
/// request, or of the encode of a failed round trip), how, how often.
type Fresh = Vec<(usize, Disagreement, u64)>;

/// The loop's state between batches.
struct Session<'a> {
    plan: &'a Plan,
    corpus: &'a [Vector],
    started: Instant,
    /// The requests, generated a batch ahead.
    ahead: Ahead,
    /// The corpus's requests outside sequences, with their ids.
    known: HashMap<&'a Request, &'a str>,
    /// The kinds still generated.
    enabled: Vec<RequestKind>,
    outcome: FuzzResults,
    /// Where each signature's finding is in `outcome.findings`.
    groups: HashMap<Signature, usize>,
    /// How the corpus fails this implementation, by signature: asked once,
    /// at the first finding (a run without findings never pays for it).
    corpus_failures: Option<Option<HashMap<Signature, String>>>,
    /// The requests sent before the current batch, the last [`HISTORY`].
    history: VecDeque<Request>,
    batch_size: usize,
    answered_ever: bool,
    faults_in_a_row: usize,
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
    let mut session = Session::new(plan, corpus);
    let mut implementation = launch(Role::Fuzz);
    while session.budget_left() && session.batch(&mut implementation, launch, observer)? {}
    drop(implementation);
    session.outcome.elapsed = session.started.elapsed();
    Ok(session.outcome)
}

impl<'a> Session<'a> {
    fn new(plan: &'a Plan, corpus: &'a [Vector]) -> Self {
        Self {
            plan,
            corpus,
            started: Instant::now(),
            ahead: Ahead::new(Generator::new(plan.seed, corpus)),
            known: corpus
                .iter()
                .filter(|v| v.sequence.is_none())
                .map(|v| (&v.request, v.id.as_str()))
                .collect(),
            enabled: RequestKind::ALL.to_vec(),
            outcome: FuzzResults::default(),
            groups: HashMap::new(),
            corpus_failures: None,
            history: VecDeque::new(),
            batch_size: RequestKind::ALL.len(),
            answered_ever: false,
            faults_in_a_row: 0,
        }
    }

    fn budget_left(&self) -> bool {
        let plan = self.plan;
        plan.count.is_none_or(|c| self.outcome.done < c)
            && plan.deadline.is_none_or(|d| Instant::now() < d)
    }

    /// How many of `wanted` requests from index `first` the count allows.
    fn room(&self, first: u64, wanted: usize) -> usize {
        let room = self
            .plan
            .count
            .map_or(u64::MAX, |c| c.saturating_sub(first));
        (wanted as u64).min(room) as usize
    }

    /// The next batch's requests, the first of them the `done`-th; and the
    /// batch after it ordered, to be made while this one is answered, as
    /// large as it will be unless a fault makes it smaller.
    fn generate(&mut self) -> Vec<Request> {
        let first = self.outcome.done;
        let n = self.room(first, self.batch_size);
        let requests = self.ahead.take(first, n, &self.enabled);
        let next = first + n as u64;
        let after = self.room(next, (self.batch_size * 2).min(MAX_BATCH));
        if after > 0 {
            self.ahead.order(next, after, &self.enabled);
        }
        requests
    }

    /// One batch: generated, answered, judged, read back, its new findings
    /// investigated. Whether the run goes on.
    fn batch<I: Implementation>(
        &mut self,
        implementation: &mut I,
        launch: &mut dyn FnMut(Role) -> I,
        observer: &mut dyn Observer,
    ) -> Result<bool, HarnessError> {
        let first = self.outcome.done;
        let requests = self.generate();
        let ids: Vec<String> = (first..first + requests.len() as u64)
            .map(|i| format!("f{i}"))
            .collect();
        let answers = match implementation.answer_all(&shrink::queries(&ids, &requests)) {
            Err(e) if e.is_out_of_time() => {
                self.outcome.unjudged = requests.len();
                return Ok(false);
            }
            other => other?,
        };
        let answered_after = self.started.elapsed();
        let (mut fresh, agreed, mut restarted) = self.judge(&requests, &answers);
        let decodes = round_trip::read_backs(&requests, &answers, &agreed);
        self.outcome.read_backs += decodes.len() as u64;
        let read = match round_trip::send_read_backs(implementation, &decodes, self.plan.judge) {
            // The deadline has passed: the loop ends after this batch.
            Err(e) if e.is_out_of_time() => round_trip::ReadBackResults::default(),
            other => other?,
        };
        restarted |= read.faulted;
        for (pos, d) in read.failures {
            self.count(&mut fresh, pos, d);
        }
        for (pos, d, occurrences) in fresh {
            let mut finding = self.investigate(launch, observer, &requests, pos, d)?;
            finding.occurrences = occurrences;
            finding.first_index = first + pos as u64;
            finding.found_after = answered_after;
            if !self.record(launch, observer, finding)? {
                return Ok(false);
            }
        }
        // Keeps the last `HISTORY` requests sent: the batch's, then its read-backs.
        let decodes: Vec<Request> = decodes.into_iter().map(|(_, _, d)| d).collect();
        self.history.extend(requests.into_iter().chain(decodes));
        let excess = self.history.len().saturating_sub(HISTORY);
        self.history.drain(..excess);
        Ok(self.go_on(observer, restarted))
    }

    /// Judges every answer of a batch: its new signatures, whether each
    /// request agreed with the reference, and whether a fault restarted
    /// the process.
    fn judge(&mut self, requests: &[Request], answers: &[Answer]) -> (Fresh, Vec<bool>, bool) {
        let mut fresh = Fresh::new();
        let mut agreed = Vec::with_capacity(requests.len());
        let mut restarted = false;
        for (pos, (request, answer)) in requests.iter().zip(answers).enumerate() {
            let kind = request.kind();
            self.outcome.done += 1;
            self.outcome.done_by_kind[kind.index()] += 1;
            if answer.reply.is_ok() {
                self.answered_ever = true;
                self.faults_in_a_row = 0;
            } else {
                self.faults_in_a_row += 1;
            }
            let judged = check(request, &answer.reply, self.plan.judge);
            agreed.push(matches!(judged, Check::Agrees));
            match judged {
                Check::Agrees => {}
                Check::Unsupported => {
                    self.outcome.unsupported += 1;
                    if !self.outcome.unsupported_kinds.contains(&kind) {
                        self.outcome.unsupported_kinds.push(kind);
                    }
                    self.enabled.retain(|&k| k != kind);
                }
                Check::Disagrees(d) => {
                    restarted |= d.signature.restarts_the_process();
                    self.count(&mut fresh, pos, d);
                }
            }
        }
        (fresh, agreed, restarted)
    }

    /// Counts disagreement `d` at `pos`: one more occurrence of a finding,
    /// or of a new signature of this batch, or a new signature.
    fn count(&mut self, fresh: &mut Fresh, pos: usize, d: Disagreement) {
        if let Some(&i) = self.groups.get(&d.signature) {
            self.outcome.findings[i].occurrences += 1;
        } else if let Some(f) = fresh.iter_mut().find(|f| f.1.signature == d.signature) {
            f.2 += 1;
        } else {
            fresh.push((pos, d, 1));
        }
    }

    /// Investigates the new signature `d`, first seen at `requests[pos]`.
    fn investigate<I: Implementation>(
        &self,
        launch: &mut dyn FnMut(Role) -> I,
        observer: &mut dyn Observer,
        requests: &[Request],
        pos: usize,
        d: Disagreement,
    ) -> Result<Finding, HarnessError> {
        observer.investigating(&d.signature);
        let before: Vec<Request> = self
            .history
            .iter()
            .chain(&requests[..pos])
            .cloned()
            .collect();
        let before = &before[before.len().saturating_sub(HISTORY)..];
        investigate(self.plan, launch, requests[pos].clone(), d, before)
    }

    /// Marks `finding` as in the corpus, known or new, and adds it to the
    /// results. Whether the run goes on (`--max-findings`).
    fn record<I: Implementation>(
        &mut self,
        launch: &mut dyn FnMut(Role) -> I,
        observer: &mut dyn Observer,
        mut finding: Finding,
    ) -> Result<bool, HarnessError> {
        finding.in_corpus = self
            .known
            .get(&finding.request)
            .filter(|_| finding.prefix.is_empty())
            .map(|id| (*id).to_owned());
        let failures = match &self.corpus_failures {
            Some(failures) => failures,
            None => self
                .corpus_failures
                .insert(corpus_signatures(self.plan, self.corpus, launch)?),
        };
        finding.novelty = match failures {
            None => Novelty::Unchecked,
            Some(failures) => failures
                .get(&finding.signature)
                .map_or(Novelty::New, |id| Novelty::Known(id.clone())),
        };
        self.groups
            .insert(finding.signature, self.outcome.findings.len());
        observer.finding(&finding);
        self.outcome.findings.push(finding);
        let full = self
            .plan
            .max_findings
            .is_some_and(|m| self.outcome.findings.len() >= m);
        if full {
            self.outcome.stop = Stop::MaxFindings;
        }
        Ok(!full)
    }

    /// Reports progress after a batch and sizes the next; whether the run
    /// goes on.
    fn go_on(&mut self, observer: &mut dyn Observer, restarted: bool) -> bool {
        observer.progress(&Status {
            done: self.outcome.done,
            elapsed: self.started.elapsed(),
            findings: self.outcome.findings.len(),
            unsupported: self.outcome.unsupported,
        });
        if !self.answered_ever && self.faults_in_a_row >= DEAD_AFTER {
            self.outcome.stop = Stop::NoAnswers;
            return false;
        }
        if self.enabled.is_empty() {
            self.outcome.stop = Stop::NothingSupported;
            return false;
        }
        self.batch_size = if restarted {
            1
        } else {
            (self.batch_size * 2).min(MAX_BATCH)
        };
        true
    }
}
