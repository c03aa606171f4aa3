//! A vector as a whole: the file's list of vectors, each vector's fields
//! beside `input` and `expect`, and the rules that tie its fields together
//! (`why` with outcome `acceptable`, `sequence` with the flag `stateful`,
//! `versions` with the type). Only a vector without any fault comes out.

use serde_saphyr::Spanned;

use super::super::fields::{FILE_FIELDS, VECTOR_FIELDS, VECTOR_FIELDS_WITHOUT_WHY};
use super::super::tree::Node;
use super::expectations::Unjudged;
use super::{Fields, Reader};
use crate::error::{Expected, LoadErrorKind, Section};
use crate::model::{Expectation, Location, Vector};
use crate::vocab::{Flag, GuidType, Op, Outcome, Version};

/// The words of a list, without where each was written.
fn words<T>(located: Vec<(T, Location)>) -> Vec<T> {
    located.into_iter().map(|(word, _)| word).collect()
}

impl Reader<'_> {
    /// Reads a whole file: `vectors:` and the list under it.
    pub(in crate::yaml) fn read_file(&mut self, root: &Spanned<Node>) -> Vec<Vector> {
        let Some(top) = self.fields(root, "file", Section::File, FILE_FIELDS, FILE_FIELDS) else {
            return Vec::new();
        };
        let Some(list) = self.required(&top, "vectors") else {
            return Vec::new();
        };
        let Node::Seq(items) = &list.value else {
            self.wrong_type(list, "vectors", Expected::List);
            return Vec::new();
        };
        if items.is_empty() {
            self.error(self.src.location(list), LoadErrorKind::NoVectors);
        }
        items
            .iter()
            .filter_map(|item| self.read_vector(item))
            .collect()
    }

    fn read_vector(&mut self, node: &Spanned<Node>) -> Option<Vector> {
        // Counted before the keys are checked: a vector with an unknown,
        // repeated or misplaced field is faulty, and does not load.
        let errors_before = self.errors.len();
        let fields = self.fields(
            node,
            "vectors[]",
            Section::Vector(None),
            VECTOR_FIELDS,
            VECTOR_FIELDS,
        )?;

        let id = self.required_as(&fields, "id", Self::name);
        let sequence = self.optional(&fields, "sequence", Self::name);
        let description = self.required_as(&fields, "description", |r, n, f| r.text(n, f, true));
        let guid_type = self.required_as(&fields, "type", Self::word::<GuidType>);
        let op = self.required_as(&fields, "op", Self::word::<Op>);
        let outcome = self.required_as(&fields, "outcome", Self::word::<Outcome>);
        let kind = guid_type.zip(op);

        let request = self.required_as(&fields, "input", |r, n, _| r.input(n, kind));
        let expect_node = self.required(&fields, "expect");
        let why = self.why(&fields, outcome);
        let expect = expect_node.and_then(|n| {
            self.expect(
                n,
                kind.zip(outcome).map(|((t, o), out)| (t, o, out)),
                request.as_ref(),
            )
        });
        let flags = self
            .optional(&fields, "flags", Self::words::<Flag>)
            .map(Option::unwrap_or_default);
        if let (Some(flags), Some(sequence)) = (&flags, &sequence) {
            self.sequence_and_flag(&fields, flags, sequence.as_deref());
        }
        let versions = self.required_as(&fields, "versions", |r, n, _| r.versions(n, guid_type));
        let source = self.optional(&fields, "source", |r, n, f| r.text(n, f, true));

        if self.errors.len() != errors_before {
            return None;
        }
        let expect = match (expect?, why) {
            (Unjudged::Valid(value), _) => Expectation::Valid(value),
            (Unjudged::Invalid(code), _) => Expectation::Invalid(code),
            (Unjudged::Acceptable(value), Some(why)) => Expectation::Acceptable { value, why },
            (Unjudged::Acceptable(_), None) => return None,
        };
        Some(Vector {
            id: id?,
            sequence: sequence?,
            description: description?,
            request: request?,
            expect,
            flags: self.interner.flags(&words(flags?)),
            versions: self.interner.versions(&versions?),
            source: source?.map(|source| self.interner.source(&source)),
            location: fields.location,
        })
    }

    /// A vector names a sequence exactly when it carries the flag
    /// `stateful`: the flag says what the vector is about, the name which
    /// steps run together.
    fn sequence_and_flag(
        &mut self,
        fields: &Fields<'_>,
        flags: &[(Flag, Location)],
        sequence: Option<&str>,
    ) {
        let stateful = flags.iter().find(|(flag, _)| *flag == Flag::Stateful);
        match (stateful, sequence) {
            (Some((_, at)), None) => {
                self.error(at.clone(), LoadErrorKind::StatefulWithoutSequence);
            }
            (None, Some(name)) => {
                self.error(
                    fields.key_or_mapping("sequence"),
                    LoadErrorKind::SequenceWithoutStateful {
                        name: name.to_owned(),
                    },
                );
            }
            _ => {}
        }
    }

    /// `why` is required by outcome `acceptable` and not allowed otherwise.
    fn why(&mut self, fields: &Fields<'_>, outcome: Option<Outcome>) -> Option<String> {
        match (fields.get("why"), outcome) {
            (Some(node), Some(Outcome::Acceptable) | None) => self.text(node, "why", false),
            (Some(_), Some(outcome)) => {
                self.error(
                    fields.key_or_mapping("why"),
                    LoadErrorKind::FieldNotAllowed {
                        field: "why",
                        section: Section::Vector(Some(outcome)),
                        allowed: VECTOR_FIELDS_WITHOUT_WHY,
                    },
                );
                None
            }
            (None, Some(Outcome::Acceptable)) => {
                self.error(
                    fields.location.clone(),
                    LoadErrorKind::MissingField {
                        field: "why",
                        section: Section::Vector(Some(Outcome::Acceptable)),
                    },
                );
                None
            }
            (None, _) => None,
        }
    }

    fn versions(
        &mut self,
        node: &Spanned<Node>,
        guid_type: Option<GuidType>,
    ) -> Option<Vec<Version>> {
        let versions = self.words::<Version>(node, "versions")?;
        if versions.is_empty() {
            self.error(
                self.src.location(node),
                LoadErrorKind::EmptyList { field: "versions" },
            );
            return None;
        }
        let mut ok = true;
        if let Some(guid_type) = guid_type {
            for (version, at) in &versions {
                if !guid_type.versions().contains(version) {
                    self.error(
                        at.clone(),
                        LoadErrorKind::VersionNotApplicable {
                            version: *version,
                            guid_type,
                        },
                    );
                    ok = false;
                }
            }
        }
        ok.then(|| words(versions))
    }
}
