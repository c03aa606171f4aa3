//! How a failed answer is classified: what kind of disagreement it is, and
//! what the corpus would expect of any request.
//!
//! `run` groups its failures by cause (`report::grouping`), the runner's
//! matrix names each implementation's causes and its fuzzer reports each
//! bug once: all of them classify failures the same way, so the
//! classification lives here, below them, and imports none of them.
//!
//! - [`signature`]: what kind of disagreement a judged answer is.
//! - [`oracle`]: the expected outcome of any request, as the corpus would
//!   state it (the reference codec's answer, widened to `acceptable` where the
//!   corpus leaves implementations a choice).

pub mod oracle;
pub mod signature;

pub use signature::Signature;
