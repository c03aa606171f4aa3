//! How a failed answer is classified: what kind of disagreement it is, what
//! the corpus would expect of any request, and the smallest request that
//! still fails the same way.
//!
//! `run` groups its failures by cause (`report::grouping`), `matrix` names
//! each implementation's causes with a minimal input (`matrix::causes`) and
//! `fuzz` reports each bug once and shrinks it (`fuzzing`): all three
//! classify failures the same way, so the classification lives here, below
//! them, and imports none of them.
//!
//! - [`signature`]: what kind of disagreement a judged answer is.
//! - [`oracle`]: the expected outcome of any request, as the corpus would
//!   state it (the reference codec's answer, widened to `acceptable` where the
//!   corpus leaves implementations a choice).
//! - [`shrink`]: reduces a disagreeing request (and, for implementations that
//!   keep state between calls, the requests before it) to a minimal one.

pub mod oracle;
pub mod shrink;
pub mod signature;

pub use signature::{Difference, Signature};

/// The byte values that find bugs: zero, one, either side of the sign bit,
/// all ones. The request generators draw them and the shrinker tries them.
pub const INTERESTING_BYTES: [u8; 5] = [0x00, 0x01, 0x7f, 0x80, 0xff];
