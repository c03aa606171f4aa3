//! The one interface between the runner and whatever it tests: an
//! [`Implementation`] takes a batch of requests and gives back one
//! [`Answer`] per request, in order. An external program
//! ([`crate::process::ProcessImplementation`]), the reference codec in this
//! process ([`crate::reference::Reference`]) and a scripted fake for tests
//! ([`mock::Scripted`]) are ones. An answer is only what came back;
//! [`crate::judge`] decides what it means for a vector.

use std::fmt;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use wow_guid_vectors::Request;

use crate::duration::DisplayDuration;
pub use crate::excerpt::Excerpt;
use crate::protocol::{Response, ResponseError};

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
    /// How long the answer took, if measured: for a process, from writing
    /// the request to reading its answer (or noticing the fault), including
    /// waiting behind requests in flight before it and a fresh process's
    /// start-up (in one-shot mode, every request's).
    pub elapsed: Option<Duration>,
}

impl Answer {
    /// An answer with a parsed response and nothing else attached.
    #[must_use]
    pub fn response(response: Response) -> Self {
        Self {
            reply: Ok(response),
            raw: None,
            stderr_tail: None,
            elapsed: None,
        }
    }

    /// An answer that is a fault and nothing else.
    #[must_use]
    pub fn fault(fault: Fault) -> Self {
        Self::failed(fault, None, None)
    }

    /// A fault, with the stderr tail and the time it came with.
    pub(crate) fn failed(
        fault: Fault,
        stderr_tail: Option<Arc<str>>,
        elapsed: Option<Duration>,
    ) -> Self {
        Self {
            reply: Err(fault),
            raw: None,
            stderr_tail,
            elapsed,
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
        /// The unfinished line the implementation had written, if any.
        partial: Excerpt,
    },
    /// The process ended (or closed its stdout) before answering.
    Exited {
        /// How it ended, as the operating system reports it, e.g. `exit status: 3`.
        status: String,
        /// The unfinished line it had written, if any.
        partial: Excerpt,
    },
    /// A line came back but it is not a response to this request (wrong id,
    /// garbage, a form that does not fit the request).
    Malformed {
        /// The line as received, terminator removed.
        line: Excerpt,
        /// What is wrong with it.
        error: ResponseError,
    },
    /// A line that is not a response came where the response was due, and
    /// the response came right after it: the implementation writes
    /// something else (debug or log output, say) to stdout.
    StrayLine {
        /// The line that is not a response, terminator removed.
        line: Excerpt,
    },
    /// The response line grew past the runner's bound without a newline.
    LineTooLong {
        /// The bound, in bytes.
        limit: usize,
        /// The first bytes of the line (its length is not known: the
        /// runner stopped reading it).
        prefix: Excerpt,
    },
    /// Reading the process's stdout failed.
    ReadFailed {
        /// The operating system's message.
        message: String,
    },
    /// Output after the last answer, once input was closed: it answers no
    /// request, and fails the request answered last.
    Unsolicited {
        /// The first line (or unterminated output) it wrote.
        line: Excerpt,
    },
    /// A fault with several requests in flight that did not recur when each
    /// was re-sent alone to a fresh process, nor when they were sent one at
    /// a time after the same earlier requests: the implementation mishandles
    /// requests that arrive before it has answered the previous one.
    OnlyWhenPipelined {
        /// How many requests were in flight.
        in_flight: usize,
        /// What happened then.
        fault: Box<Fault>,
    },
    /// Not sent: so many requests in a row before it timed out, each alone
    /// in a fresh process, that the implementation hangs on every request
    /// (counted as timed out, never as passed).
    NotSent,
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
            Self::Timeout { .. } | Self::NotSent => FaultKind::TimedOut,
            Self::Exited { .. } | Self::ReadFailed { .. } => FaultKind::Crashed,
            Self::Malformed { .. }
            | Self::StrayLine { .. }
            | Self::LineTooLong { .. }
            | Self::Unsolicited { .. } => FaultKind::Malformed,
            Self::OnlyWhenPipelined { fault, .. } => fault.kind(),
        }
    }

    /// What happened, in one line, without evidence or advice: the one
    /// wording of each fault, which findings use and `Display` begins with.
    #[must_use]
    pub fn summary(&self) -> String {
        match self {
            Self::Timeout { after, .. } => {
                format!("no response within {}", DisplayDuration(*after))
            }
            Self::Exited { status, .. } => {
                format!("the process ended before answering ({status})")
            }
            Self::Malformed { line, error } => {
                format!("malformed response `{}`: {error}", line.printable(120))
            }
            Self::StrayLine { line } => format!(
                "a line that is not a response, `{}`, came before the response",
                line.printable(120)
            ),
            Self::LineTooLong { limit, .. } => {
                format!("the response line grew past {limit} bytes without a newline")
            }
            Self::ReadFailed { message } => {
                format!("reading the implementation's stdout failed: {message}")
            }
            Self::Unsolicited { line } => format!(
                "output that answers no request: `{}`",
                line.printable(120)
            ),
            Self::OnlyWhenPipelined { in_flight, fault } => format!(
                "with {in_flight} requests in flight: {}. Sent one at a time, each request was answered",
                fault.summary()
            ),
            Self::NotSent => "not sent: too many requests in a row before it timed out, each \
                 alone in a fresh process, so it and every request after them were not sent"
                .to_owned(),
        }
    }
}

