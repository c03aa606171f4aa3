//! Findings, and findings as vectors of the corpus.
//!
//! A finding is one [`Signature`] of disagreement with its minimal request
//! (and, for an implementation that keeps state, the requests that must come
//! before it). [`Finding::vectors`] turns it into corpus vectors whose
//! expectations are the reference's ([`wow_guid_harness::classify::oracle`]), so a finding pasted
//! into `vectors/` fails the implementation that produced it and passes a
//! conformant one; [`Finding::yaml`] writes them in the corpus format (with
//! the corpus's own writer, [`wow_guid_vectors::yaml`]), and
//! [`super::append`] adds them to a vector file, checking that the result
//! still loads. Ids are derived from the requests (`found.<kind>.<hash>`), so the
//! same finding gets the same id on every run and is appended once.

use std::time::Duration;

use wow_guid_vectors::{topics::derived_flags, yaml, Expectation, Flag, Location, Request, Vector};

use crate::disagreement::{expected_response, Disagreement};
use wow_guid_harness::classify::oracle::corpus_expectation;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::duration::DisplayDuration;
use wow_guid_harness::implementation::Fault;
use wow_guid_harness::judge::Mismatch;
use wow_guid_harness::protocol::{self, Response};
use wow_guid_harness::report::field;
use wow_guid_testkit::round_trip::{read_back_id, WritesWhatItCannotRead};

/// How a finding was reproduced after it was first seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reproduction {
    /// The request disagrees on its own, in a fresh process.
    Alone,
    /// The request disagrees in a fresh process only after
    /// [`Finding::prefix`]: the implementation keeps state between calls.
    AfterPrefix,
    /// Not tried: the disagreement is not about one request (a fault that
    /// needs pipelining).
    NotTried,
    /// Neither alone nor after the requests sent before it: it depends on
    /// something else (timing, say). Reported as first seen.
    NotReproduced,
    /// The run's time budget ran out before it could be replayed. Reported
    /// as first seen.
    OutOfTime,
}

/// What shrinking did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkStats {
    /// Moves to a smaller request.
    pub steps: usize,
    /// Candidate requests (or sequences) tested.
    pub tests: usize,
    /// False when a limit stopped the search early.
    pub complete: bool,
    /// True when that limit was the run's time budget.
    pub out_of_time: bool,
    /// Time spent.
    pub time: Duration,
}

/// One signature of disagreement, minimised.
#[derive(Clone, Debug)]
pub struct Finding {
    /// What kind of disagreement.
    pub signature: Signature,
    /// Requests to send first, in order, for [`Finding::request`] to
    /// disagree (empty unless the implementation keeps state).
    pub prefix: Vec<Request>,
    /// The minimal request.
    pub request: Request,
    /// How the minimal request disagrees.
    pub disagreement: Disagreement,
    /// The request as first seen.
    pub original: Request,
    /// How it was reproduced.
    pub reproduction: Reproduction,
    /// What shrinking did, when it ran.
    pub shrink: Option<ShrinkStats>,
    /// Requests of the run that disagreed with this signature.
    pub occurrences: u64,
    /// The index of the first of them among the generated requests.
    pub first_index: u64,
    /// Time from the start of the run to the first of them.
    pub found_after: Duration,
    /// The run's seed.
    pub seed: u64,
    /// A corpus vector with exactly the minimal request, when there is one
    /// (the corpus already covers this case).
    pub in_corpus: Option<String>,
    /// Whether the corpus already shows this bug for this implementation.
    pub novelty: Novelty,
}

/// Whether a finding is news to the corpus: whether some corpus vector
/// already fails the same implementation with the same [`Signature`] (the
/// one `run` groups failures by).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Novelty {
    /// Not known: the corpus was not checked (the time budget ran out
    /// first, or the implementation could not answer it).
    Unchecked,
    /// The corpus shows it: this vector, the first in corpus order, fails
    /// the same way.
    Known(String),
    /// No corpus vector fails this way: a case the corpus lacks.
    New,
}

impl Novelty {
    /// Whether the finding is one a corpus maintainer should look at: new,
    /// or not known to be old.
    #[must_use]
    pub fn is_news(&self) -> bool {
        !matches!(self, Novelty::Known(_))
    }
}

