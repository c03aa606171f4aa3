//! The core of `run`: send the selected vectors to implementations, judge
//! every answer, and sort each vector into a [`RunOutcome`]. Every answer is
//! judged by [`judge_vector`] alone, so `run` ([`run()`]), `repro`
//! ([`reproduce`]) and `matrix` (through [`run()`]) give one verdict for one
//! answer.
//!
//! Work is split into `jobs` contiguous chunks, one implementation each, so
//! vectors that only make sense in sequence stay in order within their
//! chunk, and results come back in corpus order whatever the number of jobs.
//! Every vector is also judged against the reference codec in this process:
//! one it disagrees with is a bug in the corpus, reported apart. Each batch
//! of answers is judged as it arrives, so a run holds one result per vector
//! (rare evidence boxed), never the answers beside the results. No printing
//! here: see [`crate::report`].

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wow_guid_vectors::Vector;

use crate::expect_fail::ExpectedFailures;
use crate::implementation::{Answer, FaultKind, HarnessError, Implementation, Query};
use crate::judge::{self, JudgeOptions, Mismatch, Verdict};
use crate::protocol::Response;
use crate::reference;

/// Requests handed to an implementation at once. Large enough that the
/// pipeline stays full, small enough that progress moves.
const BATCH: usize = 4096;

/// Where a vector ends up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RunOutcome {
    /// The answer satisfies the vector.
    Passed,
    /// A wrong answer (a wrong value, an error for a valid input, a value
    /// for an invalid one); not listed as an expected failure (nor are the
    /// next three).
    Failed,
    /// The process ended (or its output could not be read) before answering.
    Crashed,
    /// No answer within the time limit.
    TimedOut,
    /// A line that is not a response to the request (garbage, a wrong id,
    /// an over-long line, a fault only with pipelining).
    Malformed,
    /// The implementation answered `unsupported`.
    Skipped,
    /// Failed, and listed as an expected failure.
    ExpectedFailure,
    /// Passed, but listed as an expected failure: the list is out of date.
    Stale,
    /// The reference codec disagrees with the vector: the corpus is wrong
    /// (or the codec is), whatever the implementation said.
    VectorBug,
}

impl RunOutcome {
    /// Every outcome, in report order.
    pub const ALL: [RunOutcome; 9] = [
        Self::Passed,
        Self::Failed,
        Self::Crashed,
        Self::TimedOut,
        Self::Malformed,
        Self::Skipped,
        Self::ExpectedFailure,
        Self::Stale,
        Self::VectorBug,
    ];

    /// The outcome's name in reports: `pass`, `fail`, `crashed`,
    /// `timed_out`, `malformed`, `skip`, `xfail`, `stale`, `vector_bug`. JSON
    /// keys and values and the matrix page's CSS classes are these names.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        WORDS[self as usize].0
    }

    /// The outcome in words for people: `passed`, `timed out`, `vector bug`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        WORDS[self as usize].1
    }

    /// The outcome as a column heading over counts: `skipped`, `vector
    /// bugs`, `expected failures`.
    #[must_use]
    pub const fn heading(self) -> &'static str {
        WORDS[self as usize].2
    }

    /// The outcome's one-character mark in the matrix page: `✓`, `✗`, `☠`.
    #[must_use]
    pub const fn symbol(self) -> &'static str {
        WORDS[self as usize].3
    }

    /// The outcome named `name` in reports ([`RunOutcome::as_str`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.as_str() == name)
    }

    /// Whether the implementation failed this vector, expected or not: a
    /// wrong answer, a crash, a timeout, a malformed answer, or an expected
    /// failure. Reports attach the stderr tail to these alone.
    #[must_use]
    pub(crate) const fn implementation_failed(self) -> bool {
        matches!(
            self,
            Self::Failed | Self::Crashed | Self::TimedOut | Self::Malformed | Self::ExpectedFailure
        )
    }

    /// Whether this outcome keeps the implementation from conforming.
    #[must_use]
    pub const fn is_failure(self) -> bool {
        matches!(
            self,
            Self::Failed | Self::Crashed | Self::TimedOut | Self::Malformed | Self::Stale
        )
    }
}

