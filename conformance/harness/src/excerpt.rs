//! The bounded evidence a fault keeps of what an implementation wrote,
//! below `implementation`, which publishes it (`implementation::Excerpt`).

use crate::protocol;

/// The evidence a fault keeps of what the implementation wrote: the first
/// [`Excerpt::MAX`] bytes and the length of the whole, so that thousands of
/// faults with lines of up to [`protocol::MAX_RESPONSE_LINE`] bytes do not
/// grow the runner's memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Excerpt {
    head: Box<[u8]>,
    len: usize,
}

impl Excerpt {
    /// The most bytes kept.
    pub const MAX: usize = 256;

    /// The first [`Excerpt::MAX`] bytes of `bytes`, and their length.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Self {
        Self::cut(bytes, bytes.len())
    }

    /// An excerpt of a text of `len` bytes that starts with `head` (of
    /// which at most [`Excerpt::MAX`] bytes are kept).
    #[must_use]
    pub fn cut(head: &[u8], len: usize) -> Self {
        let head = &head[..head.len().min(Self::MAX)];
        Self {
            head: head.into(),
            len: len.max(head.len()),
        }
    }

    /// The bytes kept: all of them when [`Excerpt::is_cut`] is false.
    #[must_use]
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The length of the whole text.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text was empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether bytes past the head were left out.
    #[must_use]
    pub fn is_cut(&self) -> bool {
        self.len > self.head.len()
    }

    /// The text with unprintable bytes escaped ([`protocol::printable`]),
    /// at most `max_chars` bytes of it, then `… (N bytes in all)` when
    /// anything was left out.
    #[must_use]
    pub fn printable(&self, max_chars: usize) -> String {
        let shown = self.head.len().min(max_chars);
        let mut out = protocol::printable(&self.head[..shown], usize::MAX);
        if self.len > shown {
            out.push_str(&format!("… ({} bytes in all)", self.len));
        }
        out
    }
}
