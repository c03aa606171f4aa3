//! Failures that depend on earlier requests.
//!
//! In persistent mode a process answers many requests, so a failure may be
//! the work of an earlier request (a buffer or a mask kept between calls)
//! rather than of the vector it shows on. Sent alone to a fresh process, as
//! `repro ID` sends it, such a vector passes, and the reproduce line would
//! say PASS. So after a run, [`check`] sends a sample of the failures again,
//! each alone (after the earlier steps of its sequence, if it is a step of
//! one) to a fresh implementation. One that passes alone is marked
//! ([`PassesAlone`]), and the requests its process answered before it are
//! cut down ([`minimize_history`]) to a few after which it still fails the
//! same way (the same wrong answer, or a fault of the same cause) in a
//! fresh implementation: `repro ID --after IDS` replays exactly those.
//!
//! The sample is bounded ([`Budget`]): per cause (the report's grouping of
//! failures by signature) the first [`Budget::per_cause`] failures that had
//! earlier requests in their process, and a cause whose first checked
//! failure fails alone is checked no further; cutting down one history
//! takes at most about [`Budget::replays`] replays. The whole check is
//! bounded too, in proportion to the run it follows
//! ([`Budget::for_run`]): past its deadline or its number of replayed
//! requests, it stops ([`Checked::spent`]), and the failures it did not get
//! to stay unchecked ([`VectorResult::checked_alone`]). A failure that was the
//! first request of its process ran alone already and is not replayed, nor
//! is a timeout (a replay would cost a whole timeout) or a fault that shows
//! only with pipelined requests (checked alone already). This
//! module sits above `run` and `classify`, whose judging and search it
//! reuses, and prints nothing. Its search, [`minimize_history`], also cuts
//! down the requests before a fuzz finding.

use std::num::NonZeroUsize;
use std::ops::Range;
use std::time::{Duration, Instant};

use wow_guid_vectors::Vector;

use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{Fault, HarnessError, Implementation};
use wow_guid_harness::judge::{Mismatch, Verdict};
use wow_guid_harness::run::{self, PassesAlone, RunOutcome, RunPlan, RunResults, VectorResult};

