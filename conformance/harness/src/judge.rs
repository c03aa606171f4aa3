//! Deciding whether an answer satisfies a vector's expectation.
//!
//! Values are compared parsed, never as text, so the protocol's spelling
//! freedoms (hex case) cannot fail anything. Which answers pass is
//! [`Accepted`], the corpus's one statement of the rules (fingerprinted by
//! a release, so no rule changes under a released vector unnoticed); this
//! module matches a reply against it:
//!
//! - `valid` needs `ok` with an equal value;
//! - `invalid` needs `error`: any code, or exactly the vector's code with
//!   strict errors on;
//! - `acceptable` takes the given value or any `error`;
//! - a request whose name is long enough that an implementation may bound
//!   it ([`Request::may_refuse_as_too_long`]) also takes `error
//!   name_too_long`, whatever the vector expects, and only that code: a
//!   valid long name refused with another code fails, strict or not;
//! - `unsupported` is a skip, not a failure;
//! - anything else, including every [`Fault`], is a failure with a reason.
//!
//! Pure: one judge for `run`, `lint` (of the reference codec) and the
//! differential fuzzer.

use std::fmt;

use wow_guid_vectors::{Accepted, ErrorCode, Expectation, Request, Value};

use crate::implementation::Fault;
use crate::protocol::Response;

mod byte_diff;
mod difference;

pub(crate) use difference::ValueDifference;

/// How strictly `error` responses are judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeOptions {
    /// Require the exact error code of an `invalid` vector, not just `error`.
    pub strict_errors: bool,
}

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer satisfies the expectation.
    Pass,
    /// The implementation said `unsupported`.
    Skip,
    /// The answer does not satisfy the expectation.
    Fail(Mismatch),
}

impl Verdict {
    /// Whether this is [`Verdict::Pass`].
    #[must_use]
    pub fn is_pass(&self) -> bool {
        matches!(self, Self::Pass)
    }
}

/// Why an answer fails its vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// `ok` with a value other than the expected one.
    WrongValue {
        /// What the vector expects.
        expected: Value,
        /// What came back.
        got: Value,
    },
    /// `error` where the vector expects a value.
    RejectedValid {
        /// What the vector expects.
        expected: Value,
        /// The code that came back.
        code: ErrorCode,
    },
    /// `ok` where the vector expects an error.
    AcceptedInvalid {
        /// The code the vector names.
        expected: ErrorCode,
        /// What came back.
        got: Value,
        /// `(consumed, input length)` when the value claims more bytes
        /// than the input has: a read past the end, which the reason names
        /// first.
        past_end: Option<(usize, usize)>,
    },
    /// `error` with another code than the vector's, under strict errors.
    WrongErrorCode {
        /// The code the vector names.
        expected: ErrorCode,
        /// The code that came back.
        got: ErrorCode,
    },
    /// No acceptable response at all.
    Fault(Fault),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongValue { expected, got } => ValueDifference::between(expected, got).fmt(f),
            Self::RejectedValid { code, .. } => {
                write!(f, "rejected valid input with `error {code}`")
            }
            Self::AcceptedInvalid {
                expected, past_end, ..
            } => {
                f.write_str("accepted invalid input")?;
                if let Some((consumed, len)) = past_end {
                    write!(f, ": consumed {consumed} bytes of a {len}-byte input")?;
                }
                write!(
                    f,
                    " (expected `error`, the reference gives `error {expected}`)"
                )
            }
            Self::WrongErrorCode { expected, got } => write!(
                f,
                "wrong error code `{got}`, expected `{expected}` (--strict-errors)"
            ),
            Self::Fault(fault) => fault.fmt(f),
        }
    }
}

/// `(consumed, input length)` when `got` claims more bytes than
/// `request`'s input holds.
fn past_end(request: &Request, got: &Value) -> Option<(usize, usize)> {
    let consumed = match got {
        Value::Packed { consumed, .. } | Value::Named { consumed, .. } => *consumed,
        Value::Encoded { .. } | Value::Size { .. } => return None,
    };
    let len = request.input_bytes()?.len();
    (consumed > len).then_some((consumed, len))
}

