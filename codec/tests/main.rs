//! The codec's tests, in one binary (one link, modules run side by side):
//! every vector of the corpus through every implementation (`corpus`), the
//! exhaustive and differential checks against the naive model, the property
//! harnesses (bolero), the committed fuzz regressions, the public API, and
//! the crate's floor plan (`layers`).

mod api;
mod corpus;
mod exhaustive;
mod fuzz_regressions;
mod implementations;
mod layers;
mod named;
mod properties;
mod roundtrip;
mod support;
