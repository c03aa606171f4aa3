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

mod borrowed;
mod error;
#[cfg(feature = "alloc")]
mod owned;

pub use borrowed::NamedGuidRef;
pub use error::{NamedGuidDecodeError, NamedGuidValueError, GUID_LEN};
#[cfg(feature = "alloc")]
pub use owned::{Name, NamedGuid};
