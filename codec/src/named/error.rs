//! Why bytes are not a named GUID, and why a GUID and a name are not a
//! valid value: the errors of the decoder and of the constructors, apart
//! from the code that returns them so both forms (borrowed and owned) share
//! them.

use core::fmt;

/// Length of the GUID part, which is always present.
pub const GUID_LEN: usize = 8;

/// Why bytes could not be decoded as a named GUID.
///
/// Every offset counts from the start of the slice given to the decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NamedGuidDecodeError {
    /// Fewer than 8 bytes: the GUID itself is cut short.
    GuidEof {
        /// Bytes the input had; this is also the offset at which it ended.
        available: usize,
    },
    /// The GUID is non-zero but no NUL byte ends the name before the input does.
    MissingNul {
        /// Offset of the first name byte (always 8).
        name_start: usize,
        /// Offset at which the input ended.
        end: usize,
    },
    /// The name is not valid UTF-8.
    InvalidUtf8 {
        /// Offset of the first name byte (always 8).
        name_start: usize,
        /// Offset of the first byte that is not part of a valid UTF-8 sequence.
        offset: usize,
    },
    /// The name has more bytes than the caller's limit, and no NUL within it.
    NameTooLong {
        /// Offset of the first name byte (always 8).
        name_start: usize,
        /// The caller's limit on name bytes (the NUL not counted).
        max: usize,
    },
}

impl NamedGuidDecodeError {
    /// Offset of the byte at which decoding failed.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            Self::GuidEof { available } => available,
            Self::MissingNul { end, .. } => end,
            Self::InvalidUtf8 { offset, .. } => offset,
            Self::NameTooLong {
                name_start, max, ..
            } => name_start + max,
        }
    }
}

impl fmt::Display for NamedGuidDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::GuidEof { available } => write!(
                f,
                "named GUID truncated: the GUID needs {GUID_LEN} bytes but the input ends at offset {available}"
            ),
            Self::MissingNul { name_start, end } => write!(
                f,
                "named GUID name starting at offset {name_start} has no NUL terminator before the input ends at offset {end}"
            ),
            Self::InvalidUtf8 { name_start, offset } => write!(
                f,
                "named GUID name starting at offset {name_start} is not valid UTF-8: invalid byte sequence at offset {offset}"
            ),
            Self::NameTooLong { name_start, max } => write!(
                f,
                "named GUID name starting at offset {name_start} is longer than the limit of {max} bytes (no NUL by offset {})",
                name_start + max
            ),
        }
    }
}

impl core::error::Error for NamedGuidDecodeError {}

/// Why a GUID and a name do not make a valid [`NamedGuid`](crate::NamedGuid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NamedGuidValueError {
    /// GUID 0 never carries a name on the wire, so a name cannot be given with it.
    NameWithoutGuid,
    /// A non-zero GUID is always followed by a name (possibly empty).
    GuidWithoutName,
    /// The name contains a NUL byte, which would end it early on the wire.
    InteriorNul {
        /// Offset of the first NUL within the name.
        offset: usize,
    },
    /// The name is not valid UTF-8.
    InvalidUtf8 {
        /// Offset of the first invalid byte within the name.
        offset: usize,
    },
}

impl fmt::Display for NamedGuidValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NameWithoutGuid => f.write_str(
                "GUID 0 cannot carry a name: on the wire a zero GUID is never followed by one",
            ),
            Self::GuidWithoutName => f.write_str(
                "a non-zero GUID must carry a name (use an empty name if it has none)",
            ),
            Self::InteriorNul { offset } => write!(
                f,
                "name contains a NUL byte at offset {offset}; it would end the name early on the wire"
            ),
            Self::InvalidUtf8 { offset } => {
                write!(f, "name is not valid UTF-8: invalid byte sequence at offset {offset}")
            }
        }
    }
}

impl core::error::Error for NamedGuidValueError {}
