//! Shrinking a disagreeing request to a minimal one that disagrees the same
//! way.
//!
//! Requests are ordered by size ([`key`]): a decode input by its length, then
//! its bytes compared in order (fewer bytes first, then smaller bytes from
//! the front); a packed encode by how many GUID bytes are non-zero, then the
//! GUID; a named encode by its name (none, then shorter, then smaller), then
//! its GUID likewise. The shrinker only ever moves to a strictly smaller
//! request whose [`Signature`] is unchanged, so it ends, and it ends on the
//! same bug rather than on some other, smaller disagreement.
//!
//! Each round builds every candidate one edit away from the current request,
//! keeps those that are smaller, sorts them smallest first and tests them in
//! batches (one implementation, many requests in flight), moving to the
//! smallest that still disagrees:
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
//! When no such edit works, a second, larger neighbourhood is tried: lower
//! one byte and at the same time set a later byte to `00 01 7f 80 ff`. It
//! is what turns `10 01` (bit 4 shifted modulo 32) into `08 80` (bit 3
//! sign-extended), which no single lowering edit reaches.
//!
//! An implementation that keeps state between calls may disagree only after
//! certain other requests. [`minimize_prefix`] finds a short list of earlier
//! requests that is enough, replaying sequences in fresh implementations,
//! and [`AfterPrefix`] then shrinks the request (and each request before it)
//! with fresh implementations too. This module drives implementations
//! through [`Implementation`] only, and writes nothing.

use std::time::Instant;

use wow_guid_vectors::Request;

use crate::disagreement::Disagreement;
use crate::disagreement::{check, Check};
use crate::history::{minimize_history, unless_out_of_time, Limits};
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{HarnessError, Implementation, Query};
use wow_guid_harness::judge::JudgeOptions;

/// The byte values that find bugs, which the request generators draw too.
pub use wow_guid_testkit::generate::INTERESTING_BYTES;

/// The values a byte is set to when another is lowered: the interesting
/// bytes, and the smallest lead byte of each multi-byte UTF-8 length, so a
/// character can be traded for a smaller one of another length.
const RAISED_BYTES: [u8; 8] = raised_bytes();

