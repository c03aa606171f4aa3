//! Which answers a vector accepts: the rules that turn a vector's request
//! and expectation into the set of conformant answers, written once, as
//! data.
//!
//! The runner's judge decides every verdict from [`Accepted`], and a
//! release fingerprints it for each of its vectors
//! ([`crate::release::accepts_fingerprint`]), so a change to any rule that
//! decides what a released vector accepts (the name-bound floor
//! [`crate::NAME_BOUND_FLOOR`], what `acceptable` allows, the bound's one
//! code) fails the release test, not only a change to the vector's rows.
//!
//! The rules:
//!
//! - `valid` accepts its value; `invalid` accepts an error, any code
//!   without strict error codes and its own code with them; `acceptable`
//!   accepts its value or any error, strict or not;
//! - a request whose name may be bounded
//!   ([`Request::may_refuse_as_too_long`]) also accepts `error
//!   name_too_long`, whatever the vector expects. The permission is a
//!   permission to bound, so it is spent only as that code: a valid long
//!   name refused with any other code is a failure, with or without strict
//!   error codes.
//!
//! Pure data and arithmetic: no judging of a reply (that is the runner's
//! judge), no file access.

use core::fmt;

use crate::model::{Expectation, Request, Value};
use crate::vocab::ErrorCode;

/// A set of error codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CodeSet(u8);

impl CodeSet {
    /// No code.
    pub const NONE: CodeSet = CodeSet(0);

    /// Every code of [`ErrorCode::ALL`].
    pub const ANY: CodeSet = CodeSet((1 << ErrorCode::ALL.len()) - 1);

    /// The set holding `code` alone.
    #[must_use]
    pub const fn of(code: ErrorCode) -> CodeSet {
        CodeSet(1 << code as u8)
    }

    /// The set with `code` added.
    #[must_use]
    pub const fn with(self, code: ErrorCode) -> CodeSet {
        CodeSet(self.0 | CodeSet::of(code).0)
    }

    /// Whether `code` is in the set.
    #[must_use]
    pub const fn contains(self, code: ErrorCode) -> bool {
        self.0 & CodeSet::of(code).0 != 0
    }

    /// The codes in the set, in the order of [`ErrorCode::ALL`].
    pub fn iter(self) -> impl Iterator<Item = ErrorCode> {
        ErrorCode::ALL
            .iter()
            .copied()
            .filter(move |&code| self.contains(code))
    }
}

/// `any`, `none`, or the codes joined by `+` in the order of
/// [`ErrorCode::ALL`] (`eof+name_too_long`): the spelling a release's
/// fingerprint is taken of, so it never changes.
impl fmt::Display for CodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == CodeSet::ANY {
            return f.write_str("any");
        }
        if *self == CodeSet::NONE {
            return f.write_str("none");
        }
        let words: Vec<&str> = self.iter().map(ErrorCode::as_str).collect();
        f.write_str(&words.join("+"))
    }
}

/// Every answer a vector accepts. An answer is `ok` with a value, `error`
/// with a code, or `unsupported` (never a verdict: a skip, for every
/// vector alike); anything else an implementation does fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accepted<'a> {
    /// The one value a success must carry; `None` when success fails.
    pub value: Option<&'a Value>,
    /// The error codes accepted with strict error codes (`--strict-errors`).
    pub strict: CodeSet,
    /// The error codes accepted without them (the runner's default).
    pub lax: CodeSet,
}

impl<'a> Accepted<'a> {
    /// What a vector with this request and expectation accepts.
    #[must_use]
    pub fn of(request: &Request, expect: &'a Expectation) -> Self {
        let (value, strict, lax) = match expect {
            Expectation::Valid(value) => (Some(value), CodeSet::NONE, CodeSet::NONE),
            Expectation::Invalid(code) => (None, CodeSet::of(*code), CodeSet::ANY),
            Expectation::Acceptable { value, .. } => (Some(value), CodeSet::ANY, CodeSet::ANY),
        };
        let mut accepted = Accepted { value, strict, lax };
        if request.may_refuse_as_too_long() {
            accepted.strict = accepted.strict.with(ErrorCode::NameTooLong);
            accepted.lax = accepted.lax.with(ErrorCode::NameTooLong);
        }
        accepted
    }

    /// The error codes accepted with strict error codes or without.
    #[must_use]
    pub const fn errors(&self, strict: bool) -> CodeSet {
        if strict {
            self.strict
        } else {
            self.lax
        }
    }
}

/// The rules' part of what a vector accepts, as one line a release
/// fingerprints: `value=yes strict=name_too_long lax=name_too_long`
/// (whether a success is accepted, then the codes of each mode; the value
/// itself is in [`crate::release::canonical`]).
impl fmt::Display for Accepted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "value={} strict={} lax={}",
            if self.value.is_some() { "yes" } else { "no" },
            self.strict,
            self.lax
        )
    }
}
