//! Differential fuzzing: hunting for requests on which an implementation and
//! the reference codec disagree, and handing each disagreement back as a
//! minimal vector for the corpus.
//!
//! A fixed corpus only catches the bugs someone thought of. `fuzz` generates
//! requests of the four kinds, sends them to the implementation over the same
//! line protocol and process machinery as `run` ([`crate::process`]), and
//! judges every answer with `run`'s judge ([`crate::judge`]) against what the
//! reference codec says ([`oracle`]). Each disagreement is classified by a
//! [`Signature`] (the request kind and what differed), so one bug is reported
//! once however often it shows; the first request with a new signature is
//! shrunk to the smallest request that still disagrees the same way and
//! written out as a YAML vector ([`finding`]).
//!
//! # Pieces
//!
//! - [`generate`]: seeded request generators. A SplitMix64 stream feeds
//!   [`arbitrary::Unstructured`], and every structural choice (mask pattern,
//!   byte class, truncation point, name length and UTF-8 class, corpus
//!   mutation) is drawn from it, so the same seed gives the same requests.
//! - [`oracle`]: the expected outcome of any request, as the corpus would
//!   state it (the reference codec's answer, widened to `acceptable` where the
//!   corpus leaves implementations a choice).
//! - [`signature`]: what kind of disagreement a judged answer is.
//! - [`shrink`]: reduces a disagreeing request (and, for implementations that
//!   keep state between calls, the requests before it) to a minimal one.
//! - [`finding`]: findings as YAML vectors in the corpus format, and
//!   appending them to a vector file.
//! - [`session`]: the loop: budgets, batches, unsupported kinds, grouping.
//! - [`summary`]: the text around the findings: a file header, and the
//!   summary that ends a session with the command that runs it again.
//!
//! This module reads the corpus, drives implementations through the
//! [`Implementation`](crate::implementation::Implementation) trait, and writes
//! only where the command line says (`--out`); it changes nothing else.

pub mod finding;
pub mod generate;
pub mod oracle;
pub mod session;
pub mod shrink;
pub mod signature;
pub mod summary;

use std::fmt;

use wow_guid_vectors::Request;

pub use signature::{Difference, Signature};

/// The four kinds of request, each of which an implementation may support or
/// not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `decode packed_guid`.
    DecodePacked,
    /// `encode packed_guid`.
    EncodePacked,
    /// `decode named_guid`.
    DecodeNamed,
    /// `encode named_guid`.
    EncodeNamed,
}

impl Kind {
    /// Every kind, in protocol order.
    pub const ALL: [Kind; 4] = [
        Kind::DecodePacked,
        Kind::EncodePacked,
        Kind::DecodeNamed,
        Kind::EncodeNamed,
    ];

    /// The kind of `request`.
    #[must_use]
    pub fn of(request: &Request) -> Self {
        match request {
            Request::DecodePacked { .. } => Self::DecodePacked,
            Request::EncodePacked { .. } => Self::EncodePacked,
            Request::DecodeNamed { .. } => Self::DecodeNamed,
            Request::EncodeNamed { .. } => Self::EncodeNamed,
        }
    }

    /// The kind as the protocol writes it: `decode packed_guid`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::DecodePacked => "decode packed_guid",
            Self::EncodePacked => "encode packed_guid",
            Self::DecodeNamed => "decode named_guid",
            Self::EncodeNamed => "encode named_guid",
        }
    }

    /// The kind as one word of a vector id (ids allow no `_`): `packed-decode`.
    #[must_use]
    pub const fn id_word(self) -> &'static str {
        match self {
            Self::DecodePacked => "packed-decode",
            Self::EncodePacked => "packed-encode",
            Self::DecodeNamed => "named-decode",
            Self::EncodeNamed => "named-encode",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
