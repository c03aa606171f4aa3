//! The test harness for World of Warcraft's `PackedGuid` and `NamedGuid`
//! wire types: what a Rust user depends on to check an implementation
//! against the shared corpus.
//!
//! The harness sends the corpus's vectors (`wow-guid-vectors`) to an
//! implementation, judges every answer, and reports a verdict a CI job can
//! trust. The implementation is anything behind the [`Implementation`]
//! trait: a program over the line protocol on stdin/stdout (`PROTOCOL.md`
//! beside the runner), the reference codec in this process, or a fake for
//! tests. The runner, `wow-guid-conformance`, is this library behind a
//! command line, plus its own fuzzer, matrix, `doctor` and corpus tools;
//! this crate parses no command line.
//!
//! # The API, in the order of a run
//!
//! - load: [`wow_guid_vectors::Corpus`] (the embedded corpus, or a
//!   directory), and [`expect_fail`] for an expected-failure list;
//! - select: [`select`], which vectors run;
//! - the implementation: the [`Implementation`] trait every tested thing
//!   sits behind, with its answers and faults; [`process`] for an external
//!   program (persistent or one-shot, with timeouts, restarts and
//!   process-group kills), [`reference`](mod@reference) for the reference
//!   codec in process, [`protocol`] for the wire format, [`serve`] for the
//!   other side of it;
//! - run: [`run`], jobs and outcomes, with its [`options`];
//! - judge: [`judge`], whether an answer satisfies a vector
//!   ([`run::judge_vector`] is the one judging path every command takes),
//!   and [`classify`], what kind of disagreement a failure is, what the
//!   corpus expects of any request, and the smallest request that still
//!   fails the same way;
//! - report: [`report`], human, JSON and JUnit output.
//!
//! # Example: judge an implementation from code
//!
//! ```
//! use wow_guid_harness::implementation::{Implementation, Query};
//! use wow_guid_harness::judge::{judge, JudgeOptions};
//! use wow_guid_harness::reference::Reference;
//! use wow_guid_vectors::{Expectation, Request, Value};
//!
//! let request = Request::DecodePacked { bytes: vec![0x0a, 0xde, 0xad] };
//! let answers = Reference
//!     .answer_all(&[Query { id: "example", request: &request }])
//!     .unwrap();
//! let expect = Expectation::Valid(Value::Packed { guid: 0xad00_de00, consumed: 3 });
//! assert!(judge(&request, &expect, &answers[0].reply, JudgeOptions::default()).is_pass());
//! ```
//!
//! [`Implementation`]: implementation::Implementation

pub mod classify;
pub mod duration;
mod excerpt;
pub mod expect_fail;
pub mod implementation;
pub mod judge;
pub mod options;
pub mod process;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod run;
pub mod select;
pub mod serve;
pub mod shell;
pub mod terminal;