/// The result for one vector.
#[derive(Clone, Debug)]
pub struct VectorResult<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// What the implementation answered.
    pub answer: Answer,
    /// The judge's verdict on that answer.
    pub verdict: Verdict,
    /// Where the vector ends up, expected failures and vector bugs considered.
    pub outcome: RunOutcome,
    /// For a vector bug: what the reference codec answers, and why that
    /// does not satisfy the vector (boxed, as rare).
    pub vector_bug: Option<Box<(Response, Mismatch)>>,
    /// The reason given in the expected-failure list, if the vector is listed.
    pub expected_failure: Option<Option<std::sync::Arc<str>>>,
    /// Set on a checked failure that does not show when the vector is sent
    /// alone ([`PassesAlone`]; boxed, as rare).
    pub passes_alone: Option<Box<PassesAlone>>,
    /// Whether the vector is known to fail (or pass) the same way alone: it
    /// was its process's first request, or was sent alone again (one-shot
    /// mode, `run`'s check of failures). A failure that was not is
    /// unchecked: it may need earlier requests, and its reproduce line may
    /// pass.
    pub checked_alone: bool,
}

/// The suffix of a read-back's id, `<encode vector's id>.read-back`: the
/// decode of what an implementation answered to that encode vector,
/// expecting the value back (`wow-guid-testkit`'s `round_trip` makes them;
/// `run` sends them after the corpus). Reports count read-backs apart, and
/// group their failures under causes of their own.
pub const READ_BACK: &str = ".read-back";

impl VectorResult<'_> {
    /// Whether this is the result of a read-back ([`READ_BACK`]).
    #[must_use]
    pub(crate) fn is_read_back(&self) -> bool {
        self.vector.id.ends_with(READ_BACK)
    }
}

/// A failure that does not show when the vector is sent alone to a fresh
/// implementation (after its sequence's earlier steps, if any), only after
/// earlier requests: the implementation carries state between requests.
/// `run` checks a sample of its failures for this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassesAlone {
    /// Earlier requests, as vector ids in sending order, after which the
    /// vector fails the same way (the same wrong answer, or a fault of the
    /// same cause) in a fresh implementation: cut down from every request
    /// its process answered before it. `None` when even all of those did not
    /// (it depends on something else, timing say).
    pub after: Option<Vec<String>>,
}

/// Per [`RunOutcome`], in order: its name in reports, label, heading over
/// counts, mark, and block label (`report::block::label`); every output
/// format takes its words from here.
pub(crate) const WORDS: [(&str, &str, &str, &str, &str); RunOutcome::ALL.len()] = [
    ("pass", "passed", "passed", "✓", "PASS"),
    ("fail", "failed", "failed", "✗", "FAIL"),
    ("crashed", "crashed", "crashed", "☠", "CRASHED"),
    ("timed_out", "timed out", "timed out", "T", "TIMED OUT"),
    ("malformed", "malformed", "malformed", "?", "MALFORMED"),
    ("skip", "skipped", "skipped", "–", "SKIP"),
    (
        "xfail",
        "expected failure",
        "expected failures",
        "x",
        "XFAIL",
    ),
    ("stale", "stale", "stale", "s", "STALE"),
    ("vector_bug", "vector bug", "vector bugs", "!", "VECTOR BUG"),
];

/// How many vectors ended up in each outcome, indexed by the outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts([usize; RunOutcome::ALL.len()]);

impl Counts {
    /// Counts the outcomes of `results`.
    #[must_use]
    pub fn of(results: &[VectorResult<'_>]) -> Self {
        let mut c = Self::default();
        for r in results {
            c.0[r.outcome as usize] += 1;
        }
        c
    }

    /// The count for one outcome.
    #[must_use]
    pub fn get(&self, outcome: RunOutcome) -> usize {
        self.0[outcome as usize]
    }

    /// All vectors counted.
    #[must_use]
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    /// Whether the implementation conforms: nothing failed (wrong answer,
    /// crash, timeout or malformed answer) and no expected-failure entry is
    /// stale.
    #[must_use]
    pub fn conforms(&self) -> bool {
        RunOutcome::ALL
            .iter()
            .all(|&o| !o.is_failure() || self.get(o) == 0)
    }

    /// Vectors that failed in any way but a stale listing: wrong answers,
    /// crashes, timeouts and malformed answers.
    #[must_use]
    pub fn failures(&self) -> usize {
        RunOutcome::ALL
            .iter()
            .filter(|&&o| o.is_failure() && o != RunOutcome::Stale)
            .map(|&o| self.get(o))
            .sum()
    }

    /// The counts of `outcomes`, serialised as one JSON object keyed by
    /// each outcome's [name](RunOutcome::as_str), in the order given.
    #[must_use]
    pub fn named<'a>(&'a self, outcomes: &'a [RunOutcome]) -> NamedCounts<'a> {
        NamedCounts {
            counts: self,
            outcomes,
        }
    }
}

/// Counts keyed by outcome name ([`Counts::named`]).
#[derive(Clone, Copy, Debug)]
pub struct NamedCounts<'a> {
    counts: &'a Counts,
    outcomes: &'a [RunOutcome],
}

