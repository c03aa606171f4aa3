//! Finding the request that caused a fault in persistent mode: the
//! requests that were in flight are sent again, each alone to a fresh
//! process, one at a time or, once a process of the command has hung, up to
//! [`PARALLEL_ISOLATION`] at once (see the process module's docs).

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use super::config::Mode;
use super::lifecycle::{wait_from, ProcessImplementation};
use super::pipeline::EarlyEnd;
use super::transport::Transport;
use crate::implementation::{Answer, Fault, FaultKind, HarnessError, Query};
use crate::protocol;

/// Fresh processes alive at once to isolate a fault's suspects once a
/// process of the command has hung: enough to wait out a run of hangs many
/// at a time, few enough for the memory and open files of as many virtual
/// machines.
pub const PARALLEL_ISOLATION: usize = 16;

/// Requests in a row that time out alone, nothing answered in between,
/// after which the rest of a call is not sent ([`Fault::NotSent`]): one
/// that hangs on every request would otherwise take a timeout per
/// [`PARALLEL_ISOLATION`] requests, a quarter of an hour for the corpus at
/// the default timeout. More hangs in a row than any planted bug gives.
const HANG_STREAK: usize = 4 * PARALLEL_ISOLATION;

/// How often a parallel isolation's processes are looked at while quiet.
const POLL: Duration = Duration::from_millis(2);

/// The processes of a parallel isolation still out, killed at once however
/// it ends (one dropped unkilled gets a grace period, which a hung one
/// spends whole).
struct Live<T: Transport>(Vec<Alone<T>>);

impl<T: Transport> Drop for Live<T> {
    fn drop(&mut self) {
        for alone in &mut self.0 {
            alone.child.kill();
        }
    }
}

/// A request sent alone to a fresh process of its own, beside others.
struct Alone<T> {
    /// Its place among the suspects.
    index: usize,
    child: T,
    sent_at: Instant,
    /// When its wait ends.
    due: Instant,
}

/// What a fresh process did with the requests of one that faulted, sent
/// one at a time, each once the one before was answered: with nothing in
/// flight, the request it fails is the one that caused the fault, given
/// those before it.
struct Lockstep {
    /// Its answers, in order, up to the first request it failed.
    answers: Vec<Answer>,
    /// The answer to that request, if it failed one (`None` inside: a
    /// stall, no answer within [`STALL`](super::pipeline::STALL), which
    /// says less than a timeout).
    failed: Option<Option<Answer>>,
    /// How many of the requests came before the first of those in flight
    /// at the fault.
    before: usize,
}

impl Lockstep {
    /// The index, among the faulted stretch's requests in flight (the
    /// first at `at` in the caller's queries), of the request it failed
    /// (or of the one after the last); `None` for one before them.
    fn failed_at(&self, at: usize) -> Option<usize> {
        (self.answers.len() >= self.before).then(|| at + self.answers.len() - self.before)
    }

    /// Settles the requests from `answers.len()` to the one it failed,
    /// with its answers and its fault: a fault of the request's own, after
    /// the requests before it in its process. A timeout there, where the
    /// stretch's fault `stop` on the same request was not one (an adapter
    /// answering out of order waits for a request that never comes), or a
    /// stall, gives way to `stop`.
    fn settle(self, stop: EarlyEnd, answers: &mut Vec<Answer>) {
        let at = answers.len();
        answers.extend(self.answers.into_iter().skip(self.before));
        let quiet =
            |answer: &Answer| is_timeout(answer) && stop.fault.kind() != FaultKind::TimedOut;
        let fault = match self.failed.flatten() {
            Some(fault) if !(answers.len() == at && quiet(&fault)) => fault,
            _ => stop.into_answer(),
        };
        answers.push(fault);
    }
}

