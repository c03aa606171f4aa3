//! External implementations run as processes speaking the line protocol.
//!
//! [`ProcessImplementation`] is the [`Implementation`] for a command line.
//! In persistent mode one process answers many requests, with a window of
//! requests in flight: a writer thread and a reader thread run at the same
//! time (see `child.rs`), so neither side's pipe can fill up and deadlock, and
//! responses, which come back in order, are matched to requests by position
//! and checked by id. In one-shot mode every request gets a fresh process
//! that sees one line and then end of input, except the steps of a stateful
//! sequence ([`Implementation::answer_sequences`]): they share one fresh
//! process, which sees their lines and then end of input.
//!
//! Faults (a timeout, a crash, a line that is not a response) end the
//! process; it is killed with its process group, reaped, and a fresh one is
//! started for the next request. A fault fails the one request that caused
//! it and never the rest of a run. With several requests in flight, the one
//! the fault showed up on is not necessarily the one that caused it (an
//! implementation may crash with answers still in its output buffer), so
//! the requests that were in flight are re-sent in order, each on its own to
//! a fresh process, until one fails alone: that one caused the fault, and
//! the ones after it go on as usual. If none fails alone, the fault needs
//! several requests in flight ([`Fault::OnlyWhenPipelined`]).
//!
//! Waiting out a hang costs time but no CPU, and an implementation that
//! hangs on one input shape hangs on many requests, often near each other.
//! So once a process of the command has hung, the suspects are re-sent
//! [`PARALLEL_ISOLATION`] at a time, each to a fresh process of its own, all
//! of a group started together and their answers read in order, each
//! against its own deadline (the allowance for a first response, plus the
//! group's start-up time spread over the cores, so that slow starters such
//! as a virtual machine are not pushed past it): hangs in one group are waited out at the same
//! time. Once one has failed alone, groups go on, past the requests that
//! were in flight, while each group has a request that fails alone; every
//! answer so got is its request's, and the requests after the first group
//! without a fault go on as usual. [`ProcessStats::timeout_waits`] counts
//! the waits that did not overlap.
//!
//! A fresh process gets one request at first, and its window opens as it
//! answers (1, 3, 5, ... requests in flight), so a process restarted right
//! before another crashing request has little in flight to re-send.
//!
//! A command that cannot answer anything at all (a missing script, an
//! interpreter error at start-up) would otherwise fail every request, one
//! start at a time. So when a process fails before its first answer and no
//! process of the command has answered yet, the runner sends a few simple
//! probe requests (with the id `liveness-probe`, one of each kind), each to a fresh process.
//! Any response proves the command works, and the fault stays the
//! request's; none ends the run with a [`HarnessError`] saying it never answered. When
//! that first fault is a timeout in persistent mode, the first probe goes to
//! a process whose input then ends: an answer there, but none from a
//! further process with its input open, is output the implementation never
//! flushes (a [`HarnessError`] that says so), found without waiting out a second
//! start-up allowance. A line that is not a response followed at once by the
//! response that was due is [`Fault::StrayLine`] (debug output on stdout),
//! not a malformed response. Once a process has answered, no fault ends the
//! run. This module owns that
//! policy; `child.rs` owns the process.

mod child;
mod pipes;
pub(crate) mod stderr;
mod transport;

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use wow_guid_vectors::Request;

use crate::implementation::{
    Answer, Excerpt, Failure, Fault, FaultKind, HarnessError, Implementation, Query,
};
use crate::protocol::{self, ResponseError, ResponseErrorKind};

// The transport the pipeline logic drives: a real process here, a fake one
// in the pipeline fuzz target, which turns on the `transport` feature to
// reach it. Without the feature the seam is not part of the API.
#[cfg(feature = "transport")]
pub use child::Child;
#[cfg(not(feature = "transport"))]
use child::Child;
#[cfg(feature = "transport")]
pub use transport::{Connect, Ended, Transport};
#[cfg(not(feature = "transport"))]
use transport::{Connect, Ended, Transport};

/// Makes SIGINT, SIGTERM and SIGHUP kill every implementation process this
/// program has started before it exits with status 128 + the signal number.
///
/// Implementations run in process groups of their own, so a Ctrl-C in the
/// terminal reaches only the runner; without this they would outlive it.
/// Call once, early, from a program (not a library user that has its own
/// signal handling).
///
/// # Errors
/// The operating system's error when the handler or its thread cannot be set up.
pub fn kill_children_on_signal() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                child::kill_all();
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// Checks, without starting anything, that `command`'s program could be
/// started: a path (a word with a `/`) must name an executable file, and a
/// bare name must be one on `PATH`, as the operating system would look it
/// up. The matrix runs this for every implementation before it runs any,
/// so that a missing program is reported in milliseconds, not after every
/// other implementation has run. A program that starts and then fails (a
/// script whose interpreter is missing) passes this check; its first
/// request finds it.
///
/// # Errors
/// a [`HarnessError`] naming the command, with the operating system's
/// error kind for what is wrong (`NotFound`, `PermissionDenied`).
pub fn check_startable(command: &[OsString]) -> Result<(), HarnessError> {
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::Path;
    let fail = |kind: std::io::ErrorKind, why: &str| {
        HarnessError::from(Failure::Spawn {
            command: crate::shell::words(command),
            error: std::io::Error::new(kind, why.to_owned()),
        })
    };
    let Some(program) = command.first().filter(|p| !p.is_empty()) else {
        return Err(fail(std::io::ErrorKind::InvalidInput, "empty command"));
    };
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return match std::fs::metadata(path) {
            Err(error) => Err(HarnessError::from(Failure::Spawn {
                command: crate::shell::words(command),
                error,
            })),
            Ok(_) if executable(path) => Ok(()),
            Ok(_) => Err(fail(
                std::io::ErrorKind::PermissionDenied,
                "not an executable file",
            )),
        };
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|dirs| std::env::split_paths(&dirs).any(|dir| executable(&dir.join(path))));
    if on_path {
        Ok(())
    } else {
        Err(fail(std::io::ErrorKind::NotFound, "not found on PATH"))
    }
}

