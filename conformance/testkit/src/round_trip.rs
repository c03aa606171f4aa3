//! An implementation's own round trip: what it encodes, it must decode back
//! to the same value.
//!
//! No vector can show a codec that writes what it cannot read, and neither
//! can an oracle that judges one request at a time: an encoder that writes
//! 300-byte names is right, and so is a decoder that refuses names over 256
//! bytes (the corpus lets a decoder bound names, at
//! [`NAME_BOUND_FLOOR`](wow_guid_vectors::NAME_BOUND_FLOOR) bytes or more),
//! but the two together lose the name. So the bound a decoder applies must
//! be applied by its encoder too: an encoder must refuse (`name_too_long`)
//! what its own decoder would refuse. This module states the check over
//! protocol requests and responses, so it holds for a codec in process
//! ([`crate::Codec`]) and for a program in any language behind the protocol
//! alike: [`read_back`] is the decode request of an encode's answer, and
//! [`check`] says whether the answer to it gives the value back;
//! [`read_back_vectors`] makes, from a run's encodes, the vectors that
//! read them back, which `run` and the corpus test send and report with
//! the corpus's own.

use std::fmt;

use wow_guid_harness::expect_fail::ExpectedFailures;
use wow_guid_harness::implementation::{HarnessError, Implementation};
use wow_guid_harness::judge::{JudgeOptions, Mismatch, Verdict};
use wow_guid_harness::protocol::{request_line, response_line, Response};
use wow_guid_harness::report::field;
use wow_guid_harness::run::{run, Counts, RunOutcome, RunPlan, RunResults, VectorResult};
use wow_guid_vectors::{Expectation, Request, Value, Vector};

/// The decode request that reads back what `encode` was answered with, if
/// it was answered with bytes.
#[must_use]
pub fn read_back(encode: &Request, wrote: &Response) -> Option<Request> {
    let Response::Ok(Value::Encoded { bytes }) = wrote else {
        return None;
    };
    let bytes = bytes.clone();
    match encode {
        Request::EncodePacked { .. } => Some(Request::DecodePacked { bytes }),
        Request::EncodeNamed { .. } => Some(Request::DecodeNamed { bytes }),
        Request::DecodePacked { .. }
        | Request::DecodeNamed { .. }
        | Request::SizePacked { .. }
        | Request::SizeNamed { .. } => None,
    }
}

/// The value decoding `wrote` must give for `encode`: its GUID, its name
/// (none after GUID 0, which the format cannot follow with one; the empty
/// name for a non-zero GUID given none, which the format cannot write
/// without one), and every byte written consumed.
fn expected_back(encode: &Request, wrote: &[u8]) -> Option<Value> {
    let consumed = wrote.len();
    match encode {
        Request::EncodePacked { guid } => Some(Value::Packed {
            guid: *guid,
            consumed,
        }),
        Request::EncodeNamed { guid, name } => Some(Value::Named {
            guid: *guid,
            consumed,
            name: (*guid != 0).then(|| name.clone().unwrap_or_default()),
        }),
        Request::DecodePacked { .. }
        | Request::DecodeNamed { .. }
        | Request::SizePacked { .. }
        | Request::SizeNamed { .. } => None,
    }
}

/// An implementation that writes what it cannot read: `encode` was
/// answered with `wrote`, and decoding it (`decode`) was answered with
/// `read`, not the value encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WritesWhatItCannotRead {
    /// The encode request.
    pub encode: Request,
    /// The bytes the implementation wrote for it.
    pub wrote: Vec<u8>,
    /// The decode request of those bytes.
    pub decode: Request,
    /// What the implementation answered to it.
    pub read: Response,
}

/// A protocol line without its id: `encode packed_guid 0000000000000001`.
fn without_id(line: &str) -> &str {
    line.split_once(' ').map_or(line, |(_, rest)| rest)
}

impl fmt::Display for WritesWhatItCannotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wrote = Response::Ok(Value::Encoded {
            bytes: self.wrote.clone(),
        });
        write!(
            f,
            "writes what it cannot read: `{}` answered `{}`, but `{}` answered `{}`, \
             not the value encoded (a bound on decoding needs the same bound on encoding)",
            without_id(&request_line("e", &self.encode)),
            without_id(&response_line("e", &wrote)),
            without_id(&request_line("d", &self.decode)),
            without_id(&response_line("d", &self.read)),
        )
    }
}

impl std::error::Error for WritesWhatItCannotRead {}

/// Whether `read`, the answer to [`read_back`]`(encode, wrote)`, gives back
/// the value `encode` asked to write. An `unsupported` decode proves
/// nothing and passes.
///
/// # Errors
/// [`WritesWhatItCannotRead`] with both requests and both answers.
pub fn check(
    encode: &Request,
    wrote: &[u8],
    read: &Response,
) -> Result<(), Box<WritesWhatItCannotRead>> {
    let Some(expected) = expected_back(encode, wrote) else {
        return Ok(());
    };
    match read {
        Response::Unsupported => Ok(()),
        Response::Ok(value) if *value == expected => Ok(()),
        _ => Err(Box::new(WritesWhatItCannotRead {
            encode: encode.clone(),
            wrote: wrote.to_vec(),
            decode: read_back(
                encode,
                &Response::Ok(Value::Encoded {
                    bytes: wrote.to_vec(),
                }),
            )
            .unwrap_or_else(|| encode.clone()),
            read: read.clone(),
        })),
    }
}

pub use wow_guid_harness::run::READ_BACK;

