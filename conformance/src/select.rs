//! Choosing which vectors a run covers.
//!
//! A [`Selection`] is a set of filters: id globs, types, operations, flags,
//! versions, and lists of exact ids ([`IdSet`]: an id file, the failures of
//! an earlier report). Within one kind of filter any match is enough
//! (`--flag a --flag b` selects vectors with either flag); across kinds all
//! must match, and every id list must hold the id. A kind with no filter
//! matches everything. Pure; no I/O.

use std::collections::HashSet;
use std::fmt;

use globset::{Glob, GlobSet, GlobSetBuilder};
use wow_guid_vectors::{Flag, GuidType, Op, Vector, Version};

/// Which vectors to run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    ids: Option<GlobSet>,
    patterns: Vec<String>,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPattern {
    /// The pattern as given.
    pub pattern: String,
    /// What the glob parser objected to.
    pub message: String,
}

impl fmt::Display for BadPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad id pattern `{}`: {}", self.pattern, self.message)
    }
}

impl std::error::Error for BadPattern {}

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
            self.patterns.clear();
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
        self.patterns = patterns.to_vec();
        Ok(self)
    }

    /// The id patterns, as given.
    #[must_use]
    pub fn id_patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether no filter is set.
    #[must_use]
    pub fn is_everything(&self) -> bool {
        self.ids.is_none()
            && self.types.is_empty()
            && self.ops.is_empty()
            && self.flags.is_empty()
            && self.versions.is_empty()
            && self.id_sets.is_empty()
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

    /// The selected vectors of `vectors` (in corpus order), in their order.
    /// A sequence ([`Vector::sequence`]) is kept whole: if any of its steps
    /// is selected, all of them are, because their point is running in
    /// order with nothing in between.
    pub fn apply<'c>(&self, vectors: &'c [Vector]) -> Vec<&'c Vector> {
        let mut keep: Vec<bool> = vectors.iter().map(|v| self.matches(v)).collect();
        let mut start = 0;
        while start < vectors.len() {
            let mut end = start + 1;
            while end < vectors.len() && vectors[end - 1].same_sequence(&vectors[end]) {
                end += 1;
            }
            if keep[start..end].iter().any(|&k| k) {
                keep[start..end].fill(true);
            }
            start = end;
        }
        vectors
            .iter()
            .zip(keep)
            .filter_map(|(v, k)| k.then_some(v))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use wow_guid_vectors::{ErrorCode, Expectation, Location, Request, Value};

    /// A small hand-built corpus for unit tests across the crate.
    pub(crate) fn sample() -> Vec<Vector> {
        let v = |id: &str,
                 request: Request,
                 expect: Expectation,
                 flags: Vec<Flag>,
                 versions: Vec<Version>| Vector {
            id: id.into(),
            sequence: None,
            description: format!("sample {id}"),
            request,
            expect,
            flags: flags.into(),
            versions: versions.into(),
            source: None,
            location: Location {
                file: "sample.yaml".into(),
                line: 1,
                column: 5,
            },
        };
        let all = || vec![Version::Vanilla, Version::Tbc, Version::Wrath];
        vec![
            v(
                "packed.decode.doc-example",
                Request::DecodePacked {
                    bytes: vec![0x0a, 0xde, 0xad],
                },
                Expectation::Valid(Value::Packed {
                    guid: 0xad00_de00,
                    consumed: 3,
                }),
                Flag::ALL.iter().take(1).copied().collect(),
                all(),
            ),
            v(
                "packed.decode.empty",
                Request::DecodePacked { bytes: vec![] },
                Expectation::Invalid(ErrorCode::Eof),
                vec![],
                all(),
            ),
            v(
                "packed.encode.zero",
                Request::EncodePacked { guid: 0 },
                Expectation::Valid(Value::Encoded { bytes: vec![0] }),
                vec![],
                all(),
            ),
            v(
                "named.decode.zero",
                Request::DecodeNamed { bytes: vec![0; 8] },
                Expectation::Valid(Value::Named {
                    guid: 0,
                    consumed: 8,
                    name: None,
                }),
                vec![],
                vec![Version::Tbc, Version::Wrath],
            ),
            v(
                "named.encode.name-without-guid",
                Request::EncodeNamed {
                    guid: 0,
                    name: Some(b"x".to_vec()),
                },
                Expectation::Invalid(ErrorCode::NameWithoutGuid),
                vec![],
                vec![Version::Tbc, Version::Wrath],
            ),
        ]
    }

    fn ids(sel: &Selection, vectors: &[Vector]) -> Vec<String> {
        sel.apply(vectors).iter().map(|v| v.id.clone()).collect()
    }

    #[test]
    fn filters_combine_with_and_across_kinds_and_or_within() {
        let vectors = sample();
        assert_eq!(ids(&Selection::all(), &vectors).len(), 5);
        let sel = Selection::all()
            .with_id_patterns(&["packed.*".into()])
            .unwrap();
        assert_eq!(ids(&sel, &vectors).len(), 3);
        let mut sel = sel;
        sel.ops = vec![Op::Encode];
        assert_eq!(ids(&sel, &vectors), ["packed.encode.zero"]);
        let mut sel = Selection::all()
            .with_id_patterns(&["*.zero".into(), "*.empty".into()])
            .unwrap();
        assert_eq!(ids(&sel, &vectors).len(), 3);
        sel.types = vec![GuidType::NamedGuid];
        assert_eq!(ids(&sel, &vectors), ["named.decode.zero"]);
        let mut sel = Selection::all();
        sel.versions = vec![Version::Vanilla];
        assert_eq!(ids(&sel, &vectors).len(), 3);
        let mut sel = Selection::all();
        sel.flags = vec![Flag::ALL[0]];
        assert_eq!(ids(&sel, &vectors), ["packed.decode.doc-example"]);
    }

    #[test]
    fn every_id_list_must_hold_the_id() {
        let vectors = sample();
        let set = |ids: &[&str]| IdSet {
            origin: "test".into(),
            ids: ids.iter().map(|&id| id.to_owned()).collect(),
        };
        let mut sel = Selection::all();
        sel.id_sets = vec![set(&["packed.decode.empty", "named.decode.zero"])];
        assert!(!sel.is_everything());
        assert_eq!(
            ids(&sel, &vectors),
            ["packed.decode.empty", "named.decode.zero"]
        );
        sel.id_sets
            .push(set(&["named.decode.zero", "packed.encode.zero"]));
        assert_eq!(ids(&sel, &vectors), ["named.decode.zero"]);
        sel.types = vec![GuidType::PackedGuid];
        assert!(ids(&sel, &vectors).is_empty());
    }

    /// Steps 1 and 2 form sequence `s`; step 3 of another file is alone.
    pub(crate) fn with_a_sequence() -> Vec<Vector> {
        let mut vectors = sample();
        for v in &mut vectors[1..3] {
            v.flags = [Flag::Stateful].into();
            v.sequence = Some("s".into());
        }
        vectors[3].location.file = "other.yaml".into();
        vectors
    }

    #[test]
    fn sequences_are_selected_whole_and_only_by_name() {
        let vectors = with_a_sequence();
        let sel = Selection::all()
            .with_id_patterns(&["packed.encode.zero".into()])
            .unwrap();
        assert_eq!(
            ids(&sel, &vectors),
            ["packed.decode.empty", "packed.encode.zero"]
        );
        // Neighbours flagged alike, but not named alike, are not pulled in.
        let mut vectors = vectors;
        vectors[0].flags = [Flag::Stateful].into();
        vectors[0].sequence = Some("t".into());
        assert_eq!(
            ids(&sel, &vectors),
            ["packed.decode.empty", "packed.encode.zero"]
        );
    }

    /// The corpus's packed sequences sit side by side in one file; selecting
    /// encodes takes the encode sequence and nothing of the decode one.
    #[test]
    fn an_encode_selection_pulls_no_decode_into_a_sequence() {
        let corpus = wow_guid_vectors::Corpus::embedded().unwrap();
        let mut sel = Selection::all()
            .with_id_patterns(&["packed.encode.stateful.03-zero".into()])
            .unwrap();
        sel.ops = vec![Op::Encode];
        let chosen = sel.apply(&corpus.vectors);
        assert_eq!(chosen.len(), 8);
        assert!(chosen.iter().all(|v| v.request.op() == Op::Encode));
        let mut sel = Selection::all();
        sel.ops = vec![Op::Encode];
        assert!(sel
            .apply(&corpus.vectors)
            .iter()
            .all(|v| v.request.op() == Op::Encode));
    }

    #[test]
    fn a_bad_glob_is_an_error() {
        let err = Selection::all()
            .with_id_patterns(&["packed.[".into()])
            .unwrap_err();
        assert_eq!(err.pattern, "packed.[");
        assert!(err.to_string().starts_with("bad id pattern `packed.[`"));
    }
}