/// The [`Fault::summary`], then the evidence (what the implementation had
/// written) and what to do about it.
impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        match self {
            Self::Timeout { partial, .. } => {
                f.write_str(
                    ". If the implementation is slow rather than stuck, raise --timeout; if it \
                     answers only at end of input, it must flush stdout after each batch of \
                     requests",
                )?;
                if !partial.is_empty() {
                    write!(
                        f,
                        " (it had written `{}` without a newline)",
                        partial.printable(120)
                    )?;
                }
                Ok(())
            }
            Self::Exited { partial, .. } if !partial.is_empty() => write!(
                f,
                " (its last output `{}` had no newline; every response line must end in \\n)",
                partial.printable(120)
            ),
            Self::LineTooLong { prefix, .. } => {
                write!(f, " (it starts `{}`)", prefix.printable(60))
            }
            Self::StrayLine { .. } => f.write_str(
                ": stdout carries responses only, one line per request; write debug and log \
                 output to stderr (PROTOCOL.md, \"Responses\")",
            ),
            Self::Unsolicited { .. } => f.write_str(
                ", written after its last answer once its input had ended: an adapter writes \
                 exactly one line per request (PROTOCOL.md, \"Responses\")",
            ),
            Self::OnlyWhenPipelined { .. } => f.write_str(
                ", so the implementation mishandles pipelined requests: it must read requests \
                 as they come and answer each in order (PROTOCOL.md, \"Pipelining\")",
            ),
            Self::NotSent => f.write_str(
                ": the implementation hangs on every request (if it is slow rather than stuck, \
                 raise --timeout)",
            ),
            Self::Exited { .. } | Self::Malformed { .. } | Self::ReadFailed { .. } => Ok(()),
        }
    }
}

/// A problem of the harness rather than of the implementation: the run
/// cannot give a verdict. Its message ([`fmt::Display`]) says what went
/// wrong and what to do about it.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct HarnessError(Box<Failure>);

impl HarnessError {
    /// Whether the caller's deadline passed while responses were still
    /// missing ([`ProcessConfig::deadline`](crate::process::ProcessConfig::deadline)):
    /// not a fault of the implementation, but the end of the caller's time.
    #[must_use]
    pub fn is_out_of_time(&self) -> bool {
        matches!(*self.0, Failure::OutOfTime { .. })
    }
}

impl From<Failure> for HarnessError {
    fn from(failure: Failure) -> Self {
        Self(Box::new(failure))
    }
}

/// What [`HarnessError`] holds.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    #[error("cannot start `{command}`: {}", spawn_error(.error))]
    Spawn {
        command: String,
        #[source]
        error: io::Error,
    },
    #[error("could not open the implementation's {which}")]
    Pipe { which: &'static str },
    #[error("could not start a helper thread: {error}")]
    Thread {
        #[source]
        error: io::Error,
    },
    /// No process of the command has ever answered a request, probes
    /// included (see [`crate::process`]): nothing it is asked can be judged.
    #[error(fmt = never_answered)]
    NeverAnswered {
        command: String,
        starts: usize,
        fault: Box<Fault>,
        stderr_tail: Option<Arc<str>>,
    },
    #[error(
        "`{command}` answers only when its input ends: with its input left open, no \
         response came within {}, but sent one request and then end \
         of input it answered in {}. It does not flush stdout after answering, so its \
         answers wait in a buffer: flush after each response, or at least whenever it has \
         answered every request it has read (PROTOCOL.md, \"Flushing\"). A longer \
         --timeout or --startup-timeout does not help; until then only --one-shot works",
        DisplayDuration(*.waited),
        DisplayDuration(*.answered_in)
    )]
    Unflushed {
        command: String,
        waited: Duration,
        answered_in: Duration,
    },
    #[error(
        "`{command}` never answered, and most likely loses its output unflushed: with \
         its input left open no response came within {}, and sent one request and then \
         end of input it exited (status 0) without writing anything. Flush stdout after \
         each response (PROTOCOL.md, \"Flushing\"): an exit that skips the flush \
         (`os._exit`, `System.exit` with a buffered writer, a 4 MB buffer never emptied) \
         loses every answer. If it starts slowly rather than losing output, raise \
         --startup-timeout",
        DisplayDuration(*.waited)
    )]
    LostAtExit { command: String, waited: Duration },
    /// The caller's deadline passed with responses still missing
    /// ([`crate::process::ProcessConfig::deadline`]).
    #[error("the time budget ran out with {unanswered} request(s) still unanswered")]
    OutOfTime { unanswered: usize },
}