impl serde::Serialize for NamedCounts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(Some(self.outcomes.len()))?;
        for &outcome in self.outcomes {
            map.serialize_entry(outcome.as_str(), &self.counts.get(outcome))?;
        }
        map.end()
    }
}

/// Everything `run` produces.
#[derive(Clone, Debug)]
pub struct RunResults<'c> {
    /// One result per selected vector, in corpus order.
    pub results: Vec<VectorResult<'c>>,
    /// Outcome counts.
    pub counts: Counts,
    /// Wall time of the run.
    pub duration: Duration,
}

/// What to run and how to judge it.
#[derive(Clone, Debug)]
pub struct RunPlan<'c, 'x> {
    /// The vectors, in the order to send them.
    pub vectors: Vec<&'c Vector>,
    /// How to judge.
    pub judge: JudgeOptions,
    /// Vectors known to fail.
    pub expected_failures: Option<&'x ExpectedFailures>,
    /// Implementations to run side by side.
    pub jobs: NonZeroUsize,
}

/// Counts answered requests across jobs, for a progress display.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
}

impl Progress {
    /// Requests answered so far.
    #[must_use]
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
}

/// The one judging path (see the module docs): what `answer` to `vector`
/// comes to, under `judge` and `expected_failures`. The verdict is the
/// [judge's](judge::judge); the outcome sorts it as reports count it: a
/// listed failure is expected, a listed pass stale, a fault kept apart by
/// its kind, and whatever the answer, a vector the reference codec
/// disagrees with is a vector bug.
#[must_use]
pub fn judge_vector<'c>(
    vector: &'c Vector,
    answer: Answer,
    judge: JudgeOptions,
    expected_failures: Option<&ExpectedFailures>,
) -> VectorResult<'c> {
    let verdict = judge::judge(&vector.request, &vector.expect, &answer.reply, judge);
    let vector_bug = reference_disagreement(vector).map(Box::new);
    let expected_failure =
        expected_failures.and_then(|list| list.get(&vector.id).map(|entry| entry.reason.clone()));
    let outcome = match (&verdict, expected_failure.is_some()) {
        _ if vector_bug.is_some() => RunOutcome::VectorBug,
        (Verdict::Skip, _) => RunOutcome::Skipped,
        (Verdict::Pass, false) => RunOutcome::Passed,
        (Verdict::Pass, true) => RunOutcome::Stale,
        (Verdict::Fail(_), true) => RunOutcome::ExpectedFailure,
        (Verdict::Fail(Mismatch::Fault(fault)), false) => match fault.kind() {
            FaultKind::Crashed => RunOutcome::Crashed,
            FaultKind::TimedOut => RunOutcome::TimedOut,
            FaultKind::Malformed => RunOutcome::Malformed,
        },
        (Verdict::Fail(_), false) => RunOutcome::Failed,
    };
    VectorResult {
        vector,
        answer,
        verdict,
        outcome,
        vector_bug,
        expected_failure,
        passes_alone: None,
        checked_alone: false,
    }
}

/// Where the reference codec disagrees with `vector`, judged strictly: the
/// corpus must name the exact error codes the reference gives.
#[must_use]
pub fn reference_disagreement(vector: &Vector) -> Option<(Response, Mismatch)> {
    let response = reference::answer(&vector.request);
    match judge::judge(
        &vector.request,
        &vector.expect,
        &Ok(response.clone()),
        JudgeOptions {
            strict_errors: true,
        },
    ) {
        Verdict::Fail(m) => Some((response, m)),
        // The reference never answers `unsupported`.
        Verdict::Pass | Verdict::Skip => None,
    }
}

/// Splits `vectors` into contiguous ranges of `per` vectors, a range
/// running on past that to the end of a sequence it would cut.
fn split(vectors: &[&Vector], per: usize) -> Vec<std::ops::Range<usize>> {
    let per_job = per.max(1);
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < vectors.len() {
        let mut end = (start + per_job).min(vectors.len());
        while end < vectors.len() && vectors[end - 1].same_sequence(vectors[end]) {
            end += 1;
        }
        ranges.push(start..end);
        start = end;
    }
    ranges
}

impl RunPlan<'_, '_> {
    /// The ranges of [`RunPlan::vectors`] that [`run()`] gives one
    /// implementation each, in order: at most [`RunPlan::jobs`] contiguous
    /// ranges of about equal size, never cutting a `stateful` sequence.
    #[must_use]
    pub fn job_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let jobs = self.jobs.get().min(self.vectors.len().max(1));
        split(&self.vectors, self.vectors.len().div_ceil(jobs))
    }
}