/// The id of the vector that reads back what the encode vector `encode_id`
/// wrote: `<encode_id>.read-back`.
#[must_use]
pub fn read_back_id(encode_id: &str) -> String {
    format!("{encode_id}{READ_BACK}")
}

/// The id of the encode vector a read-back id reads back, if `id` is one
/// (ends with [`READ_BACK`]).
#[must_use]
pub fn encode_id(id: &str) -> Option<&str> {
    id.strip_suffix(READ_BACK)
        .filter(|encode| !encode.is_empty())
}

/// The ids of the read-backs `vectors` may have, one per encode vector: the
/// ids an expected-failure list or `repro` may name besides the corpus's
/// own.
#[must_use]
pub fn read_back_ids(vectors: &[Vector]) -> Vec<String> {
    vectors
        .iter()
        .filter(|v| {
            matches!(
                v.request,
                Request::EncodePacked { .. } | Request::EncodeNamed { .. }
            )
        })
        .map(|v| read_back_id(&v.id))
        .collect()
}

/// Where a read-back's expectation comes from, in the corpus's notes.
const READ_BACK_SOURCE: &str = "NOTES.md#names-longer-than-a-bound: the bound is one bound for \
     both directions; what an implementation encodes it must decode back to the same value";

/// For every encode of `results` that passed with bytes, a vector that reads
/// them back: the decode request of those bytes ([`read_back`]), expecting
/// the value encoded, with the encode vector's id and [`READ_BACK`], its
/// place in the corpus, and a description that names the encode and what
/// it was answered. `run` and the corpus test send these after the corpus,
/// to the same kind of implementation, and report the ones that fail with
/// the corpus's failures (an expected-failure list may list them by id).
#[must_use]
pub fn read_back_vectors(results: &[VectorResult<'_>]) -> Vec<Vector> {
    let mut vectors = Vec::new();
    for result in results {
        // Only an encode that passed wrote bytes the reference reads as the
        // value: another's read-back would disagree with the reference and
        // look like a bug in the corpus.
        let (RunOutcome::Passed, Ok(wrote)) = (result.outcome, &result.answer.reply) else {
            continue;
        };
        let encode = &result.vector.request;
        let Some(decode) = read_back(encode, wrote) else {
            continue;
        };
        let Some(expected) = expected_back(encode, decode.input_bytes().unwrap_or_default()) else {
            continue;
        };
        vectors.push(Vector {
            id: read_back_id(&result.vector.id),
            description: format!(
                "writes what it cannot read, if this fails: reads back the answer to vector {} \
                 (`{}`, answered `{}`); what an implementation encodes it must decode to the \
                 same value, so a bound on decoding needs the same bound on encoding",
                result.vector.id,
                field::shown(without_id(&request_line("e", encode)), None),
                field::shown(without_id(&response_line("e", wrote)), None),
            ),
            source: Some(READ_BACK_SOURCE.into()),
            request: decode,
            expect: Expectation::Valid(expected),
            sequence: None,
            ..result.vector.clone()
        });
    }
    vectors
}

/// `result` of a read-back vector, with no error accepted: the judge lets
/// a decoder refuse a long name (`name_too_long`), but not one its own
/// encoder wrote. [`add_read_backs`] judges every read-back so; `repro`
/// of one too.
#[must_use]
pub fn refuse_any_error(mut result: VectorResult<'_>) -> VectorResult<'_> {
    if let (Verdict::Pass, Ok(Response::Error(code)), Expectation::Valid(expected)) =
        (&result.verdict, &result.answer.reply, &result.vector.expect)
    {
        result.verdict = Verdict::Fail(Mismatch::RejectedValid {
            expected: expected.clone(),
            code: *code,
        });
        result.outcome = if result.expected_failure.is_some() {
            RunOutcome::ExpectedFailure
        } else {
            RunOutcome::Failed
        };
    }
    result
}

/// Sends `read_back` (the [`read_back_vectors`] of `results`) to one fresh
/// implementation from `start`, judged as `results` were (a read-back may
/// be listed as an expected failure by its id), and adds to `results` the
/// result of every one the implementation answered, recounting: the round
/// trips are counted and reported with the corpus's vectors, the ones that
/// fail with its failures. A read-back the implementation crashed, hung or
/// answered malformed on is left out: such a fault is not a round trip
/// that fails, and the corpus's decode vectors show it (a process that
/// crashes every few requests would otherwise crash on read-backs too).
/// Returns how many read-backs were added.
///
/// # Errors
/// The [`HarnessError`] that kept the implementation from answering;
/// `results` are unchanged then.
pub fn add_read_backs<'c, I, F>(
    results: &mut RunResults<'c>,
    read_back: &'c [Vector],
    judge: JudgeOptions,
    expected_failures: Option<&ExpectedFailures>,
    start: F,
) -> Result<usize, HarnessError>
where
    I: Implementation,
    F: Fn() -> I + Sync,
{
    if read_back.is_empty() {
        return Ok(0);
    }
    let plan = RunPlan {
        vectors: read_back.iter().collect(),
        judge,
        expected_failures,
        jobs: std::num::NonZeroUsize::MIN,
    };
    let read = run(&plan, start, None)?;
    let before = results.results.len();
    results.results.extend(
        read.results
            .into_iter()
            .map(refuse_any_error)
            .filter(|r| !matches!(r.verdict, Verdict::Fail(Mismatch::Fault(_)))),
    );
    results.counts = Counts::of(&results.results);
    results.duration += read.duration;
    Ok(results.results.len() - before)
}
