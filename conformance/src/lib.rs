//! The conformance runner's own code: the tools of the `wow-guid-conformance`
//! binary beyond the harness it is built on (`wow-guid-harness`, which runs,
//! judges and reports). This library exists for the binary, its tests, its
//! benches and the fuzz targets; it is not an API and promises nothing from
//! one release to the next. A Rust user who wants to run the corpus against
//! an implementation from code depends on `wow-guid-harness`.
//!
//! Each module's own docs say what it is for (rustdoc lists them below).

pub mod destination;
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
