//! Unit tests of the runner's own modules, through its library.

mod duration;
mod export;
mod fuzzing_finding;
mod fuzzing_session;
mod known_failures;
mod lint;
mod list;
mod matrix_implementations;
mod matrix_json;
mod report_failed;
mod seed;
mod shrink;
