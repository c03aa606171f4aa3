//! `lint`: checks a corpus against the reference codec.
//!
//! Structural problems (bad YAML, unknown fields, duplicate ids) are found
//! by the vectors crate's loader, which reports them with file, line and
//! column. This module does the other half: every vector must agree with
//! the reference codec exactly, error codes included. A disagreement means
//! the vector or the codec is wrong, and either way the corpus cannot be
//! trusted to judge other implementations until it is resolved. Pure.

use wow_guid_vectors::{Expectation, Vector};

use crate::disagreement::expected_response;
use wow_guid_harness::judge::Mismatch;
use wow_guid_harness::protocol::{self, Response};
use wow_guid_harness::run::reference_disagreement;

/// A vector the reference codec does not satisfy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: vector `{}` expects `{}`{} but the reference codec answers `{}`: {mismatch}",
    .vector.location,
    .vector.id,
    protocol::response_line(&.vector.id, &expected_response(&.vector.expect)),
    if matches!(.vector.expect, Expectation::Acceptable { .. }) { " (or an error)" } else { "" },
    protocol::response_line(&.vector.id, .reference)
)]
pub struct VectorBug<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// What the reference codec answers.
    pub reference: Response,
    /// Why that does not satisfy the vector.
    pub mismatch: Mismatch,
}

/// Every vector of `vectors` that the reference codec does not satisfy, in order.
#[must_use]
pub fn vector_bugs(vectors: &[Vector]) -> Vec<VectorBug<'_>> {
    vectors
        .iter()
        .filter_map(|vector| {
            reference_disagreement(vector).map(|(reference, mismatch)| VectorBug {
                vector,
                reference,
                mismatch,
            })
        })
        .collect()
}

/// A vector no implementation can pass: the reference codec's response to
/// it would be longer than the protocol's line bound
/// ([`MAX_RESPONSE_LINE`](protocol::MAX_RESPONSE_LINE) with its newline), so
/// the runner would stop reading it and fail the vector against any
/// implementation, the built-in reference included.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: vector `{}`: the reference codec's response line would be {line_bytes} bytes with its \
     newline, over the protocol's bound of {} (PROTOCOL.md, \"Lines\"), so no \
     implementation can pass it; shorten its input",
    .vector.location,
    .vector.id,
    protocol::MAX_RESPONSE_LINE
)]
pub struct Oversized<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// The length of the reference codec's response line, newline included.
    pub line_bytes: usize,
}

/// Every vector of `vectors` whose reference response would not fit in a
/// protocol line, in order.
#[must_use]
pub fn oversized(vectors: &[Vector]) -> Vec<Oversized<'_>> {
    vectors
        .iter()
        .filter_map(|vector| {
            let response = wow_guid_harness::reference::answer(&vector.request);
            let line_bytes = protocol::response_line(&vector.id, &response).len() + 1;
            (line_bytes > protocol::MAX_RESPONSE_LINE).then_some(Oversized { vector, line_bytes })
        })
        .collect()
}
