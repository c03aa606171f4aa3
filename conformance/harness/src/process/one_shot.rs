//! One-shot mode: a fresh process for each request, which gets one line
//! and then end of input, or, for the steps of a stateful sequence, all
//! their lines and then end of input.

use std::time::Instant;

use super::lifecycle::{wait_from, ProcessImplementation};
use super::pipeline::{accept, stray_or_malformed};
use super::transport::{Ended, Transport};
use crate::implementation::{Answer, Fault, HarnessError, Query};
use crate::protocol;

impl<T: Transport> ProcessImplementation<T> {
    /// Answers `query` with a fresh process that gets one line, then end of
    /// input, and must exit.
    pub(super) fn one_shot(&mut self, q: &Query<'_>) -> Result<Answer, HarnessError> {
        let waited = self.first_timeout();
        let (deadline, cut) = wait_from(Instant::now(), self.config.deadline, waited);
        let record_raw = self.config.record_raw;
        let mut line = Vec::new();
        protocol::write_request(&mut line, q.id, q.request);
        // One-shot times count the process's start: each request pays it.
        let began = Instant::now();
        let child = self.running()?;
        child.send(line);
        child.close_input();
        let read = child.next_line(deadline);
        let elapsed = began.elapsed();
        let ended = match read.map(|range| accept(child, range, q, record_raw, elapsed)) {
            Ok(Ok((answer, first))) => {
                if let Some(startup) = first {
                    self.answered(startup);
                }
                return Ok(self.end_alone(answer));
            }
            Ok(Err((line, error))) => {
                let queries = std::slice::from_ref(q);
                let fault = stray_or_malformed(child, queries, 0, line, error, deadline);
                return Ok(Answer::failed(fault, self.reject(), Some(elapsed)));
            }
            Err(ended) => ended,
        };
        if cut && matches!(ended, Ended::Timeout) {
            return Err(self.out_of_time(1));
        }
        let (fault, stderr_tail) = self.fail(ended, waited);
        Ok(Answer::failed(fault, stderr_tail, Some(elapsed)))
    }

    pub(super) fn answer_one_shot(
        &mut self,
        queries: &[Query<'_>],
    ) -> Result<Vec<Answer>, HarnessError> {
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

    /// One-shot mode: each range of `sequences` to
    /// [`ProcessImplementation::one_shot_steps`], every other query alone.
    pub(super) fn answer_one_shot_sequences(
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
    /// and exit, so the steps share one state. A fault fails the step it
    /// showed up on; the steps after it go on in a fresh process.
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
                let (deadline, cut) = wait_from(Instant::now(), budget_end, waited);
                let range = match child.next_line(deadline) {
                    Ok(range) => range,
                    Err(ended) => break Some((Err(ended), waited, cut)),
                };
                match accept(child, range, q, record_raw, since.elapsed()) {
                    Ok((answer, first)) => {
                        first_answer = first_answer.or(first);
                        answers.push(answer);
                        since = Instant::now();
                        got += 1;
                    }
                    Err((line, error)) => {
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
            answers.push(Answer::failed(fault, stderr_tail, Some(since.elapsed())));
        }
        Ok(answers)
    }
}