/// How much checking failures alone may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Failures checked per cause, at most.
    pub per_cause: usize,
    /// Replays spent cutting down one failure's earlier requests, at most
    /// (plus the few a bisection of the requests before it takes).
    pub replays: usize,
    /// Requests replayed in all, at most: no failure is checked once they
    /// are spent.
    pub requests: usize,
    /// No failure is checked past this instant. The caller gives the
    /// implementations it starts the same deadline
    /// ([`ProcessConfig::deadline`](wow_guid_harness::process::ProcessConfig::deadline)),
    /// so that no replay runs past it either.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// 3 failures per cause, 24 replays per history, no bound on the whole.
    pub const DEFAULT: Self = Self {
        per_cause: 3,
        replays: 24,
        requests: usize::MAX,
        deadline: None,
    };

    /// How many times a run's own cost the whole check may spend, in time
    /// and in requests.
    pub const RUN_MULTIPLE: u32 = 2;
    /// The time the whole check may take after any run, however fast.
    pub const MIN_TIME: Duration = Duration::from_secs(5);
    /// The requests the whole check may replay after any run, however small.
    pub const MIN_REQUESTS: usize = 2_000;

    /// What `run` spends after a run of `requests` that took `took`:
    /// [`Budget::DEFAULT`]'s sample, and in all at most
    /// [`Budget::RUN_MULTIPLE`] times the run's time and requests (at least
    /// [`Budget::MIN_TIME`] and [`Budget::MIN_REQUESTS`]), counted from now.
    #[must_use]
    pub fn for_run(took: Duration, requests: usize) -> Self {
        let time = (took * Self::RUN_MULTIPLE).max(Self::MIN_TIME);
        Self {
            requests: (requests.saturating_mul(Self::RUN_MULTIPLE as usize))
                .max(Self::MIN_REQUESTS),
            deadline: Some(Instant::now() + time),
            ..Self::DEFAULT
        }
    }

    /// Whether the whole check's budget is spent, `requests` replayed so far.
    fn spent(&self, requests: usize) -> bool {
        requests >= self.requests || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What [`check`] did.
#[derive(Debug, Default)]
pub struct Checked {
    /// Failures sent again alone.
    pub checked: usize,
    /// Of those, the ones that passed alone.
    pub passed_alone: usize,
    /// Fresh implementations started for replays.
    pub replays: usize,
    /// Requests sent in those replays.
    pub requests: usize,
    /// The whole check's budget ([`Budget::requests`], [`Budget::deadline`])
    /// ran out: failures after that were not checked.
    pub spent: bool,
    /// The harness error that stopped the checks early, if one did; the
    /// run's own results stand.
    pub stopped: Option<HarnessError>,
}

/// The cause of a failure, as the report groups failures.
fn cause(result: &VectorResult<'_>) -> Option<Signature> {
    match &result.verdict {
        Verdict::Fail(mismatch) => Some(Signature::of(result.vector.request.kind(), mismatch)),
        Verdict::Pass | Verdict::Skip => None,
    }
}

/// Whether a failure with `outcome` is checked. Not a timeout: replaying
/// one costs a whole timeout, and a fault with requests in flight was sent
/// alone to a fresh process already (`process`).
const fn checked_outcome(outcome: RunOutcome) -> bool {
    matches!(
        outcome,
        RunOutcome::Failed | RunOutcome::Crashed | RunOutcome::Malformed
    )
}

/// For each result of `results` (in `plan` order), the requests its
/// process answered before it, outside its own sequence: the range of
/// `plan.vectors` from the start of its job, or the request after the last
/// fault (which restarts the process), to the first step of its sequence.
fn histories(plan: &RunPlan<'_, '_>, results: &[VectorResult<'_>]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(results.len());
    for job in plan.job_ranges() {
        let mut fresh = job.start;
        for i in job.clone() {
            out.push(fresh..sequence_start(plan, i, fresh));
            if results[i].answer.reply.is_err() {
                fresh = i + 1;
            }
        }
    }
    out
}

/// Where the sequence of `plan.vectors[i]` starts, `floor` at the earliest.
fn sequence_start(plan: &RunPlan<'_, '_>, i: usize, floor: usize) -> usize {
    let mut start = i;
    while start > floor && plan.vectors[start - 1].same_sequence(plan.vectors[i]) {
        start -= 1;
    }
    start
}

/// Sends `before`, then `steps`, to one fresh implementation from `start`,
/// and judges the last as `run` does; counts the requests in `requests`.
fn replay<'c, I, F>(
    plan: &RunPlan<'c, '_>,
    before: &[&'c Vector],
    steps: &[&'c Vector],
    start: &F,
    requests: &mut usize,
) -> Result<Option<VectorResult<'c>>, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    *requests += before.len() + steps.len();
    let replay = RunPlan {
        vectors: before.iter().chain(steps).copied().collect(),
        judge: plan.judge,
        expected_failures: plan.expected_failures,
        jobs: NonZeroUsize::MIN,
    };
    Ok(run::run(&replay, start, None)?.results.pop())
}

/// Checks a sample of the failures in `results` (the results of `plan`,
/// run with implementations from `start`) alone, as the module docs say,
/// and marks those that pass alone with [`PassesAlone`]. `persistent`:
/// whether one implementation answered many requests; when not (one-shot
/// mode), every request ran alone already and nothing is replayed.
pub fn check<'c, I, F>(
    plan: &RunPlan<'c, '_>,
    results: &mut RunResults<'c>,
    persistent: bool,
    start: F,
    budget: Budget,
) -> Checked
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    let mut checked = Checked::default();
    if !persistent || results.results.len() != plan.vectors.len() {
        // In one-shot mode every request ran alone already.
        for result in results.results.iter_mut().filter(|_| !persistent) {
            result.checked_alone = true;
        }
        return checked;
    }
    let histories = histories(plan, &results.results);
    let mut causes: Vec<Cause<'c>> = Vec::new();
    for (i, history) in histories.into_iter().enumerate() {
        let result = &results.results[i];
        // A fault that needs pipelining was checked alone already.
        let pipelined = matches!(result.answer.reply, Err(Fault::OnlyWhenPipelined { .. }));
        if history.is_empty() || pipelined {
            // Alone in its process already, or sent alone already.
            results.results[i].checked_alone = true;
            continue;
        }
        if !checked_outcome(result.outcome) {
            continue;
        }
        let Some(target) = cause(result) else {
            continue;
        };
        let slot = Cause::slot(&mut causes, target);
        let cause = &mut causes[slot];
        if cause.failed_alone || cause.checked >= budget.per_cause {
            continue;
        }
        if budget.spent(checked.requests) {
            checked.spent = true;
            break;
        }
        cause.checked += 1;
        let (hint, verdict) = (cause.after.clone(), result.verdict.clone());
        let found = check_one(
            plan,
            i,
            history,
            &verdict,
            hint,
            &start,
            budget,
            &mut checked,
        );
        match found {
            Ok(found) => record(
                &mut results.results[i],
                &mut causes[slot],
                found,
                &mut checked,
            ),
            // The deadline, the caller's implementations' too, cut a
            // replay short: the budget is spent.
            Err(error) if error.is_out_of_time() && budget.deadline.is_some() => {
                checked.spent = true;
                break;
            }
            Err(error) => {
                checked.stopped = Some(error);
                break;
            }
        }
    }
    checked
}