/// Runs `plan`, starting one implementation per job with `start`.
///
/// # Errors
/// The first [`HarnessError`] any job hit; no verdict can be given then.
pub fn run<'c, I, F>(
    plan: &RunPlan<'c, '_>,
    start: F,
    progress: Option<&Progress>,
) -> Result<RunResults<'c>, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    let began = Instant::now();
    let vectors = &plan.vectors;
    let chunks = plan.job_ranges();
    let job = |chunk: &[&'c Vector]| answer_chunk(plan, start(), chunk, progress);
    let results: Vec<VectorResult<'c>> = if chunks.len() <= 1 {
        job(vectors)?
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|range| {
                    let chunk = &vectors[range.clone()];
                    scope.spawn(move || job(chunk))
                })
                .collect();
            let mut all = Vec::with_capacity(vectors.len());
            for handle in handles {
                match handle.join() {
                    Ok(results) => all.extend(results?),
                    // A job thread only panics on a bug in this crate;
                    // re-raise it rather than invent a verdict.
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            Ok::<_, HarnessError>(all)
        })?
    };
    Ok(RunResults {
        counts: Counts::of(&results),
        results,
        duration: began.elapsed(),
    })
}

/// One job of [`run()`]: sends `chunk` to `implementation` a batch at a
/// time, judging each batch as soon as it is answered.
fn answer_chunk<'c, I: Implementation>(
    plan: &RunPlan<'c, '_>,
    mut implementation: I,
    chunk: &[&'c Vector],
    progress: Option<&Progress>,
) -> Result<Vec<VectorResult<'c>>, HarnessError> {
    let judge_answer = |vector: &'c Vector, answer: Answer| {
        judge_vector(vector, answer, plan.judge, plan.expected_failures)
    };
    let mut results: Vec<VectorResult<'c>> = Vec::with_capacity(chunk.len());
    // A batch never cuts a sequence, so that the steps of each reach
    // the implementation in one call, marked as one.
    for range in split(chunk, BATCH) {
        let batch = &chunk[range];
        let queries: Vec<Query<'_>> = batch
            .iter()
            .map(|v| Query {
                id: &v.id,
                request: &v.request,
            })
            .collect();
        // The steps of each sequence: two or more consecutive vectors.
        let sequences: Vec<_> = split(batch, 1)
            .into_iter()
            .filter(|r| r.len() > 1)
            .collect();
        let answers = implementation.answer_sequences(&queries, &sequences)?;
        results.extend(
            batch
                .iter()
                .zip(answers)
                .map(|(&vector, answer)| judge_answer(vector, answer)),
        );
        if let Some(p) = progress {
            p.done.fetch_add(batch.len(), Ordering::Relaxed);
        }
    }
    // Output after the last answer answers no request: it fails the
    // request it followed, so the run cannot pass with it.
    if let Some(fault) = implementation.finish() {
        if let Some(last) = results.pop() {
            let answer = Answer {
                reply: Err(fault),
                raw: None,
                ..last.answer
            };
            results.push(judge_answer(last.vector, answer));
        }
    }
    Ok(results)
}

/// Replays one vector as `repro` does: `steps` (the vector after its
/// sequence's earlier steps, [`Corpus::steps_through`], as `run` sends
/// them, so a stateful bug `run` shows `repro` shows too) sent in order to
/// one fresh implementation from `start`, every answer judged by
/// [`judge_vector`]. The vector's result is the last of
/// [`RunResults::results`].
///
/// # Errors
/// The [`HarnessError`] that kept the implementation from answering.
///
/// [`Corpus::steps_through`]: wow_guid_vectors::Corpus::steps_through
pub fn reproduce<'c, I, F>(
    steps: &'c [Vector],
    start: F,
    judge: JudgeOptions,
    expected_failures: Option<&ExpectedFailures>,
) -> Result<RunResults<'c>, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    reproduce_after(&[], steps, start, judge, expected_failures)
}

/// [`reproduce`] after the vectors of `after`, in order, sent first to the
/// same implementation: `repro ID --after IDS` replays a failure that shows
/// only after earlier requests ([`PassesAlone::after`]) this way. Their
/// results come first, the vector's last.
///
/// # Errors
/// The [`HarnessError`] that kept the implementation from answering.
pub fn reproduce_after<'c, I, F>(
    after: &[&'c Vector],
    steps: &'c [Vector],
    start: F,
    judge: JudgeOptions,
    expected_failures: Option<&ExpectedFailures>,
) -> Result<RunResults<'c>, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    let plan = RunPlan {
        vectors: after.iter().copied().chain(steps).collect(),
        judge,
        expected_failures,
        jobs: NonZeroUsize::MIN,
    };
    run(&plan, start, None)
}