impl<T: Transport> ProcessImplementation<T> {
    pub(super) fn answer_persistent(
        &mut self,
        queries: &[Query<'_>],
        window: usize,
    ) -> Result<Vec<Answer>, HarnessError> {
        let mut answers = Vec::with_capacity(queries.len());
        while answers.len() < queries.len() {
            if self.hang_streak >= HANG_STREAK {
                answers.resize_with(queries.len(), || Answer::fault(Fault::NotSent));
                break;
            }
            let start = answers.len();
            let stop = self.pipeline(&queries[start..], window, &mut answers, None)?;
            if answers[start..].iter().any(|a| a.reply.is_ok()) {
                self.hang_streak = 0;
            }
            let Err(stop) = stop else {
                continue;
            };
            if stop.in_flight > 1 || stop.stalled {
                // What the process was sent, the requests in flight last.
                let sent = std::mem::take(&mut self.sent);
                self.isolate(queries, &sent, stop, &mut answers)?;
                continue;
            }
            self.confirm_alive(&stop.fault, stop.stderr_tail.as_ref())?;
            let timed_out = stop.fault.kind() == FaultKind::TimedOut;
            answers.push(stop.into_answer());
            if timed_out {
                // A fresh process hung on its one request: the next
                // requests go alone too, many at a time, while they fail,
                // so that a run of hangs is waited out many at a time
                // rather than one request at a time.
                self.hang_streak += 1;
                let at = answers.len();
                self.in_parallel(&queries[at..], None, 0, &mut answers)?;
            }
        }
        Ok(answers)
    }

    /// Attributes the fault `stop` of a stretch with several requests in
    /// flight, the first `queries[answers.len()]`, in a process that was
    /// sent the request lines `sent` (see the module docs), appending an
    /// answer for each request it settles.
    fn isolate(
        &mut self,
        queries: &[Query<'_>],
        sent: &[u8],
        stop: EarlyEnd,
        answers: &mut Vec<Answer>,
    ) -> Result<(), HarnessError> {
        let at = answers.len();
        let suspects = at..at + stop.in_flight;
        let mut replayed = None;
        let caught = if self.hung {
            self.in_parallel(&queries[at..], Some(&stop), stop.in_flight, answers)?
        } else {
            match self.lockstep(sent, stop.in_flight)? {
                Some(replay) if replay.failed_at(at).is_some_and(|i| suspects.contains(&i)) => {
                    replay.settle(stop, answers);
                    return Ok(());
                }
                replay => replayed = Some(replay),
            }
            let caught = self.one_by_one(&queries[suspects.clone()], &stop, answers)?;
            if caught && self.hung {
                // The one that failed alone hung.
                let next = answers.len();
                self.in_parallel(&queries[next..], None, 0, answers)?;
            }
            caught
        };
        // A stall is no fault: the requests in flight were answered alone.
        if !caught && !stop.stalled && answers.len() > at {
            // Nothing failed on its own: the fault needs pipelining if the
            // requests are all answered one at a time.
            let replay = match replayed {
                Some(replay) => replay,
                None => self.lockstep(sent, stop.in_flight)?,
            };
            match replay {
                // Not known to fail one at a time (or not replayed: the
                // requests in flight are not all in the log).
                Some(Lockstep { failed: None, .. }) | None => {
                    let fault = Fault::OnlyWhenPipelined {
                        in_flight: stop.in_flight,
                        fault: Box::new(stop.fault),
                    };
                    answers[at] = Answer::failed(fault, stop.stderr_tail, Some(stop.elapsed));
                }
                Some(replay) if replay.failed_at(at).is_some_and(|i| i < answers.len()) => {
                    // Its answer alone gives way to its fault after the others.
                    answers.truncate(at);
                    replay.settle(stop, answers);
                }
                Some(_) => {
                    // One before them failed then: not theirs, nor pipelining's.
                    answers.truncate(at);
                    answers.push(stop.into_answer());
                }
            }
        }
        Ok(())
    }

    /// Sends the request lines `sent`, the last `in_flight` of them in
    /// flight at a fault, to a fresh process one at a time, each once the
    /// one before is answered, until it fails one. A line that does not
    /// read back as a request (none should) starts the replay afresh after
    /// it; `None`, nothing sent, when the lines no longer hold every request
    /// in flight (a window wider than the log,
    /// [`SENT_LOG_BYTES`](super::lifecycle::SENT_LOG_BYTES)).
    fn lockstep(
        &mut self,
        sent: &[u8],
        in_flight: usize,
    ) -> Result<Option<Lockstep>, HarnessError> {
        let mut requests = Vec::new();
        for line in sent.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            match protocol::parse_request(line) {
                Ok(request) => requests.push(request),
                Err(_) => requests.clear(),
            }
        }
        let queries: Vec<Query<'_>> = requests
            .iter()
            .map(|(id, request)| Query { id, request })
            .collect();
        let Some(before) = queries.len().checked_sub(in_flight) else {
            return Ok(None);
        };
        self.time_left(&queries)?;
        self.close();
        let mut answers = Vec::with_capacity(queries.len());
        let stop = self.pipeline(&queries, 1, &mut answers, None)?;
        // What it would write after its last answer is no request's.
        if let Some(mut child) = self.child.take() {
            child.kill();
        }
        let failed = match stop {
            Err(early) => Some((!early.stalled).then(|| early.into_answer())),
            // A request answered twice, which carries the fault.
            Ok(()) if answers.len() < queries.len() => answers.pop().map(Some),
            Ok(()) => None,
        };
        Ok(Some(Lockstep {
            answers,
            failed,
            before,
        }))
    }

    /// Sends each of `in_flight` (the requests in flight when `stop` ended
    /// their stretch) alone to a fresh process, one after another, until
    /// one fails; whether one did.
    fn one_by_one(
        &mut self,
        in_flight: &[Query<'_>],
        stop: &EarlyEnd,
        answers: &mut Vec<Answer>,
    ) -> Result<bool, HarnessError> {
        for (i, query) in in_flight.iter().enumerate() {
            if self.hang_streak >= HANG_STREAK {
                break;
            }
            let answer = self.answer_alone(query)?;
            if self.settle(answer, (i == 0).then_some(stop), answers)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Sends `suspects` in order, each alone to a fresh process, up to
    /// [`PARALLEL_ISOLATION`] alive at once, appending their answers in
    /// order; whether one failed. `first`: the fault the first showed up on
    /// (none: a request before them has just failed alone). Until one
    /// fails, only the first `in_flight` are sent. None more are started
    /// once the last [`PARALLEL_ISOLATION`] passed after a doubt, or the
    /// hang streak is long enough.
    fn in_parallel(
        &mut self,
        suspects: &[Query<'_>],
        first: Option<&EarlyEnd>,
        in_flight: usize,
        answers: &mut Vec<Answer>,
    ) -> Result<bool, HarnessError> {
        self.close();
        // They compete for the machine's cores while they start: each gets
        // the start-up time of all of them, spread over the cores, on top
        // of its own allowance.
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let crowd = self.config.startup_seen.get().copied().unwrap_or_default()
            * u32::try_from(PARALLEL_ISOLATION.div_ceil(cores)).unwrap_or(u32::MAX);
        let mut caught = first.is_none();
        let mut live = Live(Vec::with_capacity(PARALLEL_ISOLATION));
        // Per suspect started: whether it failed, once it is done, and when
        // it was sent; the longest a suspect took to be done, bar timeouts.
        let mut failed: Vec<(Option<bool>, Instant)> = Vec::new();
        let mut slowest: Option<Duration> = None;
        let mut unsettled: Vec<Option<Answer>> = Vec::new();
        let mut settled = 0;
        // When the last wait counted in `timeout_waits` ended.
        let mut waited_until: Option<Instant> = None;
        while self.hang_streak < HANG_STREAK {
            let limit = if caught { suspects.len() } else { in_flight };
            while live.0.len() < PARALLEL_ISOLATION
                && failed.len() < limit
                && !passed_since_doubt(&failed, slowest, caught)
            {
                let alone = self.start_alone(&suspects[failed.len()], failed.len(), crowd)?;
                failed.push((None, alone.sent_at));
                live.0.push(alone);
                unsettled.push(None);
            }
            let (now, seen) = (Instant::now(), slowest.unwrap_or_default());
            let Some(i) = live
                .0
                .iter_mut()
                .position(|alone| self.is_done(alone, now, seen))
            else {
                if live.0.is_empty() {
                    break;
                }
                std::thread::sleep(POLL);
                continue;
            };
            let alone = live.0.swap_remove(i);
            let (index, sent_at) = (alone.index, alone.sent_at);
            self.child = Some(alone.child);
            let allowance = crowd.max(seen);
            let answer = self.receive_alone(&suspects[index], Some((sent_at, allowance)))?;
            let answer = self.end_alone(answer);
            if is_timeout(&answer) && waited_until.is_none_or(|end| sent_at >= end) {
                // A wait that overlapped no wait counted before it.
                self.stats.timeout_waits += 1;
                waited_until = Some(Instant::now());
            }
            failed[index].0 = Some(answer.reply.is_err());
            if !is_timeout(&answer) {
                slowest = slowest.max(Some(sent_at.elapsed()));
            }
            unsettled[index] = Some(answer);
            // Settled in order, as the answers of the call.
            while let Some(answer) = unsettled.get_mut(settled).and_then(Option::take) {
                caught |= self.settle(answer, first.filter(|_| settled == 0), answers)?;
                settled += 1;
                if self.hang_streak >= HANG_STREAK {
                    break;
                }
            }
        }
        // Past the hang streak, what is still running is not waited for
        // (`Live` kills it), and the rest is not sent.
        Ok(caught)
    }

    /// Whether suspect `alone` has answered or is out of time at `now`. It
    /// gets at least the timeout plus the time the slowest suspect done
    /// took (`seen`), as a crowd on a loaded machine may start slower than
    /// alone; never past the run's deadline.
    fn is_done(&self, alone: &mut Alone<T>, now: Instant, seen: Duration) -> bool {
        let (due, _) = wait_from(
            alone.sent_at,
            self.config.deadline,
            self.config.timeout + seen,
        );
        now >= alone.due.max(due) || alone.child.ready()
    }

    /// Starts a fresh process for `query`, the suspect at `index`, and sends
    /// it the query; `crowd`: extra start-up time for starting beside others.
    fn start_alone(
        &mut self,
        query: &Query<'_>,
        index: usize,
        crowd: Duration,
    ) -> Result<Alone<T>, HarnessError> {
        self.time_left(std::slice::from_ref(query))?;
        self.stats.starts += 1;
        let mut child = (self.connect)(&self.config.command, &self.config.env)?;
        let mut line = Vec::with_capacity(48);
        protocol::write_request(&mut line, query.id, query.request);
        child.send(line);
        let sent_at = Instant::now();
        let (due, _) = wait_from(sent_at, self.config.deadline, self.first_timeout() + crowd);
        Ok(Alone {
            index,
            child,
            sent_at,
            due,
        })
    }

    /// Appends the answer of a request sent alone (`first`: the fault it
    /// showed up on) and counts the hang streak; whether it failed.
    fn settle(
        &mut self,
        mut answer: Answer,
        first: Option<&EarlyEnd>,
        answers: &mut Vec<Answer>,
    ) -> Result<bool, HarnessError> {
        self.hang_streak = if is_timeout(&answer) {
            self.hang_streak + 1
        } else {
            0
        };
        let Err(fault) = &answer.reply else {
            answers.push(answer);
            return Ok(false);
        };
        self.confirm_alive(fault, answer.stderr_tail.as_ref())?;
        // The request the first fault showed up on failed alone too, but
        // only by going quiet (an adapter that answers out of order waits
        // for a next request that never comes): what it did first, a wrong
        // id or a crash, is the better evidence, and is what gets reported.
        let stop = first.filter(|stop| {
            fault.kind() == FaultKind::TimedOut && stop.fault.kind() != FaultKind::TimedOut
        });
        if let Some(stop) = stop {
            answer = stop.clone().into_answer();
        }
        answers.push(answer);
        Ok(true)
    }

    /// Sends one query to a fresh process of its own and ends that process
    /// afterwards, in the configured mode.
    pub(super) fn answer_alone(&mut self, query: &Query<'_>) -> Result<Answer, HarnessError> {
        self.time_left(std::slice::from_ref(query))?;
        self.close();
        let answer = match self.config.mode {
            Mode::Persistent { .. } => self.receive_alone(query, None)?,
            Mode::OneShot => self.one_shot(query)?,
        };
        Ok(self.end_alone(answer))
    }

    /// The answer to `query` in persistent mode from a fresh process, or
    /// with `sent_at`, from the current one, sent it then in a crowd that
    /// needs that much more time to start.
    fn receive_alone(
        &mut self,
        query: &Query<'_>,
        sent_at: Option<(Instant, Duration)>,
    ) -> Result<Answer, HarnessError> {
        let mut answers = Vec::with_capacity(1);
        let stop = self.pipeline(std::slice::from_ref(query), 1, &mut answers, sent_at)?;
        Ok(stop.map_or_else(EarlyEnd::into_answer, |()| answers.remove(0)))
    }

    /// Ends the process that answered a query alone, and turns output it
    /// wrote after its answer into the query's fault.
    pub(super) fn end_alone(&mut self, answer: Answer) -> Answer {
        self.close();
        match self.unsolicited.take() {
            Some(line) if answer.reply.is_ok() => Answer::failed(
                Fault::Unsolicited { line },
                answer.stderr_tail,
                answer.elapsed,
            ),
            _ => answer,
        }
    }
}

fn is_timeout(answer: &Answer) -> bool {
    answer
        .reply
        .as_ref()
        .is_err_and(|f| f.kind() == FaultKind::TimedOut)
}

/// Whether the suspects started (`failed`: per suspect, in start order,
/// whether it failed once done, and when it was sent) end in
/// [`PARALLEL_ISOLATION`] passes after the last doubt: the run of faults is
/// over. A doubt is a suspect that failed, or one still out after twice
/// `slowest` (the slowest done, timeouts aside: likely a hang); with none,
/// the fault being isolated, when `caught`. Suspects out for less count
/// neither way.
fn passed_since_doubt(
    failed: &[(Option<bool>, Instant)],
    slowest: Option<Duration>,
    caught: bool,
) -> bool {
    let now = Instant::now();
    let mut passed = 0;
    for &(done, sent_at) in failed.iter().rev() {
        match done {
            Some(false) => passed += 1,
            Some(true) => return passed >= PARALLEL_ISOLATION,
            None => match slowest {
                Some(slowest) if now.duration_since(sent_at) > slowest * 2 => {
                    return passed >= PARALLEL_ISOLATION;
                }
                _ => {}
            },
        }
    }
    caught && passed >= PARALLEL_ISOLATION
}
