//! Finding the request that caused a fault in persistent mode: the
//! requests that were in flight are sent again, each alone to a fresh
//! process, one at a time or, once a process of the command has hung, a
//! group at a time (see the process module's docs).

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use super::config::Mode;
use super::lifecycle::ProcessImplementation;
use super::pipeline::EarlyEnd;
use super::transport::Transport;
use crate::implementation::{Answer, Fault, FaultKind, HarnessError, Query};
use crate::protocol;

/// Fresh processes started at once to isolate the suspects of a fault, once
/// a process of the command has hung (see the module docs): enough that a
/// run of hangs is waited out a few groups at a time, few enough for the
/// memory and open files of as many virtual machines. Each gets the
/// start-up time of the whole group, spread over the machine's cores, on
/// top of its own allowance, since they compete for the cores while they
/// start.
pub const PARALLEL_ISOLATION: usize = 16;

/// Requests in a row that time out, each alone in a fresh process with
/// nothing answered in between, after which the rest of a call is not sent
/// ([`Fault::NotSent`]): an implementation that hangs on every request
/// would otherwise take a timeout per [`PARALLEL_ISOLATION`] requests, a
/// quarter of an hour for the corpus at the default timeout. Four groups:
/// more hangs in a row than any planted bug of the corpus gives.
const HANG_STREAK: usize = 4 * PARALLEL_ISOLATION;

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
            if stop.in_flight > 1 {
                self.isolate(queries, stop, &mut answers)?;
                continue;
            }
            self.confirm_alive(&stop.fault, stop.stderr_tail.as_ref())?;
            let timed_out = stop.fault.kind() == FaultKind::TimedOut;
            answers.push(Answer {
                reply: Err(stop.fault),
                raw: None,
                stderr_tail: stop.stderr_tail,
                elapsed: Some(stop.elapsed),
            });
            if timed_out {
                // A fresh process hung on its one request: the next
                // requests go alone too, a group at a time, while each
                // group has a fault, so that a run of hangs is waited out
                // a group at a time rather than one request at a time.
                self.hang_streak += 1;
                self.groups_while_faulty(queries, &mut answers)?;
            }
        }
        Ok(answers)
    }

    /// Sends the requests after `answers`, each alone in a fresh process,
    /// [`PARALLEL_ISOLATION`] at a time, while each group has a fault and
    /// the hang streak is short of [`HANG_STREAK`].
    fn groups_while_faulty(
        &mut self,
        queries: &[Query<'_>],
        answers: &mut Vec<Answer>,
    ) -> Result<(), HarnessError> {
        while answers.len() < queries.len() && self.hang_streak < HANG_STREAK {
            let at = answers.len();
            let group = &queries[at..queries.len().min(at + PARALLEL_ISOLATION)];
            let group_answers = match group {
                [query] => vec![self.answer_alone(query)?],
                _ => self.answer_group_alone(group)?,
            };
            if !self.settle(group_answers, None, answers)? {
                break;
            }
        }
        Ok(())
    }

    /// Attributes the fault `stop` of a stretch that had several requests
    /// in flight, the first of them `queries[answers.len()]`: the request it
    /// showed up on need not be the one that caused it (see the module
    /// docs). Appends an answer for each request it settles.
    fn isolate(
        &mut self,
        queries: &[Query<'_>],
        stop: EarlyEnd,
        answers: &mut Vec<Answer>,
    ) -> Result<(), HarnessError> {
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
        loop {
            let end = if caught {
                suspects.len()
            } else {
                stop.in_flight
            };
            if next >= end || self.hang_streak >= HANG_STREAK {
                break;
            }
            let size = if self.hung { PARALLEL_ISOLATION } else { 1 };
            let group = &suspects[next..end.min(next + size)];
            let group_answers = match group {
                [query] => vec![self.answer_alone(query)?],
                _ => self.answer_group_alone(group)?,
            };
            let first = (next == 0).then_some(&stop);
            let faulted = self.settle(group_answers, first, answers)?;
            next += group.len();
            // Before any hang, the first fault ends the search; after
            // one, the first group without a fault does.
            let done = (faulted && !self.hung) || (caught && !faulted);
            caught |= faulted;
            if done {
                break;
            }
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
        Ok(())
    }

    /// Appends the answers of a group of requests sent alone (`first`: the
    /// group starts with the request the fault `first` showed up on), and
    /// whether one of them failed; counts the hang streak.
    fn settle(
        &mut self,
        group_answers: Vec<Answer>,
        first: Option<&EarlyEnd>,
        answers: &mut Vec<Answer>,
    ) -> Result<bool, HarnessError> {
        let mut faulted = false;
        for (i, mut answer) in group_answers.into_iter().enumerate() {
            let timed_out = answer
                .reply
                .as_ref()
                .is_err_and(|f| f.kind() == FaultKind::TimedOut);
            self.hang_streak = if timed_out { self.hang_streak + 1 } else { 0 };
            if let Err(fault) = &answer.reply {
                self.confirm_alive(fault, answer.stderr_tail.as_ref())?;
                faulted = true;
                // The request the first fault showed up on failed alone
                // too, but only by going quiet (an adapter that answers out
                // of order waits for a next request that never comes): what
                // it did first, a wrong id or a crash, is the better
                // evidence, and is what gets reported.
                let stop = first.filter(|stop| {
                    i == 0
                        && fault.kind() == FaultKind::TimedOut
                        && stop.fault.kind() != FaultKind::TimedOut
                });
                if let Some(stop) = stop {
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
        Ok(faulted)
    }

    /// Sends one query to a fresh process of its own and ends that process
    /// afterwards, in the configured mode.
    pub(super) fn answer_alone(&mut self, query: &Query<'_>) -> Result<Answer, HarnessError> {
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
}
