//! External implementations run as processes speaking the line protocol.
//!
//! [`ProcessImplementation`] is the [`Implementation`] for a command line.
//! In persistent mode one process answers many requests, with a window of
//! requests in flight: a writer thread and a reader thread run at the same
//! time (see `child.rs`), so neither side's pipe can fill up and deadlock, and
//! responses, which come back in order, are matched to requests by position
//! and checked by id. In one-shot mode every request gets a fresh process
//! that sees one line and then end of input.
//!
//! Faults (a timeout, a crash, a line that is not a response) end the
//! process; it is killed with its process group, reaped, and restarted for
//! the next request. With several requests in flight, the one the fault
//! showed up on is not necessarily the one that caused it (an implementation
//! may crash with answers still in its output buffer), so every request that
//! was in flight is re-sent one at a time to fresh processes, and each gets
//! its own answer. This module owns that policy; `child.rs` owns the process.

mod child;
pub(crate) mod stderr;

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::implementation::{Answer, Fault, HarnessError, Implementation, Query};
use crate::protocol;

use child::{Child, Ended};

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
    /// stuck, killed and restarted.
    pub timeout: Duration,
    /// How long a freshly started process may take for its first response
    /// (interpreters and virtual machines start slowly); the larger of this
    /// and `timeout` applies.
    pub startup_timeout: Duration,
    /// Persistent or one-shot.
    pub mode: Mode,
    /// Keep every response line as received, in [`Answer::raw`].
    pub record_raw: bool,
    /// Stop starting the process after this many consecutive starts that
    /// produced no valid response; later requests get [`Fault::GaveUp`].
    pub max_failed_starts: usize,
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
    /// Default limit of consecutive fruitless starts.
    pub const DEFAULT_MAX_FAILED_STARTS: usize = 5;

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
            max_failed_starts: Self::DEFAULT_MAX_FAILED_STARTS,
        }
    }
}

/// How a pipelined stretch of requests ended early.
struct Stop {
    /// Requests that had been sent without an answer, the faulted one included.
    in_flight: usize,
    fault: Fault,
    stderr_tail: Option<Arc<str>>,
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
}

/// An implementation behind a command line (see the module docs).
pub struct ProcessImplementation {
    config: ProcessConfig,
    child: Option<Child>,
    failed_starts: usize,
    stats: ProcessStats,
    /// How long the first process that answered took from start to its
    /// first response: restarts are allowed about that much on top of the
    /// timeout, rather than the whole start-up allowance, so that a request
    /// that hangs every fresh process is noticed in seconds, not minutes.
    startup_seen: Option<Duration>,
}

