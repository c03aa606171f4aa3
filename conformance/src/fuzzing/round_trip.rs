//! The implementation's own round trip, drawn by the fuzzer: after an encode
//! it answers with bytes the reference agrees with, it is asked to decode
//! those bytes, and must give back the value encoded with no error, not even
//! `name_too_long` (the rule of `run`, [`wow_guid_testkit::round_trip`]: a
//! bound on decoding needs the same bound on encoding).
//!
//! A failure is a cause of its own ([`Signature::read_back`]): the
//! implementation writes what it cannot read. Only what judging one request
//! at a time cannot see counts as one: a read-back that the reference's own
//! judge already fails as a decode (a wrong GUID, a crash) is the decoder's
//! bug, which the generated decode requests find as such, and is left to
//! them, so one bug is not reported twice. The same rule judges the
//! corpus's read-backs when a finding is marked known or new.
//!
//! [`RoundTrips`] tests encode requests as pairs for the shrinker, so a
//! failed round trip shrinks like any finding: the encode is made smaller
//! while its pair still fails the same way.

use wow_guid_harness::classify::oracle::corpus_expectation;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{Answer, Fault, HarnessError, Implementation, Query};
use wow_guid_harness::judge::{judge, JudgeOptions, Mismatch, Verdict};
use wow_guid_harness::protocol::Response;
use wow_guid_testkit::round_trip;
use wow_guid_vectors::{Expectation, Request};

use crate::disagreement::{check, Check, Disagreement};
use crate::shrink::{self, OneImplementation, Tester};

/// How `read`, the answer to `decode` (the read-back of `encode`'s
/// answer), fails the round trip, if it does (see the module docs: a fault,
/// `unsupported`, or a disagreement the reference's judge sees in the
/// decode alone is not a failed round trip).
#[must_use]
pub fn judge_read_back(
    encode: &Request,
    decode: &Request,
    read: &Result<Response, Fault>,
    options: JudgeOptions,
) -> Option<Disagreement> {
    let Ok(response) = read else {
        return None;
    };
    if !matches!(check(decode, read, options), Check::Agrees) {
        return None;
    }
    let failure = round_trip::check(encode, decode.input_bytes()?, response).err()?;
    let expected = match corpus_expectation(decode) {
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => value,
        Expectation::Invalid(_) => return None,
    };
    // The judge lets a decoder refuse a long name; not one it wrote itself.
    let mismatch = match judge(decode, &Expectation::Valid(expected.clone()), read, options) {
        Verdict::Fail(mismatch) => mismatch,
        Verdict::Pass | Verdict::Skip => match response {
            Response::Error(code) => Mismatch::RejectedValid {
                expected,
                code: *code,
            },
            Response::Ok(_) | Response::Unsupported => return None,
        },
    };
    Some(Disagreement {
        signature: Signature::of(decode.kind(), &mismatch).read_back(),
        mismatch,
        reply: read.clone(),
        read_back: Some(failure),
    })
}

/// One read-back to send: the index of its encode among those given to
/// [`read_backs`], the encode, and the decode of its answer.
pub type ReadBack<'a> = (usize, &'a Request, Request);

/// The read-backs of those of `encodes` (with their `answers`) that
/// `agreed` with the reference and were answered with bytes.
#[must_use]
pub fn read_backs<'a>(
    encodes: impl IntoIterator<Item = &'a Request>,
    answers: &'a [Answer],
    agreed: &[bool],
) -> Vec<ReadBack<'a>> {
    encodes
        .into_iter()
        .zip(answers)
        .zip(agreed)
        .enumerate()
        .filter_map(|(i, ((encode, answer), &agreed))| {
            let wrote = answer.reply.as_ref().ok().filter(|_| agreed)?;
            round_trip::read_back(encode, wrote).map(|decode| (i, encode, decode))
        })
        .collect()
}

/// What sending read-backs showed.
#[derive(Debug, Default)]
pub struct ReadBackResults {
    /// The failed round trips, each with the index of its encode, in order.
    pub failures: Vec<(usize, Disagreement)>,
    /// Whether any read-back was answered with a fault (the process was
    /// ended and will be started again).
    pub faulted: bool,
}

/// Sends `decodes` (from [`read_backs`]) to `implementation` and judges
/// each answer ([`judge_read_back`]).
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn send_read_backs<I: Implementation>(
    implementation: &mut I,
    decodes: &[ReadBack<'_>],
    options: JudgeOptions,
) -> Result<ReadBackResults, HarnessError> {
    let mut results = ReadBackResults::default();
    if decodes.is_empty() {
        return Ok(results);
    }
    let ids: Vec<String> = decodes
        .iter()
        .map(|(i, _, _)| round_trip::read_back_id(&format!("e{i}")))
        .collect();
    let queries: Vec<Query<'_>> = ids
        .iter()
        .zip(decodes)
        .map(|(id, (_, _, request))| Query { id, request })
        .collect();
    let answers = implementation.answer_all(&queries)?;
    for ((i, encode, decode), answer) in decodes.iter().zip(&answers) {
        results.faulted |= answer.reply.is_err();
        if let Some(d) = judge_read_back(encode, decode, &answer.reply, options) {
            results.failures.push((*i, d));
        }
    }
    Ok(results)
}

/// Tests encode requests as round trips, many at a time, in one
/// implementation from `launch` (started at the first test): each encode,
/// then the decode of each answer that agrees with the reference. A
/// candidate disagrees when its round trip fails ([`judge_read_back`]).
pub struct RoundTrips<'l, I>(OneImplementation<'l, I>);

impl<'l, I: Implementation> RoundTrips<'l, I> {
    /// A tester over implementations from `launch`.
    pub fn new(launch: &'l mut dyn FnMut() -> I, options: JudgeOptions) -> Self {
        Self(OneImplementation::new(launch, options))
    }
}

impl<I: Implementation> Tester for RoundTrips<'_, I> {
    fn test(&mut self, candidates: &[Request]) -> Result<Vec<Option<Disagreement>>, HarnessError> {
        let (implementation, options) = self.0.implementation();
        let ids = shrink::ids('e', candidates.len());
        let answers = implementation.answer_all(&shrink::queries(&ids, candidates))?;
        let agreed: Vec<bool> = candidates
            .iter()
            .zip(&answers)
            .map(|(encode, answer)| matches!(check(encode, &answer.reply, options), Check::Agrees))
            .collect();
        let decodes = read_backs(candidates, &answers, &agreed);
        let mut out = vec![None; candidates.len()];
        for (i, d) in send_read_backs(implementation, &decodes, options)?.failures {
            out[i] = Some(d);
        }
        Ok(out)
    }

    fn batch_size(&self) -> usize {
        512
    }
}

/// Runs the round trip of `encode` in a fresh implementation from `launch`:
/// how it fails, if it does.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run.
pub fn replay<I: Implementation>(
    launch: &mut dyn FnMut() -> I,
    encode: &Request,
    options: JudgeOptions,
) -> Result<Option<Disagreement>, HarnessError> {
    let mut tester = RoundTrips::new(launch, options);
    Ok(tester.test(std::slice::from_ref(encode))?.pop().flatten())
}
