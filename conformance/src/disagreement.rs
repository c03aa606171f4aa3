//! How one answer compares with the reference, for the fuzzer and the
//! shrinker: the harness's one judge of any request ([`judge_request`]), and when they disagree, how (its
//! [`Signature`]) and what was answered. A disagreement may also be a failed
//! round trip (the fuzzer's `fuzzing::round_trip`): then it carries both
//! requests and both answers.

use wow_guid_harness::classify::oracle::judge_request;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::Fault;
use wow_guid_harness::judge::{JudgeOptions, Mismatch, Verdict};
use wow_guid_harness::protocol::Response;
use wow_guid_testkit::round_trip::WritesWhatItCannotRead;
use wow_guid_vectors::{Expectation, Request};

/// A request the implementation answered differently from the reference:
/// how, and what it answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The class.
    pub signature: Signature,
    /// The judge's reason.
    pub mismatch: Mismatch,
    /// The implementation's reply (to the decode, for a failed round trip).
    pub reply: Result<Response, Fault>,
    /// For a failed round trip (a [`Signature::read_back`]): the encode, what
    /// it was answered, the decode of that answer and what that was
    /// answered. `None` for a disagreement of one request.
    pub read_back: Option<Box<WritesWhatItCannotRead>>,
}

/// How one answer compares with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The answer satisfies the expectation.
    Agrees,
    /// The implementation said `unsupported`.
    Unsupported,
    /// It does not.
    Disagrees(Disagreement),
}

/// Judges `reply` to `request` exactly as `run` judges a vector
/// ([`judge_request`]).
#[must_use]
pub fn check(request: &Request, reply: &Result<Response, Fault>, options: JudgeOptions) -> Check {
    match judge_request(request, reply, options) {
        Verdict::Pass => Check::Agrees,
        Verdict::Skip => Check::Unsupported,
        Verdict::Fail(mismatch) => Check::Disagrees(Disagreement {
            signature: Signature::of(request.kind(), &mismatch),
            mismatch,
            reply: reply.clone(),
            read_back: None,
        }),
    }
}

/// The response `expect` asks for: its value if success is allowed, its
/// error otherwise; the one spelling of it for every message and file.
#[must_use]
pub fn expected_response(expect: &Expectation) -> Response {
    match expect {
        Expectation::Valid(value) | Expectation::Acceptable { value, .. } => {
            Response::Ok(value.clone())
        }
        Expectation::Invalid(code) => Response::Error(*code),
    }
}
