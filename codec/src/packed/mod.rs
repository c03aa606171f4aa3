//! `PackedGuid`: a 64-bit GUID sent as a mask byte followed by its non-zero bytes.
//!
//! This module owns the wire format of the packed GUID and nothing else: it
//! reads from and writes to caller-provided buffers, never allocates (except
//! in the explicitly `Vec`/`io::Write` helpers), and never panics.
//!
//! ```text
//! decode(input):
//!     mask = input[0]
//!     guid = 0; cursor = 1
//!     for i in 0..8:
//!         if mask bit i is set:
//!             guid |= (input[cursor] as u64) << (8 * i)   // widen *before* shifting
//!             cursor += 1
//!     return (guid, consumed = cursor)
//! ```
//!
//! The number of bytes that follow the mask is the number of *set bits*, not
//! the mask's value, and bit `i` stands for byte `i` of the little-endian GUID.
//!
//! # Implementations
//!
//! The codec has more than one implementation of each direction, all with the
//! same signatures ([`DecodeFn`], [`EncodeFn`]) and listed by name in
//! [`DECODERS`] and [`ENCODERS`], so that tests, fuzz targets and benchmarks
//! hold every one of them to [`crate::naive`]:
//!
//! - [`portable`]: the straightforward loop over the mask's bits, the readable
//!   baseline; always compiled, not the default.
//! - [`table`]: the fast path (one table entry per mask, an eight-byte load,
//!   three masked shifts, no mask-dependent branch). Plain safe Rust, so it
//!   runs on every target, and [`PackedGuid::decode`] and
//!   [`PackedGuid::encode_into`] always use it: there is nothing to detect at
//!   run time.
//! - [`ssse3`] (x86-64): encodes and decodes whole lists of GUIDs with one
//!   `PSHUFB` per GUID (and one `POPCNT` per value when decoding), about
//!   twice as fast as the table loop when encoding and a quarter faster than
//!   the bare walk over the masks when decoding. It is compiled for those
//!   features and chosen at run time, once per list, by [`encode_many`] and
//!   [`decode_many`]; the one-value API cannot use it without paying a call
//!   per value.
//!
//! Lists of GUIDs (the count-prefixed lists of the update messages) go
//! through [`encode_many`] and [`decode_many`], whose implementations are
//! listed in [`ENCODE_MANY`] and [`DECODE_MANY`] and held to the naive model
//! the same way.
//!
//! BMI2's `PDEP`/`PEXT` were measured and left out. One value at a time they
//! need a call, as SSSE3 does: on the machine named in `benches/README.md`
//! they decoded 3-4% faster than [`table`] (2.59 against 2.71 ns per value on
//! the realistic mix, 2.62 against 2.71 on random masks) and encoded no
//! faster (2.68 against 2.63 ns on uniform GUIDs). In a list loop, in a
//! scratch harness, `PEXT` encoded slower than `PSHUFB` (1.37 against 1.28
//! ns per GUID). On AMD processors before Zen 3 the two instructions are
//! microcoded and many times slower, so a detection that only asks "has
//! BMI2?" would also be a trap there; SSSE3 and POPCNT are fast wherever they
//! exist.

use core::fmt;

use crate::Decoded;

mod many;
pub mod portable;
#[cfg(target_arch = "x86_64")]
pub mod ssse3;
pub mod table;

pub use many::{decode_many, encode_many, DecodeManyError, EncodeManyError};
#[cfg(feature = "alloc")]
pub use many::{decode_many_to_vec, encode_many_to_vec};

/// The longest encoding: the mask byte and all eight GUID bytes.
pub const MAX_ENCODED_LEN: usize = 9;

/// A GUID as it travels in the packed form.
///
/// The wrapper exists so that the wire format is part of the type; the GUID
/// itself is any `u64` (0 included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PackedGuid(pub u64);

impl PackedGuid {
    /// Wraps a GUID.
    #[must_use]
    pub const fn new(guid: u64) -> Self {
        Self(guid)
    }

    /// The GUID as an integer.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// Length of the shortest (canonical) encoding: one mask byte plus one byte
    /// for each non-zero byte of the GUID, so 1 to 9.
    #[must_use]
    pub const fn encoded_len(self) -> usize {
        1 + nonzero_byte_mask(self.0).count_ones() as usize
    }

    /// The mask byte of the canonical encoding: bit `i` is set exactly when
    /// byte `i` of the GUID is non-zero.
    #[must_use]
    pub const fn mask(self) -> u8 {
        nonzero_byte_mask(self.0)
    }

