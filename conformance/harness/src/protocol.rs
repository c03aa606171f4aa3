//! The line protocol between the runner and an implementation, in both
//! directions: writing and parsing request lines, writing and parsing
//! response lines.
//!
//! `PROTOCOL.md` beside this crate is the normative text; this module is its
//! executable form and nothing else. It does no I/O and keeps no state, so
//! the runner, the `serve` adapter, `doctor` and the differential fuzzer all
//! speak exactly the same dialect.
//!
//! ```text
//! request  = id SP "decode" SP "packed_guid" SP bytes
//!          | id SP "encode" SP "packed_guid" SP guid
//!          | id SP "decode" SP "named_guid"  SP bytes
//!          | id SP "encode" SP "named_guid"  SP guid [SP bytes]
//!          | id SP "size"   SP "packed_guid" SP guid
//!          | id SP "size"   SP "named_guid"  SP guid [SP bytes]
//! response = id SP "ok" SP guid SP consumed            ; decode packed_guid
//!          | id SP "ok" SP guid SP consumed [SP bytes] ; decode named_guid, name iff guid != 0
//!          | id SP "ok" SP bytes                       ; encode
//!          | id SP "ok" SP count                       ; size
//!          | id SP "error" SP code
//!          | id SP "unsupported"
//! bytes    = "-" | 1*(2HEXDIG)      ; lowercase from the runner, either case back
//! guid     = 16HEXDIG               ; most significant digit first
//! consumed = 1*DIGIT
//! count    = 1*DIGIT                ; bytes the encoding takes
//! code     = "eof" | "invalid_utf8" | "interior_nul" | "name_without_guid" | "name_too_long" | "other"
//! ```
//!
//! Line terminators are not part of the lines handled here: callers split on
//! `\n` and [`parse_response`] drops one trailing `\r`.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use wow_guid_vectors::hex_text::{self, GuidTextError, HexError};
use wow_guid_vectors::{ErrorCode, GuidType, Op, Request, Value};

/// The longest response line the runner accepts, terminator included. A
/// line that grows past it is a failure of the implementation, not a reason
/// for the runner to keep allocating.
pub const MAX_RESPONSE_LINE: usize = 1 << 20;

/// What an implementation answered to one request, once parsed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Response {
    /// `ok` with the decoded value or the encoded bytes.
    Ok(Value),
    /// `error` with the code the implementation rejected the request with.
    Error(ErrorCode),
    /// `unsupported`: the implementation does not handle this kind of request.
    Unsupported,
}

fn write_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends the request line for `request` under `id`, with its `\n`. The
/// operation and type are the vocabulary's words (`decode packed_guid`).
pub(crate) fn write_request(out: &mut Vec<u8>, id: &str, request: &Request) {
    out.extend_from_slice(id.as_bytes());
    out.push(b' ');
    out.extend_from_slice(request.op().as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(request.guid_type().as_str().as_bytes());
    out.push(b' ');
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => {
            hex_text::write(out, bytes)
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            hex_text::write_guid(out, *guid)
        }
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            hex_text::write_guid(out, *guid);
            if let Some(name) = name {
                out.push(b' ');
                hex_text::write(out, name);
            }
        }
    }
    out.push(b'\n');
}

/// The request line for `request` under `id`, without its `\n`, for reports.
#[must_use]
pub fn request_line(id: &str, request: &Request) -> String {
    let mut out = Vec::new();
    write_request(&mut out, id, request);
    out.pop();
    // Only ASCII was written: the id is checked by the caller's corpus and
    // everything else comes from fixed words and hex digits.
    String::from_utf8_lossy(&out).into_owned()
}

/// Appends the response line for `response` under `id`, with its `\n`.
pub fn write_response(out: &mut Vec<u8>, id: &str, response: &Response) {
    out.extend_from_slice(id.as_bytes());
    match response {
        Response::Ok(value) => {
            out.extend_from_slice(b" ok ");
            match value {
                Value::Packed { guid, consumed } => {
                    hex_text::write_guid(out, *guid);
                    out.push(b' ');
                    write_decimal(out, *consumed);
                }
                Value::Named {
                    guid,
                    consumed,
                    name,
                } => {
                    hex_text::write_guid(out, *guid);
                    out.push(b' ');
                    write_decimal(out, *consumed);
                    if let Some(name) = name {
                        out.push(b' ');
                        hex_text::write(out, name);
                    }
                }
                Value::Encoded { bytes } => hex_text::write(out, bytes),
                Value::Size { size } => write_decimal(out, *size),
            }
        }
        Response::Error(code) => {
            out.extend_from_slice(b" error ");
            out.extend_from_slice(code.as_str().as_bytes());
        }
        Response::Unsupported => out.extend_from_slice(b" unsupported"),
    }
    out.push(b'\n');
}

