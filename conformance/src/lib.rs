//! The conformance runner's own code: the tools of the `wow-guid-conformance`
//! binary beyond the harness it is built on (`wow-guid-harness`, which runs,
//! judges and reports). This library exists for the binary, its tests, its
//! benches and the fuzz targets; it is not an API and promises nothing from
//! one release to the next. A Rust user who wants to run the corpus against
//! an implementation from code depends on `wow-guid-harness`.
//!
//! - [`disagreement`]: how one answer compares with the reference (the
//!   fuzzer's and the shrinker's judgement);
//! - [`fuzzing`]: differential fuzzing of an implementation against the
//!   reference codec (`fuzz`);
//! - [`matrix`]: several implementations side by side (`matrix`);
//! - [`doctor`]: what is wrong with an adapter that does not talk the
//!   protocol yet (`doctor`);
//! - [`history`]: which of `run`'s failures show only after earlier
//!   requests (state carried between requests), and after which;
//! - [`shrink`]: a disagreeing request (and the requests before it) cut
//!   down to a minimal one, for `fuzz` and `matrix`;
//! - [`duration`]: durations as the command line reads them;
//! - [`format`](mod@format): formats chosen by name on the command line;
//! - [`lint`], [`seed`], [`export`], [`list`]: the corpus tools;
//! - [`known_failures`]: the shipped expected-failure lists, which mark a
//!   fuzz finding known or new;
//! - [`report_reader`]: the ids that failed, read back from a JSON report
//!   (`--rerun-failed`).

pub mod disagreement;
pub mod doctor;
pub mod duration;
pub mod export;
pub mod format;
pub mod fuzzing;
pub mod history;
pub mod known_failures;
pub mod lint;
pub mod list;
pub mod matrix;
pub mod report_reader;
pub mod seed;
pub mod shrink;
