//! How to run an external implementation ([`ProcessConfig`], [`Mode`]) and
//! what it cost ([`ProcessStats`]): the settings every room of the process
//! module reads, apart so that none depends on another for them.

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

#[cfg(doc)]
use crate::implementation::{Answer, HarnessError};

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
    /// How long a fresh process may take for its first response
    /// (interpreters and virtual machines start slowly); the larger of this
    /// and `timeout` applies.
    pub startup_timeout: Duration,
    /// Persistent or one-shot.
    pub mode: Mode,
    /// Keep every response line as received, in [`Answer::raw`].
    pub record_raw: bool,
    /// When a process fails before its first answer and none of the
    /// command's has answered yet, check that the command can answer at all
    /// (see the module docs), stopping with a [`HarnessError`] (never
    /// answered) if not. Off, for callers that have seen the command answer
    /// or diagnose it themselves, such a failure is only the request's.
    pub check_liveness: bool,
    /// No wait goes past this instant: a response still missing then ends
    /// the call with a [`HarnessError`] (out of time), the process killed.
    /// Until the command has answered, a fresh process gets at most half the
    /// time left for its first response, so the liveness check still fits;
    /// cut short, it ends with a [`HarnessError`] (never answered). For
    /// callers with a time budget (`fuzz --time`).
    pub deadline: Option<Instant>,
    /// How long the first process of the command that answered took to its
    /// first response, shared by every clone of this configuration, so that
    /// any implementation made from one gives a fresh process about that
    /// much on top of the timeout rather than the whole start-up allowance.
    pub(crate) startup_seen: Arc<OnceLock<Duration>>,
}

impl ProcessConfig {
    /// Default per-request timeout.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
    /// Default allowance for a process's first response.
    pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
    /// Default number of requests in flight: enough to hide the pipe round
    /// trip, small enough that re-sending the in-flight ones after a fault
    /// is cheap.
    pub const DEFAULT_WINDOW: NonZeroUsize = NonZeroUsize::new(128).unwrap();

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
            startup_seen: Arc::default(),
        }
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
    /// Timeouts waited out one after another (in parallel isolation, only
    /// those overlapping no wait counted before).
    pub timeout_waits: usize,
}
