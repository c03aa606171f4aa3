//! The seam between the process logic and a running implementation
//! ([`Transport`]), apart so that the process module and the child it
//! starts both depend on it, not on each other. Not part of the documented
//! API.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::implementation::{Excerpt, HarnessError};

/// Why no further line can be had from an implementation.
#[derive(Debug)]
pub enum Ended {
    /// The deadline passed first.
    Timeout,
    /// stdout reached end of file, after this unterminated line.
    Eof(Excerpt),
    /// A line grew past [`crate::protocol::MAX_RESPONSE_LINE`]; its first bytes.
    TooLong(Excerpt),
    /// Reading stdout failed.
    ReadFailed(String),
}

/// What [`ProcessImplementation`](super::ProcessImplementation)'s batching,
/// attribution and restart logic needs of a running implementation: its
/// input, its lines of output, how it ended, and the means to end it.
/// [`Child`](super::Child), a process over pipes, is the real one; the
/// pipeline fuzz target drives the logic through a fake one
/// ([`ProcessImplementation::with_transport`](super::ProcessImplementation::with_transport)).
pub trait Transport {
    /// An id for messages (the process id).
    fn id(&self) -> u32;
    /// Queues bytes for the implementation's input.
    fn send(&mut self, bytes: Vec<u8>);
    /// Ends the implementation's input once everything queued is written.
    fn close_input(&mut self);
    /// The next complete line of output, or why there is none by `deadline`.
    ///
    /// # Errors
    /// [`Ended`]: a timeout, end of output, a line too long, a read error.
    fn next_line(&mut self, deadline: Instant) -> Result<std::ops::Range<usize>, Ended>;
    /// Whether [`Transport::next_line`] would return at once: a line or
    /// the end of output is there, or the process has exited. Lets the
    /// runner watch several processes without waiting on any one of them.
    fn ready(&mut self) -> bool;
    /// The bytes of a line [`Transport::next_line`] returned.
    fn line(&self, range: std::ops::Range<usize>) -> &[u8];
    /// The tail of its stderr, when it wrote something new.
    fn stderr_tail(&mut self) -> Option<Arc<str>>;
    /// The tail of its stderr once it has ended.
    fn final_stderr_tail(&mut self) -> Option<Arc<str>>;
    /// The unterminated line it was writing, if any.
    fn unfinished_line(&mut self) -> Excerpt;
    /// Waits up to `grace` for it to exit; whether it did.
    fn wait_for_exit(&mut self, grace: Duration) -> bool;
    /// Ends it for good; how it ended, in words.
    fn kill(&mut self) -> String;
    /// Closes its input and reads what it still writes for up to `grace`;
    /// whether it exited, and output that answers no request.
    fn finish(&mut self, grace: Duration) -> (bool, Option<Excerpt>);
    /// Whether it has given a valid response.
    fn answered(&self) -> bool;
    /// Notes that it has given a valid response.
    fn mark_answered(&mut self);
    /// When it was started.
    fn started(&self) -> Instant;
}

/// Starts a [`Transport`] for a command line and its environment.
pub type Connect<T> =
    Box<dyn FnMut(&[OsString], &[(OsString, OsString)]) -> Result<T, HarnessError> + Send>;
