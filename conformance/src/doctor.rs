//! `doctor`: checks how an adapter handles the protocol, and says in plain
//! words what is wrong.
//!
//! `run` says *whether* an implementation conforms; when an adapter cannot
//! even hold a conversation, its failures all look alike (timeouts, wrong
//! ids). `doctor` asks a few small questions in an order where each builds on
//! the last: does it answer one request at all, and only at end of input (no
//! flush)? Does it echo ids? Does it cope with requests in flight? How does
//! it end lines and spell hex? Which kinds does it support? Does it exit at
//! end of input without writing anything more, and work in one-shot mode? It
//! runs the adapter through [`ProcessImplementation`] like `run` does, and
//! prints nothing itself; the CLI shows the [`Diagnosis`] of each check. Each
//! check is a function of its own, in the order [`examine`] runs them.

use std::ffi::OsString;
use std::fmt;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use wow_guid_vectors::{Corpus, Request, RequestKind};

use wow_guid_harness::duration::DisplayDuration;
use wow_guid_harness::implementation::{Answer, Fault, HarnessError, Implementation, Query};
use wow_guid_harness::process::{Mode, ProcessConfig, ProcessImplementation};
use wow_guid_harness::protocol::{self, Response};
use wow_guid_harness::reference;

/// How serious a diagnosis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// A check passed.
    Ok,
    /// Worth knowing, not a problem.
    Info,
    /// Allowed by the protocol, but likely not what was meant.
    Warn,
    /// Breaks the protocol: `run` will not give a clean verdict.
    Fail,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad` so that callers can align diagnoses with a width.
        f.pad(match self {
            Self::Ok => "ok",
            Self::Info => "info",
            Self::Warn => "WARN",
            Self::Fail => "FAIL",
        })
    }
}

/// One observation about the adapter: what one check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    /// Short name of the check.
    pub check: &'static str,
    /// How serious.
    pub level: Level,
    /// What was seen and what to do about it.
    pub message: String,
}

/// How to run the adapter under examination.
#[derive(Clone, Debug)]
pub struct DoctorConfig {
    /// Program and arguments.
    pub command: Vec<OsString>,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Allowance for a fresh process's first response.
    pub startup_timeout: Duration,
}

/// The requests doctor sends: every kind of decode and encode (not the
/// optional `size`), valid and invalid input, and ids
/// that exercise echoing (case, punctuation, length).
fn samples() -> Vec<(String, Request)> {
    let kinds = [
        Request::EncodePacked {
            guid: 0x0000_0000_ad00_de00,
        },
        Request::DecodePacked {
            bytes: vec![0x0a, 0xde, 0xad],
        },
        Request::DecodePacked {
            bytes: vec![0x03, 0x01],
        },
        Request::DecodeNamed {
            bytes: vec![0x2a, 0, 0, 0, 0, 0, 0, 0, b'B', b'o', b'b', 0],
        },
        Request::DecodeNamed { bytes: vec![0; 8] },
        Request::EncodeNamed {
            guid: 42,
            name: Some(b"Bob".to_vec()),
        },
        Request::EncodeNamed {
            guid: 0,
            name: Some(b"x".to_vec()),
        },
        Request::DecodePacked {
            bytes: vec![0xff, 1, 2, 3, 4, 5, 6, 7, 0x80],
        },
    ];
    let ids = [
        "doctor.1".to_owned(),
        "Doctor.Mixed_Case-2".to_owned(),
        "d".to_owned(),
        format!("doctor.long.{}", "x".repeat(100)),
    ];
    let mut out = Vec::new();
    for round in 0..4 {
        for (k, request) in kinds.iter().enumerate() {
            let id = format!("{}.{round}{k}", ids[(round + k) % ids.len()]);
            out.push((id, request.clone()));
        }
    }
    out
}

/// A request doctor sent, as its line (doctor's ids are its own, made to
/// test echoing, and `repro` does not know them), and the corpus vector
/// that asks the same, which `repro` takes, when there is one.
fn sent(q: &Query<'_>) -> String {
    let line = protocol::request_line(q.id, q.request);
    let twin = Corpus::embedded().ok().and_then(|corpus| {
        corpus
            .vectors
            .iter()
            .find(|v| v.request == *q.request)
            .map(|v| v.id.clone())
    });
    match twin {
        Some(id) => {
            format!("`{line}` (the corpus's `{id}` asks the same; `repro {id}` replays it)")
        }
        None => format!("`{line}` (doctor's own request; no corpus vector asks the same)"),
    }
}

fn with_stderr(message: String, answer: &Answer) -> String {
    match &answer.stderr_tail {
        Some(tail) => format!("{message}\n    its stderr ended with:\n{}", indent(tail)),
        None => message,
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("      | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Explains a fault on the very first request in words for an adapter author.
fn first_contact(fault: &Fault, timeout: Duration) -> String {
    match fault {
        Fault::Malformed { error, .. } if error.is_wrong_id() => {
            format!(
                "{fault}. Each response must start with the id of the request it answers, exactly as \
                 received (ids are case-sensitive and may contain `.`, `_`, `-`)"
            )
        }
        Fault::Timeout { .. } => format!(
            "no response within {} and no sign of one at end of input either: is it reading stdin \
             and writing stdout? ({fault})",
            DisplayDuration(timeout)
        ),
        _ => fault.to_string(),
    }
}

fn start(config: &DoctorConfig, mode: Mode, startup_timeout: Duration) -> ProcessImplementation {
    let mut process = ProcessConfig::new(config.command.clone());
    process.timeout = config.timeout;
    process.startup_timeout = startup_timeout;
    process.mode = mode;
    process.record_raw = true;
    // The doctor makes its own diagnosis of an adapter that answers nothing.
    process.check_liveness = false;
    ProcessImplementation::new(process)
}

/// The one-shot exchange every check builds on: one line, then end of
/// input. It also measures how long the adapter takes to start, so that the
/// persistent checks need not wait a whole start-up allowance for an
/// adapter that never flushes.
struct Shot {
    answer: Answer,
    took: Duration,
    lingered: bool,
}

/// The answers to every sample sent at once, and what came after them.
struct Pipelined {
    answers: Vec<Answer>,
    unsolicited: Option<Fault>,
    lingered: bool,
}

/// Runs every check against the adapter, in order, each building on the
/// last. Stops early when the adapter cannot answer a single request, since
/// nothing after that would say more.
///
/// # Errors
/// [`HarnessError`] when the command cannot be started at all.
pub fn examine(config: &DoctorConfig) -> Result<Vec<Diagnosis>, HarnessError> {
    let mut notes = Vec::new();
    let samples = samples();
    let queries: Vec<Query<'_>> = samples
        .iter()
        .map(|(id, request)| Query { id, request })
        .collect();
    // The first sample alone, then end of input.
    let mut once = start(config, Mode::OneShot, config.startup_timeout);
    let began = Instant::now();
    let answer = once.answer_all(&queries[..1])?.remove(0);
    let shot = Shot {
        answer,
        took: began.elapsed(),
        lingered: once.stats().lingered > 0,
    };
    drop(once);
    let Some(allowance) = answers(config, &queries, &shot, &mut notes)? else {
        return Ok(notes);
    };
    let piped = pipelining(config, &queries, allowance, &mut notes)?;
    exit_at_end_of_input(&piped, &mut notes);
    nothing_unasked(&piped, &mut notes);
    spelling(&piped.answers, &mut notes);
    support(&queries, &piped.answers, &mut notes);
    stderr(&piped.answers, &mut notes);
    one_shot_mode(&shot, &mut notes);
    Ok(notes)
}

fn note(notes: &mut Vec<Diagnosis>, check: &'static str, level: Level, message: impl Into<String>) {
    let message = message.into();
    notes.push(Diagnosis {
        check,
        level,
        message,
    });
}

/// `answers`: one request, then wait with the input left open (the
/// persistent conversation). Returns the time allowed for a fresh
/// process's first answer from here on, or `None` when it never answered,
/// after which no other check can say more.
fn answers(
    config: &DoctorConfig,
    queries: &[Query<'_>],
    shot: &Shot,
    notes: &mut Vec<Diagnosis>,
) -> Result<Option<Duration>, HarnessError> {
    let allowance = if shot.answer.reply.is_ok() {
        (config.timeout + shot.took * 2).min(config.startup_timeout)
    } else {
        config.startup_timeout
    };
    let one = NonZeroUsize::MIN;
    let mut single = start(config, Mode::Persistent { window: one }, allowance);
    let first = single.answer_all(&queries[..1])?.remove(0);
    single.close();
    match (&first.reply, &shot.answer.reply) {
        (Ok(_), _) => {
            let message = "answers a request while its input stays open (persistent mode)";
            note(notes, "answers", Level::Ok, message);
            Ok(Some(allowance))
        }
        (Err(Fault::Timeout { .. }), Ok(_)) => {
            let message = format!(
                "no response within {} while its input stayed open, but it answered once its input \
                 ended: it does not flush stdout after answering. Flush after each response, or at \
                 least whenever it has answered every request it has read (PROTOCOL.md, \
                 \"Flushing\"). Until then only --one-shot works",
                DisplayDuration(allowance)
            );
            note(notes, "answers", Level::Fail, with_stderr(message, &first));
            Ok(None)
        }
        (Err(fault), _) => {
            let message = with_stderr(first_contact(fault, allowance), &first);
            note(notes, "answers", Level::Fail, message);
            Ok(None)
        }
    }
}

/// `pipelining`: every sample at once, checking ids, order and requests in
/// flight.
fn pipelining(
    config: &DoctorConfig,
    queries: &[Query<'_>],
    allowance: Duration,
    notes: &mut Vec<Diagnosis>,
) -> Result<Pipelined, HarnessError> {
    let window = NonZeroUsize::new(queries.len()).unwrap_or(NonZeroUsize::MIN);
    let mut piped = start(config, Mode::Persistent { window }, allowance);
    let answers = piped.answer_all(queries)?;
    let unsolicited = piped.finish();
    let faults: Vec<(&Query<'_>, &Answer, &Fault)> = queries
        .iter()
        .zip(&answers)
        .filter_map(|(q, a)| a.reply.as_ref().err().map(|f| (q, a, f)))
        .collect();
    if let Some((q, a, fault)) = faults.first() {
        let message = format!(
            "{} of {} requests sent together failed; the first, {}: {fault}",
            faults.len(),
            queries.len(),
            sent(q),
        );
        note(notes, "pipelining", Level::Fail, with_stderr(message, a));
    } else {
        note(
            notes,
            "pipelining",
            Level::Ok,
            format!(
                "answered {} requests sent without waiting, in order, echoing every id",
                queries.len()
            ),
        );
    }
    Ok(Pipelined {
        answers,
        unsolicited,
        lingered: piped.stats().lingered > 0,
    })
}

/// `exit at end of input`: whether the pipelined process exited once its
/// input ended.
fn exit_at_end_of_input(piped: &Pipelined, notes: &mut Vec<Diagnosis>) {
    let (level, message) = if piped.lingered {
        (
            Level::Warn,
            "did not exit within half a second of its input ending, and was killed; it should \
             exit when stdin reaches end of file (PROTOCOL.md, \"Process lifetime\")",
        )
    } else {
        (Level::Ok, "exits when its input ends")
    };
    note(notes, "exit at end of input", level, message);
}

/// `nothing unasked`: no output after the last answer.
fn nothing_unasked(piped: &Pipelined, notes: &mut Vec<Diagnosis>) {
    let (level, message) = match &piped.unsolicited {
        Some(fault) => (Level::Fail, fault.to_string()),
        None => (Level::Ok, "wrote nothing after its last answer".into()),
    };
    note(notes, "nothing unasked", level, message);
}

/// `line endings` and `hex case`: how the raw response lines are spelt.
fn spelling(answers: &[Answer], notes: &mut Vec<Diagnosis>) {
    let raw: Vec<&[u8]> = answers.iter().filter_map(|a| a.raw.as_deref()).collect();
    let crlf = raw.iter().filter(|l| l.ends_with(b"\r")).count();
    if crlf > 0 {
        note(
            notes,
            "line endings",
            Level::Info,
            format!(
                "{crlf} of {} responses end in \\r\\n; accepted, though \\n alone is the protocol's terminator",
                raw.len()
            ),
        );
    }
    let after_id = |l: &&[u8]| l.splitn(2, |&b| b == b' ').nth(1).unwrap_or(&[]).to_vec();
    if raw
        .iter()
        .any(|l| after_id(l).iter().any(u8::is_ascii_uppercase))
    {
        let message = "some responses use uppercase hex; accepted (either case is)";
        note(notes, "hex case", Level::Info, message);
    }
}

/// `unsupported` and `sample answers`: which kinds it supports, and
/// whether its answers look right next to the reference codec's.
fn support(queries: &[Query<'_>], answers: &[Answer], notes: &mut Vec<Diagnosis>) {
    let mut unsupported: Vec<RequestKind> = Vec::new();
    let mut differs = Vec::new();
    let mut judged = 0;
    for (q, a) in queries.iter().zip(answers) {
        match &a.reply {
            Ok(Response::Unsupported) => {
                let kind = q.request.kind();
                if !unsupported.contains(&kind) {
                    unsupported.push(kind);
                }
            }
            Ok(response) => {
                judged += 1;
                let expected = reference::answer(q.request);
                let same = match (response, &expected) {
                    (Response::Error(_), Response::Error(_)) => true,
                    (got, want) => got == want,
                };
                if !same {
                    differs.push((q, response, expected));
                }
            }
            Err(_) => {}
        }
    }
    // Every kind doctor asks (it asks no optional `size`), not every kind.
    let mut asked: Vec<RequestKind> = queries.iter().map(|q| q.request.kind()).collect();
    asked.sort_unstable();
    asked.dedup();
    if unsupported.len() == asked.len() {
        let message =
            "answers `unsupported` to every kind of request: every vector would be skipped";
        note(notes, "unsupported", Level::Fail, message);
    } else if !unsupported.is_empty() {
        note(
            notes,
            "unsupported",
            Level::Warn,
            format!(
                "answers `unsupported` to {}; those vectors are skipped, not passed",
                unsupported
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    if let Some((q, got, expected)) = differs.first() {
        note(
            notes,
            "sample answers",
            Level::Info,
            format!(
                "{} of {judged} sample answers differ from the reference codec; the first: {} was \
                 answered `{}`, the reference codec answers `{}`. This is about correctness, not \
                 the protocol; `run` gives the verdict",
                differs.len(),
                sent(q),
                protocol::response_line(q.id, got),
                protocol::response_line(q.id, expected),
            ),
        );
    }
}

/// `stderr`: whether it writes there at all.
fn stderr(answers: &[Answer], notes: &mut Vec<Diagnosis>) {
    if answers.iter().any(|a| a.stderr_tail.is_some()) {
        let message =
            "writes to stderr; fine: the runner drains it and shows its tail next to failures";
        note(notes, "stderr", Level::Info, message);
    }
}

/// `one-shot`: one line then end of input, from the first exchange.
fn one_shot_mode(shot: &Shot, notes: &mut Vec<Diagnosis>) {
    let (level, message) = match &shot.answer.reply {
        Ok(_) if !shot.lingered => (
            Level::Ok,
            "answers a single line followed by end of input, and exits".into(),
        ),
        Ok(_) => (
            Level::Warn,
            "answers a single line followed by end of input, but did not exit afterwards".into(),
        ),
        Err(fault) => (
            Level::Fail,
            with_stderr(
                format!("fails when it gets one line and then end of input: {fault}"),
                &shot.answer,
            ),
        ),
    };
    note(notes, "one-shot", level, message);
}
