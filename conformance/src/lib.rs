//! The conformance runner for World of Warcraft's `PackedGuid` and
//! `NamedGuid` wire types.
//!
//! The runner sends the vectors of the shared corpus (`wow-guid-vectors`)
//! to an implementation over a line protocol on stdin/stdout (see
//! `PROTOCOL.md`), judges every answer, and reports a verdict a CI job can
//! trust. The binary `wow-guid-conformance` is a thin layer over this
//! library. The command line is the binary's own module: this library takes
//! validated [`options`], and neither parses arguments nor depends on clap.
//!
//! # The API
//!
//! What a Rust user needs to run a corpus against an implementation from
//! code, in the order of a run:
//!
//! - load: [`wow_guid_vectors::Corpus`] (the embedded corpus, or a
//!   directory), and [`expect_fail`] for an expected-failure list;
//! - select: [`select`], which vectors run;
//! - the implementation: the [`Implementation`](implementation::Implementation)
//!   trait every tested thing sits behind, with its answers and faults;
//!   [`process`] for an external program (persistent or one-shot, with
//!   timeouts, restarts and process-group kills), [`reference`](mod@reference)
//!   for the reference codec in process, [`protocol`] for the wire format;
//! - run: [`run`], jobs and outcomes, with its [`options`];
//! - [`history`]: which failures show only after earlier requests (state
//!   carried between requests), and after which;
//! - judge: [`judge`], whether an answer satisfies a vector
//!   ([`run::judge_vector`] is the one judging path every command takes);
//! - report: [`report`], human, JSON and JUnit output.
//!
//! Everything else the binary, the benches, the tests and the fuzz targets
//! use (the other subcommands' logic, the matrix, the fuzzer, the
//! classification of failures, the rerun and report-reading helpers) is in
//! the hidden module `internal`: it is not part of the API, is not
//! documented here, and may change in any release.
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

mod classify;
mod doctor;
mod duration;
pub mod expect_fail;
mod export;
mod fuzzing;
pub mod history;
pub mod implementation;
pub mod judge;
mod known_failures;
mod lint;
mod list;
mod matrix;
pub mod options;
pub mod process;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod run;
mod seed;
pub mod select;
mod serve;
mod shell;
mod terminal;

/// Not part of the API: what the binary, the benches, the tests and the fuzz
/// targets need beyond it. Nothing here is covered by semver; it may change
/// in any release.
#[doc(hidden)]
pub mod internal {
    pub mod classify {
        pub use crate::classify::*;
    }
    pub mod doctor {
        pub use crate::doctor::*;
    }
    pub mod duration {
        pub use crate::duration::*;
    }
    pub mod export {
        pub use crate::export::*;
    }
    pub mod fuzzing {
        pub use crate::fuzzing::*;
    }
    pub mod known_failures {
        pub use crate::known_failures::*;
    }
    pub mod lint {
        pub use crate::lint::*;
    }
    pub mod list {
        pub use crate::list::*;
    }
    pub mod matrix {
        pub use crate::matrix::*;
    }
    pub mod seed {
        pub use crate::seed::*;
    }
    pub mod serve {
        pub use crate::serve::*;
    }
    pub mod shell {
        pub use crate::shell::*;
    }
    pub mod terminal {
        pub use crate::terminal::*;
    }
    pub mod report {
        pub use crate::report::{block, expect_fail_list, failed, grouping, rerun};
    }
}
