//! `NamedGuid`: a little-endian `u64`, then a NUL-terminated UTF-8 name when
//! the GUID is not zero.
//!
//! This module owns the wire format of the named GUID and the rules for a
//! valid value (no name without a GUID, no NUL inside a name, UTF-8 only). It
//! reads from caller-provided slices; only the owned [`NamedGuid`] allocates.
//!
//! ```text
//! decode(input):
//!     guid = u64::from_le_bytes(input[0..8])
//!     if guid == 0: return (Zero, consumed = 8)
//!     nul = first index >= 8 with input[nul] == 0         // no NUL: error
//!     name = input[8..nul], must be valid UTF-8
//!     return (Named(guid, name), consumed = nul + 1)
//! ```
//!
//! There is no length limit in the format. Callers that need a bound (a
//! server reading from untrusted clients) pass one to
//! [`NamedGuidRef::decode_with_max_name_len`]; exceeding it is an error, never
//! a silent cut.

use core::fmt;
use core::num::NonZeroU64;

use crate::buffer::BufferSizeError;
use crate::decoded::Decoded;

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

/// Why a GUID and a name do not make a valid [`NamedGuid`].
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

/// A named GUID that borrows its name from the input: decoding it never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamedGuidRef<'a> {
    /// GUID 0, which has no name.
    Zero,
    /// A non-zero GUID and its name (without the NUL; may be empty).
    Named {
        /// The GUID.
        guid: NonZeroU64,
        /// The name, guaranteed free of NUL bytes.
        name: &'a str,
    },
}

impl<'a> NamedGuidRef<'a> {
    /// Builds a value, checking the rules of the format.
    ///
    /// # Errors
    /// [`NamedGuidValueError`] for GUID 0 with a name, a non-zero GUID without
    /// one, or a name with a NUL in it. A name with a NUL given with GUID 0
    /// is [`NamedGuidValueError::InteriorNul`]: the name's own faults come
    /// before its use with GUID 0 (`vectors/NOTES.md`, "Two faults in one
    /// input").
    pub fn new(guid: u64, name: Option<&'a str>) -> Result<Self, NamedGuidValueError> {
        if let Some(name) = name {
            check_no_nul(name.as_bytes())?;
        }
        match (NonZeroU64::new(guid), name) {
            (None, None) => Ok(Self::Zero),
            (None, Some(_)) => Err(NamedGuidValueError::NameWithoutGuid),
            (Some(_), None) => Err(NamedGuidValueError::GuidWithoutName),
            (Some(guid), Some(name)) => Ok(Self::Named { guid, name }),
        }
    }

    /// Builds a value from raw parts as they arrive from outside (say, a test
    /// harness): the name is checked for UTF-8 as well.
    ///
    /// # Errors
    /// As [`NamedGuidRef::new`], plus [`NamedGuidValueError::InvalidUtf8`].
    pub fn from_raw_parts(guid: u64, name: Option<&'a [u8]>) -> Result<Self, NamedGuidValueError> {
        let name = match name {
            None => None,
            Some(bytes) => {
                // NUL is valid UTF-8, so check it first to report the more specific fault.
                check_no_nul(bytes)?;
                Some(
                    core::str::from_utf8(bytes).map_err(|e| NamedGuidValueError::InvalidUtf8 {
                        offset: e.valid_up_to(),
                    })?,
                )
            }
        };
        Self::new(guid, name)
    }

    /// The GUID as an integer (0 for [`NamedGuidRef::Zero`]).
    #[must_use]
    pub const fn guid(&self) -> u64 {
        match self {
            Self::Zero => 0,
            Self::Named { guid, .. } => guid.get(),
        }
    }

