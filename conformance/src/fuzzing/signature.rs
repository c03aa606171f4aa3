//! What kind of disagreement a failed answer is.
//!
//! One bug usually disagrees on thousands of generated requests. Grouping
//! them by [`Signature`], the request kind plus a coarse class of what
//! differed, reports it once; the shrinker keeps the signature fixed, so the
//! minimal request shows the same bug as the one first seen rather than some
//! other disagreement that happens to be smaller. Pure: reads the judge's
//! [`Mismatch`] and nothing else; which part of a wrong value differs is the
//! judge's own classification, the one its messages are worded from.

use std::fmt;

use super::Kind;
use crate::implementation::Fault;
use crate::judge::{Mismatch, ValueDifference};
use crate::protocol::Response;

/// What differed, coarsely enough that one bug gives one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difference {
    /// A decoded value whose byte count differs. The GUID or name usually
    /// differs too, as a consequence of reading a different stretch of input,
    /// so this class takes precedence over the two below.
    WrongConsumed,
    /// A decoded value with the right byte count and another GUID.
    WrongGuid,
    /// A decoded value with the right byte count and GUID and another name.
    WrongName,
    /// An encoding with other bytes.
    WrongEncoding,
    /// A value of another shape than the request calls for.
    WrongValueKind,
    /// `error` where the reference gives a value.
    ErrorInsteadOfValue,
    /// A value where the reference gives `error`.
    ValueInsteadOfError,
    /// Another error code (only with strict error codes).
    WrongErrorCode,
    /// No response in time.
    Timeout,
    /// The process ended before answering.
    Crash,
    /// A line that is not a response to the request.
    Malformed,
    /// A response line past the runner's length bound.
    LineTooLong,
    /// Reading the process's output failed.
    ReadFailed,
    /// A fault that needs several requests in flight.
    OnlyWhenPipelined,
}

impl Difference {
    /// The class of `mismatch`.
    #[must_use]
    pub fn of(mismatch: &Mismatch) -> Self {
        match mismatch {
            Mismatch::WrongValue { expected, got } => {
                match ValueDifference::between(expected, got) {
                    ValueDifference::Decoded {
                        consumed: Some(_), ..
                    } => Self::WrongConsumed,
                    ValueDifference::Decoded { consumed: None, .. } => Self::WrongGuid,
                    ValueDifference::Name { .. } => Self::WrongName,
                    ValueDifference::Encoding { .. } => Self::WrongEncoding,
                    ValueDifference::Kind => Self::WrongValueKind,
                }
            }
            Mismatch::RejectedValid { .. } => Self::ErrorInsteadOfValue,
            Mismatch::AcceptedInvalid { .. } => Self::ValueInsteadOfError,
            Mismatch::WrongErrorCode { .. } => Self::WrongErrorCode,
            Mismatch::Fault(fault) => match fault {
                Fault::Timeout { .. } => Self::Timeout,
                Fault::Exited { .. } => Self::Crash,
                Fault::Malformed { .. } => Self::Malformed,
                Fault::LineTooLong { .. } => Self::LineTooLong,
                Fault::ReadFailed { .. } => Self::ReadFailed,
                Fault::OnlyWhenPipelined { .. } => Self::OnlyWhenPipelined,
            },
        }
    }

    /// The class in a few words.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::WrongConsumed => "wrong byte count",
            Self::WrongGuid => "wrong GUID",
            Self::WrongName => "wrong name",
            Self::WrongEncoding => "wrong encoding",
            Self::WrongValueKind => "wrong kind of value",
            Self::ErrorInsteadOfValue => "error instead of a value",
            Self::ValueInsteadOfError => "value instead of an error",
            Self::WrongErrorCode => "wrong error code",
            Self::Timeout => "timeout",
            Self::Crash => "crash",
            Self::Malformed => "malformed response",
            Self::LineTooLong => "response line too long",
            Self::ReadFailed => "unreadable output",
            Self::OnlyWhenPipelined => "fault only when pipelined",
        }
    }

    /// Whether the runner ended (and will restart) the process over it.
    #[must_use]
    pub const fn restarts_the_process(self) -> bool {
        matches!(
            self,
            Self::Timeout
                | Self::Crash
                | Self::Malformed
                | Self::LineTooLong
                | Self::ReadFailed
                | Self::OnlyWhenPipelined
        )
    }

    /// Whether a single request on its own can show this class, so that
    /// shrinking makes sense. A pipelining fault needs many requests in
    /// flight.
    #[must_use]
    pub const fn is_about_one_request(self) -> bool {
        !matches!(self, Self::OnlyWhenPipelined)
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request kind and what differed: the unit findings are grouped by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The request kind.
    pub kind: Kind,
    /// What differed.
    pub difference: Difference,
}

impl Signature {
    /// The signature of `mismatch` on a request of `kind`.
    #[must_use]
    pub fn of(kind: Kind, mismatch: &Mismatch) -> Self {
        Self {
            kind,
            difference: Difference::of(mismatch),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.difference)
    }
}

/// A request the implementation answered differently from the reference:
/// how, and what it answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The class.
    pub signature: Signature,
    /// The judge's reason.
    pub mismatch: Mismatch,
    /// The implementation's reply.
    pub reply: Result<Response, Fault>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use wow_guid_vectors::{ErrorCode, Value};

    #[test]
    fn consumed_takes_precedence_over_guid_and_name() {
        let named = |guid, consumed, name: &[u8]| Value::Named {
            guid,
            consumed,
            name: Some(name.to_vec()),
        };
        let wrong = |expected, got| Difference::of(&Mismatch::WrongValue { expected, got });
        assert_eq!(
            wrong(named(1, 10, b"a"), named(2, 11, b"ab")),
            Difference::WrongConsumed
        );
        assert_eq!(
            wrong(named(1, 10, b"a"), named(2, 10, b"b")),
            Difference::WrongGuid
        );
        assert_eq!(
            wrong(named(1, 10, b"a"), named(1, 10, b"b")),
            Difference::WrongName
        );
        let packed = |guid, consumed| Value::Packed { guid, consumed };
        assert_eq!(wrong(packed(1, 2), packed(1, 3)), Difference::WrongConsumed);
        assert_eq!(wrong(packed(1, 2), packed(3, 2)), Difference::WrongGuid);
        assert_eq!(
            wrong(
                Value::Encoded { bytes: vec![0] },
                Value::Encoded { bytes: vec![1, 0] }
            ),
            Difference::WrongEncoding
        );
    }

    #[test]
    fn faults_and_errors_have_their_own_classes() {
        let sig = Signature::of(
            Kind::DecodeNamed,
            &Mismatch::Fault(Fault::Timeout {
                after: Duration::from_secs(1),
                partial: vec![],
            }),
        );
        assert_eq!(sig.to_string(), "decode named_guid: timeout");
        let sig = Signature::of(
            Kind::DecodePacked,
            &Mismatch::RejectedValid {
                expected: Value::Packed {
                    guid: 0,
                    consumed: 2,
                },
                code: ErrorCode::Eof,
            },
        );
        assert_eq!(
            sig.to_string(),
            "decode packed_guid: error instead of a value"
        );
        assert!(!Difference::OnlyWhenPipelined.is_about_one_request());
        assert!(Difference::Crash.is_about_one_request());
    }
}
