//! [`NamedGuidRef`], the named GUID that borrows its name from the input:
//! the decoder and encoder themselves, which never allocate, and the rules
//! of a valid value that the owned form reuses.

use core::fmt;
use core::num::NonZeroU64;

use super::error::{NamedGuidDecodeError, NamedGuidValueError, GUID_LEN};
use crate::buffer::BufferSizeError;
use crate::decoded::Decoded;

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

/// Checks that `name` has no NUL byte, which would end it on the wire.
pub(super) fn check_no_nul(name: &[u8]) -> Result<(), NamedGuidValueError> {
    match name.iter().position(|&b| b == 0) {
        Some(offset) => Err(NamedGuidValueError::InteriorNul { offset }),
        None => Ok(()),
    }
}
