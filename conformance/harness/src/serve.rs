//! `serve`: the reference codec as a protocol adapter on a byte stream,
//! what `run` talks to by default and a known-good implementation for other
//! suites. [`serve`] answers request lines with
//! [`crate::reference::answer`], flushing whenever it has answered every
//! complete line it holds, just before it would block for input: a
//! pipelining runner gets large writes, one that waits gets each answer at
//! once. [`serve_with`] does the same with any answering function, so a
//! Rust adapter is a closure and one call
//! (`conformance/adapters/rust/main.rs`). It touches only its streams, and
//! stderr for a note on a request line that does not follow the protocol.

use std::io::{self, Read, Write};

use wow_guid_vectors::Request;

use crate::protocol::{self, Response};
use crate::reference;

/// The longest request line `serve` accepts, far above the corpus's
/// longest: the bound only keeps a runaway writer from exhausting memory.
pub(crate) const MAX_REQUEST_LINE: usize = 64 << 20;

/// Why `serve` stopped early. A request line that does not follow the
/// protocol is no reason to stop: it is answered ([`serve_with`]).
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A request line is longer than the bound (64 MiB).
    #[error("request line {line} is longer than {MAX_REQUEST_LINE} bytes without a newline")]
    LineTooLong {
        /// 1-based line number on the input.
        line: usize,
    },
    /// Reading or writing failed.
    #[error("I/O error: {0}")]
    Io(#[source] io::Error),
}

/// Answers request lines from `input` on `output` with the reference codec
/// until end of input: [`serve_with`] and [`reference::answer`].
///
/// # Errors
/// [`ServeError`] on a request line over the bound or an I/O error.
pub fn serve(input: impl Read, output: impl Write) -> Result<(), ServeError> {
    serve_with(input, output, reference::answer)
}

/// Answers request lines from `input` on `output` until end of input, each
/// with what `answer` says to its request: the whole protocol side of an
/// adapter.
///
/// ```no_run
/// use wow_guid_harness::protocol::Response;
/// use wow_guid_harness::serve::serve_with;
/// use wow_guid_vectors::Request;
///
/// fn main() -> Result<(), wow_guid_harness::serve::ServeError> {
///     serve_with(std::io::stdin().lock(), std::io::stdout().lock(), |request| {
///         match request {
///             // Call your codec here, for each kind it implements.
///             Request::EncodePacked { guid: 0 } => Response::Ok(wow_guid_vectors::Value::Encoded {
///                 bytes: vec![0],
///             }),
///             // Every other request: counted as skipped, not failed.
///             _ => Response::Unsupported,
///         }
///     })
/// }
/// ```
///
/// A request line that does not follow the protocol (`PROTOCOL.md`,
/// section 3) is answered and serving goes on: one naming another operation
/// or type with `unsupported`, any other with `error other`, under the
/// line's first field as its id, with a note on stderr; an empty line gets
/// only the note. A last line without `\n` is still answered, so `printf 'x
/// encode packed_guid 0000000000000001' | serve` works. A closed `output`
/// (the runner went away) ends the loop without an error.
///
/// # Errors
/// [`ServeError`] on a request line over the bound (64 MiB) or an I/O
/// error.
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
                );
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
                    answer_line(last, line_no, &mut answer, &mut response);
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

/// Writes into `response` the answer to request line `line_no`, as
/// [`serve_with`] describes.
fn answer_line(
    line: &[u8],
    line_no: usize,
    answer: &mut impl FnMut(&Request) -> Response,
    response: &mut Vec<u8>,
) {
    // Be as lenient as the runner is with its input: accept CRLF.
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    response.clear();
    match protocol::parse_request(line) {
        Ok((id, request)) => protocol::write_response(response, id, &answer(&request)),
        Err(error) => {
            let id = line.split(|&b| b == b' ').next().unwrap_or_default();
            let reply: &[u8] = if error.is_unknown_kind() {
                b"unsupported"
            } else {
                b"error other"
            };
            if id.is_empty() {
                eprintln!("serve: request line {line_no}, {error}: not a request, not answered");
            } else {
                eprintln!(
                    "serve: request line {line_no} (id `{}`), {error} (see PROTOCOL.md): \
                     answered `{}`",
                    String::from_utf8_lossy(id),
                    String::from_utf8_lossy(reply)
                );
                // The id goes back byte for byte, whatever it is.
                response.extend_from_slice(id);
                response.push(b' ');
                response.extend_from_slice(reply);
                response.push(b'\n');
            }
        }
    }
}
