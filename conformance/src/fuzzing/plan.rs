//! What a fuzzing session is asked to do ([`Plan`]) and what each
//! implementation it starts is for ([`Role`]): below the loop
//! ([`super::session`]) and the investigation of findings
//! ([`super::investigate`]), which both read them.

use std::time::{Duration, Instant};

use wow_guid_harness::judge::JudgeOptions;

use crate::history::Limits;

/// What to do.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The seed of the generators.
    pub seed: u64,
    /// When the run ends, shrinking included (see the module docs).
    pub deadline: Option<Instant>,
    /// Stop after this many requests.
    pub count: Option<u64>,
    /// Stop after this many distinct findings.
    pub max_findings: Option<usize>,
    /// How answers are judged.
    pub judge: JudgeOptions,
    /// How much work shrinking one finding may take.
    pub shrink: Limits,
}

impl Plan {
    /// The seed unless one is given: fixed, so that a CI job is
    /// reproducible unless it asks for variety.
    pub const DEFAULT_SEED: u64 = 1;

    /// The time budget when no budget is given at all.
    pub const DEFAULT_TIME: Duration = Duration::from_secs(10);
}

/// What an implementation from `launch` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The long-running one that answers generated requests.
    Fuzz,
    /// One that answers many shrinking candidates (it will be sent requests
    /// that make it fail, over and over).
    Shrink,
    /// A fresh one for a single short sequence.
    Replay,
}
