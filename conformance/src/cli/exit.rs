//! How a subcommand that ran to the end came out, as an exit status.

/// How a subcommand that ran to the end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything checked out: status 0.
    Success,
    /// A conformance failure (or lint finding, stale file...): status 1.
    Failure,
    /// The run finished but cannot give a verdict (the corpus itself is
    /// wrong): status 2.
    NoVerdict,
}

impl Exit {
    /// The process exit status.
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Failure => 1,
            Self::NoVerdict => 2,
        }
    }
}
