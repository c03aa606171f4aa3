//! The one interface between the runner and whatever it tests.
//!
//! An [`Implementation`] takes a batch of requests and gives back one
//! [`Answer`] per request, in order. Everything the runner can test is one:
//! an external program over the line protocol
//! ([`crate::process::ProcessImplementation`], persistent or one-shot), the
//! reference codec in this process ([`crate::reference::Reference`]), and a
//! scripted fake for tests ([`mock::Scripted`]). Judging is not done here:
//! an answer is only what came back, and [`crate::judge`] decides what it
//! means for a vector.

use std::fmt;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use wow_guid_vectors::Request;

use crate::protocol::{self, Response, ResponseError};

/// One request to send, under the id the response must echo.
#[derive(Clone, Copy, Debug)]
pub struct Query<'a> {
    /// The protocol id: a vector id, or any other token without spaces.
    pub id: &'a str,
    /// What to ask.
    pub request: &'a Request,
}

/// What came back for one [`Query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The parsed response, or why there is none.
    pub reply: Result<Response, Fault>,
    /// The response line exactly as received (terminator removed), when the
    /// implementation was asked to record it; `repro` shows it.
    pub raw: Option<Vec<u8>>,
    /// The last lines the implementation had written to stderr when this
    /// answer arrived (or when the fault was noticed).
    pub stderr_tail: Option<Arc<str>>,
}

impl Answer {
    /// An answer with a parsed response and nothing else attached.
    #[must_use]
    pub fn response(response: Response) -> Self {
        Self {
            reply: Ok(response),
            raw: None,
            stderr_tail: None,
        }
    }

    /// An answer that is a fault and nothing else.
    #[must_use]
    pub fn fault(fault: Fault) -> Self {
        Self {
            reply: Err(fault),
            raw: None,
            stderr_tail: None,
        }
    }
}

/// Why there is no acceptable response to a request. Each is a failure of
/// the implementation. Where a process was involved, the runner has already
/// killed its process group; the next request goes to a fresh process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No complete response within the per-request time limit.
    Timeout {
        /// The limit that ran out.
        after: Duration,
        /// Bytes of an unfinished line the implementation had written, if any.
        partial: Vec<u8>,
    },
    /// The process ended (or closed its stdout) before answering.
    Exited {
        /// How it ended, as the operating system reports it, e.g. `exit status: 3`.
        status: String,
        /// Bytes of an unfinished line it had written, if any.
        partial: Vec<u8>,
    },
    /// A line came back but it is not a response to this request (wrong id,
    /// garbage, a form that does not fit the request).
    Malformed {
        /// The line as received, terminator removed.
        line: Vec<u8>,
        /// What is wrong with it.
        error: ResponseError,
    },
    /// The response line grew past the runner's bound without a newline.
    LineTooLong {
        /// The bound, in bytes.
        limit: usize,
        /// The first bytes of the line.
        prefix: Vec<u8>,
    },
    /// Reading the process's stdout failed.
    ReadFailed {
        /// The operating system's message.
        message: String,
    },
    /// The fault happened with several requests in flight and did not recur
    /// when each was re-sent on its own to a fresh process, so it depends on
    /// pipelining: the implementation does not handle requests that arrive
    /// before it has answered the previous one.
    OnlyWhenPipelined {
        /// How many requests were in flight.
        in_flight: usize,
        /// What happened then.
        fault: Box<Fault>,
    },
}

/// The three kinds of fault a report keeps apart from wrong answers: the
/// implementation did not give a wrong value, it failed to give one at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// The process ended, or its output could not be read, before it answered.
    Crashed,
    /// No answer within the time limit.
    TimedOut,
    /// A line came back that is not a response to the request.
    Malformed,
}

impl Fault {
    /// Which kind of fault this is. A fault seen only with pipelined
    /// requests is of the kind of the fault seen then.
    #[must_use]
    pub fn kind(&self) -> FaultKind {
        match self {
            Self::Timeout { .. } => FaultKind::TimedOut,
            Self::Exited { .. } | Self::ReadFailed { .. } => FaultKind::Crashed,
            Self::Malformed { .. } | Self::LineTooLong { .. } => FaultKind::Malformed,
            Self::OnlyWhenPipelined { fault, .. } => fault.kind(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Timeout { after, partial } => {
                write!(
                    f,
                    "no response within {}. \
                     If the implementation is slow rather than stuck, raise --timeout; \
                     if it answers only at end of input, it must flush stdout after each batch of requests",
                    DisplayDuration(*after)
                )?;
                if !partial.is_empty() {
                    write!(f, " (it had written `{}` without a newline)", protocol::printable(partial, 120))?;
                }
                Ok(())
            }
            Self::Exited { status, partial } => {
                write!(f, "the process ended before answering ({status})")?;
                if !partial.is_empty() {
                    write!(
                        f,
                        " (its last output `{}` had no newline; every response line must end in \\n)",
                        protocol::printable(partial, 120)
                    )?;
                }
                Ok(())
            }
            Self::Malformed { line, error } => write!(
                f,
                "malformed response `{}`: {error}",
                protocol::printable(line, 120)
            ),
            Self::LineTooLong { limit, prefix } => write!(
                f,
                "the response line grew past {limit} bytes without a newline (it starts `{}`)",
                protocol::printable(prefix, 60)
            ),
            Self::ReadFailed { message } => {
                write!(f, "reading the implementation's stdout failed: {message}")
            }
            Self::OnlyWhenPipelined { in_flight, fault } => write!(
                f,
                "with {in_flight} requests in flight: {fault}. Sent one at a time, each request was \
                 answered, so the implementation mishandles pipelined requests: it must read requests \
                 as they come and answer each in order (PROTOCOL.md, \"Pipelining\")"
            ),
        }
    }
}

/// A duration as a person writes it: `5s`, `250ms`, `1.5s`.
#[derive(Clone, Copy, Debug)]
pub struct DisplayDuration(pub Duration);

impl fmt::Display for DisplayDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms < 1000 {
            write!(f, "{ms}ms")
        } else if Duration::from_secs(self.0.as_secs()) == self.0 {
            write!(f, "{}s", ms / 1000)
        } else {
            write!(f, "{:.3}s", self.0.as_secs_f64())
        }
    }
}

