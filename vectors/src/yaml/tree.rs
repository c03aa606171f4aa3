//! The YAML text as a tree of nodes that remember where they were written.
//!
//! serde-saphyr parses the text (with budgets against hostile input) into
//! [`Node`]s wrapped in `Spanned`, and nothing else: no field is interpreted
//! here. Deserializing into this loose tree instead of strict structs is what
//! lets the loader report every fault of a file instead of the first one.

use core::cell::Cell;
use core::fmt;

use serde::de::value::SeqAccessDeserializer;
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{MessageFormatter as _, Spanned};

use crate::error::{Found, LoadError, LoadErrorKind};
use crate::model::Location;

/// One YAML value. Scalars keep what YAML inferred so that a number where a
/// quoted string belongs can be reported as such.
#[derive(Debug)]
pub(super) enum Node {
    Null,
    Bool,
    /// A number, with its value when it is an integer that fits in a `u64`.
    Number(Option<u64>),
    Str(String),
    Binary,
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<Node>, Spanned<Node>)>),
}

/// Builds a [`Node`]; with `scalars_only`, refuses a mapping or a list (a
/// key inside a key, see [`Key`]).
struct NodeVisitor {
    scalars_only: bool,
}

/// What a mapping or a list where only a scalar may be is told.
const KEY_IN_KEY: &str = "a key inside a mapping key is a mapping or a list; keys \
                          nested in keys are not allowed (each level would copy the key again)";

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Bool)
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(u64::try_from(v).ok()))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Node, E> {
        Ok(Node::Number(u64::try_from(v).ok()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(Some(v)))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Node, E> {
        Ok(Node::Number(u64::try_from(v).ok()))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Number(None))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Node, E> {
        take_scalar_bytes(v.len())?;
        Ok(Node::Str(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Node, E> {
        take_scalar_bytes(v.len())?;
        Ok(Node::Str(v))
    }

    fn visit_bytes<E>(self, _: &[u8]) -> Result<Node, E> {
        Ok(Node::Binary)
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Node, A::Error> {
        if self.scalars_only {
            return Err(serde::de::Error::custom(KEY_IN_KEY));
        }
        Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Node::Seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        if self.scalars_only {
            return Err(serde::de::Error::custom(KEY_IN_KEY));
        }
        let mut entries = Vec::new();
        while let Some(key) = map.next_key_seed(Key)? {
            entries.push((key, map.next_value()?));
        }
        Ok(Node::Map(entries))
    }
}

/// A mapping's key. A key may be a mapping or a list (the reader then
/// reports it as no field name, beside the file's other faults), but
/// nothing inside such a key may be one: the parser records a key's events
/// before it builds the key, and records each key inside it again while
/// building it, so keys nested in keys cost the file's size once for each
/// level (2 KB of flow mappings as keys of keys held 4.5 MB). Refusing the second level
/// keeps a key's cost to two copies of it.
struct Key;

thread_local! {
    /// Whether a key is being built; false outside [`parse`].
    static IN_KEY: Cell<bool> = const { Cell::new(false) };
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Spanned<Node>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if IN_KEY.get() {
            let Spanned {
                value: KeyInKey(node),
                referenced,
                defined,
            } = Spanned::<KeyInKey>::deserialize(d)?;
            return Ok(Spanned::new(node, referenced, defined));
        }
        IN_KEY.set(true);
        let _leave = OnDrop(|| IN_KEY.set(false));
        Spanned::<Node>::deserialize(d)
    }
}

/// A key inside a key: a scalar, or an error.
struct KeyInKey(Node);

impl<'de> Deserialize<'de> for KeyInKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor { scalars_only: true })
            .map(KeyInKey)
    }
}

/// Runs its function when dropped, whichever way the scope ends: clears
/// [`IN_KEY`] once the outermost key is built, lifts a parse's scalar bound.
struct OnDrop(fn());

impl Drop for OnDrop {
    fn drop(&mut self) {
        (self.0)();
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor {
            scalars_only: false,
        })
    }
}

/// The most YAML nodes (mappings, lists, scalars) one file may have: a
/// vector takes about 30, so a file holds up to about 33,000 vectors. The
/// parser's default (250,000) would stop near 8,000, which a generated file
/// can pass; the bound stays because the tree costs about 100 bytes a node.
const MAX_NODES: usize = 1_000_000;

