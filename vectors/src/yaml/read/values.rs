//! The single values of a vector file: strings and texts, words of the
//! format's lists, byte strings, GUIDs, counts and ids, each checked on its
//! own and reported at the offending character when there is one.

use core::str::FromStr;

use serde_saphyr::Spanned;

use super::super::tree::Node;
use super::Reader;
use crate::error::{Expected, IdError, LoadErrorKind};
use crate::hex_text::{self, GuidTextError};
use crate::model::Location;
use crate::vocab::ParseWordError;

/// Whether `id` is `[a-z0-9][a-z0-9._-]*`.
fn check_id(id: &str) -> Result<(), IdError> {
    let allowed = |offset: usize, ch: char| {
        ch.is_ascii_lowercase()
            || ch.is_ascii_digit()
            || (offset > 0 && matches!(ch, '.' | '_' | '-'))
    };
    match id.char_indices().find(|&(offset, ch)| !allowed(offset, ch)) {
        _ if id.is_empty() => Err(IdError::Empty),
        Some((offset, ch)) => Err(IdError::BadChar { offset, ch }),
        None => Ok(()),
    }
}

impl Reader<'_> {
    fn string<'n>(&mut self, node: &'n Spanned<Node>, field: &'static str) -> Option<&'n str> {
        let Node::Str(s) = &node.value else {
            self.wrong_type(node, field, Expected::String);
            return None;
        };
        Some(s)
    }

    /// A human-readable text: not blank, and one line when `one_line`.
    pub(super) fn text(
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

    pub(super) fn word<T: FromStr<Err = ParseWordError>>(
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
    pub(super) fn words<T: FromStr<Err = ParseWordError> + PartialEq + Copy>(
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
                let item = match &item.value {
                    Node::Str(s) => s.clone(),
                    _ => String::new(),
                };
                let kind = LoadErrorKind::DuplicateListItem { field, item, first };
                self.error(at, kind);
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

    pub(super) fn hex(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<Vec<u8>> {
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

    pub(super) fn guid(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<u64> {
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

    pub(super) fn count(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<usize> {
        let count = match node.value {
            Node::Number(Some(n)) => usize::try_from(n).ok(),
            _ => None,
        };
        if count.is_none() {
            self.wrong_type(node, field, Expected::Count);
        }
        count
    }

    /// A name in the charset of ids: the vector's `id`, or the name of its
    /// `sequence`.
    pub(super) fn name(&mut self, node: &Spanned<Node>, field: &'static str) -> Option<String> {
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
