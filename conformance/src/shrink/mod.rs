//! Shrinking a disagreeing request to a minimal one that disagrees the same
//! way.
//!
//! Requests are ordered by size ([`key`]): a decode input by its length, then
//! its bytes compared in order (fewer bytes first, then smaller bytes from
//! the front); a packed encode by how many GUID bytes are non-zero, then the
//! GUID; a named encode by its name (none, then shorter, then smaller), then
//! its GUID likewise; a size request as the encode of its value. The
//! shrinker only ever moves to a strictly smaller request whose
//! [`Signature`] is unchanged, so it ends, and it ends on the same bug
//! rather than on some other, smaller disagreement.
//!
//! Each round goes through the requests one edit away from the current one
//! that are smaller, smallest first ([`neighbours`], which makes each only
//! when its turn comes), testing them in batches (one implementation, many
//! requests in flight) and moving to the smallest that still disagrees.
//! The edits:
//!
//! - cut the input short at any point; delete a window of 1 to 4 bytes
//!   anywhere (a whole UTF-8 character), or a power-of-two window;
//! - for a packed decode, clear a mask bit together with its byte, or move a
//!   byte to a lower bit;
//! - set a window of bytes to `00` or `01` (a name of `01`s stays valid
//!   UTF-8 without NULs); lower single bytes (to every smaller value in short
//!   inputs, to a few landmarks in long ones);
//! - for a GUID, zero a byte, keep a single byte, move it lower, shift,
//!   or lower any byte.
//!
//! The wider neighbourhood, tried when none of those works, lowers one byte
//! and at the same time sets a later byte to `00 01 7f 80 ff` or a UTF-8
//! lead byte. It is what turns `10 01` (bit 4 shifted modulo 32) into
//! `08 80` (bit 3 sign-extended), which no single lowering edit reaches.
//!
//! An implementation that keeps state between calls may disagree only after
//! certain other requests. [`minimize_prefix`] finds a short list of earlier
//! requests that is enough, replaying sequences in fresh implementations,
//! and [`AfterPrefix`] then shrinks the request (and each request before it)
//! with fresh implementations too. This module drives implementations
//! through [`Implementation`] only, and writes nothing.

use std::time::Instant;

mod candidates;
mod edits;

use wow_guid_vectors::Request;

use crate::disagreement::Disagreement;
use crate::disagreement::{check, Check};
use crate::history::{minimize_history, unless_out_of_time, Limits};
pub use candidates::{candidates, key, neighbours, Key};
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{HarnessError, Implementation, Query};
use wow_guid_harness::judge::JudgeOptions;

/// The byte values that find bugs, which the request generators draw too.
pub use wow_guid_testkit::generate::INTERESTING_BYTES;

/// Tests candidate requests: for each, how it disagrees with the reference,
/// if it does.
pub trait Tester {
    /// Tests `candidates`, in order.
    ///
    /// # Errors
    /// [`HarnessError`] when the implementation cannot be run.
    fn test(&mut self, candidates: &[Request]) -> Result<Vec<Option<Disagreement>>, HarnessError>;

    /// How many candidates are best tested at once.
    fn batch_size(&self) -> usize;
}

fn disagreement(
    request: &Request,
    reply: &Result<wow_guid_harness::protocol::Response, wow_guid_harness::implementation::Fault>,
    options: JudgeOptions,
) -> Option<Disagreement> {
    match check(request, reply, options) {
        Check::Disagrees(d) => Some(d),
        Check::Agrees | Check::Unsupported => None,
    }
}

/// `requests` as queries with the ids `ids`, in order.
pub(crate) fn queries<'a>(ids: &'a [String], requests: &'a [Request]) -> Vec<Query<'a>> {
    ids.iter()
        .zip(requests)
        .map(|(id, request)| Query { id, request })
        .collect()
}

/// `n` ids: `prefix` and a number, from 0.
pub(crate) fn ids(prefix: char, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// Tests candidates as single requests to one implementation, many at a time:
/// right for implementations whose answers do not depend on earlier requests.
/// The implementation comes from `launch` at the first test; it must keep
/// answering through crashes (shrinking a crash sends little but crashing
/// requests), as a process implementation without liveness checks does.
pub struct OneImplementation<'l, I> {
    launch: &'l mut dyn FnMut() -> I,
    current: Option<I>,
    options: JudgeOptions,
}

impl<'l, I: Implementation> OneImplementation<'l, I> {
    /// A tester over implementations from `launch` (started at the first test).
    pub fn new(launch: &'l mut dyn FnMut() -> I, options: JudgeOptions) -> Self {
        Self {
            launch,
            current: None,
            options,
        }
    }

    /// The implementation, started at the first call; and how to judge.
    pub(crate) fn implementation(&mut self) -> (&mut I, JudgeOptions) {
        let launch = &mut self.launch;
        (self.current.get_or_insert_with(launch), self.options)
    }
}

impl<I: Implementation> Tester for OneImplementation<'_, I> {
    fn test(&mut self, candidates: &[Request]) -> Result<Vec<Option<Disagreement>>, HarnessError> {
        let ids = ids('s', candidates.len());
        let (current, options) = self.implementation();
        let answers = current.answer_all(&queries(&ids, candidates))?;
        Ok(answers
            .iter()
            .zip(candidates)
            .map(|(a, r)| disagreement(r, &a.reply, options))
            .collect())
    }

    fn batch_size(&self) -> usize {
        512
    }
}

