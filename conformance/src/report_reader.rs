//! Reading a JSON report back (`run --rerun-failed REPORT`): the ids of the
//! vectors that need another run.
//!
//! Those are the results whose outcome fails a run (`fail`, `crashed`,
//! `timed_out`, `malformed`, `stale`) and the vector bugs (`vector_bug`: the
//! corpus was wrong, and the run gave no verdict). Passes, skips and
//! expected failures are not rerun. Any format version up to
//! [`FORMAT_VERSION`] is read: every one of them has `results[].id` and
//! `results[].outcome` with today's outcome names (version 1 called every
//! failure `fail`). Only those two fields of a result are read, so a report
//! cut down by hand to `{"format_version": 3, "results": [...]}` works too.
//!
//! A file that is not such a report is an error naming the place: the line
//! and column of bad JSON, the path of a missing or mistyped field
//! (`results[3].outcome`), and every id the corpus lacks (the report was
//! written against another corpus). Pure: the caller reads the file.

use std::fmt::Write as _;

use serde_json::Value as Json;

use wow_guid_harness::expect_fail::{did_you_mean, similar_ids, SHOWN_ERRORS};
use wow_guid_harness::report::json::FORMAT_VERSION;
use wow_guid_harness::run::RunOutcome;
use wow_guid_harness::terminal::escape_bounded;

/// How many characters of an id or a value an error message quotes.
const SHOWN_CHARS: usize = 80;

/// Whether a result with `outcome` is run again by `--rerun-failed`.
#[must_use]
pub fn is_rerun(outcome: RunOutcome) -> bool {
    outcome.is_failure() || outcome == RunOutcome::VectorBug
}

/// Why a report could not be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{kind}")]
pub struct ReportReadError {
    /// The report's file name, as given.
    pub file: String,
    /// What is wrong.
    pub kind: ReportReadErrorKind,
}

/// What is wrong with a report. Its message follows the file name:
/// `FILE:LINE:COLUMN: ...` for bad JSON, `FILE: ...` for the rest.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReportReadErrorKind {
    /// The text is not JSON.
    #[error(
        ":{line}:{column}: not JSON ({message}); --rerun-failed reads the JSON report of an \
         earlier run (--report-json FILE), --id-file a list of ids"
    )]
    NotJson {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// The JSON is not an object with a `format_version`.
    #[error(": not a JSON report of `run --report-json` (no `format_version` at the top)")]
    NotAReport,
    /// `format_version` is not one this runner reads.
    #[error(
        ": `format_version` is {}; this runner reads JSON reports of versions 1 to \
         {FORMAT_VERSION} (a newer runner wrote it?)",
        escape_bounded(.0, SHOWN_CHARS)
    )]
    Version(String),
    /// A field is missing or of the wrong type.
    #[error(": `{path}` should be {expected}, found {found}")]
    Field {
        /// Where, as a path: `results[3].outcome`.
        path: String,
        /// What it should be, e.g. `a string`.
        expected: &'static str,
        /// What is there instead, e.g. `a number`, or `nothing`.
        found: &'static str,
    },
    /// An outcome that no format version has.
    #[error(
        ": `{path}` is `{}`, which is no outcome of the report format (conformance/REPORT.md \
         lists them)",
        escape_bounded(.outcome, SHOWN_CHARS)
    )]
    UnknownOutcome {
        /// Where: `results[3].outcome`.
        path: String,
        /// The word.
        outcome: String,
    },
    /// Results whose ids the corpus lacks.
    #[error(
        ": {} failed id(s) not in the corpus (was the report written against another corpus? \
         --vectors DIR names it):{}",
        .0.len(),
        unknown_lines(.0)
    )]
    UnknownIds(Vec<UnknownId>),
}

/// A result of a report whose id is not in the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownId {
    /// Where: `results[3]`.
    pub path: String,
    /// The id.
    pub id: String,
    /// Up to three ids of the corpus that look alike (for the first
    /// [`SHOWN_ERRORS`] unknown ids only, the ones a message shows).
    pub similar: Vec<String>,
}

/// A line for each of the first [`SHOWN_ERRORS`] of `unknown`, and one for
/// the rest.
fn unknown_lines(unknown: &[UnknownId]) -> String {
    let mut text = String::new();
    for u in unknown.iter().take(SHOWN_ERRORS) {
        let id = escape_bounded(&u.id, SHOWN_CHARS);
        let _ = write!(
            text,
            "\n  {}: no vector has the id `{id}`{}",
            u.path,
            did_you_mean(&u.similar)
        );
    }
    if let Some(more) = unknown.len().checked_sub(SHOWN_ERRORS).filter(|&n| n > 0) {
        let _ = write!(text, "\n  and {more} more, not shown");
    }
    text
}

