//! Failures grouped by cause: the one grouping behind `run`'s summary and
//! `matrix`'s causes.
//!
//! A cause is a [`Signature`], the fuzzer's unit of "one bug", so `run`,
//! `matrix` and `fuzz` name a bug the same way, and a fuzz finding is
//! "known" exactly when a corpus vector fails with its signature. Reports
//! show each cause once, with a count, not hundreds of near-identical
//! blocks. Pure.

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
    let Verdict::Fail(mismatch) = &result.verdict else {
        return None;
    };
    let cause = Signature::of(result.vector.request.kind(), mismatch);
    Some(if result.is_read_back() {
        cause.read_back()
    } else {
        cause
    })
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
    groups.sort_by(|a, b| (b.members.len(), &a.cause).cmp(&(a.members.len(), &b.cause)));
    groups
}
