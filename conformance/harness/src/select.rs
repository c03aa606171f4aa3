//! Choosing which vectors a run covers.
//!
//! A [`Selection`] is a set of filters: id globs, types, operations, flags,
//! versions, and lists of exact ids ([`IdSet`]: an id file, the failures of
//! an earlier report). Within one kind of filter any match is enough
//! (`--flag a --flag b` selects vectors with either flag); across kinds all
//! must match, and every id list must hold the id. A kind with no filter
//! matches everything. Pure; no I/O.

use std::collections::HashSet;

use globset::{Glob, GlobSet, GlobSetBuilder};
use wow_guid_vectors::{Flag, GuidType, Op, Vector, Version};

/// Which vectors to run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    ids: Option<GlobSet>,
    /// Vectors of any of these types (all when empty).
    pub types: Vec<GuidType>,
    /// Vectors of any of these operations (all when empty).
    pub ops: Vec<Op>,
    /// Vectors carrying any of these flags (all when empty).
    pub flags: Vec<Flag>,
    /// Vectors valid for any of these versions (all when empty).
    pub versions: Vec<Version>,
    /// Vectors whose id every one of these lists holds (all when empty).
    pub id_sets: Vec<IdSet>,
}

/// A list of exact vector ids to select, and where it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdSet {
    /// Where the ids came from, as the command line names it (e.g.
    /// `--id-file known.txt`), for messages.
    pub origin: String,
    /// The ids.
    pub ids: HashSet<String>,
}

/// An id pattern that is not a valid glob.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad id pattern `{pattern}`: {message}")]
pub struct BadPattern {
    /// The pattern as given.
    pub pattern: String,
    /// What the glob parser objected to.
    pub message: String,
}

impl Selection {
    /// Everything.
    #[must_use]
    pub fn all() -> Self {
        Self::default()
    }

    /// Restricts to ids matching any of `patterns` (shell globs: `*`, `?`,
    /// `[...]`, `{a,b}`). No patterns means no restriction.
    ///
    /// # Errors
    /// [`BadPattern`] for the first pattern that is not a valid glob.
    pub fn with_id_patterns(mut self, patterns: &[String]) -> Result<Self, BadPattern> {
        if patterns.is_empty() {
            self.ids = None;
            return Ok(self);
        }
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            let glob = Glob::new(pattern).map_err(|e| BadPattern {
                pattern: pattern.clone(),
                message: e.kind().to_string(),
            })?;
            builder.add(glob);
        }
        self.ids = Some(builder.build().map_err(|e| BadPattern {
            pattern: patterns.join(" "),
            message: e.to_string(),
        })?);
        Ok(self)
    }

    /// Whether `vector` is selected.
    #[must_use]
    pub fn matches(&self, vector: &Vector) -> bool {
        fn any<T: PartialEq>(wanted: &[T], has: impl FnOnce(&[T]) -> bool) -> bool {
            wanted.is_empty() || has(wanted)
        }
        self.ids.as_ref().is_none_or(|set| set.is_match(&vector.id))
            && any(&self.types, |t| t.contains(&vector.request.guid_type()))
            && any(&self.ops, |o| o.contains(&vector.request.op()))
            && any(&self.flags, |f| f.iter().any(|f| vector.flags.contains(f)))
            && any(&self.versions, |v| {
                v.iter().any(|v| vector.versions.contains(v))
            })
            && self.id_sets.iter().all(|set| set.ids.contains(&vector.id))
    }

    /// The selected vectors of `vectors`, in order. A sequence
    /// ([`Vector::sequence`]) is kept whole: if any step is selected, all
    /// are, as they run in order with nothing in between.
    pub fn apply<'c>(&self, vectors: &'c [Vector]) -> Vec<&'c Vector> {
        vectors
            .chunk_by(|a, b| a.same_sequence(b))
            .filter(|steps| steps.iter().any(|v| self.matches(v)))
            .flatten()
            .collect()
    }
}
