//! What kind of disagreement a failed answer is.
//!
//! One bug usually disagrees on thousands of generated requests; grouped by
//! [`Signature`] (the request kind plus a class of what differed) it is
//! reported once, and the shrinker keeps the signature fixed, so the
//! minimal request shows the same bug rather than a smaller other one.
//!
//! The class is fine enough that two bugs of one request kind are two
//! findings, and coarse enough that one bug is one: it records what the
//! answer shows about the cause, nothing incidental to the request:
//!
//! - which part of the answer is wrong: the byte count, the GUID, the name,
//!   the encoding, an error instead of a value or the other way round;
//! - for a wrong GUID, whether its high 32 bits differ or only the low, and
//!   whether it is too large or too small: a decoder that sign-extends a
//!   byte gives a larger GUID, one that shifts a byte modulo 32 a smaller
//!   one, whatever else the request holds;
//! - for a wrong byte count or size, too many or too few; for a wrong name, missing,
//!   unexpected, shorter, longer or other bytes; for a wrong encoding,
//!   whether the first wrong byte is in the mask (packed) or GUID (named)
//!   part or after it;
//! - for an error instead of a value, the code given; for a value instead of
//!   an error, the code the reference gives (a missing NUL check and a
//!   missing UTF-8 check both accept invalid input, but not the same input).
//!
//! The request's flags are left out on purpose: a generated request has
//! several by chance, and keying on them would report one bug per
//! combination. Pure: reads the judge's [`Mismatch`], whose classification
//! of a wrong value its messages are worded from.

use std::cmp::Ordering;
use std::fmt;

use wow_guid_vectors::{ErrorCode, RequestKind};

use crate::implementation::Fault;
use crate::judge::{Mismatch, ValueDifference};

/// How a decoded GUID is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct GuidError {
    /// Whether the high 32 bits differ (else only the low 32 do).
    high_half: bool,
    /// Whether the GUID is larger than the right one (else smaller).
    larger: bool,
}

/// How a name is wrong (see `as_str`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum NameError {
    Missing,
    Unexpected,
    Shorter,
    Longer,
    OtherBytes,
}

impl NameError {
    fn between(expected: Option<&[u8]>, got: Option<&[u8]>) -> Self {
        match (expected, got) {
            (Some(_), None) => Self::Missing,
            (None, Some(_)) => Self::Unexpected,
            (Some(e), Some(g)) => match g.len().cmp(&e.len()) {
                Ordering::Less => Self::Shorter,
                Ordering::Greater => Self::Longer,
                Ordering::Equal => Self::OtherBytes,
            },
            // Equal names are no name difference; the judge never says so.
            (None, None) => Self::OtherBytes,
        }
    }

    const fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "missing",
            Self::Unexpected => "where there is none",
            Self::Shorter => "too short",
            Self::Longer => "too long",
            Self::OtherBytes => "other bytes",
        }
    }
}

/// Where an encoding first goes wrong: in its first part (the mask byte of
/// a packed GUID, the eight GUID bytes of a named one) or after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum EncodingError {
    /// The mask byte or the GUID bytes of a named GUID.
    Head,
    /// The GUID bytes of a packed GUID, or the name and its NUL.
    Body,
}

impl EncodingError {
    fn between(kind: RequestKind, expected: &[u8], got: &[u8]) -> Self {
        let head = if kind == RequestKind::EncodeNamed {
            8
        } else {
            1
        };
        let first = expected
            .iter()
            .zip(got)
            .position(|(e, g)| e != g)
            .unwrap_or(expected.len().min(got.len()));
        if first < head {
            Self::Head
        } else {
            Self::Body
        }
    }
}

/// What differed, coarsely enough that one bug gives one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Difference {
    /// A decoded value whose byte count differs (taking precedence over the
    /// two below, which usually follow from reading other input).
    WrongConsumed {
        too_many: bool,
    },
    /// A decoded value with the right byte count and another GUID.
    WrongGuid(GuidError),
    /// A decoded value with the right byte count and GUID and another name.
    WrongName(NameError),
    WrongEncoding(EncodingError),
    WrongSize {
        too_large: bool,
    },
    /// A value of another shape than the request calls for.
    WrongValueKind,
    /// `error` where the reference gives a value: the code given.
    ErrorInsteadOfValue(ErrorCode),
    /// A value where the reference gives `error`: the reference's code.
    ValueInsteadOfError(ErrorCode),
    /// Another error code (only with strict error codes).
    WrongErrorCode {
        /// The reference's code.
        expected: ErrorCode,
        /// The code given.
        got: ErrorCode,
    },
    Timeout,
    Crash,
    Malformed,
    LineTooLong,
    ReadFailed,
    OnlyWhenPipelined,
}

