//! The oracle: whether a codec's answer to any request is one `run` would
//! accept.
//!
//! It is the harness's one judge of a request without a vector
//! ([`judge_request`]), the judge `run` and the runner's fuzzer use: the
//! reference codec's answer, widened where the corpus leaves
//! implementations a choice (an empty name for a non-zero GUID given none,
//! eight `00` bytes for GUID 0 with the empty name). A test holds it equal
//! to `run` on every vector.

use wow_guid_harness::classify::oracle::judge_request;
use wow_guid_harness::judge::{JudgeOptions, Verdict};
use wow_guid_harness::protocol::{request_line, response_line};
use wow_guid_vectors::Request;

use crate::codec::{answer, Codec};

/// How `codec`'s answer to `request` is judged, as `run` would judge it
/// with a vector for the request.
#[must_use]
pub fn judge(codec: &impl Codec, request: &Request, options: JudgeOptions) -> Verdict {
    judge_request(request, &Ok(answer(codec, request)), options)
}

/// Panics, with the request and both answers, when `codec` answers
/// `request` in a way `run` would not accept (error codes judged loosely,
/// as `run` judges them by default): the differential property, against
/// the reference codec.
#[track_caller]
pub fn assert_agrees(codec: &impl Codec, request: &Request) {
    if let Verdict::Fail(mismatch) = judge(codec, request, JudgeOptions::default()) {
        let reference = wow_guid_harness::reference::answer(request);
        panic!(
            "differs from the reference codec: {mismatch}\n  request    {}\n  got        {}\n  reference  {}",
            request_line("r", request),
            response_line("r", &answer(codec, request)),
            response_line("r", &reference),
        );
    }
}
