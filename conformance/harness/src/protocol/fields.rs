//! Reading the fields of a line, in either direction: splitting on single
//! spaces with each field's column, and reading a field as hex, a GUID or a
//! word, with one wording of what is wrong with one.

use std::str::FromStr;

use wow_guid_vectors::hex_text::{self, GuidTextError, HexError};

use super::lines::printable;

/// A byte-string field's error as the protocol's messages word it: the
/// position is a 1-based character of the field.
fn bytes_message(error: &HexError) -> String {
    match *error {
        HexError::InvalidChar { offset, .. } => {
            format!("character {} is not a hex digit", offset + 1)
        }
        HexError::OddDigits { .. } => "odd number of hex digits".to_owned(),
    }
}

/// A GUID field's error as the protocol's messages word it.
fn guid_message(error: &GuidTextError) -> String {
    match *error {
        GuidTextError::InvalidChar { offset, .. } => {
            format!("character {} is not a hex digit", offset + 1)
        }
        GuidTextError::WrongLength { digits } => {
            let s = if digits == 1 { "" } else { "s" };
            format!("a GUID is exactly 16 hex digits, this has {digits} character{s}")
        }
    }
}

/// One field of a line and its 1-based column.
#[derive(Clone, Copy)]
pub(super) struct Field<'a> {
    pub(super) text: &'a [u8],
    pub(super) column: usize,
}

impl<'a> Field<'a> {
    /// The field for a message, escaped and cut to a readable length.
    pub(super) fn shown(self) -> String {
        printable(self.text, 80)
    }

    pub(super) fn hex(self) -> Result<Vec<u8>, FieldError> {
        hex_text::parse_field(self.text).map_err(|e| self.error(FieldErrorKind::BadBytes(e)))
    }

    pub(super) fn guid(self) -> Result<u64, FieldError> {
        hex_text::parse_guid_field(self.text).map_err(|e| self.error(FieldErrorKind::BadGuid(e)))
    }

    /// The field as a word of one of the vocabulary's lists.
    pub(super) fn word<T: FromStr>(self) -> Option<T> {
        std::str::from_utf8(self.text).ok()?.parse().ok()
    }

    fn error(self, kind: FieldErrorKind) -> FieldError {
        FieldError {
            column: self.column,
            kind,
        }
    }
}

/// What can be wrong with a field of a line in either direction.
pub(super) struct FieldError {
    pub(super) column: usize,
    pub(super) kind: FieldErrorKind,
}

/// Worded alike in both directions, but for an extra field, which each
/// words as its own.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FieldErrorKind {
    /// The line ended before this field.
    #[error("the line ends before the {0}")]
    Missing(&'static str),
    /// Two spaces in a row, or a space at either end.
    #[error("empty field: fields are separated by exactly one space, with none at either end")]
    Empty,
    /// A field after the last one the line takes.
    #[error("unexpected extra field `{0}`")]
    Extra(String),
    #[error("bad byte string: {}", bytes_message(.0))]
    BadBytes(HexError),
    #[error("bad GUID: {}", guid_message(.0))]
    BadGuid(GuidTextError),
}

/// Splits a line on single spaces, with each field's column.
pub(super) struct Fields<'a> {
    pub(super) line: &'a [u8],
    split: std::slice::Split<'a, u8, fn(&u8) -> bool>,
    column: usize,
}

impl<'a> Fields<'a> {
    pub(super) fn new(line: &'a [u8]) -> Self {
        let space: fn(&u8) -> bool = |&b| b == b' ';
        Self {
            line,
            split: line.split(space),
            column: 1,
        }
    }

    /// The next field, or `None` at the end of the line.
    fn next_field(&mut self) -> Option<Field<'a>> {
        let text = self.split.next()?;
        let column = self.column;
        self.column += text.len() + 1;
        Some(Field { text, column })
    }

    /// The next field, which must be there (`what` names it) and not be empty.
    pub(super) fn required(&mut self, what: &'static str) -> Result<Field<'a>, FieldError> {
        match self.next_field() {
            None => Err(FieldError {
                column: self.line.len() + 1,
                kind: FieldErrorKind::Missing(what),
            }),
            Some(field) => non_empty(field),
        }
    }

    /// The next field if there is one; it must not be empty.
    pub(super) fn optional(&mut self) -> Result<Option<Field<'a>>, FieldError> {
        self.next_field().map(non_empty).transpose()
    }

    /// Checks that the line has no field left.
    pub(super) fn finish(&mut self) -> Result<(), FieldError> {
        match self.next_field() {
            None => Ok(()),
            Some(field) if field.text.is_empty() => Err(field.error(FieldErrorKind::Empty)),
            Some(field) => Err(field.error(FieldErrorKind::Extra(field.shown()))),
        }
    }
}

fn non_empty(field: Field<'_>) -> Result<Field<'_>, FieldError> {
    if field.text.is_empty() {
        Err(field.error(FieldErrorKind::Empty))
    } else {
        Ok(field)
    }
}

/// The words of one of the vocabulary's lists, for a message:
/// `` `decode`, `encode` or `size` ``.
pub(super) fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
