//! `doctor`: checks how an adapter handles the protocol, and says in plain
//! words what is wrong.
//!
//! `run` says *whether* an implementation conforms; when an adapter cannot
//! even hold a conversation, its failures all look alike (timeouts, wrong
//! ids). `doctor` asks a few small questions in an order where each builds
//! on the last: does it answer one request at all, and only at end of input
//! (no flush)? Does it echo ids? Does it cope with requests in flight? How
//! does it end lines and spell hex? Which kinds does it support? Does it
//! exit at end of input without writing anything more, and work in
//! one-shot mode? It runs the adapter
//! through [`ProcessImplementation`] like `run` does, and prints nothing
//! itself; the CLI shows the [`Finding`]s.

use std::ffi::OsString;
use std::fmt;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use wow_guid_vectors::{Request, RequestKind};

use crate::duration::DisplayDuration;
use crate::implementation::{Answer, Fault, HarnessError, Implementation, Query};
use crate::process::{Mode, ProcessConfig, ProcessImplementation};
use crate::protocol::{Response, ResponseErrorKind};
use crate::reference;

/// How serious a finding is.
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
        // `pad` so that callers can align findings with a width.
        f.pad(match self {
            Self::Ok => "ok",
            Self::Info => "info",
            Self::Warn => "WARN",
            Self::Fail => "FAIL",
        })
    }
}

/// One observation about the adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
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

/// The requests doctor sends: every kind, valid and invalid input, and ids
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
        Fault::Malformed { error, .. }
            if matches!(error.kind, ResponseErrorKind::WrongId { .. }) =>
        {
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
    ProcessImplementation::new(ProcessConfig {
        command: config.command.clone(),
        env: Vec::new(),
        timeout: config.timeout,
        startup_timeout,
        mode,
        record_raw: true,
        // The doctor makes its own diagnosis of an adapter that answers nothing.
        check_liveness: false,
        deadline: None,
        startup_seen: crate::process::StartupSeen::default(),
    })
}

