//! [`NamedGuid`] and [`Name`], the owned forms (with the `alloc` feature):
//! a value that outlives its input, built on the borrowed decoder and the
//! same rules.

use alloc::string::String;
use core::fmt;
use core::num::NonZeroU64;

use super::borrowed::{check_no_nul, NamedGuidRef};
use super::error::{NamedGuidDecodeError, NamedGuidValueError};
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
    pub fn write_to<W: std::io::Write + ?Sized>(&self, writer: &mut W) -> std::io::Result<usize> {
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
