//! The checks on a command none of whose processes has answered yet:
//! whether it can answer at all (the liveness probes), and whether it
//! answers only at end of input, its output waiting in a buffer it never
//! flushes (see the process module's docs).

use std::sync::Arc;
use std::time::{Duration, Instant};

use wow_guid_vectors::Request;

use super::config::{Mode, ProcessConfig, ProcessStats};
use super::lifecycle::ProcessImplementation;
use super::transport::{Connect, Ended, Transport};
use crate::implementation::{Failure, Fault, FaultKind, HarnessError, Query};
use crate::protocol;

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

/// How long a command's first process may stay silent before the runner
/// checks, beside it, whether it answers only at end of input.
pub(super) const FLUSH_CHECK_AFTER: Duration = Duration::from_secs(2);

/// The longest a probe beside the first process waits: one blocked (by a
/// lock the first process holds, say) must not hold up the first's answer.
const PROBE_WAIT: Duration = Duration::from_secs(8);

/// How long each look at the first process and at the probe beside it lasts.
const WATCH: Duration = Duration::from_millis(20);

/// What a probe beside the first process came to.
enum Probed {
    /// The probe answered.
    Answered,
    /// The probe exited with status 0 without answering: given end of
    /// input, it lost its answer at exit.
    ExitedSilent,
    /// No answer from the probe in its time, or another end.
    Nothing,
    /// The first process gave its next line (or ended) meanwhile: the probe
    /// was stopped.
    First(Result<std::ops::Range<usize>, Ended>),
}

/// Sends `line` (the probe `request`) to a fresh process (its input then
/// ended when `input_ends`) and watches it and `first` until either gives a
/// line, or `until`.
fn probe_beside<T: Transport>(
    connect: &mut Connect<T>,
    config: &ProcessConfig,
    stats: &mut ProcessStats,
    first: &mut T,
    (line, request): (&[u8], &Request),
    (input_ends, until): (bool, Instant),
) -> Result<Probed, HarnessError> {
    stats.starts += 1;
    stats.probes += 1;
    let mut process = connect(&config.command, &config.env)?;
    process.send(line.to_vec());
    if input_ends {
        process.close_input();
    }
    let probed = loop {
        let now = Instant::now();
        match first.next_line(now + WATCH) {
            Err(Ended::Timeout) => {}
            other => break Probed::First(other),
        }
        match process.next_line((Instant::now() + WATCH).min(until)) {
            Err(Ended::Timeout) if Instant::now() < until => {}
            Ok(range) => {
                let answered = protocol::parse_response(process.line(range), PROBE, request);
                break if answered.is_ok() {
                    Probed::Answered
                } else {
                    Probed::Nothing
                };
            }
            Err(Ended::Eof(partial)) if input_ends && partial.is_empty() => {
                let exited = process.wait_for_exit(Duration::from_millis(250));
                let status = process.kill();
                break if exited && status == "exit status: 0" {
                    Probed::ExitedSilent
                } else {
                    Probed::Nothing
                };
            }
            Err(_) => break Probed::Nothing,
        }
    };
    process.kill();
    Ok(probed)
}

/// The first process of a command none of whose processes has answered
/// has been silent for [`FLUSH_CHECK_AFTER`]: rather than wait out its
/// start-up allowance, a probe goes to a second process whose input then
/// ends, watched beside the first (whose answer ends the probe) for at most
/// [`PROBE_WAIT`]. If it exits without a word, output is lost at exit (a
/// [`HarnessError`]). If it answers while the first is still silent, the
/// probe goes to a third process with its input left open, given twice the
/// second's time and a second more: silent too, the command answers only
/// at end of input (a [`HarnessError`]). Answered, `alive` is set and the
/// time recorded as a start-up seen (a timeout of the first process is then
/// the request's fault), and the first process's wait goes on to
/// `deadline`; so it does when the probe did not answer even at end of
/// input (the command is slow, or stuck on the first request).
///
/// The probes' waits are their own, not bounded by `deadline`, so their
/// evidence is used rather than gathered again by the liveness check. (The
/// check runs only without a caller's budget, [`ProcessConfig::deadline`].)
/// Returns the first process's next line, as [`Transport::next_line`].
pub(super) fn check_flushing<T: Transport>(
    connect: &mut Connect<T>,
    (config, stats): (&ProcessConfig, &mut ProcessStats),
    first: &mut T,
    deadline: Instant,
    alive: &mut bool,
) -> Result<Result<std::ops::Range<usize>, Ended>, HarnessError> {
    let [request, ..] = probe_requests();
    let mut line = Vec::with_capacity(48);
    protocol::write_request(&mut line, PROBE, &request);
    let probe = (line.as_slice(), &request);
    let began = Instant::now();
    let until = began + PROBE_WAIT;
    match probe_beside(connect, config, stats, first, probe, (true, until))? {
        Probed::First(read) => return Ok(read),
        Probed::Nothing => return Ok(first.next_line(deadline)),
        Probed::ExitedSilent => {
            first.kill();
            return Err(HarnessError::from(Failure::LostAtExit {
                command: crate::shell::words(&config.command),
                waited: first.started().elapsed(),
            }));
        }
        Probed::Answered => {}
    }
    let answered_in = began.elapsed();
    // The first process gets as long again as the probe took.
    let until = Instant::now() + answered_in.max(Duration::from_secs(1));
    match first.next_line(until) {
        Err(Ended::Timeout) => {}
        other => return Ok(other),
    }
    let open_began = Instant::now();
    let until = open_began + answered_in * 2 + Duration::from_secs(1);
    match probe_beside(connect, config, stats, first, probe, (false, until))? {
        Probed::First(read) => return Ok(read),
        Probed::Answered => {
            // A process of the command answered with its input open: its
            // time to that answer is a start-up seen, as any first answer's.
            *alive = true;
            let _ = config.startup_seen.set(open_began.elapsed());
            return Ok(first.next_line(deadline));
        }
        Probed::ExitedSilent | Probed::Nothing => {}
    }
    first.kill();
    Err(HarnessError::from(Failure::Unflushed {
        command: crate::shell::words(&config.command),
        waited: first.started().elapsed(),
        answered_in,
    }))
}

/// The probe requests, one of each kind, simple enough that any
/// implementation of the kind answers: the format's worked example, its
/// encoding, a named GUID named `Bob`. Any response counts, `unsupported`
/// and `error` included.
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
/// The protocol id of the liveness probes, for a fake transport that must
/// tell probes from requests.
#[cfg(feature = "transport")]
pub const PROBE_ID: &str = PROBE;
/// The protocol id of the liveness probes.
pub(super) const PROBE: &str = "liveness-probe";
impl<T: Transport> ProcessImplementation<T> {
    /// After a fault of a process that had not answered, when no process of
    /// the command ever has: sends each probe request to a fresh process.
    /// One answer of any kind proves the command works (the fault was the
    /// request's); none is a [`HarnessError`] (never answered). A probe
    /// that times out ends the search, as each further one would wait as long.
    pub(super) fn confirm_alive(
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

    /// After a fresh persistent process stayed silent for `silent_for`, no
    /// process of the command having answered: tells one that answers only
    /// at end of input from one that is stuck, as [`check_flushing`] does,
    /// without a second start-up allowance: a probe at end of input, then,
    /// if answered, one with input left open; silent again, the output is
    /// never flushed (a harness error).
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
}
