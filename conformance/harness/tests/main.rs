//! The harness's tests, one module per module of the library, through its
//! public API; one binary, so a change links one test executable.

mod fixtures;

mod classify_oracle;
mod classify_signature;
mod implementation;
mod judge;
mod layers;
mod protocol;
mod reference;
mod report_grouping;
mod report_rerun;
mod run;
mod select;
mod serve;