/// Judges one reply to `request` against its expectation.
#[must_use]
pub fn judge(
    request: &Request,
    expect: &Expectation,
    reply: &Result<Response, Fault>,
    options: JudgeOptions,
) -> Verdict {
    let response = match reply {
        Ok(r) => r,
        Err(fault) => return Verdict::Fail(Mismatch::Fault(fault.clone())),
    };
    let accepted = Accepted::of(request, expect);
    match (expect, response) {
        (_, Response::Unsupported) => Verdict::Skip,
        (_, Response::Ok(got)) if accepted.value == Some(got) => Verdict::Pass,
        (_, Response::Error(code)) if accepted.errors(options.strict_errors).contains(*code) => {
            Verdict::Pass
        }
        (
            Expectation::Valid(expected)
            | Expectation::Acceptable {
                value: expected, ..
            },
            Response::Ok(got),
        ) => Verdict::Fail(Mismatch::WrongValue {
            expected: expected.clone(),
            got: got.clone(),
        }),
        (Expectation::Valid(expected), Response::Error(code)) => {
            Verdict::Fail(Mismatch::RejectedValid {
                expected: expected.clone(),
                code: *code,
            })
        }
        (Expectation::Invalid(expected), Response::Ok(got)) => {
            Verdict::Fail(Mismatch::AcceptedInvalid {
                expected: *expected,
                got: got.clone(),
                past_end: past_end(request, got),
            })
        }
        (Expectation::Invalid(expected), Response::Error(got)) => {
            Verdict::Fail(Mismatch::WrongErrorCode {
                expected: *expected,
                got: *got,
            })
        }
        // Never reached: `Accepted` takes every code for `acceptable`.
        (Expectation::Acceptable { .. }, Response::Error(_)) => Verdict::Pass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAX: JudgeOptions = JudgeOptions {
        strict_errors: false,
    };
    const STRICT: JudgeOptions = JudgeOptions {
        strict_errors: true,
    };

    fn packed(guid: u64, consumed: usize) -> Value {
        Value::Packed { guid, consumed }
    }

    /// The judge for a request without a name, where only the expectation
    /// counts (shadows the glob import).
    fn judge(e: &Expectation, reply: &Result<Response, Fault>, options: JudgeOptions) -> Verdict {
        super::judge(&Request::DecodePacked { bytes: vec![] }, e, reply, options)
    }

    /// Why a lax judge fails `got` for `e`.
    fn why(e: &Expectation, got: Value) -> String {
        match judge(e, &Ok(Response::Ok(got)), LAX) {
            Verdict::Fail(m) => m.to_string(),
            other => panic!("{other:?}"),
        }
    }

    /// A named GUID decode whose name is `len` bytes, with or without NUL.
    fn named_decode(len: usize, nul: bool) -> Request {
        let mut bytes = 0x0102_u64.to_le_bytes().to_vec();
        bytes.extend(std::iter::repeat_n(b'a', len));
        if nul {
            bytes.push(0);
        }
        Request::DecodeNamed { bytes }
    }

    #[test]
    fn a_name_of_256_bytes_or_more_may_be_refused_as_too_long() {
        let too_long = Ok(Response::Error(ErrorCode::NameTooLong));
        let eof = Ok(Response::Error(ErrorCode::Eof));
        for (len, bounded) in [(255, false), (256, true), (4096, true)] {
            let request = named_decode(len, true);
            let value = Value::Named {
                guid: 0x0102,
                consumed: 8 + len + 1,
                name: Some(vec![b'a'; len]),
            };
            let whole = Expectation::Valid(value.clone());
            for options in [STRICT, LAX] {
                let verdict = super::judge(&request, &whole, &too_long, options);
                assert_eq!(verdict.is_pass(), bounded, "{len} bytes, {options:?}");
                // The permission is spent only as name_too_long: another
                // code refuses a valid name, strict or not.
                assert_eq!(
                    super::judge(&request, &whole, &eof, options),
                    Verdict::Fail(Mismatch::RejectedValid {
                        expected: value.clone(),
                        code: ErrorCode::Eof,
                    }),
                    "{len} bytes, {options:?}"
                );
            }
            // A cut name is never accepted.
            let cut = Ok(Response::Ok(Value::Named {
                guid: 0x0102,
                consumed: 8 + len,
                name: Some(vec![b'a'; len - 1]),
            }));
            assert!(!super::judge(&request, &whole, &cut, LAX).is_pass());
        }
        // A long unterminated name: eof, or the bound met first.
        let unterminated = named_decode(300, false);
        let expect = Expectation::Invalid(ErrorCode::Eof);
        assert!(super::judge(&unterminated, &expect, &too_long, STRICT).is_pass());
        assert!(super::judge(&unterminated, &expect, &eof, STRICT).is_pass());
        let other = Ok(Response::Error(ErrorCode::InvalidUtf8));
        assert!(!super::judge(&unterminated, &expect, &other, STRICT).is_pass());
        // Without strict codes an invalid vector takes any code, long or not.
        assert!(super::judge(&unterminated, &expect, &other, LAX).is_pass());
        // Encoding: the name given counts; no name, or a short one, does not.
        let encode = |name: Option<Vec<u8>>| Request::EncodeNamed { guid: 7, name };
        let written = Expectation::Valid(Value::Encoded { bytes: vec![] });
        assert!(
            super::judge(&encode(Some(vec![b'x'; 256])), &written, &too_long, STRICT).is_pass()
        );
        assert!(
            !super::judge(&encode(Some(vec![b'x'; 255])), &written, &too_long, STRICT).is_pass()
        );
        assert!(!super::judge(&encode(None), &written, &too_long, STRICT).is_pass());
    }

    #[test]
    fn each_expectation_takes_what_it_says() {
        let (right, wrong) = (packed(0xad00_de00, 3), packed(0xffff_ffff_ad00_de00, 3));
        let valid = Expectation::Valid(right.clone());
        let invalid = Expectation::Invalid(ErrorCode::InteriorNul);
        let value = Value::Encoded { bytes: vec![1, 0] };
        let acceptable = Expectation::Acceptable {
            value: value.clone(),
            why: "lenient".into(),
        };
        let (ok, error) = (|v| Ok(Response::Ok(v)), |c| Ok(Response::Error(c)));
        let empty = Value::Encoded { bytes: vec![] };
        for (e, reply, options, verdict) in [
            (&valid, ok(right.clone()), LAX, Verdict::Pass),
            (
                &valid,
                ok(wrong.clone()),
                LAX,
                Verdict::Fail(Mismatch::WrongValue {
                    expected: right.clone(),
                    got: wrong.clone(),
                }),
            ),
            (
                &valid,
                error(ErrorCode::Eof),
                STRICT,
                Verdict::Fail(Mismatch::RejectedValid {
                    expected: right.clone(),
                    code: ErrorCode::Eof,
                }),
            ),
            (&valid, Ok(Response::Unsupported), STRICT, Verdict::Skip),
            // Invalid takes any code unless strict.
            (&invalid, error(ErrorCode::Other), LAX, Verdict::Pass),
            (
                &invalid,
                error(ErrorCode::Other),
                STRICT,
                Verdict::Fail(Mismatch::WrongErrorCode {
                    expected: ErrorCode::InteriorNul,
                    got: ErrorCode::Other,
                }),
            ),
            (
                &invalid,
                error(ErrorCode::InteriorNul),
                STRICT,
                Verdict::Pass,
            ),
            (
                &invalid,
                ok(empty.clone()),
                LAX,
                Verdict::Fail(Mismatch::AcceptedInvalid {
                    expected: ErrorCode::InteriorNul,
                    got: empty,
                    past_end: None,
                }),
            ),
            // Acceptable takes the value or an error.
            (&acceptable, ok(value), STRICT, Verdict::Pass),
            (&acceptable, error(ErrorCode::Other), STRICT, Verdict::Pass),
        ] {
            assert_eq!(judge(e, &reply, options), verdict, "{e:?}, {reply:?}");
        }
        assert_eq!(
            why(&valid, wrong),
            "wrong value: GUID ffffffffad00de00, expected 00000000ad00de00 (bytes 4, 5, 6, 7 differ)"
        );
        assert_eq!(
            why(&valid, packed(0xad00_de00, 2)),
            "wrong value: consumed 2 bytes, expected 3 (1 too few)"
        );
        assert_eq!(why(&acceptable, Value::Encoded { bytes: vec![2] }), "wrong encoding: bytes differ from byte 0 (expected 2 bytes, got 1): expected [01]00, got [02]");
    }

    #[test]
    fn only_a_pass_is_a_pass() {
        let e = Expectation::Valid(packed(1, 2));
        assert!(judge(&e, &Ok(Response::Ok(packed(1, 2))), LAX).is_pass());
        assert!(!judge(&e, &Ok(Response::Ok(packed(1, 3))), LAX).is_pass());
        assert!(!judge(&e, &Ok(Response::Unsupported), LAX).is_pass());
    }

    #[test]
    fn a_value_that_consumed_more_than_the_input_says_so() {
        let request = Request::DecodePacked {
            bytes: vec![0x03, 0x01],
        };
        let e = Expectation::Invalid(ErrorCode::Eof);
        let past_end =
            |value: Value| match super::judge(&request, &e, &Ok(Response::Ok(value)), LAX) {
                Verdict::Fail(Mismatch::AcceptedInvalid { past_end, .. }) => past_end,
                other => panic!("{other:?}"),
            };
        let named = |consumed| Value::Named {
            guid: 1,
            consumed,
            name: Some(vec![]),
        };
        for (value, shown) in [
            (packed(1, 3), Some((3, 2))),
            (packed(1, 2), None),
            (packed(1, 1), None),
            (named(9), Some((9, 2))),
            (named(2), None),
            (Value::Encoded { bytes: vec![0; 9] }, None),
        ] {
            assert_eq!(past_end(value), shown);
        }
        // An encode request has no input to run past.
        let encode = Request::EncodePacked { guid: 1 };
        assert!(matches!(
            super::judge(&encode, &e, &Ok(Response::Ok(packed(1, 9))), LAX),
            Verdict::Fail(Mismatch::AcceptedInvalid { past_end: None, .. })
        ));

        let mismatch = |past_end| Mismatch::AcceptedInvalid {
            expected: ErrorCode::Eof,
            got: packed(1, 15),
            past_end,
        };
        assert_eq!(
            mismatch(Some((15, 14))).to_string(),
            "accepted invalid input: consumed 15 bytes of a 14-byte input (expected `error`, \
             the reference gives `error eof`)"
        );
        assert_eq!(
            mismatch(None).to_string(),
            "accepted invalid input (expected `error`, the reference gives `error eof`)"
        );
    }

    #[test]
    fn faults_fail_with_their_reason() {
        let e = Expectation::Invalid(ErrorCode::Eof);
        let fault = Fault::Exited {
            status: "exit status: 3".into(),
            partial: crate::implementation::Excerpt::default(),
        };
        let Verdict::Fail(m) = judge(&e, &Err(fault.clone()), LAX) else {
            panic!()
        };
        assert_eq!(m, Mismatch::Fault(fault));
        assert!(m.to_string().contains("exit status: 3"));
    }

    #[test]
    fn named_values_name_the_differing_part() {
        let e = Expectation::Valid(Value::Named {
            guid: 1,
            consumed: 12,
            name: Some(b"Bob".to_vec()),
        });
        let got = Value::Named {
            guid: 1,
            consumed: 12,
            name: Some(b"Bo".to_vec()),
        };
        assert_eq!(why(&e, got), "wrong name: bytes differ from byte 2 (expected 3 bytes, got 2): expected 426f[62], got 426f[end]");
    }
}