/// 64-bit FNV-1a: a hash that is the same on every platform and release,
/// which ids need.
fn fnv1a(data: &[u8], mut hash: u64) -> u64 {
    for &b in data {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The reply in the protocol's words, without the id.
#[must_use]
pub fn reply_text(reply: &Result<Response, Fault>) -> String {
    match reply {
        Ok(response) => {
            let line = protocol::response_line("-", response);
            line.strip_prefix("- ").unwrap_or(&line).to_owned()
        }
        Err(fault) => fault.to_string(),
    }
}

/// `text` for a one-line YAML comment: UTF-8 kept as it is (the text is
/// already a string, with the implementation's raw bytes escaped where it
/// quotes them), control characters escaped so the comment stays one line,
/// cut after `max_chars` characters with `…`.
pub fn comment_text(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (shown, c) in text.chars().enumerate() {
        if shown == max_chars {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// What differed, in one line for a vector's description: the judge's
/// words, and a fault's [summary](Fault::summary) without its advice.
fn what_differed(mismatch: &Mismatch) -> String {
    match mismatch {
        Mismatch::Fault(fault) => fault.summary(),
        other => other.to_string(),
    }
}

impl Finding {
    /// The topic word of this finding's ids, `found-<hash>`, the hash taken
    /// over every request of the sequence.
    fn topic(&self) -> String {
        let mut hash = 0xcbf2_9ce4_8422_2325;
        for r in self.prefix.iter().chain(std::iter::once(&self.request)) {
            hash = fnv1a(protocol::request_line("-", r).as_bytes(), hash);
            hash = fnv1a(b"\n", hash);
        }
        format!("found-{:08x}", hash >> 32)
    }

    /// The finding's id, in the corpus's naming rule
    /// (`<type>.<op>.<topic>`): `packed.decode.found-<hash>`, the kind of
    /// the disagreeing request (of the encode, for a failed round trip). It is the id of the one vector of a finding
    /// without a prefix, and the name of the sequence of one with a prefix,
    /// whose steps are `<their own type>.<op>.found-<hash>.<step>`.
    #[must_use]
    pub fn id(&self) -> String {
        format!("{}.{}", self.request.kind().id_prefix(), self.topic())
    }

    /// The `source` of this finding's vectors: a citation of the notes'
    /// summary of positions (the reference codec's answers follow them), so
    /// the vectors pass the corpus's citation check as they are; a reviewer
    /// may cite the one note the behaviour rests on instead.
    #[must_use]
    pub fn source(&self) -> String {
        format!(
            "NOTES.md#summary-of-positions: found by differential fuzzing, seed {}; expects \
             the reference codec's answer",
            self.seed
        )
    }

    /// The finding as corpus vectors: the prefix steps, then the disagreeing
    /// request, each expecting what the reference says; with a prefix they
    /// are the steps of a sequence named after the finding (flag `stateful`).
    #[must_use]
    pub fn vectors(&self) -> Vec<Vector> {
        let stem = self.id();
        let steps = self.prefix.len() + 1;
        let what = what_differed(&self.disagreement.mismatch);
        let mut vectors = Vec::with_capacity(steps);
        for (i, request) in self
            .prefix
            .iter()
            .chain(std::iter::once(&self.request))
            .enumerate()
        {
            let last = i + 1 == steps;
            let expect = corpus_expectation(request);
            let mut flags = derived_flags(request, &expect);
            let (id, description) = if self.disagreement.read_back.is_some() {
                (
                    stem.clone(),
                    format!(
                        "Found by differential fuzzing: the implementation writes what it cannot \
                         read: it answers this encode as the reference does, but decoding its own \
                         answer it {what}; `run` reads it back as {}.",
                        read_back_id(&stem)
                    ),
                )
            } else if steps == 1 {
                (
                    stem.clone(),
                    format!("Found by differential fuzzing: {what}."),
                )
            } else {
                flags.push(Flag::Stateful);
                flags.sort();
                let description = if last {
                    format!(
                        "Step {steps} of {steps}, found by differential fuzzing: {what}, \
                         after the steps before it (state kept between calls)."
                    )
                } else {
                    format!(
                        "Step {} of {steps}, found by differential fuzzing: sets up the state \
                         under which step {steps} went wrong.",
                        i + 1
                    )
                };
                (
                    format!("{}.{}.{}", request.kind().id_prefix(), self.topic(), i + 1),
                    description,
                )
            };
            vectors.push(Vector {
                id,
                sequence: (steps > 1).then(|| stem.clone()),
                description,
                request: request.clone(),
                expect,
                flags: flags.into(),
                versions: request.guid_type().versions().into(),
                source: Some(self.source().into()),
                location: Location::whole_file("found.yaml"),
            });
        }
        vectors
    }

    /// `#` lines saying what was found, for a person reading the YAML.
    #[must_use]
    pub fn comment(&self, indent: &str) -> String {
        let mut lines = vec![format!(
            "{}: first seen at request {} of seed {}, after {}",
            self.signature,
            self.first_index,
            self.seed,
            DisplayDuration(self.found_after)
        )];
        for (i, r) in self.prefix.iter().enumerate() {
            lines.push(format!("step {}:  {}", i + 1, request_words(r)));
        }
        lines.push(format!("request:  {}", request_words(&self.request)));
        match &self.disagreement.read_back {
            Some(round) => lines.extend(round_trip_lines(round)),
            None => lines.extend(self.answer_lines()),
        }
        lines.extend(self.shrink_line());
        if self.reproduction == Reproduction::AfterPrefix {
            lines.push("keeps state between calls: run the steps in order, in one process".into());
        }
        if let Some(id) = &self.in_corpus {
            lines.push(format!("the corpus already has this request as {id}"));
        }
        lines.push(match &self.novelty {
            Novelty::Known(id) => {
                format!("known: the corpus shows it, {id} fails this implementation the same way")
            }
            Novelty::New => "new: no corpus vector fails this implementation this way".into(),
            Novelty::Unchecked => "not checked against the corpus's failures".into(),
        });
        lines
            .iter()
            .map(|line| format!("{indent}# {line}\n"))
            .collect()
    }

    /// The answer and what the reference expects, long responses cut
    /// around where the two part, as in `run`.
    fn answer_lines(&self) -> [String; 2] {
        let answer = reply_text(&self.disagreement.reply);
        let expect = corpus_expectation(&self.request);
        let mut expected = reply_text(&Ok(expected_response(&expect)));
        if matches!(expect, Expectation::Acceptable { .. }) {
            expected.push_str(" or any error");
        }
        // A fault's words are already bounded, and are no response to compare.
        let response = self.disagreement.reply.is_ok().then_some(answer.as_str());
        let answer_line = match response {
            Some(text) => comment_text(&field::shown(text, Some(("expected", &expected))), 400),
            None => comment_text(&answer, 200),
        };
        let expected = field::shown(&expected, response.map(|r| ("answer", r)));
        [
            format!("answer:   {answer_line}"),
            format!("expected: {}", comment_text(&expected, 400)),
        ]
    }

    /// What shrinking did, or why it did not, if there is anything to say.
    fn shrink_line(&self) -> Option<String> {
        match (&self.reproduction, &self.shrink) {
            (Reproduction::NotReproduced, _) => Some(
                "did not reproduce in a fresh process, alone or after the requests before it: \
                 not shrunk"
                    .into(),
            ),
            (Reproduction::NotTried, _) => Some("not about one request: not shrunk".into()),
            (Reproduction::OutOfTime, _) => Some(
                "the time budget ran out before it could be replayed: not shrunk (a longer --time \
                 shrinks it)"
                    .into(),
            ),
            (_, Some(s)) if self.original != self.request => Some(format!(
                "shrunk from {} in {} steps ({} tests, {}){}",
                request_words(&self.original),
                s.steps,
                s.tests,
                DisplayDuration(s.time),
                if s.complete {
                    ""
                } else if s.out_of_time {
                    "; cut short by the time budget, so maybe not minimal"
                } else {
                    "; stopped by the shrink limit"
                }
            )),
            (_, Some(s)) if s.out_of_time => {
                Some("the time budget ran out before it could be shrunk".into())
            }
            (_, _) => None,
        }
    }

    /// The vectors as YAML list items at `indent` (the indentation of the
    /// `-`), preceded by [`Finding::comment`].
    #[must_use]
    pub fn yaml(&self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let mut out = self.comment(&pad);
        for (i, v) in self.vectors().iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            yaml::write_vector(&mut out, v, indent);
        }
        out
    }
}

/// A failed round trip's lines: what the encode was answered (which the
/// reference agrees with), the decode of that answer, what it was answered,
/// and the value encoded it should have given back.
fn round_trip_lines(round: &WritesWhatItCannotRead) -> [String; 4] {
    let wrote = reply_text(&Ok(Response::Ok(wow_guid_vectors::Value::Encoded {
        bytes: round.wrote.clone(),
    })));
    let read = reply_text(&Ok(round.read.clone()));
    let expected = reply_text(&Ok(expected_response(&corpus_expectation(&round.decode))));
    [
        format!(
            "answer:   {}",
            comment_text(&field::shown(&wrote, None), 400)
        ),
        format!("read back: {}", request_words(&round.decode)),
        format!(
            "answered: {}",
            comment_text(&field::shown(&read, None), 400)
        ),
        format!(
            "expected: {} (the value encoded: it writes what it cannot read)",
            comment_text(&field::shown(&expected, None), 400)
        ),
    ]
}

/// The request in protocol words without an id, shortened when long.
fn request_words(request: &Request) -> String {
    let text = protocol::request_line("-", request);
    field::shown(text.strip_prefix("- ").unwrap_or(&text), None)
}