/// How requests are delivered to the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One process for many requests, with up to `window` requests sent
    /// ahead of their responses. A window of 1 is strict request-then-wait.
    Persistent {
        /// Requests in flight at most.
        window: NonZeroUsize,
    },
    /// A fresh process for each request: one line, then end of input.
    OneShot,
}

impl Mode {
    /// Persistent mode with the default window.
    #[must_use]
    pub const fn persistent() -> Self {
        Self::Persistent {
            window: ProcessConfig::DEFAULT_WINDOW,
        }
    }
}

/// How to run an external implementation.
#[derive(Clone, Debug)]
pub struct ProcessConfig {
    /// Program and arguments.
    pub command: Vec<OsString>,
    /// Environment variables to set for the program, on top of the runner's own.
    pub env: Vec<(OsString, OsString)>,
    /// How long to wait for each response before the process is declared
    /// stuck and killed; the next request goes to a fresh process.
    pub timeout: Duration,
    /// How long a freshly started process may take for its first response
    /// (interpreters and virtual machines start slowly); the larger of this
    /// and `timeout` applies.
    pub startup_timeout: Duration,
    /// Persistent or one-shot.
    pub mode: Mode,
    /// Keep every response line as received, in [`Answer::raw`].
    pub record_raw: bool,
    /// When a process fails before its first answer and no process of the
    /// command has answered yet, check that the command can answer at all
    /// (see the module docs), and stop with
    /// a [`HarnessError`] (never answered) if it cannot. Off, such a failure is
    /// only the fault of the request that was sent: for callers that have
    /// seen the command answer before, or make their own diagnosis.
    pub check_liveness: bool,
    /// No wait goes past this instant: a response still missing then ends
    /// the call with a [`HarnessError`] (out of time), the process killed. While
    /// no process of the command has answered, a fresh process gets at
    /// most half the time left for its first response, so that the
    /// liveness check still fits; a liveness check the deadline cuts short
    /// ends with a [`HarnessError`] (never answered). For callers with a time
    /// budget for everything they do (`fuzz --time`).
    pub deadline: Option<Instant>,
    /// How long the first process of the command that answered took to its
    /// first response, shared by every clone of this configuration.
    pub(crate) startup_seen: StartupSeen,
}

/// How long a process of a command took to its first response, once one
/// has answered: shared by every clone of a [`ProcessConfig`], so that any
/// implementation made from one gives a fresh process about that much on
/// top of the timeout rather than the whole start-up allowance.
#[derive(Clone, Debug, Default)]
pub(crate) struct StartupSeen(Arc<OnceLock<Duration>>);

impl StartupSeen {
    /// The time, once known.
    #[must_use]
    pub(crate) fn get(&self) -> Option<Duration> {
        self.0.get().copied()
    }

    /// Records `startup` unless a time is known already.
    pub(crate) fn record(&self, startup: Duration) {
        let _ = self.0.set(startup);
    }
}

impl ProcessConfig {
    /// Default per-request timeout.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
    /// Default allowance for a process's first response.
    pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
    /// Default number of requests in flight: enough to hide the pipe round
    /// trip, small enough that re-sending the in-flight ones after a fault
    /// is cheap.
    pub const DEFAULT_WINDOW: NonZeroUsize = match NonZeroUsize::new(128) {
        Some(w) => w,
        None => unreachable!(),
    };

    /// A persistent configuration with the defaults for `command`.
    #[must_use]
    pub fn new(command: Vec<OsString>) -> Self {
        Self {
            command,
            env: Vec::new(),
            timeout: Self::DEFAULT_TIMEOUT,
            startup_timeout: Self::DEFAULT_STARTUP_TIMEOUT,
            mode: Mode::persistent(),
            record_raw: false,
            check_liveness: true,
            deadline: None,
            startup_seen: StartupSeen::default(),
        }
    }
}

/// Why [`ProcessImplementation::pipeline`] stopped reading before every
/// request was answered.
enum Halt {
    /// The process's output ended or went quiet.
    Ended(Ended),
    /// A line that is not a response to the request due.
    Malformed(Fault),
    /// A second response to the request answered just before, already put
    /// on that request's answer.
    Repeated,
}

/// How a pipelined stretch of requests ended early.
struct EarlyEnd {
    /// Requests that had been sent without an answer, the faulted one included.
    in_flight: usize,
    fault: Fault,
    stderr_tail: Option<Arc<str>>,
    /// From writing the faulted request to noticing the fault.
    elapsed: Duration,
}

/// What [`ProcessImplementation::at_end_of_input`] found out about a
/// command none of whose processes has answered yet.
enum Silence {
    /// A process with its input open answered: the command works.
    Answered,
    /// Even at end of input no answer came (or the deadline passed): the
    /// command is stuck; waiting for more probes would only take as long.
    Quiet(Option<(Fault, Option<Arc<str>>)>),
    /// Another fault, for the usual probes to look into.
    Other((Fault, Option<Arc<str>>)),
}

/// How long the first process of a command may stay silent before the
/// runner checks, beside it, whether the command answers only at end of
/// input (a [`HarnessError`]; see the module docs).
const FLUSH_CHECK_AFTER: Duration = Duration::from_secs(2);

