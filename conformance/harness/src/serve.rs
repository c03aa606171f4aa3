//! `serve`: the reference codec as a protocol adapter on a byte stream.
//!
//! This is what `run` talks to by default and what other suites can use as
//! a known-good implementation. [`serve`] reads request lines, answers each
//! with [`crate::reference::answer`], and flushes whenever it has answered
//! every complete line it holds, just before it would block for more input:
//! a runner that pipelines gets large writes, one that waits for each answer
//! gets it at once. [`serve_with`] does the same with any answering
//! function, so another tool can put its own codec behind the protocol
//! without writing the line handling again. It touches only the streams it
//! is given.

use std::fmt;
use std::io::{self, Read, Write};

use wow_guid_vectors::Request;

use crate::protocol::{self, RequestError, Response};
use crate::reference;

/// The longest request line `serve` accepts. Requests carry at most one
/// byte string, and the corpus's longest is far below this; the bound only
/// keeps a runaway writer from exhausting memory.
pub(crate) const MAX_REQUEST_LINE: usize = 64 << 20;

/// Why `serve` stopped early.
#[derive(Debug)]
pub enum ServeError {
    /// A request line does not follow the protocol.
    BadRequest {
        /// 1-based line number on the input.
        line: usize,
        /// What is wrong with it.
        error: RequestError,
    },
    /// A request line is longer than the bound (64 MiB).
    LineTooLong {
        /// 1-based line number on the input.
        line: usize,
    },
    /// Reading or writing failed.
    Io(io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadRequest { line, error } => {
                write!(f, "request line {line}, {error} (see PROTOCOL.md)")
            }
            Self::LineTooLong { line } => write!(
                f,
                "request line {line} is longer than {MAX_REQUEST_LINE} bytes without a newline"
            ),
            Self::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Answers request lines from `input` on `output` with the reference codec
/// until end of input: [`serve_with`] and [`reference::answer`].
///
/// # Errors
/// [`ServeError`] on a malformed request or an I/O error.
pub fn serve(input: impl Read, output: impl Write) -> Result<(), ServeError> {
    serve_with(input, output, reference::answer)
}

/// Answers request lines from `input` on `output` until end of input, each
/// with what `answer` says to its request.
///
/// A last line without `\n` is still answered, so `printf 'x encode
/// packed_guid 0000000000000001' | serve` works. A closed `output` (the
/// runner went away) ends the loop without an error.
///
/// # Errors
/// [`ServeError`] on a malformed request or an I/O error.
pub fn serve_with(
    mut input: impl Read,
    output: impl Write,
    mut answer: impl FnMut(&Request) -> Response,
) -> Result<(), ServeError> {
    let mut out = io::BufWriter::with_capacity(64 * 1024, output);
    let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut block = vec![0u8; 64 * 1024];
    let mut line_no = 0usize;
    let mut response = Vec::with_capacity(256);
    let result = (|| {
        loop {
            let mut start = 0;
            while let Some(len) = buf[start..].iter().position(|&b| b == b'\n') {
                line_no += 1;
                answer_line(
                    &buf[start..start + len],
                    line_no,
                    &mut answer,
                    &mut response,
                )?;
                out.write_all(&response).map_err(ServeError::Io)?;
                start += len + 1;
            }
            buf.drain(..start);
            // Every complete line is answered: flush before blocking on input.
            out.flush().map_err(ServeError::Io)?;
            if buf.len() > MAX_REQUEST_LINE {
                return Err(ServeError::LineTooLong { line: line_no + 1 });
            }
            let n = loop {
                match input.read(&mut block) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(ServeError::Io(e)),
                }
            };
            if n == 0 {
                let last = buf.strip_suffix(b"\r").unwrap_or(&buf);
                if !last.is_empty() {
                    line_no += 1;
                    answer_line(last, line_no, &mut answer, &mut response)?;
                    out.write_all(&response).map_err(ServeError::Io)?;
                }
                return out.flush().map_err(ServeError::Io);
            }
            buf.extend_from_slice(&block[..n]);
        }
    })();
    match result {
        Err(ServeError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Parses request line `line_no` and writes the response `answer` gives
/// into `response`.
fn answer_line(
    line: &[u8],
    line_no: usize,
    answer: &mut impl FnMut(&Request) -> Response,
    response: &mut Vec<u8>,
) -> Result<(), ServeError> {
    // Be as lenient as the runner is with its input: accept CRLF.
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (id, request) = protocol::parse_request(line).map_err(|error| ServeError::BadRequest {
        line: line_no,
        error,
    })?;
    response.clear();
    protocol::write_response(response, id, &answer(&request));
    Ok(())
}
