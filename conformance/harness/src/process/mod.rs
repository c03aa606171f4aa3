//! External implementations run as processes speaking the line protocol.
//!
//! [`ProcessImplementation`] is the [`Implementation`] for a command line.
//! In persistent mode one process answers many requests, with a window of
//! requests in flight: a writer and a reader thread run at once (see
//! `child.rs`), so neither pipe can fill up and deadlock, and responses,
//! which come back in order, are matched to requests by position and checked
//! by id. In one-shot mode every request gets a fresh process that sees one
//! line and then end of input, except the steps of a stateful sequence
//! ([`Implementation::answer_sequences`]), which share one.
//!
//! A fault (a timeout, a crash, a line that is not a response) ends the
//! process: it is killed with its process group and reaped, and the next
//! request goes to a fresh one. A fault fails the one request that caused
//! it, never the rest of a run. With several requests in flight, the one it
//! showed up on need not be the cause (a crash may leave answers in the
//! output buffer). So the process's requests, up to the last in flight,
//! go again to one fresh process, one at a time: with nothing in flight,
//! the one that fails there caused it, given the requests before it (state
//! kept between requests is caught as such, not taken for pipelining).
//! Otherwise the requests in flight are re-sent in order, each alone to a
//! fresh process, until one fails alone: that one caused it. If none does
//! and all are answered one at a time, the fault needs pipelining
//! ([`Fault::OnlyWhenPipelined`]).
//!
//! Waiting out a hang costs time but no CPU, and an implementation that
//! hangs on one input shape hangs on many requests, often near each other.
//! So once a process of the command has hung, suspects go each to a fresh
//! process of its own, up to [`PARALLEL_ISOLATION`] alive at once, a new one
//! started as one is done. Each is read against its own deadline: the
//! allowance for a first response plus the start-up time of that many
//! processes spread over the cores, or the time the slowest one done took
//! if longer, so slow starters (a virtual machine, a crowd on a loaded
//! machine) are not pushed past it. Answers are taken in order, so hangs
//! near each other are waited out together while the requests between them
//! are answered. Once one has failed alone, suspects go on past the requests
//! that were in flight until [`PARALLEL_ISOLATION`] in a row have passed
//! after the last that failed or is overdue. And once a process has hung, a
//! pipeline waits at most a second for each next answer before taking the
//! requests in flight for suspects (each then gets the whole timeout
//! alone): a hang in the pipeline costs a second, not a timeout, and if none
//! fails alone there was no fault. [`ProcessStats::timeout_waits`] counts
//! the waits that did not overlap.
//!
//! A fresh process gets one request at first, and its window opens as it
//! answers (1, 3, 5, ... in flight), so one restarted right before another
//! crashing request has little to re-send.
//!
//! A command that cannot answer at all (a missing script, an interpreter
//! error at start-up) would fail every request, one start at a time. So
//! when a process fails before its first answer and none of the command's
//! ever has, the runner sends a few simple probe requests (id
//! `liveness-probe`, one of each kind), each to a fresh process. Any
//! response proves the command works and the fault stays the request's;
//! none ends the run with a [`HarnessError`] saying it never answered. When
//! that first fault is a timeout in persistent mode, the first probe goes to
//! a process whose input then ends: an answer there, but none from a further
//! process with its input open, is output never flushed (a [`HarnessError`]
//! that says so), found without waiting out a second start-up allowance. A
//! line that is not a response followed at once by the response due is
//! [`Fault::StrayLine`] (debug output on stdout). Once a process has
//! answered, no fault ends the run.
//!
//! One room a job: `pipeline.rs` (persistent mode's window), `isolation.rs`
//! (finding the request that caused a fault), `probes.rs` (whether a command
//! answers at all, or only at end of input), `one_shot.rs`, over
//! `lifecycle.rs` (the state, and the current process's start and end) and
//! `config.rs` (the settings). `child.rs` owns the process,
//! `pipe_threads.rs` the threads on its stdin and stdout, `pipes.rs` its
//! pipes, `stderr.rs` its stderr's tail.

mod child;
mod config;
mod isolation;
mod lifecycle;
mod one_shot;
mod pipe_threads;
mod pipeline;
mod pipes;
mod probes;
pub(crate) mod stderr;
mod transport;

use std::ffi::OsString;

use crate::implementation::{Answer, Failure, Fault, HarnessError, Implementation, Query};

pub use config::{Mode, ProcessConfig, ProcessStats};
pub use isolation::PARALLEL_ISOLATION;
pub use lifecycle::ProcessImplementation;
#[cfg(feature = "transport")]
pub use probes::PROBE_ID;

// The transport the pipeline logic drives: a real process here, a fake one
// in the pipeline fuzz target, which turns on the `transport` feature to
// reach it. Without the feature the seam is not part of the API.
#[cfg(feature = "transport")]
pub use child::Child;
#[cfg(not(feature = "transport"))]
use transport::Transport;
#[cfg(feature = "transport")]
pub use transport::{Connect, Ended, Transport};

/// Makes SIGINT, SIGTERM and SIGHUP kill every implementation process this
/// program has started, then exit with status 128 + the signal number:
/// implementations run in process groups of their own, out of reach of a
/// Ctrl-C, and would outlive the runner. Call once, early, from a program
/// (not a library user with its own signal handling).
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
/// started: a path (a word with a `/`) must name an executable file, a bare
/// name one on `PATH`. The matrix runs this for every implementation first,
/// so a missing program is reported in milliseconds, not after the others
/// have run. A program that starts and then fails (a script whose
/// interpreter is missing) passes; its first request finds it.
///
/// # Errors
/// a [`HarnessError`] naming the command, with the operating system's
/// error kind for what is wrong (`NotFound`, `PermissionDenied`).
pub fn check_startable(command: &[OsString]) -> Result<(), HarnessError> {
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::Path;
    let spawn_failed = |error| {
        HarnessError::from(Failure::Spawn {
            command: crate::shell::words(command),
            error,
        })
    };
    let fail = |kind, why: &str| spawn_failed(std::io::Error::new(kind, why.to_owned()));
    let Some(program) = command.first().filter(|p| !p.is_empty()) else {
        return Err(fail(std::io::ErrorKind::InvalidInput, "empty command"));
    };
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return match std::fs::metadata(path) {
            Err(error) => Err(spawn_failed(error)),
            Ok(_) if executable(path) => Ok(()),
            Ok(_) => Err(fail(
                std::io::ErrorKind::PermissionDenied,
                "not an executable file",
            )),
        };
    }
    std::env::var_os("PATH")
        .is_some_and(|dirs| std::env::split_paths(&dirs).any(|dir| executable(&dir.join(path))))
        .then_some(())
        .ok_or_else(|| fail(std::io::ErrorKind::NotFound, "not found on PATH"))
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
        self.time_left(queries)?;
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
        self.time_left(queries)?;
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
