//! The runner's tests: the binary driven as users drive it (adapters, CLI,
//! crashes and hangs, reports, fuzzing, the matrix) and its own modules
//! through its library (`units`). One binary, so a change links one test
//! executable; the harness's own tests are in `harness/tests/`.

mod common;
#[path = "../harness/tests/fixtures.rs"]
mod fixtures;
mod units;

mod adapters;
mod chaos;
mod cli;
mod crashes;
mod doc_references;
mod fuzz_budget;
mod fuzzing;
mod hangs;
mod junit;
mod layers;
mod list_and_rerun;
mod matrix;
mod population;
mod protocol_table;
mod read_back;
mod release;
mod report_json;
mod robustness;
mod source_and_hints;
mod stateful;
mod summary;
mod vocabulary;