/// A problem of the harness rather than of the implementation: the run
/// cannot give a verdict.
#[derive(Debug)]
pub enum HarnessError {
    /// The implementation's command could not be started at all.
    Spawn {
        /// The command as a shell would show it.
        command: String,
        /// The operating system's error.
        error: io::Error,
    },
    /// A pipe to the implementation could not be set up.
    Pipe {
        /// Which pipe.
        which: &'static str,
    },
    /// A helper thread could not be started.
    Thread {
        /// The operating system's error.
        error: io::Error,
    },
    /// The command starts, but no process of it has ever answered a
    /// request: neither the request it was started for nor the simple
    /// probe requests sent to fresh processes after that (see
    /// [`crate::process`]). Nothing it is asked can be judged.
    NeverAnswered {
        /// The command as a shell would show it.
        command: String,
        /// Processes started, each without a valid response.
        starts: usize,
        /// What happened to the last of them.
        fault: Box<Fault>,
        /// The last lines it wrote to stderr, if any.
        stderr_tail: Option<Arc<str>>,
    },
    /// The caller's deadline passed while responses were still missing
    /// ([`crate::process::ProcessConfig::deadline`]); the process was
    /// killed. Not the implementation's fault: the caller's time is up.
    OutOfTime {
        /// Requests of the call left without an answer.
        unanswered: usize,
    },
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Spawn { command, error } if error.kind() == io::ErrorKind::NotFound => write!(
                f,
                "cannot start `{command}`: program not found (check the path, or put it on PATH)"
            ),
            Self::Spawn { command, error } => write!(f, "cannot start `{command}`: {error}"),
            Self::Pipe { which } => write!(f, "could not open the implementation's {which}"),
            Self::Thread { error } => write!(f, "could not start a helper thread: {error}"),
            Self::OutOfTime { unanswered } => write!(
                f,
                "the time budget ran out with {unanswered} request(s) still unanswered"
            ),
            Self::NeverAnswered {
                command,
                starts,
                fault,
                stderr_tail,
            } => {
                write!(
                    f,
                    "`{command}` never answered a request: {starts} fresh processes, each sent a \
                     simple request, ended without a valid response. The last one: {fault}"
                )?;
                match stderr_tail {
                    Some(tail) => {
                        write!(f, ". Its stderr ends with:")?;
                        for line in tail.lines() {
                            write!(f, "\n  | {}", protocol::printable(line.as_bytes(), 300))?;
                        }
                        Ok(())
                    }
                    None => write!(
                        f,
                        ". It wrote nothing to stderr; `wow-guid-conformance doctor -- CMD` checks an adapter step by step"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for HarnessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Spawn { error, .. } | Self::Thread { error } => Some(error),
            Self::Pipe { .. } | Self::NeverAnswered { .. } | Self::OutOfTime { .. } => None,
        }
    }
}

/// Something that answers protocol requests.
///
/// Implementations must return exactly one answer per query, in order, and
/// recover from their own faults (restart a process, say) so that a fault on
/// one query does not spill onto the next. An `Err` means the harness itself
/// could not go on, and no verdict can be given.
pub trait Implementation {
    /// Answers every query, in order.
    ///
    /// # Errors
    /// [`HarnessError`] when the implementation cannot be run at all.
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError>;
}

impl<I: Implementation + ?Sized> Implementation for Box<I> {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        (**self).answer_all(queries)
    }
}

/// A scripted implementation for tests of the runner itself.
pub mod mock {
    use super::{Answer, Fault, HarnessError, Implementation, Query};
    use crate::protocol::Response;

    /// Answers each query with whatever its closure returns, and records
    /// the ids it was asked, so tests can check order and batching.
    pub struct Scripted<F> {
        script: F,
        /// Every id asked so far, in order.
        pub asked: Vec<String>,
        /// How many batches were asked.
        pub batches: usize,
    }

    impl<F: FnMut(&Query<'_>) -> Result<Response, Fault>> Scripted<F> {
        /// A mock that answers with `script`.
        pub fn new(script: F) -> Self {
            Self {
                script,
                asked: Vec::new(),
                batches: 0,
            }
        }
    }

    impl<F: FnMut(&Query<'_>) -> Result<Response, Fault>> Implementation for Scripted<F> {
        fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
            self.batches += 1;
            Ok(queries
                .iter()
                .map(|q| {
                    self.asked.push(q.id.to_owned());
                    match (self.script)(q) {
                        Ok(r) => Answer::response(r),
                        Err(f) => Answer::fault(f),
                    }
                })
                .collect())
        }
    }
}
