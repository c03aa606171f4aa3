//! Failures grouped by cause: the one grouping behind `run`'s summary and
//! `matrix`'s causes.
//!
//! A cause is a [`Signature`], the differential fuzzer's unit of "one bug":
//! the request kind and the class of what differed (a GUID too large in its
//! high half, too few bytes consumed, a value where the reference gives
//! `eof`, a crash, ...), so `run`, `matrix` and `fuzz` name a bug the same
//! way, and a fuzz finding is "known" exactly when a corpus vector fails
//! with its signature. Hundreds of vectors failing one way are one bug to
//! fix, so reports show each cause once, with a count, rather than hundreds
//! of near-identical blocks. Pure.

use crate::classify::Signature;
use crate::judge::Verdict;
use crate::run::VectorResult;

/// The vectors that fail one way.
#[derive(Clone, Debug)]
pub struct Group<'r, 'c> {
    /// The request kind and what differed.
    pub cause: Signature,
    /// The results that fail this way, in the order given (corpus order).
    pub members: Vec<&'r VectorResult<'c>>,
}

/// The cause of `result`'s failure, if its verdict is one: a read-back's
/// is a cause of its own ([`Signature::read_back`]).
fn cause(result: &VectorResult<'_>) -> Option<Signature> {
    match &result.verdict {
        Verdict::Fail(mismatch) => {
            let cause = Signature::of(result.vector.request.kind(), mismatch);
            Some(if result.is_read_back() {
                cause.read_back()
            } else {
                cause
            })
        }
        Verdict::Pass | Verdict::Skip => None,
    }
}

/// `results` grouped by the cause of their failure (passes are left out): the
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