/// Marks `result`, checked alone, with what [`check_one`] `found`, and
/// notes it for its `cause`.
fn record<'c>(
    result: &mut VectorResult<'c>,
    cause: &mut Cause<'c>,
    found: Option<Option<Vec<&'c Vector>>>,
    checked: &mut Checked,
) {
    result.checked_alone = true;
    let Some(after) = found else {
        cause.failed_alone = true;
        return;
    };
    checked.passed_alone += 1;
    let ids = after
        .as_ref()
        .map(|vectors| vectors.iter().map(|v| v.id.clone()).collect());
    result.passes_alone = Some(Box::new(PassesAlone { after: ids }));
    if after.is_some() {
        cause.after = after;
    }
}

/// Whether `replayed` fails the way `failed` did: the same wrong answer
/// (so the reproduce line shows what the run showed), or a fault of the
/// same cause (a fault's evidence, such as a process's exit, may differ in
/// detail from one process to the next).
fn same_way(failed: &Verdict, replayed: &VectorResult<'_>) -> bool {
    match (failed, &replayed.verdict) {
        (Verdict::Fail(a @ Mismatch::Fault(_)), Verdict::Fail(b @ Mismatch::Fault(_))) => {
            let kind = replayed.vector.request.kind();
            Signature::of(kind, a) == Signature::of(kind, b)
        }
        (failed, replayed) => failed == replayed,
    }
}

/// What [`check`] knows of one cause.
struct Cause<'c> {
    signature: Signature,
    /// Failures checked.
    checked: usize,
    /// Whether one failed alone: the cause is checked no further.
    failed_alone: bool,
    /// The earlier requests found for the last failure that passed alone.
    after: Option<Vec<&'c Vector>>,
}

impl Cause<'_> {
    /// The index of `signature`'s entry in `causes`, added when missing.
    fn slot(causes: &mut Vec<Self>, signature: Signature) -> usize {
        if let Some(slot) = causes.iter().position(|c| c.signature == signature) {
            return slot;
        }
        causes.push(Cause {
            signature,
            checked: 0,
            failed_alone: false,
            after: None,
        });
        causes.len() - 1
    }
}

/// Checks `plan.vectors[i]`, which failed with `failed` after the requests
/// `history` in its process: `None` when it fails alone too, else the
/// earlier requests after which it fails again, if found. `hint`: those
/// found for another failure of the same cause, tried first when they are
/// all in `history` (one replay rather than a search).
#[allow(clippy::too_many_arguments)]
fn check_one<'c, I, F>(
    plan: &RunPlan<'c, '_>,
    i: usize,
    history: Range<usize>,
    failed: &Verdict,
    hint: Option<Vec<&'c Vector>>,
    start: &F,
    budget: Budget,
    checked: &mut Checked,
) -> Result<Option<Option<Vec<&'c Vector>>>, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    checked.checked += 1;
    // The earlier steps of its sequence and the vector, in order.
    let steps = &plan.vectors[sequence_start(plan, i, 0)..=i];
    checked.replays += 1;
    let alone = replay(plan, &[], steps, start, &mut checked.requests)?;
    if !alone.is_some_and(|a| matches!(a.verdict, Verdict::Pass)) {
        return Ok(None);
    }
    let mut replays = 0;
    let mut requests = checked.requests;
    let mut reproduces = |before: &[&'c Vector]| -> Result<bool, HarnessError> {
        replays += 1;
        let result = replay(plan, before, steps, start, &mut requests)?;
        Ok(result.is_some_and(|r| same_way(failed, &r)))
    };
    let history = &plan.vectors[history];
    let in_history = |hint: &[&Vector]| {
        hint.iter()
            .all(|h| history.iter().any(|v| std::ptr::eq(*v, *h)))
    };
    if let Some(hint) = hint.filter(|hint| in_history(hint)) {
        let found = reproduces(&hint);
        if found.as_ref().is_ok_and(|&found| found) {
            checked.replays += replays;
            checked.requests = requests;
            return Ok(Some(Some(hint)));
        }
        found?;
    }
    let limits = Limits {
        max_tests: budget.replays,
        max_time: Duration::from_secs(60),
        deadline: None,
    };
    let after = minimize_history(history, &mut reproduces, &limits);
    checked.replays += replays;
    checked.requests = requests;
    Ok(Some(after?))
}

