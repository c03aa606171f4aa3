//! [`BufferSizeError`]: how every encoder that writes into a caller's slice
//! says the slice is too short.
//!
//! Shared by [`crate::PackedGuid::encode_to_slice`],
//! [`crate::NamedGuidRef::encode_to_slice`] and
//! [`crate::NamedGuid::encode_to_slice`]; it depends on nothing else in the
//! crate.

use core::fmt;

/// The slice given to an encoder is shorter than the encoding.
///
/// Every slice encoder accepts a slice at least as long as the encoding,
/// writes the encoding at its front and returns its length; when the slice is
/// shorter, it writes nothing and returns this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferSizeError {
    /// The encoded length: the least the slice must hold.
    pub needed: usize,
    /// The length of the slice given.
    pub available: usize,
}

impl fmt::Display for BufferSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output buffer too small: the encoding needs {} bytes but the buffer has {}",
            self.needed, self.available
        )
    }
}

impl core::error::Error for BufferSizeError {}
