//! Differential fuzzing: hunting for requests on which an implementation and
//! the reference codec disagree, and handing each disagreement back as a
//! minimal vector for the corpus.
//!
//! A fixed corpus only catches the bugs someone thought of. `fuzz` generates
//! requests of the six kinds (an adapter's `unsupported` kinds, such as the
//! optional `size`, are not drawn again), sends them to the implementation over the same
//! line protocol and process machinery as `run` ([`wow_guid_harness::process`]), and
//! judges every answer with `run`'s judge ([`wow_guid_harness::judge`]) against what the
//! reference codec says ([`wow_guid_harness::classify::oracle`]). Each disagreement is
//! classified by a [`Signature`](wow_guid_harness::classify::Signature) (the request kind
//! and what differed), so one bug is reported once however often it shows;
//! the first request with a new signature is shrunk
//! ([`crate::shrink`]) to the smallest request that still disagrees
//! the same way and written out as a YAML vector ([`finding`]). Every encode
//! answered with bytes the reference agrees with is also read back: the
//! implementation must decode its own answer to the value encoded
//! ([`round_trip`]), and one that writes what it cannot read is a finding
//! of its own.
//!
//! This module reads the corpus, drives implementations through the
//! [`Implementation`](wow_guid_harness::implementation::Implementation) trait, and writes
//! only where the command line says (`--out`); it changes nothing else.

pub mod ahead;
pub mod append;
pub mod finding;
pub mod investigate;
pub mod plan;
pub mod requests;
pub mod round_trip;
pub mod session;
pub mod summary;

use std::path::PathBuf;

use wow_guid_vectors::Corpus;

use wow_guid_harness::options::Conditions;

/// `fuzz`: a differential fuzzing session against an implementation.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// The conditions every answer is judged under (no expected failures).
    pub conditions: Conditions,
    /// The corpus whose requests are mutated.
    pub corpus: Corpus,
    /// Seed, budgets and limits; its `judge` is `conditions.judge`.
    pub plan: session::Plan,
    /// The vector file the findings are appended to, if any.
    pub out: Option<PathBuf>,
    /// Whether `out` gets every finding, or only the new ones.
    pub out_all: bool,
}