/// The first process of a command, none of whose processes has answered,
/// has been silent for [`FLUSH_CHECK_AFTER`]: rather than wait out the rest
/// of its start-up allowance, a probe goes to a second process whose input
/// then ends. When that one answers and the first is still silent, the
/// probe goes to a third process with its input left open, given twice
/// the second's time and a second more: silent too, the command answers
/// only at end of input (a [`HarnessError`] that says so, within seconds).
/// Otherwise (the probe answered with its input open, or not even at end
/// of input) the first process's wait goes on as usual, to `deadline`: the
/// command is slow, or stuck on the first request. Returns the first
/// process's next line, as [`Transport::next_line`] would.
fn check_flushing<T: Transport>(
    connect: &mut Connect<T>,
    config: &ProcessConfig,
    stats: &mut ProcessStats,
    first: &mut T,
    deadline: Instant,
) -> Result<Result<std::ops::Range<usize>, Ended>, HarnessError> {
    let [request, ..] = probe_requests();
    let mut line = Vec::with_capacity(48);
    protocol::write_request(&mut line, PROBE, &request);
    let mut probe = |input_ends: bool, until: Instant| -> Result<bool, HarnessError> {
        stats.starts += 1;
        stats.probes += 1;
        let mut process = connect(&config.command, &config.env)?;
        process.send(line.clone());
        if input_ends {
            process.close_input();
        }
        let answered = process.next_line(until).is_ok_and(|range| {
            protocol::parse_response(process.line(range), PROBE, &request).is_ok()
        });
        process.kill();
        Ok(answered)
    };
    let began = Instant::now();
    if !probe(true, deadline)? {
        return Ok(first.next_line(deadline));
    }
    let answered_in = began.elapsed();
    // The first process gets as long again as the probe took.
    let until = deadline.min(Instant::now() + answered_in.max(Duration::from_secs(1)));
    match first.next_line(until) {
        Err(Ended::Timeout) if until < deadline => {}
        other => return Ok(other),
    }
    let until = deadline.min(Instant::now() + answered_in * 2 + Duration::from_secs(1));
    if probe(false, until)? {
        return Ok(first.next_line(deadline));
    }
    first.kill();
    Err(HarnessError::from(Failure::Unflushed {
        command: crate::shell::words(&config.command),
        waited: first.started().elapsed(),
        answered_in,
    }))
}

/// How long a line that is not a response may be followed by the response
/// that was due, for it to count as a stray line ([`Fault::StrayLine`])
/// rather than a malformed response.
const STRAY_GRACE: Duration = Duration::from_secs(1);

/// The fault for `line`, which is not a response to `queries[due]`: when
/// it does not start with the id of any of `queries` (so it is no response
/// at all, not even one out of order) and the next line, read within
/// [`STRAY_GRACE`] (and `deadline`), is the response that was due, the
/// implementation wrote something else before its answer
/// ([`Fault::StrayLine`], whose advice differs); otherwise the line is the
/// malformed response.
fn stray_or_malformed<T: Transport>(
    child: &mut T,
    queries: &[Query<'_>],
    due: usize,
    line: Excerpt,
    error: ResponseError,
    deadline: Instant,
) -> Fault {
    let first_word = line.head().split(|&b| b == b' ').next().unwrap_or_default();
    let query = &queries[due];
    if queries.iter().any(|q| q.id.as_bytes() == first_word) {
        return Fault::Malformed { line, error };
    }
    let grace = deadline.min(Instant::now() + STRAY_GRACE);
    let answered = child.next_line(grace).is_ok_and(|next| {
        protocol::parse_response(child.line(next), query.id, query.request).is_ok()
    });
    if answered {
        Fault::StrayLine { line }
    } else {
        Fault::Malformed { line, error }
    }
}

/// Counters a caller may want after a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessStats {
    /// Processes started.
    pub starts: usize,
    /// Processes killed because of a fault.
    pub faults: usize,
    /// Processes that did not exit within half a second of their input
    /// ending, and were killed.
    pub lingered: usize,
    /// Liveness probes sent (see the module docs).
    pub probes: usize,
    /// Timeouts waited out one after another: waits that ran at the same
    /// time, in a group of parallel isolation, count once.
    pub timeout_waits: usize,
}

/// The requests that check whether a command can answer anything at all,
/// one of each kind, each simple enough that any implementation that
/// handles its kind answers it: the format's worked example, its encoding,
/// and a named GUID with a three-letter name. Any response counts,
/// `unsupported` and `error` included.
fn probe_requests() -> [Request; 4] {
    [
        Request::DecodePacked {
            bytes: vec![0x0a, 0xde, 0xad],
        },
        Request::EncodePacked { guid: 0xad00_de00 },
        Request::DecodeNamed {
            bytes: b"\x2a\0\0\0\0\0\0\0Bob\0".to_vec(),
        },
        Request::EncodeNamed {
            guid: 0x2a,
            name: Some(b"Bob".to_vec()),
        },
    ]
}

/// When a wait of `waited` from now ends, and whether `deadline` rather
/// than `waited` decides it.
fn wait_until(deadline: Option<Instant>, waited: Duration) -> (Instant, bool) {
    wait_from(Instant::now(), deadline, waited)
}

/// When a wait of `waited` from `start` ends, and whether `deadline` rather
/// than `waited` decides it.
fn wait_from(start: Instant, deadline: Option<Instant>, waited: Duration) -> (Instant, bool) {
    let at = start + waited;
    match deadline {
        Some(deadline) if deadline < at => (deadline, true),
        _ => (at, false),
    }
}

/// Fresh processes started at once to isolate the suspects of a fault, once
/// a process of the command has hung (see the module docs): enough that a
/// run of hangs is waited out a few groups at a time, few enough for the
/// memory and open files of as many virtual machines. Each gets the
/// start-up time of the whole group, spread over the machine's cores, on
/// top of its own allowance, since they compete for the cores while they
/// start.
pub const PARALLEL_ISOLATION: usize = 16;

/// The protocol id of the liveness probes.
///
/// Public with the `transport` feature, for a fake transport that must
/// tell probes from requests.
#[cfg(feature = "transport")]
pub const PROBE_ID: &str = PROBE;
/// The protocol id of the liveness probes.
pub(crate) const PROBE: &str = "liveness-probe";

