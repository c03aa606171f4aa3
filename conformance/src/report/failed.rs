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

use std::fmt;

use serde_json::Value as Json;

use super::json::FORMAT_VERSION;
use crate::expect_fail::{similar_ids, SHOWN_ERRORS};
use crate::run::RunOutcome;
use crate::terminal::escape_bounded;

/// How many characters of an id or a value an error message quotes.
const SHOWN_CHARS: usize = 80;

/// Whether a result with `outcome` is run again by `--rerun-failed`.
#[must_use]
pub fn is_rerun(outcome: RunOutcome) -> bool {
    outcome.is_failure() || outcome == RunOutcome::VectorBug
}

/// Why a report could not be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The report's file name, as given.
    pub file: String,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

/// What is wrong with a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The text is not JSON.
    NotJson {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// The JSON is not an object with a `format_version`.
    NotAReport,
    /// `format_version` is not one this runner reads.
    Version(String),
    /// A field is missing or of the wrong type.
    Field {
        /// Where, as a path: `results[3].outcome`.
        path: String,
        /// What it should be, e.g. `a string`.
        expected: &'static str,
        /// What is there instead, e.g. `a number`, or `nothing`.
        found: &'static str,
    },
    /// An outcome that no format version has.
    UnknownOutcome {
        /// Where: `results[3].outcome`.
        path: String,
        /// The word.
        outcome: String,
    },
    /// Results whose ids the corpus lacks.
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

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = &self.file;
        match &self.kind {
            ReadErrorKind::NotJson {
                line,
                column,
                message,
            } => write!(
                f,
                "{file}:{line}:{column}: not JSON ({message}); --rerun-failed reads the JSON \
                 report of an earlier run (--report-json FILE), --id-file a list of ids"
            ),
            ReadErrorKind::NotAReport => write!(
                f,
                "{file}: not a JSON report of `run --report-json` (no `format_version` at the top)"
            ),
            ReadErrorKind::Version(version) => write!(
                f,
                "{file}: `format_version` is {}; this runner reads JSON reports of \
                 versions 1 to {FORMAT_VERSION} (a newer runner wrote it?)",
                escape_bounded(version, SHOWN_CHARS)
            ),
            ReadErrorKind::Field {
                path,
                expected,
                found,
            } => write!(f, "{file}: `{path}` should be {expected}, found {found}"),
            ReadErrorKind::UnknownOutcome { path, outcome } => write!(
                f,
                "{file}: `{path}` is `{}`, which is no outcome of the report format \
                 (conformance/REPORT.md lists them)",
                escape_bounded(outcome, SHOWN_CHARS)
            ),
            ReadErrorKind::UnknownIds(unknown) => {
                write!(
                    f,
                    "{file}: {} failed id(s) not in the corpus (was the report written against \
                     another corpus? --vectors DIR names it):",
                    unknown.len()
                )?;
                for u in unknown.iter().take(SHOWN_ERRORS) {
                    write!(
                        f,
                        "\n  {}: no vector has the id `{}`",
                        u.path,
                        escape_bounded(&u.id, SHOWN_CHARS)
                    )?;
                    if !u.similar.is_empty() {
                        write!(f, "; did you mean {}?", u.similar.join(", "))?;
                    }
                }
                if let Some(more) = unknown.len().checked_sub(SHOWN_ERRORS).filter(|&n| n > 0) {
                    write!(f, "\n  and {more} more, not shown")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ReadError {}

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
/// [`ReadError`] when `text` is not a JSON report of a version this runner
/// reads, or names ids the corpus lacks (all of them, in one error).
pub fn failed_ids<'a>(
    file: &str,
    text: &str,
    corpus_ids: impl Iterator<Item = &'a str> + Clone,
) -> Result<Vec<String>, ReadError> {
    let error = |kind| ReadError {
        file: file.to_owned(),
        kind,
    };
    let field = |path: String, expected, value: Option<&Json>| {
        error(ReadErrorKind::Field {
            path,
            expected,
            found: kind_of(value),
        })
    };
    // A byte-order mark, as some editors write, is not JSON; skipped, so
    // that line and column numbers stay those of the file.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        error(ReadErrorKind::NotJson {
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
        })
    })?;
    let Some(version) = doc.get("format_version") else {
        return Err(error(ReadErrorKind::NotAReport));
    };
    match version.as_u64() {
        Some(v) if (1..=u64::from(FORMAT_VERSION)).contains(&v) => {}
        _ => return Err(error(ReadErrorKind::Version(version.to_string()))),
    }
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
            return Err(error(ReadErrorKind::UnknownOutcome {
                path: at("outcome"),
                outcome: word.to_owned(),
            }));
        };
        if is_rerun(outcome) && seen.insert(id) {
            ids.push((format!("results[{i}]"), id));
        }
    }
    let mut missing: std::collections::HashSet<&str> = ids.iter().map(|(_, id)| *id).collect();
    for id in corpus_ids.clone() {
        if missing.is_empty() {
            break;
        }
        missing.remove(id);
    }
    if !missing.is_empty() {
        let unknown = ids
            .iter()
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
            .collect();
        return Err(error(ReadErrorKind::UnknownIds(unknown)));
    }
    Ok(ids.into_iter().map(|(_, id)| id.to_owned()).collect())
}

