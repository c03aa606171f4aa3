//! Parsing a response line, the runner's side of the protocol: the form
//! the request calls for, and what is wrong with a line that is not an
//! acceptable answer to it.

use wow_guid_vectors::hex_text::{GuidTextError, HexError};
use wow_guid_vectors::{ErrorCode, Request, Value};

use super::fields::{
    bytes_message, guid_message, one_of, Field, FieldError, FieldErrorKind, Fields,
};
use super::Response;

/// Why a response line is not an acceptable answer to the request it
/// follows. Every variant is a failure of the implementation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ResponseError {
    /// 1-based byte column of the offending field.
    pub column: usize,
    /// What is wrong there; the message ([`fmt::Display`](std::fmt::Display)) says it.
    pub(crate) kind: ResponseErrorKind,
}

impl ResponseError {
    /// Whether the line answers another request than the one due (its id
    /// is not the request's): the mark of an implementation that answers
    /// out of order, or writes something else first.
    #[must_use]
    pub fn is_wrong_id(&self) -> bool {
        matches!(self.kind, ResponseErrorKind::WrongId { .. })
    }
}

/// What is wrong with a response line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ResponseErrorKind {
    /// The line is empty.
    #[error("empty line; expected `<id> ok|error|unsupported ...`")]
    Empty,
    /// The line holds a byte outside printable ASCII.
    #[error("byte {byte:#04x} is not printable ASCII; response lines are ASCII")]
    NotAscii {
        /// The offending byte.
        byte: u8,
    },
    /// A field is empty: two spaces in a row, or a space at either end.
    #[error("empty field: fields are separated by exactly one space, with none at either end")]
    EmptyField,
    /// The first field is not the id of the request this line answers.
    #[error(
        "the response starts with id `{got}` but answers request `{expected}`; \
         responses must echo each request's id, in request order"
    )]
    WrongId {
        /// The id of the request being answered.
        expected: String,
        /// The id the line starts with.
        got: String,
    },
    /// The line ended before this field.
    #[error("the line ends before the {0}")]
    Missing(&'static str),
    /// The status is not `ok`, `error` or `unsupported`.
    #[error("unknown status `{0}`; expected `ok`, `error` or `unsupported` (lowercase)")]
    UnknownStatus(String),
    /// The error code is not one of the protocol's codes.
    #[error("unknown error code `{0}`; expected {words}", words = one_of(ErrorCode::WORDS))]
    UnknownErrorCode(String),
    /// A GUID field is not 16 hex digits.
    #[error("bad GUID: {}", guid_message(.0))]
    BadGuid(GuidTextError),
    /// The consumed count is not a decimal number.
    #[error("consumed count `{0}` is not a decimal number")]
    BadConsumed(String),
    /// The size is not a decimal number.
    #[error("size `{0}` is not a decimal number of bytes")]
    BadSize(String),
    /// A byte-string field is not protocol hex.
    #[error("bad byte string: {}", bytes_message(.0))]
    BadBytes(HexError),
    /// A decoded named GUID of 0 came with a name, or a non-zero one without.
    #[error("{}", name_mismatch(.guid))]
    NameMismatch {
        /// The GUID in the response.
        guid: u64,
    },
    /// More fields than this response form takes.
    #[error("unexpected extra field `{0}` for this kind of response")]
    Extra(String),
    /// A second response to a request that was already answered. The
    /// runner reports this against the request answered twice, not against
    /// the request whose response was due (see the `process` module).
    #[error(
        "a second response to request `{id}`, which was already answered; \
         each request gets exactly one response"
    )]
    Repeated {
        /// The id of the request answered twice.
        id: String,
    },
}

/// [`ResponseErrorKind::NameMismatch`] in words: a name where a GUID of 0
/// has none, or none where any other GUID has one.
fn name_mismatch(guid: &u64) -> &'static str {
    if *guid == 0 {
        "a decoded named GUID of 0 has no name, so the response must end after the consumed count"
    } else {
        "a decoded non-zero named GUID always has a name (`-` when empty) after the consumed count"
    }
}