/// The response line for `response` under `id`, without its `\n`, as the
/// reference would write it; reports use it for the expected side.
#[must_use]
pub fn response_line(id: &str, response: &Response) -> String {
    let mut out = Vec::new();
    write_response(&mut out, id, response);
    out.pop();
    String::from_utf8_lossy(&out).into_owned()
}

/// Shows a raw line to a person: printable ASCII as is, everything else
/// escaped, cut after `max_chars` characters with a note of the full length.
#[must_use]
pub fn printable(line: &[u8], max_chars: usize) -> String {
    let mut out = String::new();
    for (shown, &b) in line.iter().enumerate() {
        if shown == max_chars {
            out.push_str(&format!("… ({} bytes in all)", line.len()));
            break;
        }
        match b {
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(b)),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// A byte-string field's error as the protocol's messages word it: the
/// position is a 1-based character of the field.
fn bytes_message(error: &HexError) -> String {
    match *error {
        HexError::InvalidChar { offset, .. } => {
            format!("character {} is not a hex digit", offset + 1)
        }
        HexError::OddDigits { .. } => "odd number of hex digits".to_owned(),
    }
}

/// A GUID field's error as the protocol's messages word it.
fn guid_message(error: &GuidTextError) -> String {
    match *error {
        GuidTextError::InvalidChar { offset, .. } => {
            format!("character {} is not a hex digit", offset + 1)
        }
        GuidTextError::WrongLength { digits } => {
            let unit = if digits == 1 {
                "character"
            } else {
                "characters"
            };
            format!("a GUID is exactly 16 hex digits, this has {digits} {unit}")
        }
    }
}

/// One field of a line and its 1-based column.
#[derive(Clone, Copy)]
struct Field<'a> {
    text: &'a [u8],
    column: usize,
}

impl<'a> Field<'a> {
    /// The field for a message, escaped and cut to a readable length.
    fn shown(self) -> String {
        printable(self.text, 80)
    }

    fn hex(self) -> Result<Vec<u8>, FieldError> {
        hex_text::parse_field(self.text).map_err(|e| self.error(FieldErrorKind::BadBytes(e)))
    }

    fn guid(self) -> Result<u64, FieldError> {
        hex_text::parse_guid_field(self.text).map_err(|e| self.error(FieldErrorKind::BadGuid(e)))
    }

    /// The field as a word of one of the vocabulary's lists.
    fn word<T: FromStr>(self) -> Option<T> {
        std::str::from_utf8(self.text).ok()?.parse().ok()
    }

    fn error(self, kind: FieldErrorKind) -> FieldError {
        FieldError {
            column: self.column,
            kind,
        }
    }
}

/// What can be wrong with the fields of a line in either direction, so
/// the request and the response parser share one reading of fields.
struct FieldError {
    column: usize,
    kind: FieldErrorKind,
}

enum FieldErrorKind {
    /// The line ended before this field.
    Missing(&'static str),
    /// Two spaces in a row, or a space at either end.
    Empty,
    /// A field after the last one the line takes.
    Extra(String),
    BadBytes(HexError),
    BadGuid(GuidTextError),
}

/// Splits a line on single spaces, remembering where each field starts so
/// errors can name a column.
struct Fields<'a> {
    line: &'a [u8],
    pos: usize,
    done: bool,
}

impl<'a> Fields<'a> {
    fn new(line: &'a [u8]) -> Self {
        Self {
            line,
            pos: 0,
            done: false,
        }
    }

    /// The next field, or `None` at the end of the line.
    fn next_field(&mut self) -> Option<Field<'a>> {
        if self.done {
            return None;
        }
        let rest = &self.line[self.pos..];
        let column = self.pos + 1;
        let text = match rest.iter().position(|&b| b == b' ') {
            Some(len) => {
                self.pos += len + 1;
                &rest[..len]
            }
            None => {
                self.done = true;
                rest
            }
        };
        Some(Field { text, column })
    }

    /// The next field, which must be there (`what` names it) and not be empty.
    fn required(&mut self, what: &'static str) -> Result<Field<'a>, FieldError> {
        match self.next_field() {
            None => Err(FieldError {
                column: self.line.len() + 1,
                kind: FieldErrorKind::Missing(what),
            }),
            Some(field) => non_empty(field),
        }
    }

    /// The next field if there is one; it must not be empty.
    fn optional(&mut self) -> Result<Option<Field<'a>>, FieldError> {
        self.next_field().map(non_empty).transpose()
    }

    /// Checks that the line has no field left.
    fn finish(&mut self) -> Result<(), FieldError> {
        match self.next_field() {
            None => Ok(()),
            Some(field) if field.text.is_empty() => Err(field.error(FieldErrorKind::Empty)),
            Some(field) => Err(field.error(FieldErrorKind::Extra(field.shown()))),
        }
    }
}

