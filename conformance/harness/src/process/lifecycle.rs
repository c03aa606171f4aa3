//! The state of a [`ProcessImplementation`] and the life of its current
//! process, which the other rooms drive: starting one, noting its first
//! answer, and ending it after a fault, with the fault to report.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::child::Child;
use super::config::{ProcessConfig, ProcessStats};
use super::transport::{Connect, Ended, Transport};
use crate::implementation::{Excerpt, Failure, Fault, HarnessError, Query};
use crate::protocol;

#[cfg(doc)]
use crate::implementation::Implementation;

/// An implementation behind a command line (see the module docs).
pub struct ProcessImplementation<T: Transport = Child> {
    pub(super) config: ProcessConfig,
    pub(super) connect: Connect<T>,
    pub(super) child: Option<T>,
    pub(super) stats: ProcessStats,
    /// Whether some process of this command has given a valid response.
    pub(super) alive: bool,
    /// Whether the process that failed last had not answered anything yet.
    pub(super) failed_fresh: bool,
    /// Whether a process of this command has hung (a response timed out).
    pub(super) hung: bool,
    /// Requests in a row that timed out, each alone in a fresh process,
    /// with no answer in between (see `isolation.rs`).
    pub(super) hang_streak: usize,
    /// Whether the early check for output never flushed was made.
    pub(super) flush_checked: bool,
    /// Output that answers no request, written after a process's input
    /// ended, not yet reported.
    pub(super) unsolicited: Option<Excerpt>,
    /// The request lines the current process was sent in pipelined
    /// stretches, in order, for a replay one at a time (`isolation.rs`); at
    /// most [`SENT_LOG_BYTES`], the oldest dropped first.
    pub(super) sent: Vec<u8>,
}

/// How much of a process's requests [`ProcessImplementation::sent`] keeps.
pub(super) const SENT_LOG_BYTES: usize = 8 << 20;

impl ProcessImplementation {
    /// Prepares to run `config.command`; nothing is started until the first request.
    #[must_use]
    pub fn new(config: ProcessConfig) -> Self {
        Self::over(config, Box::new(Child::spawn))
    }
}

impl<T: Transport> ProcessImplementation<T> {
    /// [`ProcessImplementation::new`] over another transport, which
    /// `connect` starts wherever a process would be: the pipeline fuzz
    /// target's fake implementation.
    #[cfg(feature = "transport")]
    #[must_use]
    pub fn with_transport(config: ProcessConfig, connect: Connect<T>) -> Self {
        Self::over(config, connect)
    }

    pub(super) fn over(config: ProcessConfig, connect: Connect<T>) -> Self {
        Self {
            config,
            connect,
            child: None,
            stats: ProcessStats::default(),
            alive: false,
            failed_fresh: false,
            hung: false,
            hang_streak: 0,
            flush_checked: false,
            unsolicited: None,
            sent: Vec::new(),
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
    /// still writes while it gets a moment to exit, then kills and reaps
    /// what is left of its group, keeping output written after its input
    /// ended for [`Implementation::finish`].
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

    /// The time a fresh process gets for its first response: once one has
    /// answered, the timeout plus about as long as it took rather than the
    /// whole start-up allowance, so a request that hangs every fresh process
    /// is noticed in seconds, not minutes.
    pub(super) fn first_timeout(&self) -> Duration {
        let full = self.config.startup_timeout.max(self.config.timeout);
        match self.config.startup_seen.get().copied() {
            Some(seen) => (self.config.timeout + seen * 2).min(full),
            None => match self.config.deadline {
                Some(deadline) => full.min(deadline.saturating_duration_since(Instant::now()) / 2),
                None => full,
            },
        }
    }

    /// Refuses `queries` at once when the deadline has passed, so no process
    /// is started only to be killed (a start alone can outlast the rest of
    /// the run on a loaded machine).
    pub(super) fn time_left(&mut self, queries: &[Query<'_>]) -> Result<(), HarnessError> {
        match self.config.deadline {
            Some(deadline) if !queries.is_empty() && Instant::now() >= deadline => {
                Err(self.out_of_time(queries.len()))
            }
            _ => Ok(()),
        }
    }

    /// Kills the current process because the deadline has passed.
    pub(super) fn out_of_time(&mut self, unanswered: usize) -> HarnessError {
        if let Some(mut child) = self.child.take() {
            child.kill();
        }
        HarnessError::from(Failure::OutOfTime { unanswered })
    }

    pub(super) fn running(&mut self) -> Result<&mut T, HarnessError> {
        let child = match self.child.take() {
            Some(child) => child,
            None => {
                self.stats.starts += 1;
                self.sent.clear();
                (self.connect)(&self.config.command, &self.config.env)?
            }
        };
        Ok(self.child.insert(child))
    }

    /// Takes the current process out of service after a fault, noting
    /// whether it had answered anything.
    pub(super) fn discard(&mut self) -> Option<T> {
        self.stats.faults += 1;
        let child = self.child.take()?;
        self.failed_fresh = !child.answered();
        Some(child)
    }

    /// Notes that a process answered for the first time, `startup` after
    /// it was started.
    pub(super) fn answered(&mut self, startup: Duration) {
        self.alive = true;
        let _ = self.config.startup_seen.set(startup);
    }

    /// Kills the current process after a line that is not a valid response.
    pub(super) fn reject(&mut self) -> Option<Arc<str>> {
        let mut child = self.discard()?;
        child.kill();
        child.final_stderr_tail()
    }

    /// Kills the current process after its stdout ended or stalled, and
    /// turns how that happened into the fault to report.
    pub(super) fn fail(&mut self, ended: Ended, waited: Duration) -> (Fault, Option<Arc<str>>) {
        let Some(mut child) = self.discard() else {
            return (
                Fault::ReadFailed {
                    message: "no process was running".into(),
                },
                None,
            );
        };
        // stdout closing usually means the process is exiting; it gets a
        // moment (below) so the report shows its real exit status.
        if !matches!(ended, Ended::Eof(_)) {
            child.kill();
        }
        let fault = match ended {
            Ended::Timeout => Fault::Timeout {
                after: waited,
                partial: child.unfinished_line(),
            },
            Ended::Eof(partial) => {
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
            Ended::TooLong(prefix) => Fault::LineTooLong {
                limit: protocol::MAX_RESPONSE_LINE,
                prefix,
            },
            Ended::ReadFailed(message) => Fault::ReadFailed { message },
        };
        (fault, child.final_stderr_tail())
    }
}

/// When a wait of `waited` from `start` ends, and whether `deadline` rather
/// than `waited` decides it.
pub(super) fn wait_from(
    start: Instant,
    deadline: Option<Instant>,
    waited: Duration,
) -> (Instant, bool) {
    let at = start + waited;
    match deadline {
        Some(deadline) if deadline < at => (deadline, true),
        _ => (at, false),
    }
}