impl ProcessImplementation {
    /// Prepares to run `config.command`; nothing is started until the first request.
    #[must_use]
    pub fn new(config: ProcessConfig) -> Self {
        Self {
            config,
            child: None,
            failed_starts: 0,
            stats: ProcessStats::default(),
            startup_seen: None,
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
        self.child.as_ref().map(Child::id)
    }

    /// Ends the running process, if any: closes its stdin, gives it a moment
    /// to exit, then kills what is left of its process group and reaps it.
    pub fn close(&mut self) {
        if let Some(mut child) = self.child.take() {
            if !child.finish(Duration::from_millis(500)) {
                self.stats.lingered += 1;
            }
        }
    }

    /// The time a fresh process gets for its first response.
    fn first_timeout(&self) -> Duration {
        let full = self.config.startup_timeout.max(self.config.timeout);
        match self.startup_seen {
            Some(seen) => (self.config.timeout + seen * 2).min(full),
            None => full,
        }
    }

    fn gave_up(&self) -> bool {
        // An implementation that has never answered at all is most likely
        // not working at all: two fruitless starts are proof enough, and
        // each may cost a whole start-up allowance.
        let limit = if self.startup_seen.is_some() {
            self.config.max_failed_starts
        } else {
            self.config.max_failed_starts.min(2)
        };
        self.failed_starts >= limit
    }

    fn running(&mut self) -> Result<&mut Child, HarnessError> {
        if self.child.is_none() {
            self.stats.starts += 1;
            self.child = Some(Child::spawn(&self.config.command, &self.config.env)?);
        }
        // Just ensured above; `get_or_insert` would spawn eagerly.
        self.child
            .as_mut()
            .ok_or(HarnessError::Pipe { which: "stdin" })
    }

    /// Takes the current process out of service after a fault, updating the
    /// count of fruitless starts.
    fn discard(&mut self) -> Option<Child> {
        self.stats.faults += 1;
        let child = self.child.take()?;
        if child.answered {
            self.failed_starts = 0;
        } else {
            self.failed_starts += 1;
        }
        Some(child)
    }

    /// Kills the current process after a line that is not a valid response.
    fn reject(&mut self) -> Option<Arc<str>> {
        let mut child = self.discard()?;
        child.kill();
        child.stderr_tail()
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
        (fault, child.stderr_tail())
    }

    /// Sends `queries` with up to `window` in flight and appends one answer
    /// per response. Stops at the first fault, having killed the process.
    /// Remembers the start-up time of the first process that answered.
    fn note_startup(&mut self, first_answer: Option<Duration>) {
        if self.startup_seen.is_none() {
            self.startup_seen = first_answer;
        }
    }

    fn pipeline(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
        answers: &mut Vec<Answer>,
    ) -> Result<Result<(), Stop>, HarnessError> {
        let timeout = self.config.timeout;
        let first_timeout = self.first_timeout();
        let record_raw = self.config.record_raw;
        let child = self.running()?;
        let mut waited = if child.answered {
            timeout
        } else {
            first_timeout
        };
        let mut deadline = Instant::now() + waited;
        // Top the window up once half of it has been answered, so that writes
        // come in batches rather than one line at a time.
        let low_water = window / 2;
        let (mut sent, mut got) = (0, 0);
        let mut first_answer = None;
        loop {
            if sent < queries.len() && sent - got <= low_water {
                let upto = queries.len().min(got + window);
                let mut buf = Vec::with_capacity((upto - sent) * 48);
                for q in &queries[sent..upto] {
                    protocol::write_request(&mut buf, q.id, q.request);
                }
                child.send(buf);
                sent = upto;
            }
            if got == queries.len() {
                self.note_startup(first_answer);
                return Ok(Ok(()));
            }
            let ended = match child.next_line(deadline) {
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
                            });
                            if !child.answered {
                                child.answered = true;
                                first_answer = Some(child.started.elapsed());
                            }
                            got += 1;
                            waited = timeout;
                            deadline = Instant::now() + timeout;
                            continue;
                        }
                        Err(error) => {
                            let line = line.to_vec();
                            self.note_startup(first_answer);
                            return Ok(Err(Stop {
                                in_flight: sent - got,
                                fault: Fault::Malformed { line, error },
                                stderr_tail: self.reject(),
                            }));
                        }
                    }
                }
                Err(ended) => ended,
            };
            self.note_startup(first_answer);
            let (fault, stderr_tail) = self.fail(ended, waited);
            return Ok(Err(Stop {
                in_flight: sent - got,
                fault,
                stderr_tail,
            }));
        }
    }

    fn answer_persistent(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
    ) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        while answers.len() < queries.len() {
            if self.gave_up() {
                answers.push(self.gave_up_answer());
                continue;
            }
            let start = answers.len();
            let stop = match self.pipeline(&queries[start..], window, &mut answers)? {
                Ok(()) => continue,
                Err(stop) => stop,
            };
            let at = answers.len();
            if stop.in_flight <= 1 {
                answers.push(Answer {
                    reply: Err(stop.fault),
                    raw: None,
                    stderr_tail: stop.stderr_tail,
                });
                continue;
            }
            // Attribute the fault: re-send each in-flight request on its own.
            for i in at..at + stop.in_flight {
                if self.gave_up() {
                    answers.push(self.gave_up_answer());
                    continue;
                }
                if let Err(single) = self.pipeline(&queries[i..=i], 1, &mut answers)? {
                    answers.push(Answer {
                        reply: Err(single.fault),
                        raw: None,
                        stderr_tail: single.stderr_tail,
                    });
                }
            }
            let rerun = &mut answers[at..];
            if rerun.iter().all(|a| a.reply.is_ok()) {
                // Nothing failed on its own: the fault needs pipelining.
                rerun[0] = Answer {
                    reply: Err(Fault::OnlyWhenPipelined {
                        in_flight: stop.in_flight,
                        fault: Box::new(stop.fault),
                    }),
                    raw: None,
                    stderr_tail: stop.stderr_tail,
                };
            }
        }
        Ok(answers)
    }

    fn gave_up_answer(&self) -> Answer {
        Answer::fault(Fault::GaveUp {
            starts: self.failed_starts,
        })
    }

    fn answer_one_shot(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        let mut line = Vec::new();
        for q in queries {
            let waited = self.first_timeout();
            if self.gave_up() {
                answers.push(self.gave_up_answer());
                continue;
            }
            line.clear();
            protocol::write_request(&mut line, q.id, q.request);
            let child = self.running()?;
            child.send(line.clone());
            child.close_input();
            let ended = match child.next_line(Instant::now() + waited) {
                Ok(range) => {
                    let received = child.line(range);
                    let raw = received.to_vec();
                    match protocol::parse_response(received, q.id, q.request) {
                        Ok(response) => {
                            child.answered = true;
                            let startup = child.started.elapsed();
                            let stderr_tail = child.stderr_tail();
                            self.note_startup(Some(startup));
                            self.failed_starts = 0;
                            self.close();
                            answers.push(Answer {
                                reply: Ok(response),
                                raw: self.config.record_raw.then_some(raw),
                                stderr_tail,
                            });
                            continue;
                        }
                        Err(error) => {
                            answers.push(Answer {
                                reply: Err(Fault::Malformed { line: raw, error }),
                                raw: None,
                                stderr_tail: self.reject(),
                            });
                            continue;
                        }
                    }
                }
                Err(ended) => ended,
            };
            let (fault, stderr_tail) = self.fail(ended, waited);
            answers.push(Answer {
                reply: Err(fault),
                raw: None,
                stderr_tail,
            });
        }
        Ok(answers)
    }
}

impl Implementation for ProcessImplementation {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        match self.config.mode {
            Mode::Persistent { window } => self.answer_persistent(queries, window.get()),
            Mode::OneShot => self.answer_one_shot(queries),
        }
    }
}

impl Drop for ProcessImplementation {
    fn drop(&mut self) {
        self.close();
    }
}