/// How much work a search may take: cutting down the earlier requests a
/// failure needs ([`minimize_history`]), or shrinking a fuzz finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Candidate requests tested, at most.
    pub max_tests: usize,
    /// Time spent, at most (checked between batches).
    pub max_time: Duration,
    /// The end of the whole run's time budget: shrinking stops there, even
    /// in the middle of a batch (the implementation then answers
    /// [`HarnessError::is_out_of_time`]).
    pub deadline: Option<Instant>,
}

impl Limits {
    /// The limits `fuzz` uses unless told otherwise.
    pub const DEFAULT: Self = Self {
        max_tests: 200_000,
        max_time: Duration::from_secs(30),
        deadline: None,
    };

    /// Whether [`Limits::deadline`] has passed.
    #[must_use]
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// `Ok(None)` for [`HarnessError::is_out_of_time`]: the run's time is up, which
/// ends a search early rather than failing it.
pub fn unless_out_of_time<T>(result: Result<T, HarnessError>) -> Result<Option<T>, HarnessError> {
    match result {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.is_out_of_time() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Finds a short sublist of `history`, in its order, for which `reproduces`
/// holds (a failure still shows after those earlier requests): `None` when it
/// does not hold for the whole `history` (or that is empty). The one search
/// behind `run`'s failures that show only after earlier requests ([`check`])
/// and the fuzzer's findings in an implementation that keeps state.
///
/// The shortest sufficient tail of `history` is found by doubling and
/// bisection (state is most often left by the requests just before), then
/// each element in it is dropped if the rest still suffices, while
/// `limits` allow. When the run's time runs out
/// ([`HarnessError::is_out_of_time`]) before the shortest sufficient tail is
/// known, that error is returned; after, the list as cut down by then.
///
/// # Errors
/// The first error `reproduces` returns, as above.
pub fn minimize_history<T: Clone>(
    history: &[T],
    reproduces: &mut dyn FnMut(&[T]) -> Result<bool, HarnessError>,
    limits: &Limits,
) -> Result<Option<Vec<T>>, HarnessError> {
    let started = Instant::now();
    let runs = std::cell::Cell::new(0usize);
    let mut reproduces = |prefix: &[T]| {
        runs.set(runs.get() + 1);
        reproduces(prefix)
    };
    if history.is_empty() || !reproduces(history)? {
        return Ok(None);
    }
    let tail = |n: usize| &history[history.len() - n..];
    // The shortest tail that suffices, assuming a longer tail never hurts.
    let (mut lo, mut hi) = (0, 1);
    while hi < history.len() && !reproduces(tail(hi))? {
        lo = hi;
        hi = (hi * 2).min(history.len());
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if reproduces(tail(mid))? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let mut prefix = tail(hi).to_vec();
    let mut i = 0;
    while i < prefix.len() && prefix.len() > 1 {
        if runs.get() >= limits.max_tests
            || started.elapsed() >= limits.max_time
            || limits.past_deadline()
        {
            break;
        }
        let mut without = prefix.clone();
        without.remove(i);
        let Some(reproduces) = unless_out_of_time(reproduces(&without))? else {
            break;
        };
        if reproduces {
            prefix = without;
        } else {
            i += 1;
        }
    }
    Ok(Some(prefix))
}
