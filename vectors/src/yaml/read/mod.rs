//! Turns a file's node tree into vectors, checking every rule of the format
//! that concerns one vector at a time.
//!
//! Each check records its error and carries on, so a file with ten faults
//! yields ten errors. A vector with any fault is left out, so a caller that
//! goes on with the vectors that loaded (`lint` judges them) never sees a
//! half-read one. Rules across vectors (duplicate ids and content) live in
//! the corpus module, because they span files.
//!
//! This file holds the reader and the checks of a mapping's keys; single
//! values, vectors, inputs and expectations each have a module.

use serde_saphyr::Spanned;

use super::tree::{FileText, Node};
use crate::error::{Expected, LoadError, LoadErrorKind, Section};
use crate::interner::Interner;
use crate::model::Location;
use crate::near_miss::closest;

mod expectations;
mod inputs;
mod values;
mod vectors;

/// Reads vectors from one file's tree, appending every fault to `errors`.
pub(super) struct Reader<'a> {
    src: FileText<'a>,
    errors: &'a mut Vec<LoadError>,
    /// One copy of each flag list, version list and source of the load.
    interner: &'a mut Interner,
}

/// The fields of one mapping that passed the key checks: known, allowed
/// here, and written once.
struct Fields<'n> {
    location: Location,
    section: Section,
    entries: Vec<(&'static str, Location, &'n Spanned<Node>)>,
}

impl<'n> Fields<'n> {
    fn get(&self, name: &str) -> Option<&'n Spanned<Node>> {
        self.entries
            .iter()
            .find(|(field, _, _)| *field == name)
            .map(|(_, _, node)| *node)
    }

    fn key_location(&self, name: &str) -> Option<&Location> {
        self.entries
            .iter()
            .find(|(field, _, _)| *field == name)
            .map(|(_, at, _)| at)
    }

    /// Where the key `name` is written, or the mapping when it is not: the
    /// place of a fault that concerns the field.
    fn key_or_mapping(&self, name: &str) -> Location {
        self.key_location(name)
            .cloned()
            .unwrap_or_else(|| self.location.clone())
    }
}

impl<'a> Reader<'a> {
    pub(super) fn new(
        file: &'a str,
        text: &'a str,
        errors: &'a mut Vec<LoadError>,
        interner: &'a mut Interner,
    ) -> Self {
        Reader {
            src: FileText {
                file: file.into(),
                text,
            },
            errors,
            interner,
        }
    }

    fn error(&mut self, location: Location, kind: LoadErrorKind) {
        self.errors.push(LoadError { location, kind });
    }

    fn wrong_type(&mut self, node: &Spanned<Node>, field: &'static str, expected: Expected) {
        let found = self.src.found(node);
        self.error(
            self.src.location(node),
            LoadErrorKind::WrongType {
                field,
                expected,
                found,
            },
        );
    }

    /// Checks a mapping's keys: each must be a known field name, allowed in
    /// this section and written once. Returns the fields that pass.
    fn fields<'n>(
        &mut self,
        node: &'n Spanned<Node>,
        field: &'static str,
        section: Section,
        known: &[&'static str],
        allowed: &'static [&'static str],
    ) -> Option<Fields<'n>> {
        let Node::Map(entries) = &node.value else {
            self.wrong_type(node, field, Expected::Mapping);
            return None;
        };
        let mut fields = Fields {
            location: self.src.location(node),
            section,
            entries: Vec::new(),
        };
        for (key, value) in entries {
            let key_at = self.src.location(key);
            let Node::Str(name) = &key.value else {
                self.wrong_type(key, "key", Expected::FieldName);
                continue;
            };
            let Some(known_name) = known.iter().copied().find(|k| k == name) else {
                let suggestion = closest(name, known);
                self.error(
                    key_at,
                    LoadErrorKind::UnknownField {
                        field: name.clone(),
                        section,
                        suggestion,
                    },
                );
                continue;
            };
            if let Some(first) = fields.key_location(known_name) {
                let first = first.clone();
                self.error(
                    key_at,
                    LoadErrorKind::DuplicateField {
                        field: name.clone(),
                        first,
                    },
                );
                continue;
            }
            if !allowed.contains(&known_name) {
                self.error(
                    key_at,
                    LoadErrorKind::FieldNotAllowed {
                        field: known_name,
                        section,
                        allowed,
                    },
                );
                continue;
            }
            fields.entries.push((known_name, key_at, value));
        }
        Some(fields)
    }

    fn required<'n>(
        &mut self,
        fields: &Fields<'n>,
        field: &'static str,
    ) -> Option<&'n Spanned<Node>> {
        let node = fields.get(field);
        if node.is_none() {
            self.error(
                fields.location.clone(),
                LoadErrorKind::MissingField {
                    field,
                    section: fields.section,
                },
            );
        }
        node
    }

    /// A required field, read by `read` (`Reader::word`, `Reader::hex`...).
    fn required_as<T>(
        &mut self,
        fields: &Fields<'_>,
        field: &'static str,
        read: impl FnOnce(&mut Self, &Spanned<Node>, &'static str) -> Option<T>,
    ) -> Option<T> {
        let node = self.required(fields, field)?;
        read(self, node, field)
    }

    /// An optional field, read by `read`: `Some(None)` when it is absent,
    /// `None` when it is there but faulty.
    fn optional<T>(
        &mut self,
        fields: &Fields<'_>,
        field: &'static str,
        read: impl FnOnce(&mut Self, &Spanned<Node>, &'static str) -> Option<T>,
    ) -> Option<Option<T>> {
        match fields.get(field) {
            Some(node) => read(self, node, field).map(Some),
            None => Some(None),
        }
    }
}
