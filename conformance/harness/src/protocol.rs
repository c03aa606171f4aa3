//! The line protocol between the runner and an implementation, in both
//! directions: writing and parsing request lines, writing and parsing
//! response lines.
//!
//! `PROTOCOL.md` beside this crate is the normative text; this module is its
//! executable form, without I/O or state, so the runner, `serve`, `doctor`
//! and the fuzzer speak exactly one dialect.
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
//!
//! `lines` writes lines (and shows raw ones), `fields` splits and reads
//! fields, `request` and `response` parse the two directions.

use wow_guid_vectors::{ErrorCode, Value};

mod fields;
mod lines;
mod request;
mod response;

pub(crate) use lines::write_request;
pub use lines::{printable, request_line, response_line, write_response};
pub use request::{parse_request, RequestError};
pub(crate) use response::ResponseErrorKind;
pub use response::{parse_response, ResponseError};

/// The longest response line the runner accepts, terminator included;
/// longer is the implementation's failure.
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