    /// The name, if the GUID is non-zero.
    #[must_use]
    pub const fn name(&self) -> Option<&'a str> {
        match self {
            Self::Zero => None,
            Self::Named { name, .. } => Some(name),
        }
    }

    /// Length of the encoding: 8, or 8 + name + 1 for the NUL.
    #[must_use]
    pub const fn encoded_len(&self) -> usize {
        match self {
            Self::Zero => GUID_LEN,
            Self::Named { name, .. } => GUID_LEN + name.len() + 1,
        }
    }

    /// Decodes one named GUID from the front of `input`, with no limit on the
    /// name's length other than the input's.
    ///
    /// Bytes after the value (after the GUID when it is 0, after the NUL
    /// otherwise) are the next field and are left alone.
    ///
    /// # Errors
    /// [`NamedGuidDecodeError`]: truncated GUID, missing NUL, invalid UTF-8.
    ///
    /// ```
    /// use wow_guid_codec::NamedGuidRef;
    ///
    /// let input = [0x2a, 0, 0, 0, 0, 0, 0, 0, b'B', b'o', b'b', 0, 0xff];
    /// let decoded = NamedGuidRef::decode(&input).unwrap();
    /// assert_eq!(decoded.value.guid(), 42);
    /// assert_eq!(decoded.value.name(), Some("Bob"));
    /// assert_eq!(decoded.consumed, 12);
    /// ```
    pub fn decode(input: &'a [u8]) -> Result<Decoded<Self>, NamedGuidDecodeError> {
        Self::decode_with_max_name_len(input, usize::MAX)
    }

    /// As [`NamedGuidRef::decode`], but a name longer than `max_name_len`
    /// bytes (the NUL not counted) is an error. At most `max_name_len + 1`
    /// name bytes are examined, which bounds the work on hostile input.
    ///
    /// The corpus lets an implementation bound names at 256 bytes or more
    /// (`vectors/NOTES.md`, "Names longer than a bound"): choose a
    /// `max_name_len` of at least 255 to stay conformant. The error comes
    /// before any other fault of the name, as soon as the bound is passed,
    /// and maps to the protocol's code `name_too_long`.
    ///
    /// # Errors
    /// As [`NamedGuidRef::decode`], plus [`NamedGuidDecodeError::NameTooLong`].
    pub fn decode_with_max_name_len(
        input: &'a [u8],
        max_name_len: usize,
    ) -> Result<Decoded<Self>, NamedGuidDecodeError> {
        let Some((guid, rest)) = input.split_first_chunk::<GUID_LEN>() else {
            return Err(NamedGuidDecodeError::GuidEof {
                available: input.len(),
            });
        };
        let Some(guid) = NonZeroU64::new(u64::from_le_bytes(*guid)) else {
            return Ok(Decoded {
                value: Self::Zero,
                consumed: GUID_LEN,
            });
        };
        let window = &rest[..rest.len().min(max_name_len.saturating_add(1))];
        let Some(nul) = window.iter().position(|&b| b == 0) else {
            // A full window without NUL means the name is longer than allowed;
            // a short one means the input ran out first.
            return Err(if window.len() > max_name_len {
                NamedGuidDecodeError::NameTooLong {
                    name_start: GUID_LEN,
                    max: max_name_len,
                }
            } else {
                NamedGuidDecodeError::MissingNul {
                    name_start: GUID_LEN,
                    end: input.len(),
                }
            });
        };
        let name =
            core::str::from_utf8(&rest[..nul]).map_err(|e| NamedGuidDecodeError::InvalidUtf8 {
                name_start: GUID_LEN,
                offset: GUID_LEN + e.valid_up_to(),
            })?;
        Ok(Decoded {
            value: Self::Named { guid, name },
            consumed: GUID_LEN + nul + 1,
        })
    }

    /// Writes the encoding at the front of `out`, which must hold at least
    /// [`encoded_len`](Self::encoded_len) bytes, and returns its length.
    /// Bytes of `out` past the encoding are left as they were.
    ///
    /// # Errors
    /// [`BufferSizeError`] when `out` is shorter than the encoding; nothing
    /// is written then.
    ///
    /// ```
    /// use wow_guid_codec::NamedGuidRef;
    ///
    /// let bob = NamedGuidRef::new(42, Some("Bob")).unwrap();
    /// let mut message = [0xFF; 64];
    /// let len = bob.encode_to_slice(&mut message).unwrap();
    /// assert_eq!(&message[..len], b"\x2a\0\0\0\0\0\0\0Bob\0");
    /// assert!(bob.encode_to_slice(&mut [0; 11]).is_err());
    /// ```
    pub fn encode_to_slice(&self, out: &mut [u8]) -> Result<usize, BufferSizeError> {
        let len = self.encoded_len();
        let Some(out) = out.get_mut(..len) else {
            return Err(BufferSizeError {
                needed: len,
                available: out.len(),
            });
        };
        let (guid, rest) = out.split_at_mut(GUID_LEN);
        guid.copy_from_slice(&self.guid().to_le_bytes());
        if let Self::Named { name, .. } = self {
            let (text, nul) = rest.split_at_mut(name.len());
            text.copy_from_slice(name.as_bytes());
            nul.fill(0);
        }
        Ok(len)
    }

    /// Appends the encoding to `out`.
    #[cfg(feature = "alloc")]
    pub fn encode_to_vec(&self, out: &mut alloc::vec::Vec<u8>) {
        out.reserve(self.encoded_len());
        out.extend_from_slice(&self.guid().to_le_bytes());
        if let Self::Named { name, .. } = self {
            out.extend_from_slice(name.as_bytes());
            out.push(0);
        }
    }

    /// The encoding as a new `Vec`.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn to_vec(&self) -> alloc::vec::Vec<u8> {
        let mut out = alloc::vec::Vec::new();
        self.encode_to_vec(&mut out);
        out
    }

    /// Writes the encoding to `writer` and returns how many bytes were written.
    ///
    /// # Errors
    /// Whatever `writer` returns.
    #[cfg(feature = "std")]
    pub fn write_to<W: std::io::Write + ?Sized>(&self, writer: &mut W) -> std::io::Result<usize> {
        writer.write_all(&self.guid().to_le_bytes())?;
        if let Self::Named { name, .. } = self {
            writer.write_all(name.as_bytes())?;
            writer.write_all(&[0])?;
        }
        Ok(self.encoded_len())
    }
}