const fn raised_bytes() -> [u8; 8] {
    const UTF8_LEADS: [u8; 3] = [0xc2, 0xe0, 0xf0];
    let mut out = [0; 8];
    let mut i = 0;
    while i < INTERESTING_BYTES.len() {
        out[i] = INTERESTING_BYTES[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = UTF8_LEADS[i - INTERESTING_BYTES.len()];
        i += 1;
    }
    out
}

/// Bytes lowered at most in one round of pair edits.
const PAIR_POSITIONS: usize = 64;

/// Inputs at most this long have every smaller value tried at every byte.
const EXHAUSTIVE_LOWERING_LEN: usize = 12;

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

fn queries<'a>(ids: &'a [String], requests: &'a [Request]) -> Vec<Query<'a>> {
    ids.iter()
        .zip(requests)
        .map(|(id, request)| Query { id, request })
        .collect()
}

fn ids(prefix: char, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// Tests candidates as single requests to one implementation, many at a
/// time: right for implementations whose answers do not depend on earlier
/// requests. The implementation comes from `launch` at the first test; it
/// must keep answering through crashes (shrinking a crash sends little but
/// crashing requests), as a process implementation without liveness checks
/// does.
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
}

impl<I: Implementation> Tester for OneImplementation<'_, I> {
    fn test(&mut self, candidates: &[Request]) -> Result<Vec<Option<Disagreement>>, HarnessError> {
        let ids = ids('s', candidates.len());
        let Self {
            launch,
            current,
            options,
        } = self;
        let current = match current {
            Some(c) => c,
            None => current.insert(launch()),
        };
        let answers = current.answer_all(&queries(&ids, candidates))?;
        Ok(answers
            .iter()
            .zip(candidates)
            .map(|(a, r)| disagreement(r, &a.reply, *options))
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

/// The order requests are shrunk in (see the module docs); smaller first.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    present: bool,
    len: usize,
    bytes: Vec<u8>,
    guid_bytes: u32,
    guid: u64,
}

fn non_zero_bytes(guid: u64) -> u32 {
    guid.to_le_bytes().iter().filter(|&&b| b != 0).count() as u32
}

/// The size of `request` in the shrinker's order.
#[must_use]
pub fn key(request: &Request) -> Key {
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => Key {
            present: true,
            len: bytes.len(),
            bytes: bytes.clone(),
            guid_bytes: 0,
            guid: 0,
        },
        Request::EncodePacked { guid } | Request::SizePacked { guid } => Key {
            present: false,
            len: 0,
            bytes: Vec::new(),
            guid_bytes: non_zero_bytes(*guid),
            guid: *guid,
        },
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => Key {
            present: name.is_some(),
            len: name.as_ref().map_or(0, Vec::len),
            bytes: name.clone().unwrap_or_default(),
            guid_bytes: non_zero_bytes(*guid),
            guid: *guid,
        },
    }
}

/// The values below `b` worth trying: all of them, or a few landmarks.
fn lowered(b: u8, all: bool) -> Vec<u8> {
    if all {
        return (0..b).collect();
    }
    let mut v: Vec<u8> = [0, 1, b / 2, b.wrapping_sub(1), 0x20, 0x41, 0x7f, 0x80]
        .into_iter()
        .filter(|&w| w < b)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Window sizes for deleting and setting: every small one, and powers of two.
fn window_sizes(len: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (1..=4).filter(|&s| s <= len).collect();
    let mut s = 8;
    while s < len {
        sizes.push(s);
        s *= 2;
    }
    sizes
}

/// Where windows of `size` start: everywhere for small windows, at half-size
/// steps (and flush with the end) for large ones.
fn window_starts(len: usize, size: usize) -> Vec<usize> {
    if size > len {
        return Vec::new();
    }
    if size <= 4 {
        return (0..=len - size).collect();
    }
    let mut starts: Vec<usize> = (0..=len - size).step_by(size / 2).collect();
    starts.push(len - size);
    starts
}

fn byte_edits(b: &[u8], out: &mut Vec<Vec<u8>>, stop: &dyn Fn() -> bool) {
    let len = b.len();
    if len <= 64 {
        out.extend((0..len).map(|n| b[..n].to_vec()));
    } else {
        let mut n = len / 2;
        while n > 0 {
            out.push(b[..n].to_vec());
            n /= 2;
        }
        out.push(Vec::new());
        out.extend((1..=4).map(|d| b[..len - d].to_vec()));
    }
    for size in window_sizes(len) {
        for (k, start) in window_starts(len, size).into_iter().enumerate() {
            // Every few windows: a long input has thousands of each size,
            // each a copy of the whole input.
            if k % 64 == 0 && stop() {
                return;
            }
            let mut c = b[..start].to_vec();
            c.extend_from_slice(&b[start + size..]);
            out.push(c);
            if size >= 2 {
                for v in [0x00, 0x01] {
                    let mut c = b.to_vec();
                    c[start..start + size].fill(v);
                    out.push(c);
                }
            }
        }
    }
    let all = len <= EXHAUSTIVE_LOWERING_LEN;
    for i in 0..len {
        if i % 64 == 0 && stop() {
            return;
        }
        for w in lowered(b[i], all) {
            let mut c = b.to_vec();
            c[i] = w;
            out.push(c);
        }
    }
}

/// Lower one byte and set a later one to an interesting value. The bytes
/// lowered are the first few and those not already `00` or `01`, which in a
/// long input that has been through the usual edits are the few that matter.
fn byte_pair_edits(b: &[u8], out: &mut Vec<Vec<u8>>, stop: &dyn Fn() -> bool) {
    let len = b.len();
    let all = len <= 4;
    let positions = (0..len)
        .filter(|&i| i < 16 || b[i] > 1)
        .take(PAIR_POSITIONS);
    for i in positions {
        if stop() {
            return;
        }
        for w in lowered(b[i], all) {
            for j in i + 1..len.min(i + 9) {
                for x in RAISED_BYTES {
                    if x != b[j] {
                        let mut c = b.to_vec();
                        c[i] = w;
                        c[j] = x;
                        out.push(c);
                    }
                }
            }
        }
    }
}

/// Edits that keep a packed input well formed: a mask bit goes with its byte.
fn packed_edits(b: &[u8], out: &mut Vec<Vec<u8>>) {
    let Some((&mask, rest)) = b.split_first() else {
        return;
    };
    let n = mask.count_ones() as usize;
    if rest.len() < n {
        return;
    }
    let (data, trailing) = rest.split_at(n);
    let mut slots = [None; 8];
    let mut next = data.iter();
    for (bit, slot) in slots.iter_mut().enumerate() {
        if mask & (1 << bit) != 0 {
            *slot = next.next().copied();
        }
    }
    let encode = |slots: &[Option<u8>; 8]| {
        let mut c = vec![0];
        for (bit, slot) in slots.iter().enumerate() {
            if let Some(byte) = slot {
                c[0] |= 1 << bit;
                c.push(*byte);
            }
        }
        c.extend_from_slice(trailing);
        c
    };
    for bit in 0..8 {
        if slots[bit].is_none() {
            continue;
        }
        let mut cleared = slots;
        cleared[bit] = None;
        out.push(encode(&cleared));
        for lower in 0..bit {
            if slots[lower].is_none() {
                let mut moved = cleared;
                moved[lower] = slots[bit];
                out.push(encode(&moved));
            }
        }
    }
}

fn guid_edits(g: u64, out: &mut Vec<u64>) {
    out.extend([0, 1, g >> 1, g.saturating_sub(1)]);
    out.extend((1..8).map(|k| g >> (8 * k)));
    let bytes = g.to_le_bytes();
    for i in 0..8 {
        let b = bytes[i];
        if b == 0 {
            continue;
        }
        let mut zeroed = bytes;
        zeroed[i] = 0;
        out.push(u64::from_le_bytes(zeroed));
        for to in 0..=i {
            out.push(u64::from(b) << (8 * to));
            if bytes[to] == 0 {
                let mut moved = zeroed;
                moved[to] = b;
                out.push(u64::from_le_bytes(moved));
            }
        }
        for w in lowered(b, true) {
            let mut c = bytes;
            c[i] = w;
            out.push(u64::from_le_bytes(c));
        }
    }
}

/// Lower a byte and set a less significant one to an interesting value.
fn guid_pair_edits(g: u64, out: &mut Vec<u64>) {
    let bytes = g.to_le_bytes();
    for i in 0..8 {
        for w in lowered(bytes[i], false) {
            for j in 0..i {
                for x in INTERESTING_BYTES {
                    let mut c = bytes;
                    c[i] = w;
                    c[j] = x;
                    out.push(u64::from_le_bytes(c));
                }
            }
        }
    }
}

/// Every request one edit away from `request` that is smaller, smallest
/// first, without repeats. `wide` asks for the larger neighbourhood (pairs
/// of edits) instead of the usual one.
#[must_use]
pub fn candidates(request: &Request, wide: bool) -> Vec<Request> {
    candidates_until(request, wide, None)
}

/// [`candidates`], given up (empty) once `deadline` has passed: for a long
/// input the neighbourhood is large (an 8 KiB name has about 160,000
/// candidates, each a copy of it), and building it is work the time limits
/// bound too.
/// A size request shrinks as the encode of its value does.
fn candidates_until(request: &Request, wide: bool, deadline: Option<Instant>) -> Vec<Request> {
    if let Some(encode) = request.measured() {
        return candidates_until(&encode, wide, deadline)
            .iter()
            .filter_map(Request::size_request)
            .collect();
    }
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let bytes_of = |b: &[u8]| {
        let mut out = Vec::new();
        if wide {
            byte_pair_edits(b, &mut out, &stop);
        } else {
            byte_edits(b, &mut out, &stop);
        }
        out
    };
    let guids_of = |g: u64| {
        let mut out = Vec::new();
        if wide {
            guid_pair_edits(g, &mut out);
        } else {
            guid_edits(g, &mut out);
        }
        out
    };
    let all: Vec<Request> = match request {
        Request::DecodePacked { bytes } => {
            let mut edits = bytes_of(bytes);
            if !wide {
                packed_edits(bytes, &mut edits);
            }
            edits
                .into_iter()
                .map(|bytes| Request::DecodePacked { bytes })
                .collect()
        }
        Request::DecodeNamed { bytes } => bytes_of(bytes)
            .into_iter()
            .map(|bytes| Request::DecodeNamed { bytes })
            .collect(),
        Request::EncodePacked { guid } => guids_of(*guid)
            .into_iter()
            .map(|guid| Request::EncodePacked { guid })
            .collect(),
        Request::EncodeNamed { guid, name } => {
            let mut out = Vec::new();
            if let Some(name) = name {
                if !wide {
                    out.push(Request::EncodeNamed {
                        guid: *guid,
                        name: None,
                    });
                }
                out.extend(bytes_of(name).into_iter().map(|n| Request::EncodeNamed {
                    guid: *guid,
                    name: Some(n),
                }));
            }
            out.extend(guids_of(*guid).into_iter().map(|g| Request::EncodeNamed {
                guid: g,
                name: name.clone(),
            }));
            out
        }
        Request::SizePacked { .. } | Request::SizeNamed { .. } => Vec::new(),
    };
    if stop() {
        return Vec::new();
    }
    let limit = key(request);
    let mut keyed: Vec<(Key, Request)> = all
        .into_iter()
        .map(|c| (key(&c), c))
        .filter(|(k, _)| *k < limit)
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    keyed.into_iter().map(|(_, r)| r).collect()
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
    // Building candidates stops at the search's own time limit too.
    let time_up = started.checked_add(limits.max_time);
    let stop_at = match (limits.deadline, time_up) {
        (Some(deadline), Some(up)) => Some(deadline.min(up)),
        (deadline, up) => deadline.or(up),
    };
    'search: loop {
        for wide in [false, true] {
            let all = candidates_until(&shrunk.request, wide, stop_at);
            if limits.past_deadline() || started.elapsed() >= limits.max_time {
                shrunk.complete = false;
                shrunk.out_of_time = limits.past_deadline();
                break 'search;
            }
            for chunk in all.chunks(batch) {
                if shrunk.tests >= limits.max_tests
                    || started.elapsed() >= limits.max_time
                    || limits.past_deadline()
                {
                    shrunk.complete = false;
                    shrunk.out_of_time = limits.past_deadline();
                    break 'search;
                }
                let Some(results) = unless_out_of_time(tester.test(chunk))? else {
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
                    shrunk.request = c.clone();
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
/// timing say). When the run's time runs out ([`HarnessError::is_out_of_time`])
/// before the shortest sufficient tail of `history` is known, that error is
/// returned; after, the list as cut down by then.
///
/// The search is [`minimize_history`]'s.
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