/// An implementation behind a command line (see the module docs).
pub struct ProcessImplementation<T: Transport = Child> {
    config: ProcessConfig,
    connect: Connect<T>,
    child: Option<T>,
    stats: ProcessStats,
    /// Whether some process of this command has given a valid response.
    alive: bool,
    /// Whether the process that failed last had not answered anything yet.
    failed_fresh: bool,
    /// Whether a process of this command has hung (a response timed out).
    hung: bool,
    /// Whether the early check for output that is never flushed was made
    /// (once, on the first process: see [`check_flushing`]).
    flush_checked: bool,
    /// Output a process wrote after its input ended that answers no
    /// request, seen when it was closed and not yet reported.
    unsolicited: Option<Excerpt>,
}

impl ProcessImplementation {
    /// Prepares to run `config.command`; nothing is started until the first request.
    #[must_use]
    pub fn new(config: ProcessConfig) -> Self {
        Self::over(config, Box::new(Child::spawn))
    }
}

impl<T: Transport> ProcessImplementation<T> {
    /// [`ProcessImplementation::new`] over another transport than a real
    /// process: `connect` starts one whenever a process would be started.
    /// The pipeline fuzz target drives the batching, attribution and
    /// restart logic this way, through a fake implementation whose
    /// behaviour the fuzzer picks (with the `transport` feature).
    #[cfg(feature = "transport")]
    #[must_use]
    pub fn with_transport(config: ProcessConfig, connect: Connect<T>) -> Self {
        Self::over(config, connect)
    }

