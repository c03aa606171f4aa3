//! Deliberately naive models of the decoders and encoders: the baseline.
//!
//! These are the spec's loops, written the obvious way and typed correctly
//! (each byte is widened to `u64` *before* it is shifted, which is the bug in
//! the spec's own C snippet). They exist so that tests, fuzz targets and
//! benchmarks have an independent, easy-to-audit implementation to compare
//! the real codec with; they are always compiled, use no clever tricks, and
//! share no code with [`crate::packed`] or [`crate::named`] beyond the error
//! types, so a bug in one is unlikely to be mirrored in the other.
//!
//! Nothing here is meant to be fast.

use crate::named::{NamedGuidDecodeError, GUID_LEN};
use crate::packed::{PackedGuidError, MAX_ENCODED_LEN};

/// The spec's decoding loop: walks all eight mask bits, and each set bit
/// takes the next byte. Returns the GUID and the bytes consumed.
///
/// # Errors
/// The same [`PackedGuidError`] as [`crate::PackedGuid::decode`].
pub fn decode_packed(input: &[u8]) -> Result<(u64, usize), PackedGuidError> {
    if input.is_empty() {
        return Err(PackedGuidError::UnexpectedEof {
            mask: None,
            needed: 1,
            available: 0,
        });
    }
    let mask = input[0];
    let mut needed = 1;
    for i in 0..8 {
        if mask & (1 << i) != 0 {
            needed += 1;
        }
    }
    if input.len() < needed {
        return Err(PackedGuidError::UnexpectedEof {
            mask: Some(mask),
            needed,
            available: input.len(),
        });
    }
    let mut guid: u64 = 0;
    let mut cursor = 1;
    for i in 0..8 {
        if mask & (1 << i) != 0 {
            guid |= (input[cursor] as u64) << (i * 8);
            cursor += 1;
        }
    }
    Ok((guid, cursor))
}

/// The obvious encoder: one mask bit and one byte for each non-zero GUID
/// byte, least significant first. Returns the buffer and the length used.
#[must_use]
pub fn encode_packed(guid: u64) -> ([u8; MAX_ENCODED_LEN], usize) {
    let mut out = [0u8; MAX_ENCODED_LEN];
    let mut len = 1;
    for i in 0..8 {
        let byte = ((guid >> (i * 8)) & 0xff) as u8;
        if byte != 0 {
            out[0] |= 1 << i;
            out[len] = byte;
            len += 1;
        }
    }
    (out, len)
}

/// The obvious named-GUID decoder. Returns the GUID, the name bytes (absent
/// for GUID 0) and the bytes consumed. The name is checked for UTF-8 with
/// the standard library, the same judge the real decoder uses, so the two
/// agree on what "valid UTF-8" means by construction.
///
/// # Errors
/// The same [`NamedGuidDecodeError`] as [`crate::NamedGuidRef::decode`].
// Indexing by position is the point: it spells out the byte order plainly.
#[allow(clippy::needless_range_loop)]
pub fn decode_named(input: &[u8]) -> Result<(u64, Option<&[u8]>, usize), NamedGuidDecodeError> {
    if input.len() < GUID_LEN {
        return Err(NamedGuidDecodeError::GuidEof {
            available: input.len(),
        });
    }
    let mut guid: u64 = 0;
    for i in 0..GUID_LEN {
        guid |= (input[i] as u64) << (i * 8);
    }
    if guid == 0 {
        return Ok((0, None, GUID_LEN));
    }
    let mut end = GUID_LEN;
    while end < input.len() && input[end] != 0 {
        end += 1;
    }
    if end == input.len() {
        return Err(NamedGuidDecodeError::MissingNul {
            name_start: GUID_LEN,
            end: input.len(),
        });
    }
    let name = &input[GUID_LEN..end];
    if let Err(e) = core::str::from_utf8(name) {
        return Err(NamedGuidDecodeError::InvalidUtf8 {
            name_start: GUID_LEN,
            offset: GUID_LEN + e.valid_up_to(),
        });
    }
    Ok((guid, Some(name), end + 1))
}