fn non_empty(field: Field<'_>) -> Result<Field<'_>, FieldError> {
    if field.text.is_empty() {
        Err(field.error(FieldErrorKind::Empty))
    } else {
        Ok(field)
    }
}

/// How a request's operation field is named in messages, with its words.
static OPERATION: LazyLock<String> = LazyLock::new(|| format!("operation ({})", one_of(Op::WORDS)));

/// How a request's type field is named in messages, with its words.
static TYPE: LazyLock<String> = LazyLock::new(|| format!("type ({})", one_of(GuidType::WORDS)));

/// The words of one of the vocabulary's lists, for a message:
/// `` `decode`, `encode` or `size` ``.
fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Why a request line could not be parsed (the `serve` side of the protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError {
    /// 1-based byte column of the offending field.
    pub column: usize,
    /// What is wrong there; the message ([`fmt::Display`]) says it.
    kind: RequestErrorKind,
}

impl RequestError {
    /// Whether the line names a kind of request this protocol does not
    /// have (another operation or type: a newer runner's, say), which an
    /// adapter answers `unsupported`.
    pub(crate) const fn is_unknown_kind(&self) -> bool {
        matches!(
            self.kind,
            RequestErrorKind::UnknownOp(_) | RequestErrorKind::UnknownType(_)
        )
    }
}

/// What is wrong with a request line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RequestErrorKind {
    /// The line is empty.
    Empty,
    /// A field is empty: two spaces in a row, or a space at either end.
    EmptyField,
    /// The line ended before this field.
    Missing(&'static str),
    /// The second field is not one of the operations.
    UnknownOp(String),
    /// The third field is not `packed_guid` or `named_guid`.
    UnknownType(String),
    /// A byte-string field is not protocol hex.
    BadBytes(HexError),
    /// A GUID field is not 16 hex digits.
    BadGuid(GuidTextError),
    /// More fields than the request takes.
    Extra(String),
    /// The id contains a byte outside printable ASCII.
    BadId,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: ", self.column)?;
        match &self.kind {
            RequestErrorKind::Empty => f.write_str("empty line; expected `<id> <op> <type> ...`"),
            RequestErrorKind::EmptyField => f.write_str(
                "empty field: fields are separated by exactly one space, with none at either end",
            ),
            RequestErrorKind::Missing(what) => write!(f, "the line ends before the {what}"),
            RequestErrorKind::UnknownOp(op) => write!(
                f,
                "unknown operation `{op}`; expected {}",
                one_of(Op::WORDS)
            ),
            RequestErrorKind::UnknownType(ty) => write!(
                f,
                "unknown type `{ty}`; expected {}",
                one_of(GuidType::WORDS)
            ),
            RequestErrorKind::BadBytes(e) => write!(f, "bad byte string: {}", bytes_message(e)),
            RequestErrorKind::BadGuid(e) => write!(f, "bad GUID: {}", guid_message(e)),
            RequestErrorKind::Extra(field) => {
                write!(
                    f,
                    "unexpected extra field `{field}` after a complete request"
                )
            }
            RequestErrorKind::BadId => f.write_str("the id must be printable ASCII"),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<FieldError> for RequestError {
    fn from(e: FieldError) -> Self {
        Self {
            column: e.column,
            kind: match e.kind {
                FieldErrorKind::Missing(what) => RequestErrorKind::Missing(what),
                FieldErrorKind::Empty => RequestErrorKind::EmptyField,
                FieldErrorKind::Extra(field) => RequestErrorKind::Extra(field),
                FieldErrorKind::BadBytes(e) => RequestErrorKind::BadBytes(e),
                FieldErrorKind::BadGuid(e) => RequestErrorKind::BadGuid(e),
            },
        }
    }
}

/// Parses one request line (without its terminator) into the id and the request.
///
/// # Errors
/// [`RequestError`] naming the column and what is wrong there.
pub fn parse_request(line: &[u8]) -> Result<(&str, Request), RequestError> {
    if line.is_empty() {
        return Err(RequestError {
            column: 1,
            kind: RequestErrorKind::Empty,
        });
    }
    let mut fields = Fields::new(line);
    let id = fields.required("id")?;
    let id = match std::str::from_utf8(id.text) {
        Ok(id) if id.bytes().all(|b| b.is_ascii_graphic()) => id,
        _ => {
            return Err(RequestError {
                column: 1,
                kind: RequestErrorKind::BadId,
            })
        }
    };
    let op = fields.required(&OPERATION)?;
    let op: Op = op.word().ok_or_else(|| RequestError {
        column: op.column,
        kind: RequestErrorKind::UnknownOp(op.shown()),
    })?;
    let guid_type = fields.required(&TYPE)?;
    let guid_type: GuidType = guid_type.word().ok_or_else(|| RequestError {
        column: guid_type.column,
        kind: RequestErrorKind::UnknownType(guid_type.shown()),
    })?;
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

/// Why a response line is not an acceptable answer to the request it
/// follows. Every variant is a failure of the implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseError {
    /// 1-based byte column of the offending field.
    pub column: usize,
    /// What is wrong there; the message ([`fmt::Display`]) says it.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ResponseErrorKind {
    /// The line is empty.
    Empty,
    /// The line holds a byte outside printable ASCII.
    NotAscii {
        /// The offending byte.
        byte: u8,
    },
    /// A field is empty: two spaces in a row, or a space at either end.
    EmptyField,
    /// The first field is not the id of the request this line answers.
    WrongId {
        /// The id of the request being answered.
        expected: String,
        /// The id the line starts with.
        got: String,
    },
    /// The line ended before this field.
    Missing(&'static str),
    /// The status is not `ok`, `error` or `unsupported`.
    UnknownStatus(String),
    /// The error code is not one of the protocol's codes.
    UnknownErrorCode(String),
    /// A GUID field is not 16 hex digits.
    BadGuid(GuidTextError),
    /// The consumed count is not a decimal number.
    BadConsumed(String),
    /// The size is not a decimal number.
    BadSize(String),
    /// A byte-string field is not protocol hex.
    BadBytes(HexError),
    /// A decoded named GUID of 0 came with a name, or a non-zero one without.
    NameMismatch {
        /// The GUID in the response.
        guid: u64,
    },
    /// More fields than this response form takes.
    Extra(String),
    /// A second response to a request that was already answered. The
    /// runner reports this against the request answered twice, not against
    /// the request whose response was due (see the `process` module).
    Repeated {
        /// The id of the request answered twice.
        id: String,
    },
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: ", self.column)?;
        match &self.kind {
            ResponseErrorKind::Empty => f.write_str("empty line; expected `<id> ok|error|unsupported ...`"),
            ResponseErrorKind::NotAscii { byte } => write!(
                f,
                "byte {byte:#04x} is not printable ASCII; response lines are ASCII"
            ),
            ResponseErrorKind::EmptyField => f.write_str(
                "empty field: fields are separated by exactly one space, with none at either end",
            ),
            ResponseErrorKind::WrongId { expected, got } => write!(
                f,
                "the response starts with id `{got}` but answers request `{expected}`; \
                 responses must echo each request's id, in request order"
            ),
            ResponseErrorKind::Missing(what) => write!(f, "the line ends before the {what}"),
            ResponseErrorKind::UnknownStatus(s) => write!(
                f,
                "unknown status `{s}`; expected `ok`, `error` or `unsupported` (lowercase)"
            ),
            ResponseErrorKind::UnknownErrorCode(s) => write!(
                f,
                "unknown error code `{s}`; expected {}",
                one_of(ErrorCode::WORDS)
            ),
            ResponseErrorKind::BadGuid(e) => write!(f, "bad GUID: {}", guid_message(e)),
            ResponseErrorKind::BadConsumed(s) => {
                write!(f, "consumed count `{s}` is not a decimal number")
            }
            ResponseErrorKind::BadSize(s) => {
                write!(f, "size `{s}` is not a decimal number of bytes")
            }
            ResponseErrorKind::BadBytes(e) => write!(f, "bad byte string: {}", bytes_message(e)),
            ResponseErrorKind::NameMismatch { guid: 0 } => f.write_str(
                "a decoded named GUID of 0 has no name, so the response must end after the consumed count",
            ),
            ResponseErrorKind::NameMismatch { .. } => f.write_str(
                "a decoded non-zero named GUID always has a name (`-` when empty) after the consumed count",
            ),
            ResponseErrorKind::Extra(field) => {
                write!(f, "unexpected extra field `{field}` for this kind of response")
            }
            ResponseErrorKind::Repeated { id } => write!(
                f,
                "a second response to request `{id}`, which was already answered; \
                 each request gets exactly one response"
            ),
        }
    }
}

impl std::error::Error for ResponseError {}

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