/// serde_json's message without its own " at line L column C", which the
/// error already gives in front.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORPUS: [&str; 4] = ["a.one", "a.two", "a.three", "a.four"];

    fn read(text: &str) -> Result<Vec<String>, ReadError> {
        failed_ids("r.json", text, CORPUS.iter().copied())
    }

    fn report(results: &str) -> String {
        format!(r#"{{"format_version": 3, "tool": "x", "results": [{results}]}}"#)
    }

    #[test]
    fn failures_stale_entries_and_vector_bugs_are_rerun_the_rest_not() {
        let text = report(
            r#"{"id": "a.one", "outcome": "pass"},
               {"id": "a.two", "outcome": "timed_out"},
               {"id": "a.three", "outcome": "xfail"},
               {"id": "a.four", "outcome": "stale"},
               {"id": "a.one", "outcome": "vector_bug"}"#,
        );
        assert_eq!(read(&text).unwrap(), ["a.two", "a.four", "a.one"]);
        for outcome in RunOutcome::ALL {
            let picked = matches!(
                outcome,
                RunOutcome::Failed
                    | RunOutcome::Crashed
                    | RunOutcome::TimedOut
                    | RunOutcome::Malformed
                    | RunOutcome::Stale
                    | RunOutcome::VectorBug
            );
            assert_eq!(is_rerun(outcome), picked, "{outcome:?}");
        }
        let v1 = r#"{"format_version": 1, "results": [{"id": "a.two", "outcome": "fail"}]}"#;
        assert_eq!(read(v1).unwrap(), ["a.two"]);
    }

    #[test]
    fn what_is_not_a_report_is_an_error_at_its_place() {
        let message = |text: &str| read(text).unwrap_err().to_string();
        assert!(
            message("{\n  \"format_version\": 3,\n  \"results\": [,]\n}").starts_with(
                "r.json:3:15: not JSON (expected value); --rerun-failed reads the JSON report"
            )
        );
        assert!(message("a.one\na.two\n").starts_with("r.json:1:1: not JSON (expected value)"));
        assert!(message(r#"{"results": []}"#).contains("not a JSON report of `run --report-json`"));
        assert!(
            message(r#"{"format_version": 4, "results": []}"#).starts_with(
                "r.json: `format_version` is 4; this runner reads JSON reports of versions 1 to 3"
            )
        );
        assert_eq!(
            message(r#"{"format_version": 3}"#),
            "r.json: `results` should be a list, found nothing"
        );
        assert_eq!(
            message(&report(
                r#"{"id": "a.one", "outcome": "pass"}, {"id": 7, "outcome": "fail"}"#
            )),
            "r.json: `results[1].id` should be a string, found a number"
        );
        assert!(message(&report(r#"{"id": "a.one", "outcome": "failed"}"#))
            .starts_with("r.json: `results[0].outcome` is `failed`, which is no outcome"));
    }

    #[test]
    fn every_id_the_corpus_lacks_is_named_with_its_place() {
        let error = read(&report(
            r#"{"id": "a.one", "outcome": "fail"},
               {"id": "a.tow", "outcome": "fail"},
               {"id": "b.gone", "outcome": "crashed"}"#,
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("r.json: 2 failed id(s) not in the corpus"),
            "{text}"
        );
        let line = text.lines().nth(1).unwrap_or_default();
        assert!(
            line.starts_with("  results[1]: no vector has the id `a.tow`; did you mean ")
                && line.contains("a.two"),
            "{text}"
        );
        assert!(
            text.contains("\n  results[2]: no vector has the id `b.gone`"),
            "{text}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = format!(
            "\u{feff}{}",
            report(r#"{"id": "a.one", "outcome": "fail"}"#)
        );
        assert_eq!(read(&text).unwrap(), ["a.one"]);
    }

    #[test]
    fn unknown_ids_are_shown_cut_escaped_and_a_few_at_a_time() {
        let long = "\\u0000".repeat(10_000);
        let text = report(&format!(r#"{{"id": "{long}", "outcome": "fail"}}"#));
        let message = read(&text).unwrap_err().to_string();
        assert!(message.len() < 1_000, "{} bytes", message.len());
        assert!(message.contains("(10000 bytes in all)"), "{message}");
        assert!(!message.contains('\0'), "{message:?}");

        let many: Vec<String> = (0..50_000)
            .map(|i| format!(r#"{{"id": "x{i}", "outcome": "fail"}}"#))
            .collect();
        let message = read(&report(&many.join(","))).unwrap_err().to_string();
        assert!(
            message.starts_with("r.json: 50000 failed id(s) not in the corpus"),
            "{message}"
        );
        assert_eq!(message.lines().count(), 1 + SHOWN_ERRORS + 1, "{message}");
        assert!(message.ends_with("and 49980 more, not shown"), "{message}");
    }
}