    fn over(config: ProcessConfig, connect: Connect<T>) -> Self {
        Self {
            config,
            connect,
            child: None,
            stats: ProcessStats::default(),
            alive: false,
            failed_fresh: false,
            hung: false,
            flush_checked: false,
            unsolicited: None,
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ProcessConfig {
        &self.config
    }

    /// Processes started and faults seen so far.
    #[must_use]
    pub fn stats(&self) -> ProcessStats {
        self.stats
    }

    /// The operating-system id of the running process, if one is running.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(T::id)
    }

    /// Ends the running process, if any: closes its stdin, reads what it
    /// still writes while it gets a moment to exit, then kills what is left
    /// of its process group and reaps it. Output it wrote after its input
    /// ended is kept for [`Implementation::finish`].
    pub fn close(&mut self) {
        if let Some(mut child) = self.child.take() {
            let (exited, unsolicited) = child.finish(Duration::from_millis(500));
            if !exited {
                self.stats.lingered += 1;
            }
            if self.unsolicited.is_none() {
                self.unsolicited = unsolicited;
            }
        }
    }

    /// The time a fresh process gets for its first response. Once a
    /// process has answered, restarts are allowed about as long as it took
    /// on top of the timeout, rather than the whole start-up allowance, so
    /// that a request that hangs every fresh process is noticed in seconds,
    /// not minutes.
    fn first_timeout(&self) -> Duration {
        let full = self.config.startup_timeout.max(self.config.timeout);
        match self.config.startup_seen.get() {
            Some(seen) => (self.config.timeout + seen * 2).min(full),
            None => match self.config.deadline {
                Some(deadline) => full.min(deadline.saturating_duration_since(Instant::now()) / 2),
                None => full,
            },
        }
    }

    /// Kills the current process because the deadline has passed.
    fn out_of_time(&mut self, unanswered: usize) -> HarnessError {
        if let Some(mut child) = self.child.take() {
            child.kill();
        }
        HarnessError::from(Failure::OutOfTime { unanswered })
    }

    fn running(&mut self) -> Result<&mut T, HarnessError> {
        if self.child.is_none() {
            self.stats.starts += 1;
            self.child = Some((self.connect)(&self.config.command, &self.config.env)?);
        }
        // Just ensured above; `get_or_insert` would spawn eagerly.
        self.child
            .as_mut()
            .ok_or(HarnessError::from(Failure::Pipe { which: "stdin" }))
    }

    /// Takes the current process out of service after a fault, noting
    /// whether it had answered anything.
    fn discard(&mut self) -> Option<T> {
        self.stats.faults += 1;
        let child = self.child.take()?;
        self.failed_fresh = !child.answered();
        Some(child)
    }

    /// Notes that a process answered for the first time, `startup` after
    /// it was started.
    fn answered(&mut self, startup: Duration) {
        self.alive = true;
        self.config.startup_seen.record(startup);
    }

    /// Kills the current process after a line that is not a valid response.
    fn reject(&mut self) -> Option<Arc<str>> {
        let mut child = self.discard()?;
        child.kill();
        child.final_stderr_tail()
    }

    /// Kills the current process after its stdout ended or stalled, and
    /// turns how that happened into the fault to report.
    fn fail(&mut self, ended: Ended, waited: Duration) -> (Fault, Option<Arc<str>>) {
        let Some(mut child) = self.discard() else {
            return (
                Fault::ReadFailed {
                    message: "no process was running".into(),
                },
                None,
            );
        };
        let fault = match ended {
            Ended::Timeout => {
                child.kill();
                Fault::Timeout {
                    after: waited,
                    partial: child.unfinished_line(),
                }
            }
            Ended::Eof(partial) => {
                // stdout closing usually means the process is exiting; give
                // it a moment so the report shows its real exit status.
                let exited = child.wait_for_exit(Duration::from_millis(250));
                let status = child.kill();
                Fault::Exited {
                    status: if exited {
                        status
                    } else {
                        format!("it closed its stdout but kept running, so it was killed: {status}")
                    },
                    partial,
                }
            }
            Ended::TooLong(prefix) => {
                child.kill();
                Fault::LineTooLong {
                    limit: protocol::MAX_RESPONSE_LINE,
                    prefix,
                }
            }
            Ended::ReadFailed(message) => {
                child.kill();
                Fault::ReadFailed { message }
            }
        };
        (fault, child.final_stderr_tail())
    }

    /// After a fault: when the failed process had not answered anything and
    /// no process of this command ever has, finds out whether the command
    /// can answer at all, by sending each probe request to a fresh process.
    /// One answer, of any kind, proves it can: the fault was the request's,
    /// and the run goes on. None proves it cannot, and nothing it is asked
    /// can be judged: a [`HarnessError`] (never answered). A probe that times out ends the
    /// search early, since each further one would wait as long.
    fn confirm_alive(
        &mut self,
        fault: &Fault,
        stderr_tail: Option<&Arc<str>>,
    ) -> Result<(), HarnessError> {
        if self.alive || !self.failed_fresh || !self.config.check_liveness {
            return Ok(());
        }
        let mut last = (fault.clone(), stderr_tail.cloned());
        let starts_before = self.stats.starts;
        let mut probes = probe_requests().to_vec();
        if let (Fault::Timeout { after, .. }, Mode::Persistent { .. }) = (fault, self.config.mode) {
            match self.at_end_of_input(*after)? {
                Silence::Answered => return Ok(()),
                Silence::Quiet(fault) => {
                    last = fault.unwrap_or(last);
                    probes.clear();
                }
                Silence::Other(fault) => last = fault,
            }
        }
        for request in &probes {
            self.stats.probes += 1;
            let query = Query { id: PROBE, request };
            let answer = match self.answer_alone(&query) {
                // The deadline leaves no time to wait for the probe: still
                // no answer from the command, which is the diagnosis.
                Err(e) if e.is_out_of_time() => break,
                other => other?,
            };
            if self.alive {
                return Ok(());
            }
            if let Err(fault) = answer.reply {
                let timed_out = fault.kind() == FaultKind::TimedOut;
                last = (fault, answer.stderr_tail);
                if timed_out {
                    break;
                }
            }
        }
        Err(HarnessError::from(Failure::NeverAnswered {
            command: crate::shell::words(&self.config.command),
            starts: 1 + self.stats.starts - starts_before,
            fault: Box::new(last.0),
            stderr_tail: last.1,
        }))
    }

    /// After a fresh persistent process stayed silent for `silent_for`
    /// with no process of the command ever having answered: tells an
    /// implementation that answers only at end of input (its output waits
    /// in a buffer it never flushes) from one that is stuck, without a
    /// second start-up allowance. A probe goes to a fresh process whose
    /// input then ends; if that one answers, the same probe goes to
    /// another fresh process with its input left open, which gets the
    /// start-up time just seen on top of the timeout. Silent again: the
    /// output is buffered (a harness error). Answered: the
    /// first request was the problem, and the run goes on.
    fn at_end_of_input(&mut self, silent_for: Duration) -> Result<Silence, HarnessError> {
        let [request, ..] = probe_requests();
        let query = Query {
            id: PROBE,
            request: &request,
        };
        self.stats.probes += 1;
        self.close();
        let began = Instant::now();
        let once = match self.one_shot(&query) {
            Err(e) if e.is_out_of_time() => return Ok(Silence::Quiet(None)),
            other => other?,
        };
        let answered_in = began.elapsed();
        // An answer at end of input says nothing about persistent mode.
        self.alive = false;
        match once.reply {
            Err(fault) if fault.kind() == FaultKind::TimedOut => {
                return Ok(Silence::Quiet(Some((fault, once.stderr_tail))));
            }
            Err(fault) => return Ok(Silence::Other((fault, once.stderr_tail))),
            Ok(_) => {}
        }
        self.stats.probes += 1;
        let unflushed = HarnessError::from(Failure::Unflushed {
            command: crate::shell::words(&self.config.command),
            waited: silent_for,
            answered_in,
        });
        // The deadline cutting the wait short leaves the same evidence:
        // silent twice with its input open, answering once it ended.
        let open = match self.answer_alone(&query) {
            Err(e) if e.is_out_of_time() => return Err(unflushed),
            other => other?,
        };
        match open.reply {
            _ if self.alive => Ok(Silence::Answered),
            Err(fault) if fault.kind() == FaultKind::TimedOut => Err(unflushed),
            Err(fault) => Ok(Silence::Other((fault, open.stderr_tail))),
            Ok(_) => Ok(Silence::Answered),
        }
    }

    /// Sends one query to a fresh process of its own and ends that process
    /// afterwards, in the configured mode.
    fn answer_alone(&mut self, query: &Query<'_>) -> Result<Answer, HarnessError> {
        self.close();
        let answer = match self.config.mode {
            Mode::Persistent { .. } => self.receive_alone(query, None)?,
            Mode::OneShot => self.one_shot(query)?,
        };
        Ok(self.end_alone(answer))
    }

    /// Answers each of `queries` alone, each in a fresh process of its own,
    /// all started before any answer is read (see the module docs), in
    /// persistent mode: a group costs about as long as its slowest member.
    fn answer_group_alone(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        self.close();
        let mut started = Vec::with_capacity(queries.len());
        for q in queries {
            self.stats.starts += 1;
            let mut child = (self.connect)(&self.config.command, &self.config.env)?;
            let mut line = Vec::with_capacity(48);
            protocol::write_request(&mut line, q.id, q.request);
            child.send(line);
            started.push((child, Instant::now()));
        }
        let waits_before = self.stats.timeout_waits;
        // Started together, they compete for the machine's cores while they
        // start: each gets the start-up time of the whole group, spread over
        // the cores, on top of its own allowance.
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let crowd = self.config.startup_seen.get().unwrap_or_default()
            * u32::try_from(queries.len().div_ceil(cores)).unwrap_or(u32::MAX);
        let mut answers = Vec::with_capacity(queries.len());
        let mut hung = false;
        // Taken in order, so that a failure to read one ends the others
        // (dropping a process ends it).
        for (q, (child, sent_at)) in queries.iter().zip(started) {
            self.child = Some(child);
            let answer = self.receive_alone(q, Some((sent_at, crowd)))?;
            hung |= answer
                .reply
                .as_ref()
                .is_err_and(|f| f.kind() == FaultKind::TimedOut);
            answers.push(self.end_alone(answer));
        }
        // The group's waits ran at the same time: one wait.
        self.stats.timeout_waits = waits_before + usize::from(hung);
        Ok(answers)
    }

    /// The answer to `query` from the current process (a fresh one is
    /// started and sent the query when `sent_at` is `None`; otherwise the
    /// current one was sent it then, in a crowd that needs that much more
    /// time to start), in persistent mode.
    fn receive_alone(
        &mut self,
        query: &Query<'_>,
        sent_at: Option<(Instant, Duration)>,
    ) -> Result<Answer, HarnessError> {
        let mut answers = Vec::with_capacity(1);
        Ok(
            match self.pipeline(std::slice::from_ref(query), 1, &mut answers, sent_at)? {
                Ok(()) => answers.remove(0),
                Err(stop) => Answer {
                    reply: Err(stop.fault),
                    raw: None,
                    stderr_tail: stop.stderr_tail,
                    elapsed: Some(stop.elapsed),
                },
            },
        )
    }

    /// Ends the process that answered a query alone, and turns output it
    /// wrote after its answer into the query's fault.
    fn end_alone(&mut self, answer: Answer) -> Answer {
        self.close();
        match self.unsolicited.take() {
            Some(line) if answer.reply.is_ok() => Answer {
                reply: Err(Fault::Unsolicited { line }),
                raw: None,
                stderr_tail: answer.stderr_tail,
                elapsed: answer.elapsed,
            },
            _ => answer,
        }
    }

    /// Sends `queries` with up to `window` in flight and appends one answer
    /// per response. Stops at the first fault, having killed the process.
    /// `first_sent`: the current process was already sent the first query,
    /// at that instant, and started beside others that need this much more
    /// time to start (its first wait counts from that instant, and a
    /// timeout in it is the caller's to count).
    fn pipeline(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
        answers: &mut Vec<Answer>,
        first_sent: Option<(Instant, Duration)>,
    ) -> Result<Result<(), EarlyEnd>, HarnessError> {
        let timeout = self.config.timeout;
        let first_timeout = self.first_timeout();
        let record_raw = self.config.record_raw;
        let budget_end = self.config.deadline;
        self.running()?;
        // Only the first process of a command, in persistent mode, with no
        // budget of the caller's to keep to.
        let mut flush_check = !self.flush_checked
            && !self.alive
            && self.config.check_liveness
            && budget_end.is_none()
            && first_sent.is_none()
            && matches!(self.config.mode, Mode::Persistent { .. });
        self.flush_checked = true;
        let Some(child) = self.child.as_mut() else {
            return Err(HarnessError::from(Failure::Pipe { which: "stdin" }));
        };
        let mut waited = if child.answered() {
            timeout
        } else {
            first_timeout
        };
        let (start, crowd) = first_sent.unwrap_or((Instant::now(), Duration::ZERO));
        waited += crowd;
        let (mut deadline, mut cut) = wait_from(start, budget_end, waited);
        let (mut sent, mut got) = (usize::from(first_sent.is_some()), 0);
        // When each request sent so far was handed to the writer.
        let mut sent_at: Vec<Instant> = Vec::with_capacity(queries.len().min(window));
        sent_at.extend(first_sent.map(|(at, _)| at));
        let mut first_answer = None;
        let stop = loop {
            // The window opens as the process answers: one request, then
            // three, five, ... up to `window`. A process that crashes on its
            // first requests (an implementation that throws on some inputs,
            // restarted right before the next such input) then has few
            // requests in flight, each of which would otherwise have to be
            // re-sent to a fresh process of its own.
            let open = window.min(2 * got + 1);
            // Top the window up once half of it has been answered, so that
            // writes come in batches rather than one line at a time.
            if sent < queries.len() && sent - got <= open / 2 {
                let upto = queries.len().min(got + open);
                let mut buf = Vec::with_capacity((upto - sent) * 48);
                for q in &queries[sent..upto] {
                    protocol::write_request(&mut buf, q.id, q.request);
                }
                child.send(buf);
                let now = Instant::now();
                sent_at.resize(upto, now);
                sent = upto;
            }
            if got == queries.len() {
                break None;
            }
            let early = child.started() + FLUSH_CHECK_AFTER;
            let read = if flush_check && early < deadline {
                flush_check = false;
                match child.next_line(early) {
                    Err(Ended::Timeout) => check_flushing(
                        &mut self.connect,
                        &self.config,
                        &mut self.stats,
                        child,
                        deadline,
                    )?,
                    other => other,
                }
            } else {
                child.next_line(deadline)
            };
            let ended = match read {
                Ok(range) => {
                    let q = &queries[got];
                    let line = child.line(range);
                    match protocol::parse_response(line, q.id, q.request) {
                        Ok(response) => {
                            let raw = record_raw.then(|| line.to_vec());
                            answers.push(Answer {
                                reply: Ok(response),
                                raw,
                                stderr_tail: child.stderr_tail(),
                                elapsed: Some(sent_at[got].elapsed()),
                            });
                            if !child.answered() {
                                child.mark_answered();
                                first_answer = Some(child.started().elapsed());
                            }
                            got += 1;
                            waited = timeout;
                            (deadline, cut) = wait_until(budget_end, timeout);
                            continue;
                        }
                        Err(error) => {
                            // A line with the id of the request answered just
                            // before, in this process: that request was
                            // answered twice. The fault is its own, not the
                            // fault of the request whose response was due,
                            // which is sent again to a fresh process.
                            let repeated = match &error.kind {
                                ResponseErrorKind::WrongId { got: id, .. } => got
                                    .checked_sub(1)
                                    .filter(|&previous| *queries[previous].id == **id)
                                    .map(|_| id.clone()),
                                _ => None,
                            };
                            let line = Excerpt::of(line);
                            // `got > 0`: the last answer is that request's.
                            if let (Some(id), Some(answered)) = (repeated, answers.last_mut()) {
                                answered.reply = Err(Fault::Malformed {
                                    line,
                                    error: ResponseError {
                                        column: 1,
                                        kind: ResponseErrorKind::Repeated { id },
                                    },
                                });
                                answered.raw = None;
                                break Some(Halt::Repeated);
                            }
                            let fault =
                                stray_or_malformed(child, queries, got, line, error, deadline);
                            break Some(Halt::Malformed(fault));
                        }
                    }
                }
                Err(ended) => ended,
            };
            break Some(Halt::Ended(ended));
        };
        if let Some(startup) = first_answer {
            self.answered(startup);
        }
        let Some(stop) = stop else {
            return Ok(Ok(()));
        };
        if matches!(stop, Halt::Ended(Ended::Timeout)) {
            if cut {
                return Err(self.out_of_time(queries.len() - got));
            }
            self.hung = true;
            if first_sent.is_none() {
                self.stats.timeout_waits += 1;
            }
        }
        let (fault, stderr_tail) = match stop {
            Halt::Malformed(malformed) => (malformed, self.reject()),
            Halt::Repeated => {
                // The fault was put on the request answered twice; what
                // is left goes to a fresh process.
                let stderr_tail = self.reject();
                if let Some(answered) = answers.last_mut() {
                    answered.stderr_tail = stderr_tail;
                }
                return Ok(Ok(()));
            }
            Halt::Ended(ended) => self.fail(ended, waited),
        };
        Ok(Err(EarlyEnd {
            in_flight: sent - got,
            fault,
            stderr_tail,
            elapsed: sent_at.get(got).map_or(Duration::ZERO, Instant::elapsed),
        }))
    }

    fn answer_persistent(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
    ) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        while answers.len() < queries.len() {
            let start = answers.len();
            let stop = match self.pipeline(&queries[start..], window, &mut answers, None)? {
                Ok(()) => continue,
                Err(stop) => stop,
            };
            if stop.in_flight <= 1 {
                self.confirm_alive(&stop.fault, stop.stderr_tail.as_ref())?;
                answers.push(Answer {
                    reply: Err(stop.fault),
                    raw: None,
                    stderr_tail: stop.stderr_tail,
                    elapsed: Some(stop.elapsed),
                });
                continue;
            }
            // Attribute the fault: the request it showed up on need not be
            // the one that caused it, so the requests that were in flight
            // are sent again in order, each on its own to a fresh process,
            // until one fails alone. That one caused it; the requests after
            // it go on as usual, in a fresh process. Once a process has
            // hung, they go a group at a time, and on while each group has
            // a fault (see the module docs).
            let at = answers.len();
            let suspects = &queries[at..];
            let mut caught = false;
            let mut next = 0;
            // The requests in flight, and once one has failed alone, after
            // a hang, those not sent yet too, while each group has a fault.
            while next
                < if caught {
                    suspects.len()
                } else {
                    stop.in_flight
                }
            {
                let size = if self.hung { PARALLEL_ISOLATION } else { 1 };
                let end = if caught {
                    suspects.len()
                } else {
                    stop.in_flight
                };
                let group = &suspects[next..end.min(next + size)];
                let group_answers = match group {
                    [query] => vec![self.answer_alone(query)?],
                    _ => self.answer_group_alone(group)?,
                };
                let mut faulted = false;
                for (i, mut answer) in (next..).zip(group_answers) {
                    if let Err(fault) = &answer.reply {
                        self.confirm_alive(fault, answer.stderr_tail.as_ref())?;
                        faulted = true;
                        // The request the first fault showed up on failed
                        // alone too, but only by going quiet (an adapter
                        // that answers out of order waits for a next
                        // request that never comes): what it did first, a
                        // wrong id or a crash, is the better evidence, and
                        // is what gets reported.
                        if i == 0
                            && fault.kind() == FaultKind::TimedOut
                            && stop.fault.kind() != FaultKind::TimedOut
                        {
                            answer = Answer {
                                reply: Err(stop.fault.clone()),
                                raw: None,
                                stderr_tail: stop.stderr_tail.clone(),
                                elapsed: Some(stop.elapsed),
                            };
                        }
                    }
                    answers.push(answer);
                }
                next += group.len();
                // Before any hang, the first fault ends the search; after
                // one, the first group without a fault does.
                if (faulted && !self.hung) || (caught && !faulted) {
                    caught |= faulted;
                    break;
                }
                caught |= faulted;
            }
            if !caught {
                // Nothing failed on its own: the fault needs pipelining.
                answers[at] = Answer {
                    reply: Err(Fault::OnlyWhenPipelined {
                        in_flight: stop.in_flight,
                        fault: Box::new(stop.fault),
                    }),
                    raw: None,
                    stderr_tail: stop.stderr_tail,
                    elapsed: Some(stop.elapsed),
                };
            }
        }
        Ok(answers)
    }

