//! The vectors crate's tests, in one binary (one link, modules run side by
//! side): the corpus and its generated files (`corpus`), citations and
//! releases, the fault model's coverage, hostile and broken input to the
//! loader, the docs' word lists, and unit tests through the API (`units`).
//! The floor plan check (`tests/layers.rs`) is a binary of its own: it needs
//! the unpublished dev tool `wow-guid-layers`, which the packaged crate
//! (tested on its own in CI) does not have.

mod broken;
mod citations;
mod corpus;
mod docs;
mod fault_model;
mod hostile;
mod read_bounded;
mod release;
mod units;
