//! `repro ID`: one vector replayed in a fresh process, after the steps of
//! its sequence before it, judged and shown exactly as `run` judges and
//! shows it (`run::reproduce`, `report::block`). A read-back
//! (`<encode id>.read-back`) is replayed as `run` sends it: the encode in a
//! fresh process, then, if it passed with bytes, the decode of its answer
//! in another (`wow_guid_testkit::round_trip`).

use std::fmt::Write as _;

use wow_guid_harness::process::ProcessImplementation;
use wow_guid_harness::report::block;
use wow_guid_harness::report::rerun::Rerun;
use wow_guid_harness::run::{self, RunOutcome, VectorResult};
use wow_guid_testkit::round_trip;
use wow_guid_vectors::Vector;

use super::error::CliError;
use super::exit::Exit;
use super::options::ReproOptions;
use super::stdout::print;

pub(super) fn repro(options: &ReproOptions, program: &str) -> Result<Exit, CliError> {
    let conditions = &options.conditions;
    let mut config = conditions.process_config();
    // The raw line, as received, goes in the block.
    config.record_raw = true;
    let start = || ProcessImplementation::new(config.clone());
    let after = options.after_vectors();
    let results = run::reproduce_after(
        &after,
        options.steps(),
        start,
        conditions.judge,
        conditions.expected_failures.as_ref(),
    )?;
    let (earlier, results) = results
        .results
        .split_at(after.len().min(results.results.len()));
    let unknown = || CliError::UnknownVector {
        id: options.id.clone(),
        similar: Vec::new(),
    };
    let (result, before) = results.split_last().ok_or_else(unknown)?;
    let mut text = String::new();
    sent_before(&mut text, earlier, before, result);
    let rerun = Rerun {
        program,
        conditions,
        corpus: Some(&options.corpus),
    };
    let read_back: Vec<Vector>; // A read-back's vector, once its encode is answered.
    let read: run::RunResults<'_>;
    let result = match options.encode_id() {
        None => result.clone(),
        Some(encode_id) => {
            read_back = round_trip::read_back_vectors(std::slice::from_ref(result));
            let Some(decode) = read_back.first() else {
                return nothing_to_read_back(&mut text, result, &rerun, encode_id, options);
            };
            sent_first(
                &mut text,
                "the encode it reads back, sent first to a fresh process of its own:",
                std::slice::from_ref(result),
            );
            read = run::reproduce_after(
                &[],
                std::slice::from_ref(decode),
                start,
                conditions.judge,
                conditions.expected_failures.as_ref(),
            )?;
            round_trip::refuse_any_error(read.results.last().ok_or_else(unknown)?.clone())
        }
    };
    let mut out = Vec::new();
    let reproduce = reproduce_line(&rerun, options);
    block::write_with(&mut out, &result, &rerun, &reproduce).expect("writing to a Vec cannot fail");
    text.push_str(&String::from_utf8_lossy(&out));
    let (verdict, exit) = match result.outcome {
        RunOutcome::VectorBug => (
            "NO VERDICT: the reference codec disagrees with this vector",
            Exit::NoVerdict,
        ),
        outcome if outcome.is_failure() => ("FAIL", Exit::Failure),
        _ => ("PASS", Exit::Success),
    };
    let _ = writeln!(
        text,
        "{} against {}: verdict: {verdict}",
        result.vector.id, conditions.target
    );
    print(&text)?;
    Ok(exit)
}

/// The command that gives `repro`'s verdict again: its own, with `--after`
/// as it was given (ids and ranges).
fn reproduce_line(rerun: &Rerun<'_>, options: &ReproOptions) -> String {
    if options.after_items.is_empty() {
        return rerun.repro(&options.id);
    }
    let after = options.after_items.join(",");
    rerun.line(&["repro", &options.id, "--after", &after], true)
}

/// What was sent before `result` to its process: `earlier` (`--after`),
/// then `before`, the steps of its sequence before it.
fn sent_before(
    text: &mut String,
    earlier: &[VectorResult<'_>],
    before: &[VectorResult<'_>],
    result: &VectorResult<'_>,
) {
    if !earlier.is_empty() {
        sent_first(
            text,
            &format!(
                "after {} earlier request(s) (--after), sent first to the same process:",
                earlier.len()
            ),
            earlier,
        );
    }
    if let (false, Some(sequence)) = (before.is_empty(), &result.vector.sequence) {
        sent_first(
            text,
            &format!(
                "after the {} step(s) of sequence `{sequence}` before it, sent first to the same process:",
                before.len()
            ),
            before,
        );
    }
}

/// `repro` of a read-back whose encode was not answered with bytes that
/// passed: the encode's block, and why nothing was read back.
fn nothing_to_read_back(
    text: &mut String,
    encode: &VectorResult<'_>,
    rerun: &Rerun<'_>,
    encode_id: &str,
    options: &ReproOptions,
) -> Result<Exit, CliError> {
    let mut out = Vec::new();
    let reproduce = rerun.repro(encode_id);
    block::write_with(&mut out, encode, rerun, &reproduce).expect("writing to a Vec cannot fail");
    text.push_str(&String::from_utf8_lossy(&out));
    let _ = writeln!(
        text,
        "{} against {}: no verdict: the encode it reads back ({encode_id}, {}) was not \
         answered with bytes that pass, so there is nothing to read back",
        options.id,
        options.conditions.target,
        block::label(encode.outcome).trim(),
    );
    print(text)?;
    Ok(if encode.outcome.is_failure() {
        Exit::Failure
    } else {
        Exit::NoVerdict
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
