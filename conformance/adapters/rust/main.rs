//! PackedGuid / NamedGuid conformance adapter in Rust, calling the reference
//! codec crate `wow-guid-codec`.
//!
//! The conformance runner starts this program and talks to it over pipes: one
//! request line on stdin, one response line on stdout, in order. It also works
//! when it gets a single line and then end of input (one-shot mode):
//!
//! ```text
//! $ echo "t1 decode packed_guid 0adead" | cargo run -q -p wow-guid-conformance --example adapter-rust
//! t1 ok 00000000ad00de00 3
//! ```
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
//! Bytes are hex (`-` is the empty string), GUIDs exactly 16 hex digits, most
//! significant first. Error codes: `eof`, `invalid_utf8`, `interior_nul`,
//! `name_without_guid`, `name_too_long`, `other`.
//!
//! This is deliberately separate from the runner's own `serve` command: it is
//! the file to copy when your codec is a Rust crate. Keep the protocol half,
//! replace the calls in [`answer`] with calls into your crate, and the only
//! dependencies left are your codec and the `hex` crate (`hex = "0.4"`). It
//! lives as an example of the `wow-guid-conformance` package so that `cargo
//! test` builds it and the integration tests can run it without a nested
//! cargo build.

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};

use wow_guid_codec::{
    NamedGuid, NamedGuidDecodeError, NamedGuidValueError, PackedGuid, PackedGuidError,
};

/// Why a request line could not be understood. The runner never sends such
/// lines; someone typing by hand, or a newer runner, might.
#[derive(Debug)]
enum BadRequest {
    /// Fewer than the three fields `<id> <op> <type>`.
    TooFewFields,
    /// The request kind takes another number of arguments.
    ArgumentCount {
        kind: &'static str,
        expected: &'static str,
        got: usize,
    },
    /// A byte string is not pairs of hex digits nor `-`.
    BadHex(String),
    /// A GUID is not exactly 16 hex digits.
    BadGuid(String),
}

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewFields => f.write_str("expected '<id> <op> <type> [args...]'"),
            Self::ArgumentCount {
                kind,
                expected,
                got,
            } => write!(f, "{kind} takes {expected} argument(s), got {got}"),
            Self::BadHex(field) => write!(f, "expected hex bytes or '-', got {field:?}"),
            Self::BadGuid(field) => {
                write!(f, "expected a GUID of exactly 16 hex digits, got {field:?}")
            }
        }
    }
}

/// Maps the codec's errors onto the protocol's error codes.
fn packed_error_code(error: PackedGuidError) -> &'static str {
    match error {
        PackedGuidError::UnexpectedEof { .. } => "eof",
        // The codec may grow new errors (the enum is non-exhaustive).
        _ => "other",
    }
}

fn named_decode_error_code(error: NamedGuidDecodeError) -> &'static str {
    match error {
        NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. } => "eof",
        NamedGuidDecodeError::InvalidUtf8 { .. } => "invalid_utf8",
        NamedGuidDecodeError::NameTooLong { .. } => "name_too_long",
        _ => "other",
    }
}

fn named_value_error_code(error: NamedGuidValueError) -> &'static str {
    match error {
        NamedGuidValueError::NameWithoutGuid => "name_without_guid",
        NamedGuidValueError::InteriorNul { .. } => "interior_nul",
        NamedGuidValueError::InvalidUtf8 { .. } => "invalid_utf8",
        _ => "other",
    }
}

/// Answers one request: `op`, `kind` and the arguments after them. Returns
/// the response without the id, e.g. `ok 00000000ad00de00 3`.
fn answer(op: &[u8], kind: &[u8], args: &[&[u8]]) -> Result<String, BadRequest> {
    match (op, kind) {
        (b"decode", b"packed_guid") => {
            let [bytes] = exact_args("decode packed_guid", args)?;
            Ok(match PackedGuid::decode(&parse_bytes(bytes)?) {
                Ok(decoded) => format!("ok {:016x} {}", decoded.value.get(), decoded.consumed),
                Err(error) => format!("error {}", packed_error_code(error)),
            })
        }
        (b"encode", b"packed_guid") => {
            let [guid] = exact_args("encode packed_guid", args)?;
            let encoded = PackedGuid(parse_guid(guid)?).encode();
            Ok(format!("ok {}", format_bytes(&encoded)))
        }
        (b"decode", b"named_guid") => {
            let [bytes] = exact_args("decode named_guid", args)?;
            Ok(match NamedGuid::decode(&parse_bytes(bytes)?) {
                Ok(decoded) => match decoded.value.name() {
                    // GUID 0 carries no name, so the response has none either.
                    None => format!("ok {:016x} {}", 0, decoded.consumed),
                    Some(name) => format!(
                        "ok {:016x} {} {}",
                        decoded.value.guid(),
                        decoded.consumed,
                        format_bytes(name.as_bytes())
                    ),
                },
                Err(error) => format!("error {}", named_decode_error_code(error)),
            })
        }
        (b"encode", b"named_guid") => {
            let (guid, name) = match args {
                [guid] => (parse_guid(guid)?, None),
                [guid, name] => (parse_guid(guid)?, Some(parse_bytes(name)?)),
                _ => {
                    return Err(BadRequest::ArgumentCount {
                        kind: "encode named_guid",
                        expected: "1 or 2",
                        got: args.len(),
                    })
                }
            };
            // from_raw_parts checks every rule of the format: GUID 0 with a
            // name, a non-zero GUID without one, NUL inside, invalid UTF-8.
            Ok(match NamedGuid::from_raw_parts(guid, name.as_deref()) {
                Ok(value) => format!("ok {}", format_bytes(&value.to_vec())),
                Err(error) => format!("error {}", named_value_error_code(error)),
            })
        }
        (b"size", kind) => size(kind, args),
        // A request kind this adapter does not know (a newer protocol, say):
        // the runner counts it as skipped, not failed.
        _ => Ok("unsupported".to_owned()),
    }
}