    /// Answers `query` with a fresh process that gets one line, then end of
    /// input, and must exit.
    fn one_shot(&mut self, q: &Query<'_>) -> Result<Answer, HarnessError> {
        let waited = self.first_timeout();
        let (deadline, cut) = wait_until(self.config.deadline, waited);
        let mut line = Vec::new();
        protocol::write_request(&mut line, q.id, q.request);
        // One-shot times count the process's start: each request pays it.
        let began = Instant::now();
        let child = self.running()?;
        child.send(line);
        child.close_input();
        let read = child.next_line(deadline);
        let elapsed = Some(began.elapsed());
        let ended = match read {
            Ok(range) => {
                let received = child.line(range);
                let raw = received.to_vec();
                match protocol::parse_response(received, q.id, q.request) {
                    Ok(response) => {
                        child.mark_answered();
                        let startup = child.started().elapsed();
                        let stderr_tail = child.stderr_tail();
                        self.answered(startup);
                        self.close();
                        if let Some(line) = self.unsolicited.take() {
                            return Ok(Answer {
                                reply: Err(Fault::Unsolicited { line }),
                                raw: None,
                                stderr_tail,
                                elapsed,
                            });
                        }
                        return Ok(Answer {
                            reply: Ok(response),
                            raw: self.config.record_raw.then_some(raw),
                            stderr_tail,
                            elapsed,
                        });
                    }
                    Err(error) => {
                        let queries = std::slice::from_ref(q);
                        let line = Excerpt::of(&raw);
                        let fault = stray_or_malformed(child, queries, 0, line, error, deadline);
                        return Ok(Answer {
                            reply: Err(fault),
                            raw: None,
                            stderr_tail: self.reject(),
                            elapsed,
                        });
                    }
                }
            }
            Err(ended) => ended,
        };
        if cut && matches!(ended, Ended::Timeout) {
            return Err(self.out_of_time(1));
        }
        let (fault, stderr_tail) = self.fail(ended, waited);
        Ok(Answer {
            reply: Err(fault),
            raw: None,
            stderr_tail,
            elapsed,
        })
    }

