//! Turning run results into reports: a summary for people, JSON for tools,
//! JUnit XML for CI dashboards, and the expected-failure list of a run.
//!
//! Each format lives in its own file behind [`Format`] and is listed in
//! [`FILES`]. The wording of "expected", "got" and "why" is shared (`text`)
//! so that every format says the same thing about a vector; `field` decides how a long field is cut in
//! text (JSON and JUnit keep it whole); [`block`] writes the lines a person reads
//! about one vector (in `run`'s summary and in `repro`), and [`rerun`] every
//! command line that gives a verdict again. Formats write to the
//! `io::Write` they are given and touch nothing else.

pub mod block;
mod document;
pub mod expect_fail_list;
pub mod field;
pub mod grouping;
mod hint;
pub mod human;
pub mod json;
pub mod junit;
pub mod rerun;
mod text;

pub use document::{FileFormat, Format, RunFormat, RunReport};
pub(crate) use hint::hint_text;
pub use text::{expected_text, got_text, reason_text};
pub(crate) use text::{passes_alone_text, unchecked, UNCHECKED};

/// Every file a run can write besides its summary, by option, in the order
/// a run writes them.
pub const FILES: &[FileFormat] = &[
    FileFormat {
        option: "report-json",
        help: "Also write the results as JSON: format version 3, described field by field in \
               conformance/REPORT.md and as a JSON Schema in conformance/report.schema.json, in \
               the repository https://github.com/wow-guid/wow-guid.",
        format: &json::Json,
        note: None,
    },
    FileFormat {
        option: "junit",
        help: "Also write the results as JUnit XML: a suite per corpus file, a test case per \
               vector, each timed from writing its request to reading its answer (pipelined \
               requests include waiting behind the ones ahead; --window 1 times each alone).",
        format: &junit::Junit,
        note: None,
    },
    FileFormat {
        option: "write-expect-fail",
        help: "Write every vector this run fails, each with a one-line reason, as a list \
               --expect-fail reads (to adopt the runner with a green run, then review the list).",
        format: &expect_fail_list::ExpectFailList,
        note: Some(expect_fail_list::note),
    },
];
