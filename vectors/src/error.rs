//! Load errors: everything that can be wrong with a corpus, each with the
//! place it is wrong at.
//!
//! The loader never stops at the first problem: it collects one [`LoadError`]
//! for each fault it finds and returns them all as [`LoadErrors`], sorted by
//! location. Messages are written for a spec author editing the YAML, not for
//! someone reading the loader's code. This module only describes errors; it
//! neither reads files nor parses YAML.

use core::fmt;

use crate::hex_text::{GuidTextError, HexError};
use crate::model::Location;
use crate::vocab::{GuidType, Op, Outcome, ParseWordError, Version};

/// One fault in the corpus.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct LoadError {
    /// Where the fault is (the offending character when that is known).
    pub location: Location,
    /// What is wrong.
    pub kind: LoadErrorKind,
}

/// Every fault found while loading, sorted by location.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl LoadErrors {
    /// The errors, sorted by location.
    pub fn iter(&self) -> core::slice::Iter<'_, LoadError> {
        self.0.iter()
    }

    /// How many errors there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none (a returned `LoadErrors` always has at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a LoadErrors {
    type Item = &'a LoadError;
    type IntoIter = core::slice::Iter<'a, LoadError>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&lines.join("\n"))
    }
}

/// A part of a vector file, used to say where a field is (not) allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// The top level of a file (only `vectors`).
    File,
    /// A vector, with its outcome when that is known.
    Vector(Option<Outcome>),
    /// A vector's `input`, with its type and operation when both are known.
    Input(Option<(GuidType, Op)>),
    /// A vector's `expect`, with its type, operation and outcome when all are known.
    Expect(Option<(GuidType, Op, Outcome)>),
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Section::File => f.write_str("the top level of the file"),
            Section::Vector(None) => f.write_str("a vector"),
            Section::Vector(Some(outcome)) => write!(f, "a vector with outcome `{outcome}`"),
            Section::Input(None) => f.write_str("the `input` of a vector"),
            Section::Input(Some((guid_type, op))) => {
                write!(f, "the `input` of a {guid_type} {op} vector")
            }
            Section::Expect(None) => f.write_str("the `expect` of a vector"),
            Section::Expect(Some((guid_type, op, outcome))) => {
                write!(f, "the `expect` of an {outcome} {guid_type} {op} vector")
            }
        }
    }
}

/// The kind of YAML value a field needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// A mapping (`key: value` pairs).
    Mapping,
    /// A list.
    List,
    /// A string.
    String,
    /// A quoted string of hex bytes.
    HexString,
    /// A quoted string of exactly 16 hex digits.
    Guid,
    /// A non-negative integer.
    Count,
    /// A field name (a plain string key).
    FieldName,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Mapping => "a mapping of fields",
            Expected::List => "a list",
            Expected::String => "a string",
            Expected::HexString => "a quoted string of hex bytes such as \"0a de ad\"",
            Expected::Guid => "a quoted GUID of 16 hex digits such as \"00000000ad00de00\"",
            Expected::Count => "a non-negative integer",
            Expected::FieldName => "a field name",
        })
    }
}

/// The kind of YAML value that was found instead, with its source text for
/// scalars (cut to a readable length).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    /// `null`, `~` or nothing at all.
    Null,
    /// A boolean such as `true`.
    Boolean(String),
    /// A number such as `3` or `00` (YAML reads unquoted digits as numbers).
    Number(String),
    /// A string.
    String(String),
    /// A list.
    List,
    /// A mapping.
    Mapping,
    /// A `!!binary` value.
    Binary,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Null => f.write_str("nothing (null)"),
            Found::Boolean(text) => write!(f, "the boolean `{}`", text.escape_debug()),
            Found::Number(text) => write!(f, "the number `{}`", text.escape_debug()),
            Found::String(text) => write!(f, "the string `{}`", text.escape_debug()),
            Found::List => f.write_str("a list"),
            Found::Mapping => f.write_str("a mapping"),
            Found::Binary => f.write_str("a !!binary value"),
        }
    }
}

/// Why an id is not `[a-z0-9][a-z0-9._-]*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IdError {
    /// The id is empty.
    #[error("the id is empty")]
    Empty,
    /// A character outside the allowed set, or a `.`, `_` or `-` at the start.
    #[error(
        "{}",
        if *.offset == 0 {
            format!("an id must start with a-z or 0-9, not `{}`", .ch.escape_debug())
        } else {
            format!(
                "`{}` at offset {} is not allowed in an id (use a-z, 0-9, `.`, `_`, `-`)",
                .ch.escape_debug(),
                .offset
            )
        }
    )]
    BadChar {
        /// Byte offset of the character in the id.
        offset: usize,
        /// The character.
        ch: char,
    },
}