/// The reason a command could not be started: the operating system's
/// error, or for a program not found, where to look.
fn spawn_error(error: &io::Error) -> &dyn fmt::Display {
    if error.kind() == io::ErrorKind::NotFound {
        &"program not found (check the path, or put it on PATH)"
    } else {
        error
    }
}

/// [`Failure::NeverAnswered`] in words, with its stderr's tail as kept
/// (escaped once, when read: `process/stderr.rs`).
fn never_answered(
    command: &str,
    starts: &usize,
    fault: &Fault,
    stderr_tail: &Option<Arc<str>>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let never = format!(
        "`{command}` never answered a request: {starts} fresh processes, each sent a simple \
         request, ended without a valid response. The last one: "
    );
    match fault {
        // It does answer, after something else: say so rather than "never
        // answered".
        Fault::StrayLine { .. } => write!(
            f,
            "`{command}` writes something other than responses to stdout: in each of \
                 {starts} fresh processes, sent a simple request, {fault}"
        )?,
        // A fresh process's wait is the start-up allowance, not the
        // per-request timeout.
        Fault::Timeout { .. } => write!(
            f,
            "{never}{}. If it starts slowly rather than being stuck, raise --startup-timeout",
            fault.summary()
        )?,
        _ => write!(f, "{never}{fault}")?,
    }
    match stderr_tail.as_deref() {
            Some(tail) => {
                write!(f, ". Its stderr ends with:")?;
                for line in tail.lines() {
                    write!(f, "\n  | {line}")?;
                }
                Ok(())
            }
            None => write!(
                f,
                ". It wrote nothing to stderr; `wow-guid-conformance doctor -- CMD` checks an adapter step by step"
            ),
        }
}

/// Something that answers protocol requests: exactly one answer per query,
/// in order, recovering from its own faults (restarting a process, say) so
/// that one does not spill onto the next query. An `Err` means the harness
/// itself could not go on, and no verdict can be given.
pub trait Implementation {
    /// Answers every query, in order.
    ///
    /// # Errors
    /// [`HarnessError`] when the implementation cannot be run at all.
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError>;

    /// [`Implementation::answer_all`], where each range of `sequences` (in
    /// order, not overlapping) is the steps of one stateful sequence, which
    /// must reach one state in order with nothing in between. One that gives
    /// each request a fresh state (a process per request) gives each
    /// sequence one instead; the default, for one that keeps one state for
    /// every query, is `answer_all`.
    ///
    /// # Errors
    /// [`HarnessError`] when the implementation cannot be run at all.
    fn answer_sequences(
        &mut self,
        queries: &[Query<'_>],
        sequences: &[std::ops::Range<usize>],
    ) -> Result<Vec<Answer>, HarnessError> {
        let _ = sequences;
        self.answer_all(queries)
    }

    /// Ends the session after the last query: a process's output is read to
    /// its end, and output that answers no request is a fault, with which
    /// the caller fails the request last answered. The default checks nothing.
    fn finish(&mut self) -> Option<Fault> {
        None
    }
}

impl<I: Implementation + ?Sized> Implementation for Box<I> {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        (**self).answer_all(queries)
    }

    fn answer_sequences(
        &mut self,
        queries: &[Query<'_>],
        sequences: &[std::ops::Range<usize>],
    ) -> Result<Vec<Answer>, HarnessError> {
        (**self).answer_sequences(queries, sequences)
    }

    fn finish(&mut self) -> Option<Fault> {
        (**self).finish()
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
                    (self.script)(q).map_or_else(Answer::fault, Answer::response)
                })
                .collect())
        }
    }
}