    /// Decodes one packed GUID from the front of `input`.
    ///
    /// Bytes after the value are left alone: they are the next field of the
    /// message, and [`Decoded::consumed`] says where it starts. Non-canonical
    /// input (a mask bit set for a `00` byte) decodes to its value, as every
    /// client and server accepts it; [`Decoded::is_canonical`] tells the
    /// caller that wants to reject it.
    ///
    /// # Errors
    /// [`PackedGuidError::UnexpectedEof`] when `input` is empty or shorter than
    /// the mask promises.
    ///
    /// ```
    /// use wow_guid_codec::PackedGuid;
    ///
    /// let decoded = PackedGuid::decode(&[0b0000_1010, 0xDE, 0xAD, 0x42]).unwrap();
    /// assert_eq!(decoded.value, PackedGuid(0x0000_0000_AD00_DE00));
    /// assert_eq!(decoded.consumed, 3); // 0x42 belongs to the next field
    /// ```
    #[inline]
    pub fn decode(input: &[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError> {
        table::decode(input)
    }

    /// Writes the canonical encoding into `out` and returns its length (1..=9).
    ///
    /// Bytes of `out` past the returned length are unspecified.
    #[inline]
    pub fn encode_into(self, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
        table::encode(self, out)
    }

    /// The canonical encoding as a small value that derefs to `&[u8]`.
    ///
    /// ```
    /// use wow_guid_codec::PackedGuid;
    ///
    /// assert_eq!(&*PackedGuid(0x0000_0000_AD00_DE00).encode(), &[0x0A, 0xDE, 0xAD]);
    /// assert_eq!(&*PackedGuid(0).encode(), &[0x00]);
    /// ```
    #[must_use]
    pub fn encode(self) -> EncodedPackedGuid {
        let mut buf = [0u8; MAX_ENCODED_LEN];
        let len = self.encode_into(&mut buf);
        EncodedPackedGuid {
            buf,
            // 1..=9 always fits in a u8.
            len: len as u8,
        }
    }

    /// Appends the canonical encoding to `out`.
    #[cfg(feature = "alloc")]
    pub fn encode_to_vec(self, out: &mut alloc::vec::Vec<u8>) {
        out.extend_from_slice(&self.encode());
    }

    /// Writes the canonical encoding to `writer` and returns how many bytes
    /// were written.
    ///
    /// # Errors
    /// Whatever `writer` returns.
    #[cfg(feature = "std")]
    pub fn write_to<W: std::io::Write + ?Sized>(self, writer: &mut W) -> std::io::Result<usize> {
        let encoded = self.encode();
        writer.write_all(&encoded)?;
        Ok(encoded.len())
    }
}

/// Signature shared by every packed-GUID decoder in this crate.
pub type DecodeFn = fn(&[u8]) -> Result<Decoded<PackedGuid>, PackedGuidError>;

/// Signature shared by every packed-GUID encoder in this crate: writes the
/// canonical encoding and returns its length.
pub type EncodeFn = fn(PackedGuid, &mut [u8; MAX_ENCODED_LEN]) -> usize;

/// Every decoder compiled into this crate, by name: `default` is
/// [`PackedGuid::decode`] itself (currently [`table::decode`]), then each
/// implementation module's. Tests, fuzz targets and benchmarks iterate over
/// this list so that no implementation escapes the comparison with
/// [`crate::naive`].
pub const DECODERS: &[(&str, DecodeFn)] = &[
    ("default", PackedGuid::decode),
    ("portable", portable::decode),
    ("table", table::decode),
];

/// Every encoder compiled into this crate, by name: `default` is
/// [`PackedGuid::encode_into`] itself (currently [`table::encode`]); see
/// [`DECODERS`].
pub const ENCODERS: &[(&str, EncodeFn)] = &[
    ("default", PackedGuid::encode_into),
    ("portable", portable::encode),
    ("table", table::encode),
];

/// Signature shared by every implementation of [`encode_many`]: writes the
/// encodings of a list of GUIDs back to back and returns the bytes written.
pub type EncodeManyFn = fn(&[PackedGuid], &mut [u8]) -> Result<usize, EncodeManyError>;

/// Every implementation of [`encode_many`], by name: `default` is
/// [`encode_many`] itself (the SSSE3 loop where the CPU has SSSE3, else the
/// table loop), then each implementation module's. `ssse3` falls back to the
/// table loop on a CPU without SSSE3, so every entry runs everywhere. Like
/// [`ENCODERS`], held to [`crate::naive`] by the tests and fuzz targets.
pub const ENCODE_MANY: &[(&str, EncodeManyFn)] = &[
    ("default", encode_many),
    ("table", table::encode_many),
    #[cfg(target_arch = "x86_64")]
    ("ssse3", ssse3::encode_many),
];

/// Signature shared by every implementation of [`decode_many`]: decodes as
/// many values as the output slice holds and returns the bytes they took.
pub type DecodeManyFn = fn(&[u8], &mut [PackedGuid]) -> Result<usize, DecodeManyError>;

/// Every implementation of [`decode_many`], by name, like [`ENCODE_MANY`].
pub const DECODE_MANY: &[(&str, DecodeManyFn)] = &[
    ("default", decode_many),
    ("table", table::decode_many),
    #[cfg(target_arch = "x86_64")]
    ("ssse3", ssse3::decode_many),
];

impl From<u64> for PackedGuid {
    fn from(guid: u64) -> Self {
        Self(guid)
    }
}

impl From<PackedGuid> for u64 {
    fn from(guid: PackedGuid) -> Self {
        guid.0
    }
}

impl fmt::Display for PackedGuid {
    /// Formats the GUID as 16 hex digits, most significant first, the way the
    /// vectors and the conformance protocol write it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Decoded<PackedGuid> {
    /// Whether the input was the shortest encoding of the value: no mask bit
    /// was set for a zero byte.
    ///
    /// Every known encoder writes only canonical forms, and every known
    /// decoder accepts the others; a consumer that wants to be strict rejects
    /// the value when this is `false`.
    #[must_use]
    pub const fn is_canonical(&self) -> bool {
        self.consumed == self.value.encoded_len()
    }
}

/// The canonical encoding of a [`PackedGuid`], held inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodedPackedGuid {
    buf: [u8; MAX_ENCODED_LEN],
    len: u8,
}

impl EncodedPackedGuid {
    /// The encoded bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }
}

impl core::ops::Deref for EncodedPackedGuid {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for EncodedPackedGuid {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Debug for EncodedPackedGuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("EncodedPackedGuid")
            .field(&self.as_bytes())
            .finish()
    }
}

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

/// Bit `i` of the result is set exactly when byte `i` of `guid` is non-zero.
///
/// Branch-free: adding `0x7f` to the low seven bits of each byte carries into
/// bit 7 exactly when those bits are non-zero; or-ing in the byte itself covers
/// bytes whose only set bit is bit 7. The high bits are then gathered with a
/// multiply whose partial products land each byte's top bit in the top byte.
#[must_use]
pub(crate) const fn nonzero_byte_mask(guid: u64) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let flags = (((guid & LOW7) + LOW7) | guid) & HIGH;
    // flags has only bits 7, 15, ..., 63. The constant has bits 49 - 7j, so
    // bit 8i+7 times bit 49-7j lands at 56 + 8(i-j) + j: at 56+i when i = j,
    // past bit 63 (dropped) when i > j, and when i < j at a position below 56
    // that no other pair shares, so nothing carries into the top byte.
    (flags.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn nonzero_byte_mask_matches_bytewise_definition() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Zero out a pseudo-random subset of bytes so that every mask shows up.
            let keep = (x >> 56) as u8;
            let mut guid = 0u64;
            let mut expected = 0u8;
            for (i, b) in x.to_le_bytes().into_iter().enumerate() {
                if keep & (1 << i) != 0 {
                    guid |= u64::from(b) << (8 * i);
                    if b != 0 {
                        expected |= 1 << i;
                    }
                }
            }
            assert_eq!(nonzero_byte_mask(guid), expected, "guid {guid:016x}");
        }
        for i in 0..8 {
            for b in [0x01u64, 0x7f, 0x80, 0xff] {
                assert_eq!(nonzero_byte_mask(b << (8 * i)), 1 << i);
            }
        }
        assert_eq!(nonzero_byte_mask(0), 0);
        assert_eq!(nonzero_byte_mask(u64::MAX), 0xff);
    }

    #[test]
    fn errors_name_the_offset() {
        let err = PackedGuid::decode(&[0x0a, 0xde]).unwrap_err();
        assert_eq!(
            err,
            PackedGuidError::UnexpectedEof {
                mask: Some(0x0a),
                needed: 3,
                available: 2
            }
        );
        assert_eq!(err.offset(), 2);
        assert_eq!(
            err.to_string(),
            "packed GUID truncated: mask 0x0a at offset 0 announces 2 GUID byte(s), \
             so the value needs 3 bytes, but the input ends at offset 2"
        );
        let empty = PackedGuid::decode(&[]).unwrap_err();
        assert_eq!(empty.offset(), 0);
        assert!(empty.to_string().contains("empty"));
    }
}
