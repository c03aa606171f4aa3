//! [`BufferSizeError`]: how an encoder that writes into a caller's slice
//! says the slice does not fit the encoding.
//!
//! Its own module so that every wire type's module can use it without
//! importing the crate root, which re-exports them. It depends on nothing
//! else in the crate.

use core::fmt;

/// The output slice given to an encoder does not have the encoded length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferSizeError {
    /// The encoded length.
    pub needed: usize,
    /// The length of the slice given.
    pub got: usize,
}

impl fmt::Display for BufferSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output buffer has {} bytes but the encoding is exactly {} bytes",
            self.got, self.needed
        )
    }
}

impl core::error::Error for BufferSizeError {}
