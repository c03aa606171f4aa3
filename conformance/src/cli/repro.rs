//! `repro ID`: one vector, with the exact request and response shown.

use std::fmt::Write as _;
use std::num::NonZeroUsize;

use super::args::ReproArgs;
use super::options;
use super::{print, CliError, Exit};
use crate::expect_fail::similar_ids;
use crate::implementation::{Implementation, Query};
use crate::judge::{self, JudgeOptions, Verdict};
use crate::process::{Mode, ProcessImplementation};
use crate::protocol;
use crate::report;
use crate::run::VectorResult;
use crate::shell;

pub(super) fn repro(args: &ReproArgs) -> Result<Exit, CliError> {
    let corpus = options::load_corpus(&args.corpus)?;
    let Some(vector) = corpus.get(&args.id) else {
        return Err(CliError::UnknownVector {
            id: args.id.clone(),
            similar: similar_ids(&args.id, corpus.vectors.iter().map(|v| v.id.as_str())),
        });
    };
    let (command, builtin) = options::command_or_builtin(&args.command)?;
    let mut config = options::process_config(&args.process, command);
    config.record_raw = true;
    // One request: a window would change nothing but the wording of faults.
    if let Mode::Persistent { .. } = config.mode {
        config.mode = Mode::Persistent {
            window: NonZeroUsize::MIN,
        };
    }
    let mut implementation = ProcessImplementation::new(config);
    let answer = implementation
        .answer_all(&[Query {
            id: &vector.id,
            request: &vector.request,
        }])?
        .remove(0);
    implementation.close();
    let options = JudgeOptions {
        strict_errors: args.strict_errors,
    };
    let verdict = judge::judge(&vector.expect, &answer.reply, options);
    let result = VectorResult {
        vector,
        outcome: crate::run::outcome(&verdict, false, false),
        answer,
        verdict,
        vector_bug: None,
        expected_failure: None,
    };
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(text, "vector       {}  ({})", vector.id, vector.location);
    let _ = writeln!(text, "description  {}", vector.description);
    let _ = writeln!(
        text,
        "against      {}",
        if builtin {
            "the built-in reference codec".to_owned()
        } else {
            shell::words(&args.command)
        }
    );
    let _ = writeln!(
        text,
        "request      {}",
        protocol::request_line(&vector.id, &vector.request)
    );
    match report::got_text(&result) {
        Some(got) => {
            let _ = writeln!(text, "response     {got}");
        }
        None => {
            let _ = writeln!(text, "response     (none)");
        }
    }
    let _ = writeln!(
        text,
        "expected     {}",
        report::expected_text(&result, args.strict_errors)
    );
    let verdict_line = match &result.verdict {
        Verdict::Pass => "PASS".to_owned(),
        Verdict::Skip => "SKIP (the implementation answered `unsupported`)".to_owned(),
        Verdict::Fail(m) => format!("FAIL: {m}"),
    };
    let _ = writeln!(text, "verdict      {verdict_line}");
    if let Some((response, mismatch)) = crate::run::reference_disagreement(vector) {
        let _ = writeln!(
            text,
            "note         the reference codec answers `{}` ({mismatch}): this vector itself looks wrong",
            protocol::response_line(&vector.id, &response)
        );
    }
    if let Some(tail) = &result.answer.stderr_tail {
        let _ = writeln!(text, "stderr       (last lines)");
        for line in tail.lines() {
            let _ = writeln!(text, "  | {line}");
        }
    }
    print(&text)?;
    Ok(match result.verdict {
        Verdict::Pass | Verdict::Skip => Exit::Success,
        Verdict::Fail(_) => Exit::Failure,
    })
}
