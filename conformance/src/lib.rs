//! The conformance runner for World of Warcraft's `PackedGuid` and
//! `NamedGuid` wire types.
//!
//! The runner sends the vectors of the shared corpus (`wow-guid-vectors`)
//! to an implementation over a line protocol on stdin/stdout (see
//! `PROTOCOL.md`), judges every answer, and reports a verdict a CI job can
//! trust. The binary `wow-guid-conformance` is a thin layer over this
//! library, whose pieces are meant to be reused (the differential fuzzer
//! drives [`process::ProcessImplementation`] and [`judge`] directly). The
//! command line is the binary's own module: this library takes validated
//! [`options`], and neither parses arguments nor depends on clap.
//!
//! # Layers
//!
//! - [`protocol`]: the wire format, both directions. No I/O.
//! - [`implementation`]: the [`Implementation`](implementation::Implementation)
//!   trait every tested thing sits behind, with its answers and faults, and a
//!   scripted mock.
//! - [`process`]: external programs as implementations, persistent
//!   (pipelined) or one-shot, with timeouts, restarts and process-group kills.
//! - [`reference`](mod@reference): the reference codec as an implementation, in process.
//! - [`judge`]: whether an answer satisfies a vector.
//! - [`select`], [`expect_fail`]: which vectors run, and which may fail;
//!   [`list`]: the selected vectors as text or JSON (`list`).
//! - [`run`]: the one judging path ([`run::judge_vector`]) that `run`,
//!   `repro` ([`run::reproduce`]) and `matrix` share, and the core of
//!   `run`: jobs and outcomes.
//! - [`report`]: human, JSON and JUnit output, the one writer of a
//!   vector's block ([`report::block`], `run` and `repro`) and of rerun
//!   commands ([`report::rerun`]); [`shell`]: commands people can paste.
//! - [`matrix`]: the whole corpus against several implementations side by
//!   side (`matrix`): the implementations file, the runs, JSON, Markdown and HTML.
//! - [`serve`], [`lint`], [`seed`], [`doctor`], [`export`], [`fuzzing`]: the other
//!   subcommands' logic.
//! - [`options`]: the validated options of the subcommands that judge an
//!   implementation, and the [`Conditions`](options::Conditions) every
//!   verdict and rerun command is made under; [`duration`]: durations as
//!   the command line spells them.
//!
//! # Example: judge an implementation from code
//!
//! ```
//! use wow_guid_conformance::implementation::{Implementation, Query};
//! use wow_guid_conformance::judge::{judge, JudgeOptions};
//! use wow_guid_conformance::reference::Reference;
//! use wow_guid_vectors::{Expectation, Request, Value};
//!
//! let request = Request::DecodePacked { bytes: vec![0x0a, 0xde, 0xad] };
//! let answers = Reference
//!     .answer_all(&[Query { id: "example", request: &request }])
//!     .unwrap();
//! let expect = Expectation::Valid(Value::Packed { guid: 0xad00_de00, consumed: 3 });
//! assert!(judge(&request, &expect, &answers[0].reply, JudgeOptions::default()).is_pass());
//! ```

pub mod doctor;
pub mod duration;
pub mod expect_fail;
pub mod export;
pub mod fuzzing;
pub mod implementation;
pub mod judge;
pub mod known_failures;
pub mod lint;
pub mod list;
pub mod matrix;
pub mod options;
pub mod process;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod run;
pub mod seed;
pub mod select;
pub mod serve;
pub mod shell;
// The binary prints through it; not part of the documented API.
#[doc(hidden)]
pub mod terminal;
