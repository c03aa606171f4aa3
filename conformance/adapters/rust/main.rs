//! PackedGuid / NamedGuid conformance adapter in Rust, calling the reference
//! codec crate `wow-guid-codec`: the file to copy when your codec is a Rust
//! crate.
//!
//! The conformance runner starts this program and talks to it over pipes, one
//! request line on stdin, one response line on stdout (`PROTOCOL.md`). All of
//! that is [`serve_with`] from the `wow-guid-harness` crate: it parses each
//! request, writes each response, flushes before it would wait for input,
//! and answers a line that does not follow the protocol (`error other`, or
//! `unsupported` for a kind of request it does not know) without stopping.
//! What is left is [`answer`]: one request in, one response out. Replace the
//! calls into `wow_guid_codec` with calls into your crate, and map your
//! errors onto the protocol's codes (`ErrorCode`). Error codes: `eof`,
//! `invalid_utf8`, `interior_nul`, `name_without_guid`, `name_too_long`,
//! `other`. The protocol in brief:
//!
//! ```text
//! Requests                                   Responses
//!   <id> decode packed_guid <bytes>            <id> ok <guid> <consumed>
//!   <id> encode packed_guid <guid>             <id> ok <bytes>
//!   <id> decode named_guid <bytes>             <id> ok <guid> <consumed> [<name>]
//!   <id> encode named_guid <guid> [<name>]     <id> ok <bytes>
//!   <id> size packed_guid <guid>               <id> ok <size>
//!   <id> size named_guid <guid> [<name>]       <id> ok <size>
//!                                              <id> error <code>
//!                                              <id> unsupported
//! ```
//!
//! The two `size` arms (how many bytes an encoding takes) are optional:
//! without them the last arm answers `unsupported`, and the runner skips
//! those vectors.
//!
//! ```text
//! $ echo "t1 decode packed_guid 0adead" | cargo run -q -p wow-guid-conformance --example adapter-rust
//! t1 ok 00000000ad00de00 3
//! ```
//!
//! It lives as an example of the `wow-guid-conformance` package so that
//! `cargo test` builds it and the integration tests run it.

use wow_guid_codec::{
    NamedGuid, NamedGuidDecodeError, NamedGuidValueError, PackedGuid, PackedGuidError,
};
use wow_guid_harness::protocol::Response;
use wow_guid_harness::serve::serve_with;
use wow_guid_vectors::{ErrorCode, Request, Value};

/// One request's response.
fn answer(request: &Request) -> Response {
    let result = match request {
        Request::DecodePacked { bytes } => PackedGuid::decode(bytes)
            .map(|decoded| Value::Packed {
                guid: decoded.value.get(),
                consumed: decoded.consumed,
            })
            .map_err(|error| match error {
                PackedGuidError::UnexpectedEof { .. } => ErrorCode::Eof,
                _ => ErrorCode::Other,
            }),
        Request::EncodePacked { guid } => Ok(Value::Encoded {
            bytes: PackedGuid(*guid).encode().to_vec(),
        }),
        Request::DecodeNamed { bytes } => NamedGuid::decode(bytes)
            .map(|decoded| Value::Named {
                guid: decoded.value.guid(),
                consumed: decoded.consumed,
                // GUID 0 carries no name, so the response has none either.
                name: decoded.value.name().map(|name| name.as_bytes().to_vec()),
            })
            .map_err(|error| match error {
                NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. } => {
                    ErrorCode::Eof
                }
                NamedGuidDecodeError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
                NamedGuidDecodeError::NameTooLong { .. } => ErrorCode::NameTooLong,
                _ => ErrorCode::Other,
            }),
        // from_raw_parts checks every rule of the format: GUID 0 with a
        // name, a non-zero GUID without one, NUL inside, invalid UTF-8.
        Request::EncodeNamed { guid, name } => {
            named(*guid, name.as_deref()).map(|value| Value::Encoded {
                bytes: value.to_vec(),
            })
        }
        Request::SizePacked { guid } => Ok(Value::Size {
            size: PackedGuid(*guid).encode().len(),
        }),
        // The value's encoded length, or the refusal encode gives it.
        Request::SizeNamed { guid, name } => {
            named(*guid, name.as_deref()).map(|value| Value::Size {
                size: value.encoded_len(),
            })
        }
        // A kind of request this adapter does not implement (one a newer
        // protocol adds): counted as skipped, not failed.
        #[allow(unreachable_patterns)]
        _ => return Response::Unsupported,
    };
    result.map_or_else(Response::Error, Response::Ok)
}

/// The named GUID of `guid` and `name`, or the protocol's code for why the
/// format does not allow it.
fn named(guid: u64, name: Option<&[u8]>) -> Result<NamedGuid, ErrorCode> {
    NamedGuid::from_raw_parts(guid, name).map_err(|error| match error {
        NamedGuidValueError::NameWithoutGuid => ErrorCode::NameWithoutGuid,
        NamedGuidValueError::InteriorNul { .. } => ErrorCode::InteriorNul,
        NamedGuidValueError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
        _ => ErrorCode::Other,
    })
}

fn main() {
    if let Err(error) = serve_with(std::io::stdin().lock(), std::io::stdout().lock(), answer) {
        eprintln!("adapter-rust: {error}");
        std::process::exit(1);
    }
}
