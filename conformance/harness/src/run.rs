//! The core of `run`: send the selected vectors to implementations, judge
//! every answer, and sort each vector into an [`RunOutcome`]. Every answer to a
//! vector is judged by [`judge_vector`], here alone: `run` ([`run()`]),
//! `repro` ([`reproduce`]) and `matrix` (through [`run()`]) give one verdict
//! for one answer.
//!
//! Work is split into `jobs` contiguous chunks, one implementation each, so
//! vectors that only make sense in sequence (an encoder that must not keep
//! state between calls) stay in order within their chunk, and results come
//! back in corpus order whatever the number of jobs. Every vector is also
//! judged against the reference codec, in this process: a vector the
//! reference disagrees with is a bug in the corpus, reported apart from the
//! implementation's failures. Each batch of answers is judged as soon as it
//! arrives, so a run of a large corpus holds one result per vector (a
//! reference to the vector, the answer and the verdict, rare evidence boxed)
//! and never the answers beside the results. This module does no printing;
//! see [`crate::report`].

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
    /// The answer is a wrong one (a wrong value, an error for a valid input,
    /// a value for an invalid one), and the vector is not listed as an
    /// expected failure.
    Failed,
    /// The implementation's process ended (or its output could not be read)
    /// before it answered, and the vector is not listed as an expected
    /// failure.
    Crashed,
    /// No answer within the time limit, and the vector is not listed as an
    /// expected failure.
    TimedOut,
    /// A line came back that is not a response to the request (garbage, a
    /// wrong id, an over-long line, a fault only with pipelining), and the
    /// vector is not listed as an expected failure.
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
    /// does not satisfy the vector. Boxed: it is rare, and a run holds one
    /// result per vector.
    pub vector_bug: Option<Box<(Response, Mismatch)>>,
    /// The reason given in the expected-failure list, if the vector is listed.
    pub expected_failure: Option<Option<std::sync::Arc<str>>>,
    /// Set on a failure that does not show when the vector is sent alone
    /// (see [`PassesAlone`]); `None` for every other result, and for
    /// failures that were not checked. Boxed: it is rare.
    pub passes_alone: Option<Box<PassesAlone>>,
    /// Whether the vector is known to fail (or pass) the same way alone:
    /// it was the first request of its process, or was sent alone again
    /// (one-shot mode, `run`'s check of failures alone). A failure that
    /// was not is unchecked: it may need earlier
    /// requests, and its reproduce line may pass.
    pub checked_alone: bool,
}

/// The suffix of a read-back's id, `<encode vector's id>.read-back`: the
/// vector that sends an implementation the decode request of what it
/// answered to that encode vector, and expects the value encoded back
/// (`wow-guid-testkit`'s `round_trip` makes them, and `run` sends them
/// after the corpus). Reports count read-backs apart from the corpus's
/// vectors, and group the ones that fail under causes of their own.
pub const READ_BACK: &str = ".read-back";

impl VectorResult<'_> {
    /// Whether this is the result of a read-back ([`READ_BACK`]).
    #[must_use]
    pub(crate) fn is_read_back(&self) -> bool {
        self.vector.id.ends_with(READ_BACK)
    }
}

/// A failure that does not show when the vector is sent alone to a fresh
/// implementation (after the earlier steps of its sequence, if it is a
/// step of one): it shows only after earlier requests, so the
/// implementation carries state from one request to the next. `run` checks
/// a sample of its failures for this after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassesAlone {
    /// Earlier requests, as vector ids in the order to send them, after
    /// which the vector fails the same way (the same wrong answer, or a
    /// fault of the same cause) in a fresh
    /// implementation: cut down from every request its process answered
    /// before it. `None` when even all of those, replayed, did not make it
    /// fail the same way (the failure depends on something else, timing
    /// say).
    pub after: Option<Vec<String>>,
}

/// The outcome vocabulary, one row per [`RunOutcome`] in declaration (and
/// report) order: its name in reports, its label, its heading over counts,
/// its mark. Every output format takes its words from here.
const WORDS: [(&str, &str, &str, &str); RunOutcome::ALL.len()] = [
    ("pass", "passed", "passed", "✓"),
    ("fail", "failed", "failed", "✗"),
    ("crashed", "crashed", "crashed", "☠"),
    ("timed_out", "timed out", "timed out", "T"),
    ("malformed", "malformed", "malformed", "?"),
    ("skip", "skipped", "skipped", "–"),
    ("xfail", "expected failure", "expected failures", "x"),
    ("stale", "stale", "stale", "s"),
    ("vector_bug", "vector bug", "vector bugs", "!"),
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
        [
            RunOutcome::Failed,
            RunOutcome::Crashed,
            RunOutcome::TimedOut,
            RunOutcome::Malformed,
        ]
        .iter()
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

/// The one judging path: what `answer` to `vector` comes to, under `judge`
/// and with the expected failures in `expected_failures`. `run` judges
/// every vector here, and so do `repro` ([`reproduce`]) and `matrix`
/// (through [`run`]), so the three give one verdict for one answer.
///
/// The verdict is the [judge's](judge::judge); the outcome sorts it as the
/// reports count it: a failure of a listed vector is an expected failure, a
/// pass of a listed vector is stale, a fault is kept apart from a wrong
/// answer by its kind, and whatever the implementation said, a vector the
/// reference codec disagrees with is a vector bug.
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

/// Splits `vectors` into at most `jobs` contiguous ranges of about equal
/// size, never cutting a `stateful` sequence.
fn chunks(vectors: &[&Vector], jobs: usize) -> Vec<std::ops::Range<usize>> {
    split(vectors, vectors.len().div_ceil(jobs.max(1)).max(1))
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

/// The ranges of `vectors` that are the steps of one sequence (two or more
/// consecutive vectors with the same `sequence`).
fn sequences(vectors: &[&Vector]) -> Vec<std::ops::Range<usize>> {
    split(vectors, 1)
        .into_iter()
        .filter(|range| range.len() > 1)
        .collect()
}

impl RunPlan<'_, '_> {
    /// The ranges of [`RunPlan::vectors`] that [`run()`] gives one
    /// implementation each, in order: at most [`RunPlan::jobs`] contiguous
    /// ranges of about equal size, never cutting a `stateful` sequence.
    #[must_use]
    pub fn job_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let jobs = self.jobs.get().min(self.vectors.len().max(1));
        chunks(&self.vectors, jobs)
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
/// time and judges each batch as soon as it is answered, so a run holds one
/// result per vector and never all the answers beside them.
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
        let answers = implementation.answer_sequences(&queries, &sequences(batch))?;
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

/// Replays one vector as `repro` does: `steps` (the vector, after the steps
/// of its sequence before it: [`Corpus::steps_through`]) sent in order to
/// one fresh implementation from `start`, every answer judged by
/// [`judge_vector`], as [`run`] judges it. The vector's result is the last
/// of [`RunResults::results`]; the steps' come before it.
///
/// A vector of a sequence is judged after the steps before it, as `run`
/// sends them, so a stateful bug that `run` shows, `repro` shows too.
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

/// [`reproduce`] after earlier requests: the vectors of `after`, in order,
/// then `steps`, sent to one fresh implementation from `start`, every
/// answer judged by [`judge_vector`]. `repro ID --after IDS` replays a
/// failure that shows only after earlier requests
/// ([`PassesAlone::after`]) this way. The results of `after` come first,
/// the vector's last.
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
