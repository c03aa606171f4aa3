//! How a failed answer is classified: what kind of disagreement it is, and
//! what the corpus would expect of any request.
//!
//! `run`'s grouping by cause (`report::grouping`), the matrix and the
//! fuzzer all classify failures the same way, so it lives here, below them.
//!
//! - [`signature`]: what kind of disagreement a judged answer is.
//! - [`oracle`]: the expected outcome of any request, as the corpus would
//!   state it (the reference codec's answer, widened to `acceptable` where the
//!   corpus leaves implementations a choice).

pub mod oracle;
pub mod signature;

pub use signature::Signature;