    fn answer_one_shot(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        for q in queries {
            let answer = self.one_shot(q)?;
            if let Err(fault) = &answer.reply {
                self.confirm_alive(fault, answer.stderr_tail.as_ref())?;
            }
            answers.push(answer);
        }
        Ok(answers)
    }

    /// One-shot mode with sequences: each range of `sequences` goes to
    /// [`ProcessImplementation::one_shot_steps`], every other query to a
    /// process of its own.
    fn answer_one_shot_sequences(
        &mut self,
        queries: &[Query<'_>],
        sequences: &[std::ops::Range<usize>],
    ) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        let mut at = 0;
        for steps in sequences
            .iter()
            .chain(std::iter::once(&(queries.len()..queries.len())))
        {
            answers.extend(self.answer_one_shot(&queries[at..steps.start])?);
            answers.extend(self.one_shot_steps(&queries[steps.clone()])?);
            at = steps.end;
        }
        Ok(answers)
    }

    /// The steps of one sequence in one-shot mode: a fresh process gets
    /// every step's line, then end of input, and must answer each in order
    /// and exit, so the steps still share one state, as the corpus means
    /// them to. A fault fails the step it showed up on (each step is
    /// answered in order, with nothing in flight to re-send); the steps
    /// after it go on in the same way in a fresh process.
    fn one_shot_steps(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        while answers.len() < queries.len() {
            let rest = &queries[answers.len()..];
            let mut lines = Vec::with_capacity(rest.len() * 48);
            for q in rest {
                protocol::write_request(&mut lines, q.id, q.request);
            }
            let (first, timeout) = (self.first_timeout(), self.config.timeout);
            let (record_raw, budget_end) = (self.config.record_raw, self.config.deadline);
            self.close();
            // One-shot times count the process's start, as for one request.
            let mut since = Instant::now();
            let child = self.running()?;
            child.send(lines);
            child.close_input();
            let (mut got, mut first_answer) = (0, None);
            let stop = loop {
                let Some(q) = rest.get(got) else {
                    break None;
                };
                let waited = if got == 0 { first } else { timeout };
                let (deadline, cut) = wait_until(budget_end, waited);
                let range = match child.next_line(deadline) {
                    Ok(range) => range,
                    Err(ended) => break Some((Err(ended), waited, cut)),
                };
                let line = child.line(range);
                match protocol::parse_response(line, q.id, q.request) {
                    Ok(response) => {
                        let raw = record_raw.then(|| line.to_vec());
                        if !child.answered() {
                            child.mark_answered();
                            first_answer = Some(child.started().elapsed());
                        }
                        answers.push(Answer {
                            reply: Ok(response),
                            raw,
                            stderr_tail: child.stderr_tail(),
                            elapsed: Some(since.elapsed()),
                        });
                        since = Instant::now();
                        got += 1;
                    }
                    Err(error) => {
                        let line = Excerpt::of(line);
                        break Some((Ok(Fault::Malformed { line, error }), waited, cut));
                    }
                }
            };
            if let Some(startup) = first_answer {
                self.answered(startup);
            }
            let (fault, stderr_tail) = match stop {
                None => {
                    self.close();
                    if let (Some(line), Some(last)) = (self.unsolicited.take(), answers.last_mut())
                    {
                        last.reply = Err(Fault::Unsolicited { line });
                        last.raw = None;
                    }
                    continue;
                }
                Some((Ok(malformed), _, _)) => (malformed, self.reject()),
                Some((Err(Ended::Timeout), _, true)) => {
                    return Err(self.out_of_time(rest.len() - got));
                }
                Some((Err(ended), waited, _)) => self.fail(ended, waited),
            };
            self.confirm_alive(&fault, stderr_tail.as_ref())?;
            answers.push(Answer {
                reply: Err(fault),
                raw: None,
                stderr_tail,
                elapsed: Some(since.elapsed()),
            });
        }
        Ok(answers)
    }
}

impl<T: Transport> Implementation for ProcessImplementation<T> {
    /// Closes the running process (see [`ProcessImplementation::close`]),
    /// reading its output to the end: anything it wrote after its last
    /// answer is [`Fault::Unsolicited`].
    fn finish(&mut self) -> Option<Fault> {
        self.close();
        self.unsolicited
            .take()
            .map(|line| Fault::Unsolicited { line })
    }

    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        match self.config.mode {
            Mode::Persistent { window } => self.answer_persistent(queries, window.get()),
            Mode::OneShot => self.answer_one_shot(queries),
        }
    }

    /// In one-shot mode, the steps of each sequence share one fresh
    /// process, which gets their lines and then end of input; in persistent
    /// mode every query shares one already.
    fn answer_sequences(
        &mut self,
        queries: &[Query<'_>],
        sequences: &[std::ops::Range<usize>],
    ) -> Result<Vec<Answer>, HarnessError> {
        match self.config.mode {
            Mode::OneShot => self.answer_one_shot_sequences(queries, sequences),
            Mode::Persistent { .. } => self.answer_all(queries),
        }
    }
}

impl<T: Transport> Drop for ProcessImplementation<T> {
    fn drop(&mut self) {
        self.close();
    }
}
