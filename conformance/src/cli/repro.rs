//! `repro ID`: one vector replayed in a fresh process, after the steps of
//! its sequence before it, judged and shown exactly as `run` judges and
//! shows it (`run::reproduce`, `report::block`).

use std::fmt::Write as _;

use wow_guid_harness::process::ProcessImplementation;
use wow_guid_harness::report::block;
use wow_guid_harness::report::rerun::Rerun;
use wow_guid_harness::run::{self, RunOutcome};

use super::error::CliError;
use super::exit::Exit;
use super::options::ReproOptions;
use super::stdout::print;

pub(super) fn repro(options: &ReproOptions, program: &str) -> Result<Exit, CliError> {
    let conditions = &options.conditions;
    let mut config = conditions.process_config();
    // The raw line, as received, goes in the block.
    config.record_raw = true;
    let after = options.after_vectors();
    let results = run::reproduce_after(
        &after,
        options.steps(),
        || ProcessImplementation::new(config.clone()),
        conditions.judge,
        conditions.expected_failures.as_ref(),
    )?;
    let (earlier, results) = results
        .results
        .split_at(after.len().min(results.results.len()));
    let Some((result, before)) = results.split_last() else {
        return Err(CliError::UnknownVector {
            id: options.id.clone(),
            similar: Vec::new(),
        });
    };
    let rerun = Rerun {
        program,
        conditions,
        corpus: Some(&options.corpus),
    };
    let mut text = String::new();
    // Writing to a String cannot fail.
    if !earlier.is_empty() {
        sent_first(
            &mut text,
            &format!(
                "after {} earlier request(s) (--after), sent first to the same process:",
                earlier.len()
            ),
            earlier,
        );
    }
    if let (false, Some(sequence)) = (before.is_empty(), &result.vector.sequence) {
        sent_first(
            &mut text,
            &format!(
                "after the {} step(s) of sequence `{sequence}` before it, sent first to the same process:",
                before.len()
            ),
            before,
        );
    }
    let mut out = Vec::new();
    let reproduce = if options.after_items.is_empty() {
        rerun.repro(&options.id)
    } else {
        let after = options.after_items.join(",");
        rerun.line(&["repro", &options.id, "--after", &after], true)
    };
    block::write_with(&mut out, result, &rerun, &reproduce).expect("writing to a Vec cannot fail");
    text.push_str(&String::from_utf8_lossy(&out));
    let verdict = match result.outcome {
        RunOutcome::VectorBug => "NO VERDICT: the reference codec disagrees with this vector",
        outcome if outcome.is_failure() => "FAIL",
        _ => "PASS",
    };
    let _ = writeln!(
        text,
        "{} against {}: verdict: {verdict}",
        result.vector.id, conditions.target
    );
    print(&text)?;
    Ok(match result.outcome {
        RunOutcome::VectorBug => Exit::NoVerdict,
        outcome if outcome.is_failure() => Exit::Failure,
        _ => Exit::Success,
    })
}

/// `heading`, then each of `results` (what was sent before the vector) with
/// its outcome, then a blank line.
fn sent_first(text: &mut String, heading: &str, results: &[run::VectorResult<'_>]) {
    // Writing to a String cannot fail.
    let _ = writeln!(text, "{heading}");
    for result in results {
        let _ = writeln!(
            text,
            "  {:<10} {}",
            block::label(result.outcome),
            result.vector.id
        );
    }
    let _ = writeln!(text);
}