impl Difference {
    #[must_use]
    fn of(kind: RequestKind, mismatch: &Mismatch) -> Self {
        match mismatch {
            Mismatch::WrongValue { expected, got } => {
                match ValueDifference::between(expected, got) {
                    ValueDifference::Decoded {
                        consumed: Some((expected, got)),
                        ..
                    } => Self::WrongConsumed {
                        too_many: got > expected,
                    },
                    ValueDifference::Decoded {
                        guid: Some((expected, got)),
                        consumed: None,
                    } => Self::WrongGuid(GuidError {
                        high_half: (expected ^ got) >> 32 != 0,
                        larger: got > expected,
                    }),
                    // The judge never says a decoded value differs in nothing.
                    ValueDifference::Decoded {
                        guid: None,
                        consumed: None,
                    } => Self::WrongValueKind,
                    ValueDifference::Name { expected, got } => {
                        Self::WrongName(NameError::between(expected, got))
                    }
                    ValueDifference::Encoding { expected, got } => {
                        Self::WrongEncoding(EncodingError::between(kind, expected, got))
                    }
                    ValueDifference::Size { expected, got } => Self::WrongSize {
                        too_large: got > expected,
                    },
                    ValueDifference::Kind => Self::WrongValueKind,
                }
            }
            Mismatch::RejectedValid { code, .. } => Self::ErrorInsteadOfValue(*code),
            Mismatch::AcceptedInvalid { expected, .. } => Self::ValueInsteadOfError(*expected),
            Mismatch::WrongErrorCode { expected, got } => Self::WrongErrorCode {
                expected: *expected,
                got: *got,
            },
            Mismatch::Fault(fault) => match fault {
                Fault::Timeout { .. } | Fault::NotSent => Self::Timeout,
                Fault::Exited { .. } => Self::Crash,
                Fault::Malformed { .. } | Fault::StrayLine { .. } | Fault::Unsolicited { .. } => {
                    Self::Malformed
                }
                Fault::LineTooLong { .. } => Self::LineTooLong,
                Fault::ReadFailed { .. } => Self::ReadFailed,
                Fault::OnlyWhenPipelined { .. } => Self::OnlyWhenPipelined,
            },
        }
    }
}

/// The class in a few words: `wrong GUID (high 32 bits, too large)`.
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::WrongConsumed { too_many } => write!(
                f,
                "wrong byte count (too {})",
                if too_many { "many" } else { "few" }
            ),
            Self::WrongGuid(GuidError { high_half, larger }) => write!(
                f,
                "wrong GUID ({} 32 bits, too {})",
                if high_half { "high" } else { "low" },
                if larger { "large" } else { "small" }
            ),
            Self::WrongName(how) => write!(f, "wrong name ({})", how.as_str()),
            Self::WrongEncoding(at) => write!(
                f,
                "wrong encoding ({} its first part)",
                if at == EncodingError::Head {
                    "from"
                } else {
                    "after"
                }
            ),
            Self::WrongSize { too_large } => write!(
                f,
                "wrong size (too {})",
                if too_large { "large" } else { "small" }
            ),
            Self::WrongValueKind => f.write_str("wrong kind of value"),
            Self::ErrorInsteadOfValue(code) => write!(f, "`error {code}` instead of a value"),
            Self::ValueInsteadOfError(code) => {
                write!(f, "a value instead of an error (`{code}`)")
            }
            Self::WrongErrorCode { expected, got } => {
                write!(f, "wrong error code (`{got}` for `{expected}`)")
            }
            Self::Timeout => f.write_str("timeout"),
            Self::Crash => f.write_str("crash"),
            Self::Malformed => f.write_str("malformed response"),
            Self::LineTooLong => f.write_str("response line too long"),
            Self::ReadFailed => f.write_str("unreadable output"),
            Self::OnlyWhenPipelined => f.write_str("fault only when pipelined"),
        }
    }
}

/// A request kind and what differed: the unit findings are grouped by. A
/// failing read-back ([`crate::run::READ_BACK`]) is a cause of its own:
/// the implementation writes what it cannot read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The request kind.
    kind: RequestKind,
    /// What differed.
    difference: Difference,
    /// Whether the request read back the implementation's own encode.
    read_back: bool,
}

impl Signature {
    /// The signature of `mismatch` on a request of `kind`.
    #[must_use]
    pub fn of(kind: RequestKind, mismatch: &Mismatch) -> Self {
        Self {
            kind,
            difference: Difference::of(kind, mismatch),
            read_back: false,
        }
    }

    /// The same disagreement on a read-back: the decode of what the
    /// implementation itself encoded, so it writes what it cannot read.
    #[must_use]
    pub const fn read_back(self) -> Self {
        Self {
            read_back: true,
            ..self
        }
    }

    /// The request kind.
    #[must_use]
    pub const fn kind(self) -> RequestKind {
        self.kind
    }

    /// What differed, in a few words: `wrong GUID (high 32 bits, too
    /// large)`.
    #[must_use]
    pub fn difference(self) -> String {
        self.difference.to_string()
    }

    /// Whether the failure is a timeout.
    #[must_use]
    pub fn is_timeout(self) -> bool {
        self.difference == Difference::Timeout
    }

    /// Whether the runner ended (and will restart) the process over it: a
    /// fault rather than a wrong answer.
    #[must_use]
    pub const fn restarts_the_process(self) -> bool {
        matches!(
            self.difference,
            Difference::Timeout
                | Difference::Crash
                | Difference::Malformed
                | Difference::LineTooLong
                | Difference::ReadFailed
                | Difference::OnlyWhenPipelined
        )
    }

    /// Whether a single request can show it, so shrinking makes sense (not
    /// a fault that needs many requests in flight).
    #[must_use]
    pub const fn is_about_one_request(self) -> bool {
        !matches!(self.difference, Difference::OnlyWhenPipelined)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.read_back {
            f.write_str("writes what it cannot read: ")?;
        }
        write!(f, "{}: {}", self.kind, self.difference)
    }
}