impl fmt::Display for NamedGuidRef<'_> {
    /// The GUID as 16 hex digits, most significant first (as
    /// [`crate::PackedGuid`] shows it), then for a non-zero GUID a space and
    /// the name quoted and escaped as Rust writes a string literal, so that
    /// an empty name and a name with control characters stay visible:
    /// `000000000000002a "Bob"`, `0000000000000000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Zero => write!(f, "{:016x}", 0),
            Self::Named { guid, name } => write!(f, "{:016x} {name:?}", guid.get()),
        }
    }
}

fn check_no_nul(name: &[u8]) -> Result<(), NamedGuidValueError> {
    match name.iter().position(|&b| b == 0) {
        Some(offset) => Err(NamedGuidValueError::InteriorNul { offset }),
        None => Ok(()),
    }
}

#[cfg(feature = "alloc")]
pub use owned::{Name, NamedGuid};

#[cfg(feature = "alloc")]
mod owned {
    use alloc::string::String;
    use core::fmt;
    use core::num::NonZeroU64;

    use super::{check_no_nul, NamedGuidDecodeError, NamedGuidRef, NamedGuidValueError};
    use crate::buffer::BufferSizeError;
    use crate::decoded::Decoded;

    /// A name that can travel in a [`NamedGuid`]: UTF-8 without NUL bytes.
    #[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Name(String);

    impl Name {
        /// Checks that `name` has no NUL byte.
        ///
        /// # Errors
        /// [`NamedGuidValueError::InteriorNul`] with the offset of the first NUL.
        pub fn new(name: impl Into<String>) -> Result<Self, NamedGuidValueError> {
            let name = name.into();
            check_no_nul(name.as_bytes())?;
            Ok(Self(name))
        }

        /// The name.
        #[must_use]
        pub fn as_str(&self) -> &str {
            &self.0
        }

        /// The name as a `String`.
        #[must_use]
        pub fn into_string(self) -> String {
            self.0
        }
    }

    impl core::ops::Deref for Name {
        type Target = str;

        fn deref(&self) -> &str {
            &self.0
        }
    }