/// What is wrong. Each variant's `Display` says what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// A file or directory could not be read.
    #[error("cannot read: {message}")]
    Io {
        /// The I/O error's kind.
        kind: std::io::ErrorKind,
        /// The I/O error's message.
        message: String,
    },
    /// A `*.yaml` entry that is not a regular file (nor a symlink to one):
    /// a FIFO, socket, device or directory. It is not opened for reading.
    #[error(
        "not read: this is {what}, not a regular file; a vector file must be a regular \
         file or a symlink to one"
    )]
    NotRegularFile {
        /// What it is, in words (`a FIFO (named pipe)`, `a character device`).
        what: &'static str,
    },
    /// The file is larger than [`crate::MAX_FILE_BYTES`]; it is not read.
    #[error(
        "not read: the file is {size} bytes, more than the limit of {limit} bytes; \
         split it into several files"
    )]
    FileTooLarge {
        /// Its size in bytes (for a file that grew while it was read, the
        /// bytes read before the limit was passed).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The file is not UTF-8; the location is the first invalid byte.
    #[error("the file is not valid UTF-8 from here on")]
    NotUtf8,
    /// The file name does not end in `.yaml` (for example `.yml`).
    #[error("vector files must end in `.yaml`; rename the file")]
    NotYamlFile,
    /// The same file name was given twice to [`crate::Corpus::from_sources`].
    #[error("this file name was given more than once")]
    DuplicateFile,
    /// The YAML parser rejected the text (syntax, a merge key, a size or
    /// nesting budget). The message is the parser's; nothing after the fault
    /// in that file can be checked.
    #[error("invalid YAML: {message}")]
    Yaml {
        /// The parser's message.
        message: String,
    },
    /// No vector file at all: the directory has no `*.yaml` file, or no
    /// source was given.
    #[error("no vector files (`*.yaml`) found; is this the corpus directory?")]
    NoFiles,
    /// The file's `vectors` list is empty.
    #[error("the `vectors` list is empty; add a vector or delete the file")]
    NoVectors,
    /// A field name the format does not have anywhere in this section.
    #[error(
        "unknown field `{}` in {section}{}",
        .field.escape_debug(),
        .suggestion.map_or_else(String::new, |known| format!("; did you mean `{known}`?"))
    )]
    UnknownField {
        /// The field as written.
        field: String,
        /// Where it was found.
        section: Section,
        /// A known field with a similar spelling, if any.
        suggestion: Option<&'static str>,
    },
    /// A field the format has, but not in this combination of type, op and outcome.
    #[error("{}", not_allowed(.field, .section, .allowed))]
    FieldNotAllowed {
        /// The field.
        field: &'static str,
        /// Where it was found.
        section: Section,
        /// The fields that are allowed there.
        allowed: &'static [&'static str],
    },
    /// A required field is absent; the location is the mapping that lacks it.
    #[error("{}", missing(.field, .section))]
    MissingField {
        /// The field.
        field: &'static str,
        /// The mapping that lacks it.
        section: Section,
    },
    /// A field appears twice in one mapping.
    #[error("field `{}` appears twice (first at {first}); keep one", .field.escape_debug())]
    DuplicateField {
        /// The field as written.
        field: String,
        /// Where it appeared first.
        first: Location,
    },
    /// A value of the wrong kind (for example a number where a quoted hex
    /// string is needed).
    #[error("`{field}` must be {expected}, found {found}{}", quote_hint(.expected, .found))]
    WrongType {
        /// The field (`"vectors[]"` for an item of the vector list).
        field: &'static str,
        /// What the field needs.
        expected: Expected,
        /// What was there.
        found: Found,
    },
    /// A byte string or GUID written without quotes, which lets YAML reinterpret it.
    #[error("`{field}` must be in double quotes, so that YAML cannot read it as something else")]
    NotQuoted {
        /// The field.
        field: &'static str,
    },
    /// A byte string that is not valid hex; the location is the offending character.
    #[error("`{field}`: {error}")]
    BadHex {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        error: HexError,
    },
    /// A GUID that is not 16 hex digits; the location is the offending
    /// character when there is one.
    #[error("`{field}`: {error}")]
    BadGuid {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        error: GuidTextError,
    },
    /// A word that is not in its list (type, op, outcome, error, flag, version).
    #[error("`{field}`: {error}")]
    UnknownWord {
        /// The field.
        field: &'static str,
        /// The word and the allowed ones.
        error: ParseWordError,
    },
    /// An id outside `[a-z0-9][a-z0-9._-]*`; the location is the offending character.
    #[error("bad id `{}`: {error}", .id.escape_debug())]
    BadId {
        /// The id as written.
        id: String,
        /// What is wrong with it.
        error: IdError,
    },
    /// A `sequence` name outside the charset of ids; the location is the
    /// offending character.
    #[error(
        "bad sequence name `{}` (sequence names are spelled like ids): {error}",
        .name.escape_debug()
    )]
    BadSequenceName {
        /// The name as written.
        name: String,
        /// What is wrong with it.
        error: IdError,
    },
    /// A vector flagged `stateful` that names no `sequence`; the location is
    /// the flag.
    #[error(
        "a `stateful` vector is a step of a sequence: name it with `sequence: <name>`, \
         the same name on every step"
    )]
    StatefulWithoutSequence,
    /// A vector with a `sequence` that is not flagged `stateful`.
    #[error("this vector is a step of sequence `{name}` but lacks the flag `stateful`; add it")]
    SequenceWithoutStateful {
        /// The sequence's name.
        name: String,
    },
    /// A step of a sequence that does not follow the sequence's other steps
    /// directly in the same file.
    #[error(
        "a step of sequence `{name}` (first step at {first}) after other vectors: the \
         steps of a sequence are consecutive vectors of one file; move it up, or name \
         another sequence"
    )]
    SequenceSplit {
        /// The sequence's name.
        name: String,
        /// Where its first step is.
        first: Location,
    },
    /// A sequence with a single step: nothing runs before it, so it tests
    /// no state (often a misspelt name).
    #[error(
        "sequence `{name}` has only this step; a sequence needs at least two (is the name \
         misspelt?)"
    )]
    SequenceOfOne {
        /// The sequence's name.
        name: String,
    },
    /// A text field (`description`, `why`, `source`) that is empty or only whitespace.
    #[error("`{field}` is empty; write a sentence or remove the field")]
    EmptyText {
        /// The field.
        field: &'static str,
    },
    /// A text field that must be one line contains a line break.
    #[error("`{field}` must be a single line")]
    MultiLineText {
        /// The field.
        field: &'static str,
    },
    /// A list that must not be empty (`versions`) is.
    #[error("`{field}` is empty; list at least one")]
    EmptyList {
        /// The field.
        field: &'static str,
    },
    /// A word listed twice in `flags` or `versions`.
    #[error("`{}` is listed twice in `{field}` (first at {first})", .item.escape_debug())]
    DuplicateListItem {
        /// The field.
        field: &'static str,
        /// The repeated word.
        item: String,
        /// Where it was listed first.
        first: Location,
    },
    /// A version whose messages do not use the vector's type (`NamedGuid`
    /// appears only in TBC and Wrath messages).
    #[error(
        "`{version}` does not use {guid_type}; its versions are: {}",
        .guid_type.versions().iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
    )]
    VersionNotApplicable {
        /// The version.
        version: Version,
        /// The vector's type.
        guid_type: GuidType,
    },
    /// A decoded named GUID with `name` when the GUID is 0, or without it
    /// when the GUID is not 0.
    #[error(
        "{}",
        if *.guid_is_zero {
            "the expected GUID is 0, so the decoded value has no name: remove `name`"
        } else {
            "the expected GUID is not 0, so the decoded value has a name: add `name` \
             (\"\" for an empty one)"
        }
    )]
    NameAndGuidDisagree {
        /// Whether the expected GUID is 0.
        guid_is_zero: bool,
    },
    /// `consumed` is 0 or more than the input has.
    #[error(
        "`consumed` is {consumed}, but a value takes at least 1 byte and the input has \
         only {input_len}"
    )]
    ConsumedOutOfRange {
        /// The expected count.
        consumed: usize,
        /// How many input bytes there are.
        input_len: usize,
    },
    /// Two vectors with the same id (anywhere in the corpus).
    #[error(
        "id `{id}` is already used at {first}; ids are unique and never reused, pick a new one"
    )]
    DuplicateId {
        /// The id.
        id: String,
        /// Where the first vector with this id is.
        first: Location,
    },
    /// Two vectors with the same request and the same expectation.
    #[error(
        "vector `{id}` repeats `{first_id}` at {first} (same request and expectation); \
         remove one (steps of a sequence are exempt)"
    )]
    DuplicateContent {
        /// The id of this vector.
        id: String,
        /// The id of the earlier vector with the same content.
        first_id: String,
        /// Where the earlier vector is.
        first: Location,
    },
    /// Two vectors with the same request, overlapping versions, and different
    /// expectations: the corpus contradicts itself.
    #[error(
        "vector `{id}` sends the same request as `{first_id}` at {first} for the same \
         versions but expects something else; the corpus contradicts itself"
    )]
    ConflictingContent {
        /// The id of this vector.
        id: String,
        /// The id of the earlier vector with the same request.
        first_id: String,
        /// Where the earlier vector is.
        first: Location,
    },
}

/// [`LoadErrorKind::FieldNotAllowed`]'s message: `why` has a rule of its own.
fn not_allowed(field: &str, section: &Section, allowed: &[&str]) -> String {
    if field == "why" {
        format!(
            "`why` is not allowed in {section}: it is only for (and required by) \
             outcome `acceptable`"
        )
    } else {
        format!(
            "`{field}` is not allowed in {section}; the fields there are: {}",
            allowed.join(", ")
        )
    }
}

/// [`LoadErrorKind::MissingField`]'s message: `why` has a rule of its own.
fn missing(field: &str, section: &Section) -> String {
    if field == "why" {
        "missing field `why`: outcome `acceptable` must say why both answers are allowed".to_owned()
    } else {
        format!("missing field `{field}` in {section}")
    }
}

/// The end of [`LoadErrorKind::WrongType`]'s message: a number or boolean
/// where text is needed was unquoted text that YAML read as one.
fn quote_hint(expected: &Expected, found: &Found) -> &'static str {
    match (expected, found) {
        (
            Expected::HexString | Expected::Guid | Expected::String,
            Found::Number(_) | Found::Boolean(_),
        ) => "; put it in double quotes",
        _ => "",
    }
}
