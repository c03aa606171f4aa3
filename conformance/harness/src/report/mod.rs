//! Turning run results into reports: a summary for people, JSON for tools,
//! JUnit XML for CI dashboards, and the expected-failure list of a run.
//!
//! Each format is a file behind [`Format`], listed in [`FILES`]. `text`
//! words "expected", "got" and "why" for every format; `field` cuts long
//! fields in text; [`block`] writes a person's lines about one vector, and
//! [`rerun`] every command that gives a verdict again. Formats write to
//! the `io::Write` given and touch nothing else.

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