/// Runs `sequence` in a fresh implementation from `launch` and returns how
/// its last request disagrees, if it does.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn replay<I: Implementation>(
    launch: &mut dyn FnMut() -> I,
    sequence: &[Request],
    options: JudgeOptions,
) -> Result<Option<Disagreement>, HarnessError> {
    let Some(last) = sequence.last() else {
        return Ok(None);
    };
    let ids = ids('r', sequence.len());
    let mut implementation = launch();
    let answers = implementation.answer_all(&queries(&ids, sequence))?;
    Ok(answers
        .last()
        .and_then(|a| disagreement(last, &a.reply, options)))
}

/// Tests each candidate in a fresh implementation, after a fixed list of
/// earlier requests: right for implementations that keep state.
pub struct AfterPrefix<'l, I> {
    launch: &'l mut dyn FnMut() -> I,
    /// The requests sent before each candidate.
    pub prefix: Vec<Request>,
    /// Requests after the candidate (when shrinking a request of the prefix,
    /// the rest of the sequence; the last one is judged).
    pub suffix: Vec<Request>,
    options: JudgeOptions,
}

impl<'l, I: Implementation> AfterPrefix<'l, I> {
    /// A tester that sends `prefix`, then the candidate, then `suffix`, to a
    /// fresh implementation from `launch`, and judges the last request.
    pub fn new(
        launch: &'l mut dyn FnMut() -> I,
        prefix: Vec<Request>,
        suffix: Vec<Request>,
        options: JudgeOptions,
    ) -> Self {
        Self {
            launch,
            prefix,
            suffix,
            options,
        }
    }
}

impl<I: Implementation> Tester for AfterPrefix<'_, I> {
    fn test(&mut self, candidates: &[Request]) -> Result<Vec<Option<Disagreement>>, HarnessError> {
        let mut out = Vec::with_capacity(candidates.len());
        for c in candidates {
            let mut sequence = self.prefix.clone();
            sequence.push(c.clone());
            sequence.extend(self.suffix.iter().cloned());
            out.push(replay(self.launch, &sequence, self.options)?);
        }
        Ok(out)
    }

    fn batch_size(&self) -> usize {
        1
    }
}

/// The result of shrinking.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smallest request found that disagrees the same way.
    pub request: Request,
    /// How it disagrees.
    pub disagreement: Disagreement,
    /// Moves to a smaller request.
    pub steps: usize,
    /// Candidates tested.
    pub tests: usize,
    /// False when a limit stopped the search before no edit worked any more.
    pub complete: bool,
    /// True when the limit was the run's time budget.
    pub out_of_time: bool,
}

/// Shrinks `request`, which disagrees as `found` says, with `tester`,
/// within `limits`.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn shrink(
    request: Request,
    found: Disagreement,
    tester: &mut dyn Tester,
    limits: &Limits,
) -> Result<Shrunk, HarnessError> {
    let started = Instant::now();
    let target = found.signature;
    // A hang costs a whole timeout per candidate: test one at a time and
    // stop at the first that still hangs.
    let batch = if target.is_timeout() {
        1
    } else {
        tester.batch_size().max(1)
    };
    let mut shrunk = Shrunk {
        request,
        disagreement: found,
        steps: 0,
        tests: 0,
        complete: true,
        out_of_time: false,
    };
    if !target.is_about_one_request() {
        return Ok(shrunk);
    }
    'search: loop {
        for wide in [false, true] {
            let mut all = neighbours(&shrunk.request, wide);
            loop {
                // Made a batch at a time: the search mostly moves on long
                // before the last of a long input's candidates.
                let chunk: Vec<Request> = all.by_ref().take(batch).collect();
                if chunk.is_empty() {
                    break;
                }
                if shrunk.tests >= limits.max_tests
                    || started.elapsed() >= limits.max_time
                    || limits.past_deadline()
                {
                    shrunk.complete = false;
                    shrunk.out_of_time = limits.past_deadline();
                    break 'search;
                }
                let Some(results) = unless_out_of_time(tester.test(&chunk))? else {
                    shrunk.complete = false;
                    shrunk.out_of_time = true;
                    break 'search;
                };
                shrunk.tests += chunk.len();
                let better = results
                    .into_iter()
                    .zip(chunk)
                    .find_map(|(d, c)| d.filter(|d| d.signature == target).map(|d| (c, d)));
                if let Some((c, d)) = better {
                    shrunk.request = c;
                    shrunk.disagreement = d;
                    shrunk.steps += 1;
                    continue 'search;
                }
            }
        }
        break;
    }
    Ok(shrunk)
}

/// Finds a short list of earlier requests after which `request` still
/// disagrees as `target` in a fresh implementation: `None` when even the
/// whole `history` is not enough (the disagreement depends on something else,
/// timing say). The search, and what the run's time running out does to it,
/// are [`minimize_history`]'s.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn minimize_prefix<I: Implementation>(
    launch: &mut dyn FnMut() -> I,
    history: &[Request],
    request: &Request,
    target: Signature,
    options: JudgeOptions,
    limits: &Limits,
) -> Result<Option<Vec<Request>>, HarnessError> {
    let mut reproduces = |prefix: &[Request]| {
        let mut sequence = prefix.to_vec();
        sequence.push(request.clone());
        replay(launch, &sequence, options).map(|d| d.is_some_and(|d| d.signature == target))
    };
    minimize_history(history, &mut reproduces, limits)
}
