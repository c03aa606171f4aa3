//! Parsing a response line, the runner's side of the protocol: the form
//! the request calls for, and what is wrong with a line that is not an
//! acceptable answer to it.

use wow_guid_vectors::{ErrorCode, Request, Value};

use super::fields::{one_of, Field, FieldError, FieldErrorKind, Fields};
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
    pub(crate) const fn at(column: usize, kind: ResponseErrorKind) -> Self {
        Self { column, kind }
    }

    /// Whether the line's id is not the request's: the mark of an
    /// implementation that answers out of order, or writes something else.
    #[must_use]
    pub fn is_wrong_id(&self) -> bool {
        matches!(self.kind, ResponseErrorKind::WrongId { .. })
    }
}

/// What is wrong with a response line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ResponseErrorKind {
    #[error("empty line; expected `<id> ok|error|unsupported ...`")]
    Empty,
    #[error("byte {byte:#04x} is not printable ASCII; response lines are ASCII")]
    NotAscii { byte: u8 },
    #[error(
        "the response starts with id `{got}` but answers request `{expected}`; \
         responses must echo each request's id, in request order"
    )]
    WrongId { expected: String, got: String },
    #[error("unknown status `{0}`; expected `ok`, `error` or `unsupported` (lowercase)")]
    UnknownStatus(String),
    #[error("unknown error code `{0}`; expected {words}", words = one_of(ErrorCode::WORDS))]
    UnknownErrorCode(String),
    #[error("consumed count `{0}` is not a decimal number")]
    BadConsumed(String),
    #[error("size `{0}` is not a decimal number of bytes")]
    BadSize(String),
    #[error(transparent)]
    Field(FieldErrorKind),
    #[error("{}", name_mismatch(.guid))]
    NameMismatch { guid: u64 },
    #[error("unexpected extra field `{0}` for this kind of response")]
    Extra(String),
    /// A second response to a request already answered, reported against
    /// that request, not the one whose response was due.
    #[error(
        "a second response to request `{id}`, which was already answered; \
         each request gets exactly one response"
    )]
    Repeated { id: String },
}

fn name_mismatch(guid: &u64) -> &'static str {
    if *guid == 0 {
        "a decoded named GUID of 0 has no name, so the response must end after the consumed count"
    } else {
        "a decoded non-zero named GUID always has a name (`-` when empty) after the consumed count"
    }
}

impl From<FieldError> for ResponseError {
    fn from(e: FieldError) -> Self {
        Self::at(
            e.column,
            match e.kind {
                FieldErrorKind::Extra(field) => ResponseErrorKind::Extra(field),
                kind => ResponseErrorKind::Field(kind),
            },
        )
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
        return Err(ResponseError::at(1, ResponseErrorKind::Empty));
    }
    if let Some(i) = line.iter().position(|b| !(0x20..=0x7e).contains(b)) {
        return Err(ResponseError::at(
            i + 1,
            ResponseErrorKind::NotAscii { byte: line[i] },
        ));
    }
    let mut fields = Fields::new(line);
    let got_id = fields.required("id")?;
    if got_id.text != id.as_bytes() {
        let expected = id.to_owned();
        let got = got_id.shown();
        return Err(ResponseError::at(
            1,
            ResponseErrorKind::WrongId { expected, got },
        ));
    }
    let status = fields.required("status (`ok`, `error` or `unsupported`)")?;
    let response = match status.text {
        b"unsupported" => Response::Unsupported,
        b"error" => {
            let code = fields.required("error code")?;
            let unknown = ResponseErrorKind::UnknownErrorCode;
            Response::Error(
                code.word()
                    .ok_or_else(|| ResponseError::at(code.column, unknown(code.shown())))?,
            )
        }
        b"ok" => Response::Ok(parse_value(&mut fields, request)?),
        _ => {
            let unknown = ResponseErrorKind::UnknownStatus(status.shown());
            return Err(ResponseError::at(status.column, unknown));
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
        .ok_or_else(|| ResponseError::at(field.column, bad(field.shown())))
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
            let mismatch =
                |column| ResponseError::at(column, ResponseErrorKind::NameMismatch { guid });
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