/// Runs every check against the adapter. Stops early when the adapter
/// cannot answer a single request, since nothing after that would say more.
///
/// # Errors
/// [`HarnessError`] when the command cannot be started at all.
pub fn examine(config: &DoctorConfig) -> Result<Vec<Finding>, HarnessError> {
    let mut findings = Vec::new();
    let mut note = |check, level, message: String| {
        findings.push(Finding {
            check,
            level,
            message,
        });
    };
    let samples = samples();
    let queries: Vec<Query<'_>> = samples
        .iter()
        .map(|(id, request)| Query { id, request })
        .collect();

    // 1. One line, then end of input (one-shot). This also measures how
    // long the adapter takes to start, so that the persistent check below
    // need not wait a whole start-up allowance for an adapter that never
    // flushes.
    let mut once = start(config, Mode::OneShot, config.startup_timeout);
    let began = Instant::now();
    let shot = once.answer_all(&queries[..1])?.remove(0);
    let shot_time = began.elapsed();
    let shot_lingered = once.stats().lingered > 0;
    drop(once);

    // 2. One request, then wait, input left open: the persistent conversation.
    let allowance = if shot.reply.is_ok() {
        (config.timeout + shot_time * 2).min(config.startup_timeout)
    } else {
        config.startup_timeout
    };
    let one = NonZeroUsize::MIN;
    let mut single = start(config, Mode::Persistent { window: one }, allowance);
    let first = single.answer_all(&queries[..1])?.remove(0);
    single.close();
    match (&first.reply, &shot.reply) {
        (Ok(_), _) => note(
            "answers",
            Level::Ok,
            "answers a request while its input stays open (persistent mode)".into(),
        ),
        (Err(Fault::Timeout { .. }), Ok(_)) => {
            let message = format!(
                "no response within {} while its input stayed open, but it answered once its input \
                 ended: it does not flush stdout after answering. Flush after each response, or at \
                 least whenever it has answered every request it has read (PROTOCOL.md, \
                 \"Flushing\"). Until then only --one-shot works",
                DisplayDuration(allowance)
            );
            note("answers", Level::Fail, with_stderr(message, &first));
            return Ok(findings);
        }
        (Err(fault), _) => {
            note(
                "answers",
                Level::Fail,
                with_stderr(first_contact(fault, allowance), &first),
            );
            return Ok(findings);
        }
    }

    // 3. Everything at once: ids, order, pipelining.
    let window = NonZeroUsize::new(queries.len()).unwrap_or(one);
    let mut piped = start(config, Mode::Persistent { window }, allowance);
    let answers = piped.answer_all(&queries)?;
    let unsolicited = piped.finish();
    let faults: Vec<(&Query<'_>, &Answer, &Fault)> = queries
        .iter()
        .zip(&answers)
        .filter_map(|(q, a)| a.reply.as_ref().err().map(|f| (q, a, f)))
        .collect();
    if let Some((q, a, fault)) = faults.first() {
        let message = format!(
            "{} of {} requests sent together failed; the first, `{}` ({}): {fault}",
            faults.len(),
            queries.len(),
            q.id,
            q.request.kind()
        );
        note("pipelining", Level::Fail, with_stderr(message, a));
    } else {
        note(
            "pipelining",
            Level::Ok,
            format!(
                "answered {} requests sent without waiting, in order, echoing every id",
                queries.len()
            ),
        );
    }
    if piped.stats().lingered > 0 {
        note(
            "exit at end of input",
            Level::Warn,
            "did not exit within half a second of its input ending, and was killed; it should \
             exit when stdin reaches end of file (PROTOCOL.md, \"Process lifetime\")"
                .into(),
        );
    } else {
        note(
            "exit at end of input",
            Level::Ok,
            "exits when its input ends".into(),
        );
    }
    match unsolicited {
        Some(fault) => note("nothing unasked", Level::Fail, fault.to_string()),
        None => note(
            "nothing unasked",
            Level::Ok,
            "wrote nothing after its last answer".into(),
        ),
    }

    // 4. Spelling: line ends and hex case, from the raw lines.
    let raw: Vec<&[u8]> = answers.iter().filter_map(|a| a.raw.as_deref()).collect();
    let crlf = raw.iter().filter(|l| l.ends_with(b"\r")).count();
    if crlf > 0 {
        note(
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
        note(
            "hex case",
            Level::Info,
            "some responses use uppercase hex; accepted (either case is)".into(),
        );
    }

    // 5. What it supports, and whether its answers look right.
    let mut unsupported: Vec<RequestKind> = Vec::new();
    let mut differs = Vec::new();
    let mut judged = 0;
    for (q, a) in queries.iter().zip(&answers) {
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
                    differs.push(q.id);
                }
            }
            Err(_) => {}
        }
    }
    if unsupported.len() == RequestKind::ALL.len() {
        note(
            "unsupported",
            Level::Fail,
            "answers `unsupported` to every kind of request: every vector would be skipped".into(),
        );
    } else if !unsupported.is_empty() {
        note(
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
    if !differs.is_empty() {
        note(
            "sample answers",
            Level::Info,
            format!(
                "{} of {judged} sample answers differ from the reference codec (first: `{}`). This is \
                 about correctness, not the protocol; `run` gives the verdict",
                differs.len(),
                differs[0]
            ),
        );
    }
    if answers.iter().any(|a| a.stderr_tail.is_some()) {
        note(
            "stderr",
            Level::Info,
            "writes to stderr; fine: the runner drains it and shows its tail next to failures"
                .into(),
        );
    }

    // 6. One-shot, from the first step.
    match &shot.reply {
        Ok(_) if !shot_lingered => note(
            "one-shot",
            Level::Ok,
            "answers a single line followed by end of input, and exits".into(),
        ),
        Ok(_) => note(
            "one-shot",
            Level::Warn,
            "answers a single line followed by end of input, but did not exit afterwards".into(),
        ),
        Err(fault) => note(
            "one-shot",
            Level::Fail,
            with_stderr(
                format!("fails when it gets one line and then end of input: {fault}"),
                &shot,
            ),
        ),
    }
    Ok(findings)
}
