//! Persistent mode's pipeline: requests sent with a window in flight, the
//! responses read in order against their deadlines and matched to their
//! requests, until every one is answered or a fault ends the process.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::config::Mode;
use super::lifecycle::{wait_from, ProcessImplementation, SENT_LOG_BYTES};
use super::probes::{check_flushing, FLUSH_CHECK_AFTER};
use super::transport::{Ended, Transport};
use crate::implementation::{Answer, Excerpt, Failure, Fault, HarnessError, Query};
use crate::protocol::{self, ResponseError, ResponseErrorKind};

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
#[derive(Clone)]
pub(super) struct EarlyEnd {
    /// Requests that had been sent without an answer, the faulted one included.
    pub(super) in_flight: usize,
    pub(super) fault: Fault,
    pub(super) stderr_tail: Option<Arc<str>>,
    /// From writing the faulted request to noticing the fault.
    pub(super) elapsed: Duration,
    /// The fault is a stall ([`STALL`]), not a timeout.
    pub(super) stalled: bool,
}

impl EarlyEnd {
    /// The answer the fault gives the request it showed up on.
    pub(super) fn into_answer(self) -> Answer {
        Answer::failed(self.fault, self.stderr_tail, Some(self.elapsed))
    }
}

/// How long a pipeline waits for its next answer, once a process of the
/// command has hung, before it sends the requests in flight alone (each
/// with the whole timeout): a hang in the pipeline then costs this, not a
/// timeout, and a merely slow implementation only has them answered alone.
pub(super) const STALL: Duration = Duration::from_secs(1);

/// How long a line that is not a response may be followed by the response
/// that was due, for it to count as a stray line ([`Fault::StrayLine`])
/// rather than a malformed response.
const STRAY_GRACE: Duration = Duration::from_secs(1);

