//! Parsing a request line, the `serve` side of the protocol, and what is
//! wrong with one that does not parse.

use std::sync::LazyLock;

use wow_guid_vectors::{GuidType, Op, Request};

use super::fields::{one_of, Field, FieldError, FieldErrorKind, Fields};

/// How a request's operation field is named in messages, with its words.
static OPERATION: LazyLock<String> = LazyLock::new(|| format!("operation ({})", one_of(Op::WORDS)));

/// How a request's type field is named in messages, with its words.
static TYPE: LazyLock<String> = LazyLock::new(|| format!("type ({})", one_of(GuidType::WORDS)));

/// Why a request line could not be parsed (the `serve` side of the protocol).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct RequestError {
    /// 1-based byte column of the offending field.
    pub column: usize,
    /// What is wrong there; the message ([`fmt::Display`](std::fmt::Display)) says it.
    kind: RequestErrorKind,
}

impl RequestError {
    const fn at(column: usize, kind: RequestErrorKind) -> Self {
        Self { column, kind }
    }

    /// Whether the line names another operation or type (a newer
    /// runner's, say), which an adapter answers `unsupported`.
    pub(crate) const fn is_unknown_kind(&self) -> bool {
        matches!(
            self.kind,
            RequestErrorKind::UnknownOp(_) | RequestErrorKind::UnknownType(_)
        )
    }
}

/// What is wrong with a request line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RequestErrorKind {
    #[error("empty line; expected `<id> <op> <type> ...`")]
    Empty,
    #[error("unknown operation `{0}`; expected {words}", words = one_of(Op::WORDS))]
    UnknownOp(String),
    #[error("unknown type `{0}`; expected {words}", words = one_of(GuidType::WORDS))]
    UnknownType(String),
    #[error(transparent)]
    Field(FieldErrorKind),
    #[error("unexpected extra field `{0}` after a complete request")]
    Extra(String),
    #[error("the id must be printable ASCII")]
    BadId,
}

impl From<FieldError> for RequestError {
    fn from(e: FieldError) -> Self {
        Self::at(
            e.column,
            match e.kind {
                FieldErrorKind::Extra(field) => RequestErrorKind::Extra(field),
                kind => RequestErrorKind::Field(kind),
            },
        )
    }
}

/// Parses one request line (without its terminator) into the id and the request.
///
/// # Errors
/// [`RequestError`] naming the column and what is wrong there.
pub fn parse_request(line: &[u8]) -> Result<(&str, Request), RequestError> {
    if line.is_empty() {
        return Err(RequestError::at(1, RequestErrorKind::Empty));
    }
    let mut fields = Fields::new(line);
    let id = fields.required("id")?;
    let id = match std::str::from_utf8(id.text) {
        Ok(id) if id.bytes().all(|b| b.is_ascii_graphic()) => id,
        _ => return Err(RequestError::at(1, RequestErrorKind::BadId)),
    };
    let op = fields.required(&OPERATION)?;
    let op: Op = op
        .word()
        .ok_or_else(|| RequestError::at(op.column, RequestErrorKind::UnknownOp(op.shown())))?;
    let guid_type = fields.required(&TYPE)?;
    let unknown = RequestErrorKind::UnknownType;
    let guid_type: GuidType = guid_type
        .word()
        .ok_or_else(|| RequestError::at(guid_type.column, unknown(guid_type.shown())))?;
    let request = match (op, guid_type) {
        (Op::Decode, GuidType::PackedGuid) => Request::DecodePacked {
            bytes: fields.required("input bytes")?.hex()?,
        },
        (Op::Decode, GuidType::NamedGuid) => Request::DecodeNamed {
            bytes: fields.required("input bytes")?.hex()?,
        },
        (Op::Encode, GuidType::PackedGuid) => Request::EncodePacked {
            guid: fields.required("GUID")?.guid()?,
        },
        (Op::Encode, GuidType::NamedGuid) => Request::EncodeNamed {
            guid: fields.required("GUID")?.guid()?,
            name: fields.optional()?.map(Field::hex).transpose()?,
        },
        (Op::Size, GuidType::PackedGuid) => Request::SizePacked {
            guid: fields.required("GUID")?.guid()?,
        },
        (Op::Size, GuidType::NamedGuid) => Request::SizeNamed {
            guid: fields.required("GUID")?.guid()?,
            name: fields.optional()?.map(Field::hex).transpose()?,
        },
    };
    fields.finish()?;
    Ok((id, request))
}

#[cfg(test)]
mod tests {
    use super::parse_request;

    /// Only a request of an operation or type the protocol lacks is one
    /// `serve` answers `unsupported`; every other bad line is an error.
    #[test]
    fn only_an_unknown_op_or_type_is_an_unknown_kind() {
        let unknown_kind = |line: &[u8]| parse_request(line).unwrap_err().is_unknown_kind();
        assert!(unknown_kind(b"i frobnicate packed_guid 00"));
        assert!(unknown_kind(b"i decode widget_guid 00"));
        for line in [
            &b""[..],
            b"i",
            b"i decode",
            b"i decode packed_guid zz",
            b"i decode packed_guid 00 extra",
            b"i  decode packed_guid 00",
        ] {
            assert!(!unknown_kind(line), "{}", String::from_utf8_lossy(line));
        }
    }
}