/// The most parser events all of a file's aliases may replay together: one
/// per byte of the file (and at least 64). An alias repeats what its anchor
/// wrote, so without a bound tied to the file's size an alias of an alias
/// of a list (the "billion laughs") makes a 256-byte file cost 250 MB; with
/// it, aliases can at most double the nodes a file makes (and
/// [`max_scalar_bytes`] bounds the text they repeat). It also bounds the
/// copies the parser keeps of what anchors hold (one for each anchor an
/// event is inside). Anchors as a file uses them (a shared list of flags or
/// versions) stay far below it.
fn max_replayed_events(text: &str) -> usize {
    text.len().max(64)
}

/// The most bytes of scalar text one file's tree may hold: twice the file's
/// size (and at least 64). Without aliases a file's scalars are at most the
/// file itself; an alias repeats its anchor's scalars, so one long scalar
/// repeated through a few hundred aliases (within the bound on replayed
/// events, which counts a scalar as one event whatever its length) would
/// cost the square of the file's size.
fn max_scalar_bytes(text: &str) -> usize {
    text.len().saturating_mul(2).max(64)
}

thread_local! {
    /// (bytes of scalar text the tree being built may still take, the
    /// file's bound); unbounded outside [`parse`]. The parser builds
    /// [`Node`]s through `Deserialize`, which has no state of its own.
    static SCALAR_BYTES: Cell<(usize, usize)> = const { Cell::new((usize::MAX, usize::MAX)) };
}

/// Charges `len` bytes of scalar text to the file being parsed.
fn take_scalar_bytes<E: serde::de::Error>(len: usize) -> Result<(), E> {
    let (left, bound) = SCALAR_BYTES.get();
    let Some(rest) = left.checked_sub(len) else {
        return Err(E::custom(format_args!(
            "{ALIAS_MESSAGE}: past {bound} bytes of scalar text (twice the file's size)"
        )));
    };
    SCALAR_BYTES.set((rest, bound));
    Ok(())
}

/// How every message about what aliases repeat starts.
const ALIAS_MESSAGE: &str = "aliases repeat more than this file may";

/// Parses one file into a tree, within the budgets above and [`Key`]'s rule.
///
/// Duplicate keys are passed through so the reader can report them with both
/// locations; merge keys (`<<`) are refused because other YAML readers that
/// consume the corpus do not all support them; YAML 1.1 booleans (`yes`, `n`)
/// are off so a key such as `n` stays a string.
pub(super) fn parse(file: &str, text: &str) -> Result<Spanned<Node>, Box<LoadError>> {
    let options = serde_saphyr::options! {
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::PassThrough,
        merge_keys: serde_saphyr::MergeKeyPolicy::Error,
        strict_booleans: true,
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_nodes: MAX_NODES,
            max_events: MAX_NODES * 2,
            max_recorded_anchor_events: max_replayed_events(text),
            max_recorded_anchor_bytes: max_scalar_bytes(text),
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: max_replayed_events(text),
        },
    };
    let bound = max_scalar_bytes(text);
    SCALAR_BYTES.set((bound, bound));
    let _bound = OnDrop(|| SCALAR_BYTES.set((usize::MAX, usize::MAX)));
    serde_saphyr::from_str_with_options::<Spanned<Node>>(text, options).map_err(|err| {
        let location = match err.location() {
            Some(at) if at.line() > 0 => Location {
                file: file.into(),
                line: to_usize(at.line()),
                column: to_usize(at.column()),
            },
            _ => Location::whole_file(file),
        };
        Box::new(LoadError {
            location,
            kind: LoadErrorKind::Yaml {
                message: parser_message(&err),
            },
        })
    })
}

/// serde-saphyr's message for `err`, written for the person editing the
/// file: its user-facing wording (the default one suggests parser options
/// to the programmer, such as `DuplicateKeyPolicy`), without the location
/// (the caller reports it in front), without control characters, which
/// could garble a terminal, and cut to a readable length (the parser quotes
/// offending values in full). Every YAML file the workspace reads reports
/// its parser errors in these words.
#[must_use]
pub fn parser_message(err: &serde_saphyr::Error) -> String {
    const MAX: usize = 300;
    let mut inner = err;
    while let serde_saphyr::Error::AliasError { error, .. }
    | serde_saphyr::Error::WithSnippet { error, .. } = inner
    {
        inner = error;
    }
    let message = match inner {
        serde_saphyr::Error::AliasReplayLimitExceeded {
            max_total_replayed_events,
            ..
        } => format!(
            "{ALIAS_MESSAGE}: past {max_total_replayed_events} replayed parser events \
             (one per byte of the file)"
        )
        .into(),
        serde_saphyr::Error::Budget {
            breach:
                serde_saphyr::budget::BudgetBreach::RecordedAnchorEvents { .. }
                | serde_saphyr::budget::BudgetBreach::RecordedAnchorBytes { .. },
            ..
        } => "anchors keep more than this file may: the parser keeps a copy of what an \
              anchor holds for each anchor it is inside, at most one per byte of the file"
            .into(),
        _ => serde_saphyr::UserMessageFormatter.format_message(inner),
    };
    let printable: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    cut(&printable, MAX)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The byte offset where a node is written, if the parser reported it.
fn offset_of(node: &Spanned<Node>) -> Option<usize> {
    usize::try_from(node.defined.span().byte_offset()?).ok()
}

/// The text of one file, for turning parser positions into error locations.
pub(super) struct FileText<'a> {
    /// Shared by the location of every node of the file.
    pub(super) file: std::sync::Arc<str>,
    pub(super) text: &'a str,
}

