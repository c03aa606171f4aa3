//! Failures grouped by cause: the one grouping behind `run`'s summary and
//! `matrix`'s causes.
//!
//! A cause is a [`CoarseSignature`], the differential fuzzer's unit of "one
//! bug" without its refinements: the request kind and a coarse class of
//! what differed (a wrong GUID, a wrong byte count, a value where an error
//! is due, a crash, ...). Hundreds of vectors failing one way are one bug
//! to fix, so reports show each cause once, with a count, rather than
//! hundreds of near-identical blocks. Pure.

use crate::classify::signature::CoarseSignature;
use crate::classify::Signature;
use crate::judge::Verdict;
use crate::run::VectorResult;

/// The vectors that fail one way.
#[derive(Clone, Debug)]
pub struct Group<'r, 'c> {
    /// The request kind and which part of the answer is wrong.
    pub cause: CoarseSignature,
    /// The results that fail this way, in the order given (corpus order).
    pub members: Vec<&'r VectorResult<'c>>,
}

/// The cause of `result`'s failure, if its verdict is one.
#[must_use]
pub fn cause(result: &VectorResult<'_>) -> Option<CoarseSignature> {
    match &result.verdict {
        Verdict::Fail(mismatch) => {
            Some(Signature::of(result.vector.request.kind(), mismatch).coarse())
        }
        Verdict::Pass | Verdict::Skip => None,
    }
}

/// `results` grouped by [`cause`] (results without one are left out): the
/// most vectors first, ties in the signatures' order, so the order is the
/// same on every run.
#[must_use]
pub fn by_cause<'r, 'c>(
    results: impl IntoIterator<Item = &'r VectorResult<'c>>,
) -> Vec<Group<'r, 'c>> {
    let mut groups: Vec<Group<'r, 'c>> = Vec::new();
    for result in results {
        let Some(cause) = cause(result) else {
            continue;
        };
        match groups.iter_mut().find(|g| g.cause == cause) {
            Some(group) => group.members.push(result),
            None => groups.push(Group {
                cause,
                members: vec![result],
            }),
        }
    }
    groups.sort_by(|a, b| {
        b.members
            .len()
            .cmp(&a.members.len())
            .then(a.cause.cmp(&b.cause))
    });
    groups
}
