//! The matrix as data: one row per vector, one column per implementation,
//! every cell judged by [`wow_guid_harness::run`], the same path `run` takes.
//!
//! Built from finished runs ([`RunResults`]) and written by the output
//! formats beside this module; it starts no process itself (the causes'
//! examples are shrunk in [`super::causes`]).

use std::time::Duration;

use wow_guid_harness::protocol;
use wow_guid_harness::report;
use wow_guid_harness::report::Format;
use wow_guid_harness::run::{Counts, RunOutcome, RunResults, VectorResult};
use wow_guid_vectors::RequestKind;

use super::causes::Cause;
use super::implementations::ImplementationEntry;

/// Everything the matrix reports.
#[derive(Clone, Debug)]
pub struct Matrix {
    /// What it was run over.
    pub header: Header,
    /// One column per implementation, in the file's order.
    pub columns: Vec<Column>,
    /// One row per vector, in corpus order.
    pub rows: Vec<Row>,
}

/// One implementation's results.
#[derive(Clone, Debug)]
pub struct Column {
    /// The implementation, as the file describes it.
    pub entry: ImplementationEntry,
    /// Outcome counts over the whole corpus.
    pub counts: Counts,
    /// Outcome counts for each request kind, in protocol order.
    pub by_kind: Vec<(RequestKind, Counts)>,
    /// Distinct failure causes, most vectors first.
    pub causes: Vec<Cause>,
    /// Wall time of its run.
    pub duration: Duration,
}

/// One vector's results.
#[derive(Clone, Debug)]
pub struct Row {
    /// The vector id.
    pub id: String,
    /// The corpus file it is in.
    pub file: String,
    /// Its line in that file.
    pub line: usize,
    /// Its request kind.
    pub kind: RequestKind,
    /// Its flags, as written.
    pub flags: Vec<String>,
    /// The vector's description.
    pub description: String,
    /// The vector's `source` (a citation of the note its expectation comes
    /// from), if it gives one.
    pub source: Option<String>,
    /// The request line.
    pub request: String,
    /// What it expects, as `run` words it (strictness included).
    pub expected: String,
    /// One cell per column.
    pub cells: Vec<Cell>,
}

impl Row {
    /// The row of `result`'s vector, without cells yet.
    fn of(r: &VectorResult<'_>, strict_errors: bool) -> Self {
        Row {
            id: r.vector.id.clone(),
            file: r.vector.location.file.to_string(),
            line: r.vector.location.line,
            kind: r.vector.request.kind(),
            flags: r
                .vector
                .flags
                .iter()
                .map(|f| f.as_str().to_owned())
                .collect(),
            description: r.vector.description.clone(),
            source: r.vector.source.as_deref().map(str::to_owned),
            request: protocol::request_line(&r.vector.id, &r.vector.request),
            expected: report::expected_text(r, strict_errors),
            cells: Vec::new(),
        }
    }

    /// The group a row is shown in: its file and its first flag.
    #[must_use]
    pub fn group(&self) -> (&str, &str) {
        (
            &self.file,
            self.flags.first().map_or("no flag", String::as_str),
        )
    }

    /// Whether every implementation that answered (did not skip) got the
    /// same outcome. A row every implementation skips agrees.
    #[must_use]
    pub fn agrees(&self) -> bool {
        let mut answered = self
            .cells
            .iter()
            .map(|c| c.outcome)
            .filter(|o| *o != RunOutcome::Skipped);
        match answered.next() {
            None => true,
            Some(first) => answered.all(|o| o == first),
        }
    }
}

/// One implementation's result on one vector (serialized as `matrix.json`
/// has it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// Where the vector ended up.
    #[serde(serialize_with = "outcome_name")]
    pub outcome: RunOutcome,
    /// What came back, for every outcome but a pass or a skip.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub got: Option<String>,
    /// Why it did not pass, for every outcome but a pass or a skip.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// An outcome as its report word.
fn outcome_name<S: serde::Serializer>(outcome: &RunOutcome, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(outcome.as_str())
}

/// The outcomes a matrix cell can have (a matrix has no expected-failure
/// lists, so neither expected failures nor stale ones), in report order.
pub const CELL_OUTCOMES: [RunOutcome; 7] = [
    RunOutcome::Passed,
    RunOutcome::Failed,
    RunOutcome::Crashed,
    RunOutcome::TimedOut,
    RunOutcome::Malformed,
    RunOutcome::Skipped,
    RunOutcome::VectorBug,
];

impl Matrix {
    /// Builds the matrix from one run per implementation (each over the
    /// same vectors, in the same order) and each implementation's causes.
    ///
    /// # Panics
    /// If the runs are not over the same vectors.
    #[must_use]
    pub fn new(
        header: Header,
        runs: Vec<(ImplementationEntry, RunResults<'_>, Vec<Cause>)>,
    ) -> Self {
        let mut rows: Vec<Row> = Vec::new();
        let mut columns = Vec::with_capacity(runs.len());
        for (index, (entry, run, causes)) in runs.into_iter().enumerate() {
            if index == 0 {
                rows = run
                    .results
                    .iter()
                    .map(|r| Row::of(r, header.strict_errors))
                    .collect();
            }
            assert_eq!(
                rows.len(),
                run.results.len(),
                "every run covers the same vectors"
            );
            for (row, result) in rows.iter_mut().zip(&run.results) {
                assert_eq!(
                    row.id, result.vector.id,
                    "every run covers the same vectors"
                );
                row.cells.push(match result.outcome {
                    RunOutcome::Passed | RunOutcome::Skipped => Cell {
                        outcome: result.outcome,
                        got: None,
                        why: None,
                    },
                    _ => Cell {
                        outcome: result.outcome,
                        got: report::got_text(result),
                        why: report::reason_text(result, None),
                    },
                });
            }
            let by_kind: Vec<(RequestKind, Counts)> = RequestKind::ALL
                .iter()
                .map(|&kind| {
                    let of_kind: Vec<_> = run
                        .results
                        .iter()
                        .filter(|r| r.vector.request.kind() == kind)
                        .cloned()
                        .collect();
                    (kind, Counts::of(&of_kind))
                })
                .collect();
            columns.push(Column {
                entry,
                counts: run.counts,
                by_kind,
                causes,
                duration: run.duration,
            });
        }
        Self {
            header,
            columns,
            rows,
        }
    }

    /// Rows where the implementations disagree (see [`Row::agrees`]).
    #[must_use]
    pub fn disagreements(&self) -> usize {
        self.rows.iter().filter(|r| !r.agrees()).count()
    }
}

/// What a matrix was run over, besides its results.
#[derive(Clone, Debug)]
pub struct Header {
    /// `embedded`, or the corpus directory.
    pub corpus: String,
    /// Vectors in the corpus.
    pub corpus_size: usize,
    /// Whether error codes were judged strictly.
    pub strict_errors: bool,
    /// The implementations file, as given.
    pub implementations_file: String,
}

/// What the matrix's formats write: the matrix, and the command that builds
/// it again.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    /// The matrix.
    pub matrix: &'a Matrix,
    /// The command that builds it again (`MatrixOptions::rerun_line`).
    pub command: &'a str,
}

/// A format of the matrix's files.
pub type PageFormat = dyn for<'a> Format<Page<'a>> + Sync;
