//! Unit tests that test modules through the crate's public and internal
//! API, kept out of `src/`.

mod classify_oracle;
mod classify_shrink;
mod classify_signature;
mod duration;
mod export;
mod fuzzing_finding;
mod fuzzing_session;
mod implementation;
mod judge;
mod known_failures;
mod lint;
mod list;
mod matrix_implementations;
mod matrix_json;
mod protocol;
mod reference;
mod report_failed;
mod report_grouping;
mod report_rerun;
mod run;
mod seed;
mod select;
mod serve;
