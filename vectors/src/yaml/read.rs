//! Turns a file's node tree into vectors, checking every rule of the format
//! that concerns one vector at a time.
//!
//! Each check records its error and carries on, so a file with ten faults
//! yields ten errors. A vector with any fault is left out of the result, so
//! a caller that goes on with the vectors that loaded (`lint` judges them)
//! never sees a half-read one. Rules that compare
//! vectors with each other (duplicate ids and content) live in the corpus
//! module, because they span files.

use core::str::FromStr;

use serde_saphyr::Spanned;

use super::fields::{
    expect_fields, input_fields, EXPECT_FIELDS, FILE_FIELDS, INPUT_FIELDS, VECTOR_FIELDS,
    VECTOR_FIELDS_WITHOUT_WHY,
};
use super::tree::{FileText, Node};
use crate::error::{Expected, IdError, LoadError, LoadErrorKind, Section};
use crate::hex_text::{self, GuidTextError};
use crate::interner::Interner;
use crate::model::{Expectation, Location, Request, Value, Vector};
use crate::near_miss::closest;
use crate::vocab::{ErrorCode, Flag, GuidType, Op, Outcome, ParseWordError, Version};

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
}

/// The words of a list, without where each was written.
fn words<T>(located: Vec<(T, Location)>) -> Vec<T> {
    located.into_iter().map(|(word, _)| word).collect()
}