/// What a JSON value is, in words, for messages.
fn kind_of(value: Option<&Json>) -> &'static str {
    match value {
        None => "nothing",
        Some(Json::Null) => "null",
        Some(Json::Bool(_)) => "a boolean",
        Some(Json::Number(_)) => "a number",
        Some(Json::String(_)) => "a string",
        Some(Json::Array(_)) => "a list",
        Some(Json::Object(_)) => "an object",
    }
}

/// The ids of the results of the report `text` (the contents of `file`)
/// that [`is_rerun`] picks, in report order, each once. Every id must be
/// one of `corpus_ids`.
///
/// # Errors
/// [`ReportReadError`] when `text` is not a JSON report of a version this runner
/// reads, or names ids the corpus lacks (all of them, in one error).
pub fn failed_ids<'a>(
    file: &str,
    text: &str,
    corpus_ids: impl Iterator<Item = &'a str> + Clone,
) -> Result<Vec<String>, ReportReadError> {
    let error = |kind| ReportReadError {
        file: file.to_owned(),
        kind,
    };
    let doc = read_report(text).map_err(error)?;
    let ids = rerun_ids(&doc).map_err(error)?;
    let unknown = unknown_ids(&ids, corpus_ids);
    if !unknown.is_empty() {
        return Err(error(ReportReadErrorKind::UnknownIds(unknown)));
    }
    Ok(ids.into_iter().map(|(_, id)| id.to_owned()).collect())
}

/// The JSON report `text`, once it is known to be a report of a version
/// this runner reads.
fn read_report(text: &str) -> Result<Json, ReportReadErrorKind> {
    // A byte-order mark, as some editors write, is not JSON; skipped, so
    // that line and column numbers stay those of the file.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc: Json = serde_json::from_str(text).map_err(|e| ReportReadErrorKind::NotJson {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    let Some(version) = doc.get("format_version") else {
        return Err(ReportReadErrorKind::NotAReport);
    };
    match version.as_u64() {
        Some(v) if (1..=u64::from(FORMAT_VERSION)).contains(&v) => Ok(doc),
        _ => Err(ReportReadErrorKind::Version(version.to_string())),
    }
}

/// The ids of the results of `doc` that [`is_rerun`] picks, in report
/// order, each once, with the path of the result that names it.
fn rerun_ids(doc: &Json) -> Result<Vec<(String, &str)>, ReportReadErrorKind> {
    let field = |path: String, expected, value: Option<&Json>| ReportReadErrorKind::Field {
        path,
        expected,
        found: kind_of(value),
    };
    let results = doc.get("results");
    let Some(results) = results.and_then(Json::as_array) else {
        return Err(field("results".into(), "a list", results));
    };
    let mut ids: Vec<(String, &str)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, result) in results.iter().enumerate() {
        let at = |name: &str| format!("results[{i}].{name}");
        if !result.is_object() {
            return Err(field(format!("results[{i}]"), "an object", Some(result)));
        }
        let id = result.get("id");
        let Some(id) = id.and_then(Json::as_str) else {
            return Err(field(at("id"), "a string", id));
        };
        let outcome = result.get("outcome");
        let Some(word) = outcome.and_then(Json::as_str) else {
            return Err(field(at("outcome"), "a string", outcome));
        };
        let Some(outcome) = RunOutcome::from_name(word) else {
            return Err(ReportReadErrorKind::UnknownOutcome {
                path: at("outcome"),
                outcome: word.to_owned(),
            });
        };
        if is_rerun(outcome) && seen.insert(id) {
            ids.push((format!("results[{i}]"), id));
        }
    }
    Ok(ids)
}

/// The ids of `ids` that are not among `corpus_ids`, in report order,
/// the first [`SHOWN_ERRORS`] with the corpus ids most like them.
fn unknown_ids<'a>(
    ids: &[(String, &str)],
    corpus_ids: impl Iterator<Item = &'a str> + Clone,
) -> Vec<UnknownId> {
    let mut missing: std::collections::HashSet<&str> = ids.iter().map(|(_, id)| *id).collect();
    for id in corpus_ids.clone() {
        if missing.is_empty() {
            break;
        }
        missing.remove(id);
    }
    if missing.is_empty() {
        return Vec::new();
    }
    ids.iter()
        .filter(|(_, id)| missing.contains(id))
        .enumerate()
        .map(|(n, (path, id))| UnknownId {
            path: path.clone(),
            id: (*id).to_owned(),
            // Only the ids the message shows get suggestions: each one
            // costs a walk over the corpus.
            similar: if n < SHOWN_ERRORS {
                similar_ids(id, corpus_ids.clone())
            } else {
                Vec::new()
            },
        })
        .collect()
}

/// serde_json's message without its own " at line L column C", which the
/// error already gives in front.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}
