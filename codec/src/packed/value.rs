//! The [`PackedGuid`] value itself: the type, its canonical length and mask,
//! and how it prints.
//!
//! The bottom layer of [`crate::packed`], beside [`super::error`]: every
//! implementation builds on these and this module imports none of them. The
//! operations that encode and decode are added on top, in [`super`] and
//! [`super::dispatch`].

use core::fmt;

use crate::decoded::Decoded;

/// The longest encoding: the mask byte and all eight GUID bytes.
pub const MAX_ENCODED_LEN: usize = 9;

/// A GUID as it travels in the packed form.
///
/// The wrapper exists so that the wire format is part of the type; the GUID
/// itself is any `u64` (0 included). `Display` and `Debug` both show it as
/// 16 hex digits, most significant first, the way the vectors write GUIDs.
///
/// ```
/// use wow_guid_codec::PackedGuid;
///
/// let guid = PackedGuid(0xAD00_DE00);
/// assert_eq!(guid.to_string(), "00000000ad00de00");
/// assert_eq!(format!("{guid:?}"), "PackedGuid(00000000ad00de00)");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
// Laid out as its `u64`: the AVX-512 list decoder stores eight GUIDs at once.
#[repr(transparent)]
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
}

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

impl fmt::Debug for PackedGuid {
    /// `PackedGuid(` and the `Display` form: a GUID read in decimal says
    /// nothing about its bytes, which is what a packed GUID is about.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PackedGuid({self})")
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
///
/// `Debug` shows the bytes in hex: `EncodedPackedGuid([0a, de, ad])`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodedPackedGuid {
    pub(super) buf: [u8; MAX_ENCODED_LEN],
    /// 1..=9.
    pub(super) len: u8,
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
        write!(f, "EncodedPackedGuid({:02x?})", self.as_bytes())
    }
}

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
    use std::format;
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
    fn debug_and_display_show_sixteen_hex_digits() {
        let guid = PackedGuid(0xF130_0000_1234_0001);
        assert_eq!(guid.to_string(), "f130000012340001");
        assert_eq!(format!("{guid:?}"), "PackedGuid(f130000012340001)");
        assert_eq!(
            format!("{:?}", PackedGuid(0)),
            "PackedGuid(0000000000000000)"
        );
        // Inside other Debug output too, as in an assert_eq! message.
        assert_eq!(
            format!("{:?}", [PackedGuid(1), PackedGuid(u64::MAX)]),
            "[PackedGuid(0000000000000001), PackedGuid(ffffffffffffffff)]"
        );
        let encoded = EncodedPackedGuid {
            buf: [0x0a, 0xde, 0xad, 0, 0, 0, 0, 0, 0],
            len: 3,
        };
        assert_eq!(format!("{encoded:?}"), "EncodedPackedGuid([0a, de, ad])");
    }
}