impl From<FieldError> for ResponseError {
    fn from(e: FieldError) -> Self {
        Self {
            column: e.column,
            kind: match e.kind {
                FieldErrorKind::Missing(what) => ResponseErrorKind::Missing(what),
                FieldErrorKind::Empty => ResponseErrorKind::EmptyField,
                FieldErrorKind::Extra(field) => ResponseErrorKind::Extra(field),
                FieldErrorKind::BadBytes(e) => ResponseErrorKind::BadBytes(e),
                FieldErrorKind::BadGuid(e) => ResponseErrorKind::BadGuid(e),
            },
        }
    }
}

/// Parses the response line that answers `request` sent under `id`. The
/// line comes without its `\n`; one trailing `\r` is accepted and dropped.
///
/// The request decides which `ok` form is expected, so a decode answered
/// with encoded bytes is an error here rather than a wrong value later.
///
/// # Errors
/// [`ResponseError`] naming the column and what is wrong there.
pub fn parse_response(line: &[u8], id: &str, request: &Request) -> Result<Response, ResponseError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return Err(ResponseError {
            column: 1,
            kind: ResponseErrorKind::Empty,
        });
    }
    if let Some(i) = line.iter().position(|b| !(0x20..=0x7e).contains(b)) {
        return Err(ResponseError {
            column: i + 1,
            kind: ResponseErrorKind::NotAscii { byte: line[i] },
        });
    }
    let mut fields = Fields::new(line);
    let got_id = fields.required("id")?;
    if got_id.text != id.as_bytes() {
        return Err(ResponseError {
            column: 1,
            kind: ResponseErrorKind::WrongId {
                expected: id.to_owned(),
                got: got_id.shown(),
            },
        });
    }
    let status = fields.required("status (`ok`, `error` or `unsupported`)")?;
    let response = match status.text {
        b"unsupported" => Response::Unsupported,
        b"error" => {
            let code = fields.required("error code")?;
            Response::Error(code.word().ok_or_else(|| ResponseError {
                column: code.column,
                kind: ResponseErrorKind::UnknownErrorCode(code.shown()),
            })?)
        }
        b"ok" => Response::Ok(parse_value(&mut fields, request)?),
        _ => {
            return Err(ResponseError {
                column: status.column,
                kind: ResponseErrorKind::UnknownStatus(status.shown()),
            })
        }
    };
    fields.finish()?;
    Ok(response)
}

/// A decimal count field (a consumed count, a size); `bad` names the
/// field's fault when it is not one.
fn count(field: Field<'_>, bad: fn(String) -> ResponseErrorKind) -> Result<usize, ResponseError> {
    std::str::from_utf8(field.text)
        .ok()
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse::<usize>().ok())
        .ok_or_else(|| ResponseError {
            column: field.column,
            kind: bad(field.shown()),
        })
}

/// The value of an `ok` response, in the form `request` calls for.
fn parse_value(fields: &mut Fields<'_>, request: &Request) -> Result<Value, ResponseError> {
    let consumed = |field| count(field, ResponseErrorKind::BadConsumed);
    match request {
        Request::DecodePacked { .. } => Ok(Value::Packed {
            guid: fields.required("GUID")?.guid()?,
            consumed: consumed(fields.required("consumed count")?)?,
        }),
        Request::DecodeNamed { .. } => {
            let guid = fields.required("GUID")?.guid()?;
            let consumed = consumed(fields.required("consumed count")?)?;
            let name = fields.optional()?;
            // A name exactly when the GUID is not 0.
            let mismatch = |column| ResponseError {
                column,
                kind: ResponseErrorKind::NameMismatch { guid },
            };
            let name = match (guid, name) {
                (0, None) => None,
                (0, Some(name)) => return Err(mismatch(name.column)),
                (_, None) => return Err(mismatch(fields.line.len() + 1)),
                (_, Some(name)) => Some(name.hex()?),
            };
            Ok(Value::Named {
                guid,
                consumed,
                name,
            })
        }
        Request::EncodePacked { .. } | Request::EncodeNamed { .. } => Ok(Value::Encoded {
            bytes: fields.required("encoded bytes")?.hex()?,
        }),
        Request::SizePacked { .. } | Request::SizeNamed { .. } => Ok(Value::Size {
            size: count(fields.required("size")?, ResponseErrorKind::BadSize)?,
        }),
    }
}
