//! `repro ID`: one vector, with the exact request and response shown.

use std::fmt::Write as _;
use std::num::NonZeroUsize;

use wow_guid_conformance::implementation::{Implementation, Query};
use wow_guid_conformance::judge::{self, Verdict};
use wow_guid_conformance::options::ReproOptions;
use wow_guid_conformance::process::{Mode, ProcessImplementation};
use wow_guid_conformance::protocol;
use wow_guid_conformance::report;
use wow_guid_conformance::run::{self, VectorResult};

use super::error::CliError;
use super::exit::Exit;
use super::stdout::print;

pub(super) fn repro(options: &ReproOptions) -> Result<Exit, CliError> {
    let Some(vector) = options.corpus.get(&options.id) else {
        return Err(CliError::UnknownVector {
            id: options.id.clone(),
            similar: Vec::new(),
        });
    };
    let conditions = &options.conditions;
    let mut config = conditions.process_config();
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
    let verdict = judge::judge(&vector.expect, &answer.reply, conditions.judge);
    let result = VectorResult {
        vector,
        outcome: run::outcome(&verdict, false, false),
        answer,
        verdict,
        vector_bug: None,
        expected_failure: None,
    };
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(text, "vector       {}  ({})", vector.id, vector.location);
    let _ = writeln!(text, "description  {}", vector.description);
    let _ = writeln!(text, "against      {}", conditions.target);
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
        report::expected_text(&result, conditions.judge.strict_errors)
    );
    let verdict_line = match &result.verdict {
        Verdict::Pass => "PASS".to_owned(),
        Verdict::Skip => "SKIP (the implementation answered `unsupported`)".to_owned(),
        Verdict::Fail(m) => format!("FAIL: {m}"),
    };
    let _ = writeln!(text, "verdict      {verdict_line}");
    if let Some((response, mismatch)) = wow_guid_conformance::run::reference_disagreement(vector) {
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