impl FileText<'_> {
    /// Where a node is used (for an alias, the alias), as an error location.
    pub(super) fn location(&self, node: &Spanned<Node>) -> Location {
        let at = if node.referenced.line() > 0 {
            &node.referenced
        } else {
            &node.defined
        };
        self.at(at)
    }

    fn at(&self, at: &serde_saphyr::Location) -> Location {
        let line = to_usize(at.line());
        Location {
            file: self.file.clone(),
            line,
            column: if line == 0 { 0 } else { to_usize(at.column()) },
        }
    }

    /// The source text of a scalar node as written, if the parser reported
    /// its byte range.
    fn raw(&self, node: &Spanned<Node>) -> Option<&str> {
        let span = node.defined.span();
        let start = usize::try_from(span.byte_offset()?).ok()?;
        let len = usize::try_from(span.byte_len()?).ok()?;
        self.text.get(start..start.checked_add(len)?)
    }

    /// Whether a scalar was written in single or double quotes. Unknown
    /// positions count as quoted so that a missing span never causes an error.
    pub(super) fn is_quoted(&self, node: &Spanned<Node>) -> bool {
        let Some(offset) = offset_of(node) else {
            return true;
        };
        matches!(
            self.text.get(offset..).and_then(|s| s.chars().next()),
            Some('"' | '\'')
        )
    }

    /// What a node is, for "found …" in error messages.
    pub(super) fn found(&self, node: &Spanned<Node>) -> Found {
        let text = |fallback: &str| cut(self.raw(node).unwrap_or(fallback).trim(), 40);
        match &node.value {
            Node::Null => Found::Null,
            Node::Bool => Found::Boolean(text("")),
            Node::Number(_) => Found::Number(text("")),
            Node::Str(s) => Found::String(cut(s, 40)),
            Node::Binary => Found::Binary,
            Node::Seq(_) => Found::List,
            Node::Map(_) => Found::Mapping,
        }
    }

    /// The location of the character at byte `offset` of a string scalar's
    /// value.
    ///
    /// Hex strings are matched to the source by counting non-whitespace
    /// characters, which survives the line folding of multi-line scalars.
    /// Anything the walk cannot follow (escape sequences, a missing span)
    /// falls back to the start of the scalar, which is never wrong, only less
    /// precise.
    pub(super) fn char_location(
        &self,
        node: &Spanned<Node>,
        value: &str,
        offset: usize,
    ) -> Location {
        let fallback = self.at(&node.defined);
        let (Some(target), Some(before), Some(source)) = (
            value.get(offset..).and_then(|s| s.chars().next()),
            value.get(..offset),
            offset_of(node).and_then(|start| self.text.get(start..)),
        ) else {
            return fallback;
        };
        let skip = before.chars().filter(|c| !c.is_whitespace()).count();
        let mut line = fallback.line;
        let mut column = fallback.column;
        let mut chars = source.chars().peekable();
        let quote = match chars.peek() {
            Some(&q @ ('"' | '\'')) => {
                chars.next();
                column += 1;
                Some(q)
            }
            _ => None,
        };
        let mut seen = 0usize;
        for c in chars {
            if c == '\n' {
                line += 1;
                column = 1;
                continue;
            }
            if c.is_whitespace() {
                column += 1;
                continue;
            }
            if Some(c) == quote || c == '\\' {
                return fallback;
            }
            if seen == skip {
                return if c == target {
                    Location {
                        file: self.file.clone(),
                        line,
                        column,
                    }
                } else {
                    fallback
                };
            }
            seen += 1;
            column += 1;
        }
        fallback
    }
}

/// `s` cut to `max` characters, with `…` when it was longer.
fn cut(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
