//! Why a packed GUID, or a list of them, could not be decoded or encoded.
//!
//! The bottom layer of [`crate::packed`], beside [`super::value`]: the
//! implementations return these, and this module imports none of them. Each
//! error carries the offsets a caller needs to say where the input or the
//! buffer ran out, and its `Display` says it in words.

use core::fmt;

/// Why a packed GUID could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PackedGuidError {
    /// The input ended before the value did.
    UnexpectedEof {
        /// The mask byte, or `None` when the input was empty.
        mask: Option<u8>,
        /// Bytes the value needs: the mask byte plus one per set bit.
        needed: usize,
        /// Bytes the input had; this is also the offset at which it ended.
        available: usize,
    },
}

impl PackedGuidError {
    /// Offset (from the start of the input given to `decode`) at which the
    /// input ran out.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            Self::UnexpectedEof { available, .. } => available,
        }
    }
}

impl fmt::Display for PackedGuidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnexpectedEof {
                mask: None,
                needed: _,
                available: _,
            } => f.write_str(
                "packed GUID truncated: the input is empty, so there is no mask byte at offset 0",
            ),
            Self::UnexpectedEof {
                mask: Some(mask),
                needed,
                available,
            } => write!(
                f,
                "packed GUID truncated: mask {mask:#04x} at offset 0 announces {} GUID byte(s), \
                 so the value needs {needed} bytes, but the input ends at offset {available}",
                needed - 1
            ),
        }
    }
}

impl core::error::Error for PackedGuidError {}

/// Why [`super::encode_many`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeManyError {
    /// The encoding of GUID `index` (counting from 0) takes `needed` bytes
    /// from `offset`, past the end of the `available`-byte buffer. The GUIDs
    /// before it fill `out[..offset]`.
    OutputTooSmall {
        /// Position of the GUID that did not fit in the input slice.
        index: usize,
        /// Where its encoding would have started: the bytes written so far.
        offset: usize,
        /// Its encoded length, 1 to 9.
        needed: usize,
        /// The length of the output buffer.
        available: usize,
    },
}

impl fmt::Display for EncodeManyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::OutputTooSmall {
                index,
                offset,
                needed,
                available,
            } => write!(
                f,
                "output buffer too small: packed GUID {index} needs {needed} byte(s) at offset \
                 {offset}, but the buffer ends at offset {available} (GUIDs 0..{index} were \
                 written to bytes 0..{offset})"
            ),
        }
    }
}

impl core::error::Error for EncodeManyError {}

/// Why [`super::decode_many`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeManyError {
    /// Value `index` (counting from 0) starts at `offset` and needs `needed`
    /// bytes from there, but the input ends at `end`. `mask` is its mask
    /// byte, or `None` when the input ends right where the mask should be.
    UnexpectedEof {
        /// Position of the value in the list.
        index: usize,
        /// Offset of its mask byte in the input: the bytes the values
        /// before it took.
        offset: usize,
        /// Its mask byte, when the input has one there.
        mask: Option<u8>,
        /// Bytes the value needs from `offset`: 1 + the mask's set bits
        /// (1 when the mask itself is missing).
        needed: usize,
        /// The input's length.
        end: usize,
    },
}

impl fmt::Display for DecodeManyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UnexpectedEof {
                index,
                offset,
                mask: None,
                end,
                ..
            } => write!(
                f,
                "packed GUID {index} missing: the input ends at offset {end}, where its mask \
                 byte should be (offset {offset})"
            ),
            Self::UnexpectedEof {
                index,
                offset,
                mask: Some(mask),
                needed,
                end,
            } => write!(
                f,
                "packed GUID {index} truncated: its mask {mask:#04x} at offset {offset} \
                 announces {} GUID byte(s), so it needs offsets {offset}..{}, but the input \
                 ends at offset {end}",
                needed - 1,
                offset + needed
            ),
        }
    }
}

impl core::error::Error for DecodeManyError {}