    impl fmt::Display for Name {
        /// The name itself, as a `String` shows it (width and alignment
        /// included).
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.pad(&self.0)
        }
    }

    impl TryFrom<String> for Name {
        type Error = NamedGuidValueError;

        fn try_from(name: String) -> Result<Self, Self::Error> {
            Self::new(name)
        }
    }

    impl TryFrom<&str> for Name {
        type Error = NamedGuidValueError;

        fn try_from(name: &str) -> Result<Self, Self::Error> {
            Self::new(name)
        }
    }

    #[cfg(feature = "arbitrary")]
    impl<'a> arbitrary::Arbitrary<'a> for Name {
        fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
            let mut name: String = u.arbitrary()?;
            // Dropping NULs keeps every generated input useful instead of
            // rejecting the ones that happen to contain one. Most names have
            // none and are kept as they are, without a second allocation.
            if name.contains('\0') {
                name.retain(|c| c != '\0');
            }
            Ok(Self(name))
        }

        fn size_hint(depth: usize) -> (usize, Option<usize>) {
            <String as arbitrary::Arbitrary>::size_hint(depth)
        }
    }

    /// A named GUID that owns its name.
    ///
    /// "GUID 0 with a name" cannot be built: the only zero value is
    /// [`NamedGuid::Zero`], and [`NamedGuid::Named`] takes a [`NonZeroU64`].
    #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum NamedGuid {
        /// GUID 0, which has no name.
        Zero,
        /// A non-zero GUID and its name (may be empty).
        Named {
            /// The GUID.
            guid: NonZeroU64,
            /// The name.
            name: Name,
        },
    }

    impl NamedGuid {
        /// Builds a value, checking the rules of the format.
        ///
        /// # Errors
        /// As [`NamedGuidRef::new`].
        pub fn new(guid: u64, name: Option<&str>) -> Result<Self, NamedGuidValueError> {
            NamedGuidRef::new(guid, name).map(|v| v.to_owned_value())
        }

        /// Builds a value from raw parts, checking UTF-8 as well.
        ///
        /// # Errors
        /// As [`NamedGuidRef::from_raw_parts`].
        pub fn from_raw_parts(guid: u64, name: Option<&[u8]>) -> Result<Self, NamedGuidValueError> {
            NamedGuidRef::from_raw_parts(guid, name).map(|v| v.to_owned_value())
        }

        /// Borrows the value.
        #[must_use]
        pub fn as_ref(&self) -> NamedGuidRef<'_> {
            match self {
                Self::Zero => NamedGuidRef::Zero,
                Self::Named { guid, name } => NamedGuidRef::Named {
                    guid: *guid,
                    name: name.as_str(),
                },
            }
        }

        /// The GUID as an integer (0 for [`NamedGuid::Zero`]).
        #[must_use]
        pub fn guid(&self) -> u64 {
            self.as_ref().guid()
        }

        /// The name, if the GUID is non-zero.
        #[must_use]
        pub fn name(&self) -> Option<&str> {
            match self {
                Self::Zero => None,
                Self::Named { name, .. } => Some(name.as_str()),
            }
        }

        /// Length of the encoding.
        #[must_use]
        pub fn encoded_len(&self) -> usize {
            self.as_ref().encoded_len()
        }

        /// Decodes one named GUID from the front of `input`; see [`NamedGuidRef::decode`].
        ///
        /// # Errors
        /// As [`NamedGuidRef::decode`].
        pub fn decode(input: &[u8]) -> Result<Decoded<Self>, NamedGuidDecodeError> {
            NamedGuidRef::decode(input).map(Decoded::to_owned_value)
        }

        /// Decodes with a limit on the name's length; see
        /// [`NamedGuidRef::decode_with_max_name_len`].
        ///
        /// # Errors
        /// As [`NamedGuidRef::decode_with_max_name_len`].
        pub fn decode_with_max_name_len(
            input: &[u8],
            max_name_len: usize,
        ) -> Result<Decoded<Self>, NamedGuidDecodeError> {
            NamedGuidRef::decode_with_max_name_len(input, max_name_len).map(Decoded::to_owned_value)
        }

        /// Writes the encoding at the front of `out`, which must hold at
        /// least [`encoded_len`](Self::encoded_len) bytes; see
        /// [`NamedGuidRef::encode_to_slice`].
        ///
        /// # Errors
        /// [`BufferSizeError`] when `out` is shorter than the encoding;
        /// nothing is written then.
        pub fn encode_to_slice(&self, out: &mut [u8]) -> Result<usize, BufferSizeError> {
            self.as_ref().encode_to_slice(out)
        }

        /// Appends the encoding to `out`.
        pub fn encode_to_vec(&self, out: &mut alloc::vec::Vec<u8>) {
            self.as_ref().encode_to_vec(out);
        }

        /// The encoding as a new `Vec`.
        #[must_use]
        pub fn to_vec(&self) -> alloc::vec::Vec<u8> {
            self.as_ref().to_vec()
        }

        /// Writes the encoding to `writer`; see [`NamedGuidRef::write_to`].
        ///
        /// # Errors
        /// Whatever `writer` returns.
        #[cfg(feature = "std")]
        pub fn write_to<W: std::io::Write + ?Sized>(
            &self,
            writer: &mut W,
        ) -> std::io::Result<usize> {
            self.as_ref().write_to(writer)
        }
    }

    impl fmt::Display for NamedGuid {
        /// As [`NamedGuidRef`] shows it: `000000000000002a "Bob"`, and
        /// `0000000000000000` for GUID 0.
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            fmt::Display::fmt(&self.as_ref(), f)
        }
    }

    impl NamedGuidRef<'_> {
        /// Copies the name into an owned [`NamedGuid`].
        #[must_use]
        pub fn to_owned_value(&self) -> NamedGuid {
            match *self {
                Self::Zero => NamedGuid::Zero,
                Self::Named { guid, name } => NamedGuid::Named {
                    guid,
                    // A NamedGuidRef never holds a NUL in its name.
                    name: Name(name.into()),
                },
            }
        }
    }

    impl Decoded<NamedGuidRef<'_>> {
        /// Copies the name into an owned [`NamedGuid`], keeping `consumed`.
        #[must_use]
        pub fn to_owned_value(self) -> Decoded<NamedGuid> {
            Decoded {
                value: self.value.to_owned_value(),
                consumed: self.consumed,
            }
        }
    }

    #[cfg(feature = "arbitrary")]
    impl<'a> arbitrary::Arbitrary<'a> for NamedGuid {
        fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
            match NonZeroU64::new(u.arbitrary()?) {
                None => Ok(Self::Zero),
                Some(guid) => Ok(Self::Named {
                    guid,
                    name: u.arbitrary()?,
                }),
            }
        }

        fn size_hint(depth: usize) -> (usize, Option<usize>) {
            arbitrary::size_hint::and(
                <u64 as arbitrary::Arbitrary>::size_hint(depth),
                <Name as arbitrary::Arbitrary>::size_hint(depth),
            )
        }
    }
}