/// Whether `id` is `[a-z0-9][a-z0-9._-]*`.
fn check_id(id: &str) -> Result<(), IdError> {
    let mut chars = id.char_indices();
    match chars.next() {
        None => return Err(IdError::Empty),
        Some((_, c)) if c.is_ascii_lowercase() || c.is_ascii_digit() => {}
        Some((offset, ch)) => return Err(IdError::BadChar { offset, ch }),
    }
    for (offset, ch) in chars {
        if !(ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '.' | '_' | '-')) {
            return Err(IdError::BadChar { offset, ch });
        }
    }
    Ok(())
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

    fn string<'n>(&mut self, node: &'n Spanned<Node>, field: &'static str) -> Option<&'n str> {
        match &node.value {
            Node::Str(s) => Some(s),
            _ => {
                self.wrong_type(node, field, Expected::String);
                None
            }
        }
    }

    /// A human-readable text: not blank, and one line when `one_line`.
    fn text(
        &mut self,
        node: &Spanned<Node>,
        field: &'static str,
        one_line: bool,
    ) -> Option<String> {
        let s = self.string(node, field)?;
        if s.trim().is_empty() {
            self.error(self.src.location(node), LoadErrorKind::EmptyText { field });
            return None;
        }
        // A block scalar (`>`) keeps a final newline; that is not a second line.
        let s = s.trim_end_matches('\n');
        if one_line && s.contains(['\n', '\r']) {
            self.error(
                self.src.location(node),
                LoadErrorKind::MultiLineText { field },
            );
            return None;
        }
        Some(s.to_owned())
    }

    fn word<T: FromStr<Err = ParseWordError>>(
        &mut self,
        node: &Spanned<Node>,
        field: &'static str,
    ) -> Option<T> {
        let s = self.string(node, field)?;
        match s.parse() {
            Ok(word) => Some(word),
            Err(error) => {
                self.error(
                    self.src.location(node),
                    LoadErrorKind::UnknownWord { field, error },
                );
                None
            }
        }
    }

    /// A list of words without repeats, each with where it was written.
    fn words<T: FromStr<Err = ParseWordError> + PartialEq + Copy>(
        &mut self,
        node: &Spanned<Node>,
        field: &'static str,
    ) -> Option<Vec<(T, Location)>> {
        let Node::Seq(items) = &node.value else {
            self.wrong_type(node, field, Expected::List);
            return None;
        };
        let mut out: Vec<(T, Location)> = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            let Some(word) = self.word::<T>(item, field) else {
                ok = false;
                continue;
            };
            let at = self.src.location(item);
            if let Some((_, first)) = out.iter().find(|(w, _)| *w == word) {
                let first = first.clone();
                let item_text = match &item.value {
                    Node::Str(s) => s.clone(),
                    _ => String::new(),
                };
                self.error(
                    at,
                    LoadErrorKind::DuplicateListItem {
                        field,
                        item: item_text,
                        first,
                    },
                );
                ok = false;
                continue;
            }
            out.push((word, at));
        }
        ok.then_some(out)
    }

    /// A quoted string scalar, for hex fields.
    fn quoted<'n>(
        &mut self,
        node: &'n Spanned<Node>,
        field: &'static str,
        expected: Expected,
    ) -> Option<&'n str> {
        let Node::Str(s) = &node.value else {
            self.wrong_type(node, field, expected);
            return None;
        };
        if !self.src.is_quoted(node) {
            self.error(self.src.location(node), LoadErrorKind::NotQuoted { field });
            return None;
        }
        Some(s)
    }

    fn hex(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<Vec<u8>> {
        let s = self.quoted(node, field, Expected::HexString)?;
        match hex_text::parse(s) {
            Ok(bytes) => Some(bytes),
            Err(error) => {
                let at = self.src.char_location(node, s, error.offset());
                self.error(at, LoadErrorKind::BadHex { field, error });
                None
            }
        }
    }

    fn guid(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<u64> {
        let s = self.quoted(node, field, Expected::Guid)?;
        match hex_text::parse_guid(s) {
            Ok(guid) => Some(guid),
            Err(error) => {
                let at = match error {
                    GuidTextError::InvalidChar { offset, .. } => {
                        self.src.char_location(node, s, offset)
                    }
                    GuidTextError::WrongLength { .. } => self.src.location(node),
                };
                self.error(at, LoadErrorKind::BadGuid { field, error });
                None
            }
        }
    }

    fn count(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<usize> {
        match node.value {
            Node::Number(Some(n)) => match usize::try_from(n) {
                Ok(n) => Some(n),
                Err(_) => {
                    self.wrong_type(node, field, Expected::Count);
                    None
                }
            },
            _ => {
                self.wrong_type(node, field, Expected::Count);
                None
            }
        }
    }

    /// Reads a whole file: `vectors:` and the list under it.
    pub(super) fn read_file(&mut self, root: &Spanned<Node>) -> Vec<Vector> {
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

        let id = self
            .required(&fields, "id")
            .and_then(|n| self.name(n, "id"));
        let sequence = match fields.get("sequence") {
            Some(n) => self.name(n, "sequence").map(Some),
            None => Some(None),
        };
        let description = self
            .required(&fields, "description")
            .and_then(|n| self.text(n, "description", true));
        let guid_type = self
            .required(&fields, "type")
            .and_then(|n| self.word::<GuidType>(n, "type"));
        let op = self
            .required(&fields, "op")
            .and_then(|n| self.word::<Op>(n, "op"));
        let outcome = self
            .required(&fields, "outcome")
            .and_then(|n| self.word::<Outcome>(n, "outcome"));
        let kind = guid_type.zip(op);

        let request = self
            .required(&fields, "input")
            .and_then(|n| self.input(n, kind));
        let expect_node = self.required(&fields, "expect");
        let why = self.why(&fields, outcome);
        let expect = expect_node.and_then(|n| {
            self.expect(
                n,
                kind.zip(outcome).map(|((t, o), out)| (t, o, out)),
                request.as_ref(),
            )
        });
        let flags = match fields.get("flags") {
            Some(n) => self.words::<Flag>(n, "flags"),
            None => Some(Vec::new()),
        };
        if let (Some(flags), Some(sequence)) = (&flags, &sequence) {
            self.sequence_and_flag(&fields, flags, sequence.as_deref());
        }
        let versions = self
            .required(&fields, "versions")
            .and_then(|n| self.versions(n, guid_type));
        let source = match fields.get("source") {
            Some(n) => self.text(n, "source", true).map(Some),
            None => Some(None),
        };

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

    /// A name in the charset of ids: the vector's `id`, or the name of its
    /// `sequence`.
    fn name(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<String> {
        let name = self.string(node, field)?;
        match check_id(name) {
            Ok(()) => Some(name.to_owned()),
            Err(error) => {
                let at = match error {
                    IdError::BadChar { offset, .. } => self.src.char_location(node, name, offset),
                    IdError::Empty => self.src.location(node),
                };
                let kind = if field == "sequence" {
                    LoadErrorKind::BadSequenceName {
                        name: name.to_owned(),
                        error,
                    }
                } else {
                    LoadErrorKind::BadId {
                        id: name.to_owned(),
                        error,
                    }
                };
                self.error(at, kind);
                None
            }
        }
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
                let at = fields
                    .key_location("sequence")
                    .cloned()
                    .unwrap_or_else(|| fields.location.clone());
                self.error(
                    at,
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
                let at = fields
                    .key_location("why")
                    .cloned()
                    .unwrap_or_else(|| fields.location.clone());
                self.error(
                    at,
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

    /// The `input` mapping; without a known type and op only its keys are checked.
    fn input(&mut self, node: &Spanned<Node>, kind: Option<(GuidType, Op)>) -> Option<Request> {
        let allowed = kind.map_or(INPUT_FIELDS, |(t, o)| input_fields(t, o));
        let fields = self.fields(node, "input", Section::Input(kind), INPUT_FIELDS, allowed)?;
        let (guid_type, op) = kind?;
        match op {
            Op::Decode => {
                let bytes = self
                    .required(&fields, "bytes")
                    .and_then(|n| self.hex(n, "bytes"))?;
                Some(match guid_type {
                    GuidType::PackedGuid => Request::DecodePacked { bytes },
                    GuidType::NamedGuid => Request::DecodeNamed { bytes },
                })
            }
            Op::Encode | Op::Size => {
                let guid = self
                    .required(&fields, "guid")
                    .and_then(|n| self.guid(n, "guid"));
                let name = match fields.get("name") {
                    Some(n) => Some(self.hex(n, "name")?),
                    None => None,
                };
                let guid = guid?;
                Some(match (guid_type, op) {
                    (GuidType::PackedGuid, Op::Size) => Request::SizePacked { guid },
                    (GuidType::NamedGuid, Op::Size) => Request::SizeNamed { guid, name },
                    (GuidType::PackedGuid, _) => Request::EncodePacked { guid },
                    (GuidType::NamedGuid, _) => Request::EncodeNamed { guid, name },
                })
            }
        }
    }

    /// The `expect` mapping; without a known type, op and outcome only its
    /// keys are checked.
    fn expect(
        &mut self,
        node: &Spanned<Node>,
        kind: Option<(GuidType, Op, Outcome)>,
        request: Option<&Request>,
    ) -> Option<Unjudged> {
        let allowed = kind.map_or(EXPECT_FIELDS, |(t, o, out)| expect_fields(t, o, out));
        let fields = self.fields(
            node,
            "expect",
            Section::Expect(kind),
            EXPECT_FIELDS,
            allowed,
        )?;
        let (guid_type, op, outcome) = kind?;
        if outcome == Outcome::Invalid {
            let code = self
                .required(&fields, "error")
                .and_then(|n| self.word::<ErrorCode>(n, "error"))?;
            return Some(Unjudged::Invalid(code));
        }
        let value = match op {
            Op::Encode => Value::Encoded {
                bytes: self
                    .required(&fields, "bytes")
                    .and_then(|n| self.hex(n, "bytes"))?,
            },
            Op::Size => Value::Size {
                size: self
                    .required(&fields, "size")
                    .and_then(|n| self.count(n, "size"))?,
            },
            Op::Decode => {
                let guid = self
                    .required(&fields, "guid")
                    .and_then(|n| self.guid(n, "guid"));
                let consumed = self
                    .required(&fields, "consumed")
                    .and_then(|n| self.count(n, "consumed"));
                if let (Some(consumed), Some(input)) =
                    (consumed, request.and_then(Request::input_bytes))
                {
                    if consumed == 0 || consumed > input.len() {
                        let at = fields
                            .key_location("consumed")
                            .cloned()
                            .unwrap_or_else(|| fields.location.clone());
                        self.error(
                            at,
                            LoadErrorKind::ConsumedOutOfRange {
                                consumed,
                                input_len: input.len(),
                            },
                        );
                        return None;
                    }
                }
                match guid_type {
                    GuidType::PackedGuid => Value::Packed {
                        guid: guid?,
                        consumed: consumed?,
                    },
                    GuidType::NamedGuid => {
                        let guid = guid?;
                        let name = match fields.get("name") {
                            Some(n) => Some(self.hex(n, "name")?),
                            None => None,
                        };
                        if (guid == 0) == name.is_some() {
                            let at = match fields.key_location("name") {
                                Some(at) if guid == 0 => at.clone(),
                                _ => fields.location.clone(),
                            };
                            self.error(
                                at,
                                LoadErrorKind::NameAndGuidDisagree {
                                    guid_is_zero: guid == 0,
                                },
                            );
                            return None;
                        }
                        Value::Named {
                            guid,
                            consumed: consumed?,
                            name,
                        }
                    }
                }
            }
        };
        Some(match outcome {
            Outcome::Valid => Unjudged::Valid(value),
            _ => Unjudged::Acceptable(value),
        })
    }
}

/// An expectation before `why` (which sits beside `expect`) is attached.
enum Unjudged {
    Valid(Value),
    Invalid(ErrorCode),
    Acceptable(Value),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_charset() {
        assert_eq!(check_id("packed.decode.doc-example"), Ok(()));
        assert_eq!(check_id("0_a"), Ok(()));
        assert_eq!(check_id(""), Err(IdError::Empty));
        assert_eq!(check_id("-a"), Err(IdError::BadChar { offset: 0, ch: '-' }));
        assert_eq!(
            check_id("packed.Decode"),
            Err(IdError::BadChar { offset: 7, ch: 'D' })
        );
        assert_eq!(
            check_id("a b"),
            Err(IdError::BadChar { offset: 1, ch: ' ' })
        );
    }
}