/// The fault for `line`, not a response to `queries[due]`: when it starts
/// with no id of `queries` (not even a response out of order) and the next
/// line, within [`STRAY_GRACE`] and `deadline`, is the response due,
/// [`Fault::StrayLine`]; otherwise [`Fault::Malformed`].
pub(super) fn stray_or_malformed<T: Transport>(
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

/// Takes the line at `range` of `child` as the response to `q`, answered
/// in `elapsed`: its answer, and if it is the process's first, the time
/// from its start; or the line and why it is no response to `q`.
pub(super) fn accept<T: Transport>(
    child: &mut T,
    range: std::ops::Range<usize>,
    q: &Query<'_>,
    record_raw: bool,
    elapsed: Duration,
) -> Result<(Answer, Option<Duration>), (Excerpt, ResponseError)> {
    let line = child.line(range);
    let response = match protocol::parse_response(line, q.id, q.request) {
        Ok(response) => response,
        Err(error) => return Err((Excerpt::of(line), error)),
    };
    let raw = record_raw.then(|| line.to_vec());
    let first = (!child.answered()).then(|| {
        child.mark_answered();
        child.started().elapsed()
    });
    let answer = Answer {
        reply: Ok(response),
        raw,
        stderr_tail: child.stderr_tail(),
        elapsed: Some(elapsed),
    };
    Ok((answer, first))
}

/// Appends the request lines `lines` to a process's `log`, dropping its
/// oldest lines first past [`SENT_LOG_BYTES`].
fn log_sent(log: &mut Vec<u8>, lines: &[u8]) {
    log.extend_from_slice(lines);
    if log.len() > SENT_LOG_BYTES {
        let from = log.len() - SENT_LOG_BYTES / 2;
        let start = log[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(log.len(), |i| from + i + 1);
        log.drain(..start);
    }
}

/// Where a pipelined stretch of requests stands: how many were sent and
/// answered, when each was sent, and the wait for the next response.
struct Stretch {
    sent: usize,
    got: usize,
    /// When each request sent so far was handed to the writer.
    sent_at: Vec<Instant>,
    /// The wait the next response gets, and when it ends (`cut`: the
    /// caller's deadline, not the wait, decides it).
    waited: Duration,
    deadline: Instant,
    cut: bool,
    /// Whether that wait is a [`STALL`] (never a first wait).
    stall: bool,
    /// Whether the waits after an answer are [`STALL`]s.
    stalls_after_answers: bool,
    /// How long the process took to its first answer, if given in this
    /// stretch.
    first_answer: Option<Duration>,
}

impl Stretch {
    /// Sends more of `queries` once half of the open window is answered. The
    /// window opens as the process answers (1, 3, 5, ... up to `window`), so
    /// a process that crashes on its first requests has few in flight to
    /// re-send alone; topping up at half batches the writes.
    fn top_up<T: Transport>(
        &mut self,
        child: &mut T,
        queries: &[Query<'_>],
        window: usize,
        log: &mut Vec<u8>,
    ) {
        let open = window.min(2 * self.got + 1);
        if self.sent < queries.len() && self.sent - self.got <= open / 2 {
            let upto = queries.len().min(self.got + open);
            let mut buf = Vec::with_capacity((upto - self.sent) * 48);
            for q in &queries[self.sent..upto] {
                protocol::write_request(&mut buf, q.id, q.request);
            }
            log_sent(log, &buf);
            child.send(buf);
            let now = Instant::now();
            self.sent_at.resize(upto, now);
            self.sent = upto;
        }
    }

    /// Takes the line at `range` as the response due: appends its answer
    /// and returns `None`, or returns why the stretch stops.
    fn take_line<T: Transport>(
        &mut self,
        child: &mut T,
        range: std::ops::Range<usize>,
        queries: &[Query<'_>],
        answers: &mut Vec<Answer>,
        (timeout, budget_end, record_raw): (Duration, Option<Instant>, bool),
    ) -> Option<Halt> {
        let elapsed = self.sent_at[self.got].elapsed();
        let (line, error) = match accept(child, range, &queries[self.got], record_raw, elapsed) {
            Ok((answer, first)) => {
                answers.push(answer);
                self.first_answer = self.first_answer.or(first);
                self.got += 1;
                self.waited = timeout;
                self.stall = self.stalls_after_answers;
                (self.deadline, self.cut) = wait_from(Instant::now(), budget_end, timeout);
                return None;
            }
            Err(rejected) => rejected,
        };
        // A line with the id of the request answered just before, in this
        // process: that request was answered twice. The fault is its own,
        // not the fault of the request whose response was due, which is
        // sent again to a fresh process.
        let repeated = match &error.kind {
            ResponseErrorKind::WrongId { got: id, .. } => self
                .got
                .checked_sub(1)
                .filter(|&previous| *queries[previous].id == **id)
                .map(|_| id.clone()),
            _ => None,
        };
        // `got > 0`: the last answer is that request's.
        if let (Some(id), Some(answered)) = (repeated, answers.last_mut()) {
            answered.reply = Err(Fault::Malformed {
                line,
                error: ResponseError::at(1, ResponseErrorKind::Repeated { id }),
            });
            answered.raw = None;
            return Some(Halt::Repeated);
        }
        let fault = stray_or_malformed(child, queries, self.got, line, error, self.deadline);
        Some(Halt::Malformed(fault))
    }
}

impl<T: Transport> ProcessImplementation<T> {
    /// Sends `queries` with up to `window` in flight and appends one answer
    /// per response, stopping at the first fault with the process killed.
    /// `first_sent`: the current process was sent the first query at that
    /// instant, beside others needing this much more time to start (its
    /// first wait counts from then, and a timeout in it is the caller's to
    /// count).
    pub(super) fn pipeline(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
        answers: &mut Vec<Answer>,
        first_sent: Option<(Instant, Duration)>,
    ) -> Result<Result<(), EarlyEnd>, HarnessError> {
        let timing = (
            self.next_answer_wait(),
            self.config.deadline,
            self.config.record_raw,
        );
        let mut flush_check = self.flush_check_due(first_sent.is_none());
        let mut at = self.stretch(queries.len().min(window), first_sent)?;
        let Some(child) = self.child.as_mut() else {
            return Err(HarnessError::from(Failure::Pipe { which: "stdin" }));
        };
        let stop = loop {
            at.top_up(child, queries, window, &mut self.sent);
            if at.got == queries.len() {
                break None;
            }
            let early = child.started() + FLUSH_CHECK_AFTER;
            let read = if flush_check && early < at.deadline {
                flush_check = false;
                match child.next_line(early) {
                    Err(Ended::Timeout) => check_flushing(
                        &mut self.connect,
                        (&self.config, &mut self.stats),
                        child,
                        at.deadline,
                        &mut self.alive,
                    )?,
                    other => other,
                }
            } else {
                child.next_line(at.deadline)
            };
            match read {
                Ok(range) => match at.take_line(child, range, queries, answers, timing) {
                    None => continue,
                    halt => break halt,
                },
                Err(ended) => break Some(Halt::Ended(ended)),
            }
        };
        if let Some(startup) = at.first_answer {
            self.answered(startup);
        }
        match stop {
            None => Ok(Ok(())),
            Some(stop) => self.halt(stop, &at, queries.len(), first_sent.is_none(), answers),
        }
    }

    /// Whether this stretch checks early for output never flushed: only on
    /// a command's first process, persistent, with no caller's budget. Asked
    /// once.
    fn flush_check_due(&mut self, own_start: bool) -> bool {
        // Once per run: a process of the command answered (in any
        // implementation made from this configuration), so it flushes.
        let due = !self.flush_checked
            && !self.alive
            && self.config.startup_seen.get().is_none()
            && self.config.check_liveness
            && self.config.deadline.is_none()
            && own_start
            && matches!(self.config.mode, Mode::Persistent { .. });
        self.flush_checked = true;
        due
    }

    /// Starts a process if none is running, and the stretch's first wait.
    fn stretch(
        &mut self,
        capacity: usize,
        first_sent: Option<(Instant, Duration)>,
    ) -> Result<Stretch, HarnessError> {
        let first_timeout = self.first_timeout();
        let (timeout, budget_end) = (self.next_answer_wait(), self.config.deadline);
        let answered = self.running()?.answered();
        let mut waited = if answered { timeout } else { first_timeout };
        let stalls_after_answers = timeout < self.config.timeout;
        let (start, crowd) = first_sent.unwrap_or((Instant::now(), Duration::ZERO));
        waited += crowd;
        let (deadline, cut) = wait_from(start, budget_end, waited);
        let mut sent_at = Vec::with_capacity(capacity);
        sent_at.extend(first_sent.map(|(at, _)| at));
        Ok(Stretch {
            sent: usize::from(first_sent.is_some()),
            got: 0,
            sent_at,
            waited,
            deadline,
            cut,
            stall: answered && stalls_after_answers,
            stalls_after_answers,
            first_answer: None,
        })
    }

    /// The wait for each answer after the first: the timeout, or once a
    /// process of the command has hung, [`STALL`] if shorter.
    fn next_answer_wait(&self) -> Duration {
        if self.hung {
            self.config.timeout.min(STALL)
        } else {
            self.config.timeout
        }
    }

    /// Ends a stretch that `stop`ped before all its `total` requests were
    /// answered: kills the process and returns the fault to attribute.
    fn halt(
        &mut self,
        stop: Halt,
        at: &Stretch,
        total: usize,
        own_start: bool,
        answers: &mut [Answer],
    ) -> Result<Result<(), EarlyEnd>, HarnessError> {
        let stalled = matches!(stop, Halt::Ended(Ended::Timeout)) && at.stall;
        if matches!(stop, Halt::Ended(Ended::Timeout)) {
            if at.cut {
                return Err(self.out_of_time(total - at.got));
            }
            self.hung = true;
            if own_start && !stalled {
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
            Halt::Ended(ended) => self.fail(ended, at.waited),
        };
        Ok(Err(EarlyEnd {
            in_flight: at.sent - at.got,
            fault,
            stderr_tail,
            elapsed: at
                .sent_at
                .get(at.got)
                .map_or(Duration::ZERO, Instant::elapsed),
            stalled,
        }))
    }
}