/// Answers a `size` request (optional: without it, answer `unsupported`):
/// how many bytes the encoding of the value takes, from the codec's own
/// length, or the refusal `encode` gives the value.
fn size(kind: &[u8], args: &[&[u8]]) -> Result<String, BadRequest> {
    let (guid, name) = match (kind, args) {
        (b"packed_guid", [guid]) => {
            let encoded = PackedGuid(parse_guid(guid)?).encode();
            return Ok(format!("ok {}", encoded.len()));
        }
        (b"named_guid", [guid]) => (parse_guid(guid)?, None),
        (b"named_guid", [guid, name]) => (parse_guid(guid)?, Some(parse_bytes(name)?)),
        (b"packed_guid" | b"named_guid", _) => {
            return Err(BadRequest::ArgumentCount {
                kind: "size",
                expected: "1 (packed_guid), 1 or 2 (named_guid)",
                got: args.len(),
            })
        }
        _ => return Ok("unsupported".to_owned()),
    };
    Ok(match NamedGuid::from_raw_parts(guid, name.as_deref()) {
        Ok(value) => format!("ok {}", value.encoded_len()),
        Err(error) => format!("error {}", named_value_error_code(error)),
    })
}

fn exact_args<'a>(kind: &'static str, args: &[&'a [u8]]) -> Result<[&'a [u8]; 1], BadRequest> {
    match args {
        [one] => Ok([one]),
        _ => Err(BadRequest::ArgumentCount {
            kind,
            expected: "1",
            got: args.len(),
        }),
    }
}

fn parse_bytes(field: &[u8]) -> Result<Vec<u8>, BadRequest> {
    let bad = || BadRequest::BadHex(String::from_utf8_lossy(field).into_owned());
    match field {
        b"-" => Ok(Vec::new()),
        // hex would read nothing as no bytes; the protocol spells that `-`.
        b"" => Err(bad()),
        // Either case, as the protocol asks.
        _ => hex::decode(field).map_err(|_| bad()),
    }
}

fn parse_guid(field: &[u8]) -> Result<u64, BadRequest> {
    let mut be = [0u8; 8];
    // Fails on anything but exactly 16 hex digits.
    hex::decode_to_slice(field, &mut be)
        .map_err(|_| BadRequest::BadGuid(String::from_utf8_lossy(field).into_owned()))?;
    Ok(u64::from_be_bytes(be))
}

fn format_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".to_owned();
    }
    hex::encode(bytes)
}

/// Turns one request line (no line ending) into one response line.
fn respond(line: &[u8], out: &mut impl Write) -> io::Result<()> {
    let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let result = match fields.as_slice() {
        [_id, op, kind, args @ ..] => answer(op, kind, args),
        _ => Err(BadRequest::TooFewFields),
    };
    let response = result.unwrap_or_else(|problem| {
        // Say what was wrong on stderr (the runner keeps its tail for the
        // failure report), and still answer so the conversation stays in step.
        eprintln!(
            "adapter-rust: bad request {:?}: {problem}",
            String::from_utf8_lossy(line)
        );
        "error other".to_owned()
    });
    // The id goes back byte for byte, whatever it is.
    out.write_all(fields[0])?;
    writeln!(out, " {response}")
}

fn run() -> io::Result<()> {
    // Our own BufReader (rather than the stdin lock) so we can ask whether
    // more input is already waiting.
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = io::BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        // Bytes, not a String: a line that is not UTF-8 must get an answer
        // too, not end the program.
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush(); // end of input
        }
        while let Some(b'\n' | b'\r') = line.last() {
            line.pop();
        }
        if line.is_empty() {
            eprintln!("adapter-rust: ignoring an empty line");
        } else {
            respond(&line, &mut output)?;
        }
        // Flush before the next read could block, i.e. when no complete
        // line is already waiting in our buffer: a runner sending one line
        // at a time gets each answer at once, a runner sending many gets
        // them in few writes.
        if !input.buffer().contains(&b'\n') {
            output.flush()?;
        }
    }
}

fn main() {
    match run() {
        Ok(()) => {}
        // The runner closed our stdout: nobody is left to answer.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!("adapter-rust: {error}");
            std::process::exit(1);
        }
    }
}
