//! An implementation's distinct failure causes, each with one minimal
//! example.
//!
//! A cause is a [`Signature`], the differential fuzzer's unit of "one bug",
//! as [`wow_guid_harness::report::grouping`] groups failures for every
//! report. Its example is the smallest of its vectors in the fuzzer's own
//! order ([`shrink::key`]). When even that one is long (more than [`SHORT`]
//! bytes), the fuzzer's shrinker looks for a smaller request that fails the
//! same way (the same signature as the example), judged against the reference
//! codec as the fuzzer judges; a shorter one it finds becomes the example.
//! The shrinker's budget is a number of tests, never a time, so the same
//! implementation gives the same example on any machine.

use wow_guid_vectors::Request;

use crate::disagreement::expected_response;
use crate::history::Limits;
use crate::shrink::{self, OneImplementation};
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::{HarnessError, Implementation};
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::protocol;
use wow_guid_harness::report::grouping::{by_cause, Group};
use wow_guid_harness::run::RunResults;

/// An example longer than this many bytes (of input, or of GUID and name)
/// is shrunk.
pub const SHORT: usize = 16;

/// Candidate requests the shrinker may test for one cause.
pub const SHRINK_TESTS: usize = 20_000;

/// One distinct way an implementation fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The request kind and what differed.
    pub signature: Signature,
    /// The vectors that fail this way, in corpus order.
    pub vectors: Vec<String>,
    /// The smallest of them.
    pub example: Example,
    /// A smaller request the shrinker found, when the example was long.
    pub shrunk: Option<ShrunkExample>,
}

/// A corpus vector that shows a cause (serialized as `matrix.json` has it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Example {
    /// The vector id.
    pub id: String,
    /// The request line.
    pub request: String,
    /// The implementation's answer, when there was one.
    pub got: Option<String>,
    /// Why it fails.
    pub why: String,
}

/// A request smaller than any vector of its cause, failing the same way.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ShrunkExample {
    /// The request line (id `shrunk`).
    pub request: String,
    /// What the reference codec answers.
    pub expected: String,
    /// The implementation's answer, when there was one.
    pub got: Option<String>,
    /// Why it fails.
    pub why: String,
}

/// How many bytes `request` carries: its input, or its GUID and name.
#[must_use]
pub fn size(request: &Request) -> usize {
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => bytes.len(),
        Request::EncodePacked { .. } | Request::SizePacked { .. } => 8,
        Request::EncodeNamed { name, .. } | Request::SizeNamed { name, .. } => {
            8 + name.as_ref().map_or(0, Vec::len)
        }
    }
}

/// The causes of `run`'s failures (wrong answers, crashes, timeouts,
/// malformed answers), most vectors first, with their examples shrunk by
/// implementations from `launch` where they are long.
///
/// # Errors
/// [`HarnessError`] when the implementation cannot be run to shrink.
pub fn causes<I: Implementation>(
    run: &RunResults<'_>,
    launch: &mut dyn FnMut() -> I,
    options: JudgeOptions,
) -> Result<Vec<Cause>, HarnessError> {
    let groups = by_cause(run.results.iter().filter(|r| r.outcome.is_failure()));
    let mut causes = Vec::with_capacity(groups.len());
    for Group {
        cause: signature,
        members,
    } in groups
    {
        let smallest = members
            .iter()
            .min_by_key(|r| shrink::key(&r.vector.request))
            .expect("a group has a member");
        let example = Example {
            id: smallest.vector.id.clone(),
            request: protocol::request_line(&smallest.vector.id, &smallest.vector.request),
            got: wow_guid_harness::report::got_text(smallest),
            why: wow_guid_harness::report::reason_text(smallest, None).unwrap_or_default(),
        };
        let shrunk = if size(&smallest.vector.request) > SHORT {
            shrink_example(&smallest.vector.request, signature, launch, options)?
        } else {
            None
        };
        causes.push(Cause {
            signature,
            vectors: members.iter().map(|r| r.vector.id.clone()).collect(),
            example,
            shrunk,
        });
    }
    Ok(causes)
}

/// Shrinks `request`, which fails as `signature`, and returns the result if
/// it is smaller in bytes.
fn shrink_example<I: Implementation>(
    request: &Request,
    signature: Signature,
    launch: &mut dyn FnMut() -> I,
    options: JudgeOptions,
) -> Result<Option<ShrunkExample>, HarnessError> {
    if !signature.is_about_one_request() {
        return Ok(None);
    }
    let mut tester = OneImplementation::new(launch, options);
    // The corpus's verdict and the fuzzer's oracle (the reference codec's
    // answer, with the corpus's choices) agree on nearly every request; the
    // shrinker starts only where the oracle sees the same cause.
    let first = shrink::Tester::test(&mut tester, std::slice::from_ref(request))?;
    let Some(found) = first.into_iter().next().flatten() else {
        return Ok(None);
    };
    if found.signature != signature {
        return Ok(None);
    }
    let limits = Limits {
        max_tests: SHRINK_TESTS,
        // A safety net only: the test budget ends the search first.
        max_time: std::time::Duration::from_secs(120),
        deadline: None,
    };
    let result = shrink::shrink(request.clone(), found, &mut tester, &limits)?;
    if size(&result.request) >= size(request) {
        return Ok(None);
    }
    let expect = wow_guid_harness::classify::oracle::corpus_expectation(&result.request);
    let mut expected = protocol::response_line("shrunk", &expected_response(&expect));
    if matches!(expect, wow_guid_vectors::Expectation::Acceptable { .. }) {
        expected.push_str(", or any error");
    }
    Ok(Some(ShrunkExample {
        request: protocol::request_line("shrunk", &result.request),
        expected,
        got: result
            .disagreement
            .reply
            .as_ref()
            .ok()
            .map(|r| protocol::response_line("shrunk", r)),
        why: result.disagreement.mismatch.to_string(),
    }))
}
