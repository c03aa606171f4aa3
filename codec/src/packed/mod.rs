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
//! # Layers
//!
//! The files are layered the way memchr layers its `arch` tree, and each
//! imports only from the layers below it:
//!
//! | layer | files | what it holds |
//! | --- | --- | --- |
//! | public API | this file | the methods of [`PackedGuid`], the `Vec` helpers of the list functions, the lists of implementations |
//! | one dispatch | `dispatch` | which implementation each operation runs: the only place a choice is made |
//! | implementations | [`portable`], [`table`], and `arch/` (the SIMD backends: [`ssse3`] and [`avx512`] under `arch/x86_64/`, and the registry of their loops) | one way each of doing the work, same signatures, never calling one another |
//! | generic loops | `generic` | the list loops written once over a one-value step, and the function types |
//! | values and errors | `value`, `error` | [`PackedGuid`], [`EncodedPackedGuid`] and the error types |
//!
//! # Implementations
//!
//! The codec has more than one implementation of each direction, all with the
//! same signatures ([`DecodeFn`], [`EncodeFn`], [`EncodeManyFn`],
//! [`DecodeManyFn`]) and listed by name in [`DECODERS`], [`ENCODERS`],
//! [`encode_many_implementations`] and [`decode_many_implementations`], so
//! that tests, fuzz targets and benchmarks hold every one of them to
//! [`crate::naive`] and to the vector corpus:
//!
//! - [`portable`]: the straightforward loop over the mask's bits, with no
//!   tables; always compiled, not the default. Its module docs say why it
//!   and [`crate::naive`] both exist.
//! - [`table`]: the fast path (one table entry per mask, an eight-byte load,
//!   three masked shifts, no mask-dependent branch). Plain safe Rust, so it
//!   runs on every target, and [`PackedGuid::decode`] and
//!   [`PackedGuid::encode_into`] always use it: there is nothing to detect at
//!   run time.
//! - The SIMD backends, in `arch/<architecture>/` and re-exported here:
//!   each compiles its list loops for CPU features and lists them in one
//!   registry, which the dispatcher, [`encode_many_implementations`],
//!   [`decode_many_implementations`] (and through them the tests, fuzz
//!   targets and benchmarks) read, so a new backend is files in `arch/`
//!   only. They are chosen at run time, once per list, by [`encode_many`]
//!   and [`decode_many`]; the one-value API cannot use them without paying
//!   a call per value.
//!   - [`ssse3`] (x86-64): encodes and decodes whole lists of GUIDs with one
//!     `PSHUFB` per GUID (and one `POPCNT` per value when decoding).
//!   - [`avx512`] (x86-64): decodes whole lists 64 bytes at a time, finding
//!     every mask of a block at once (`VPOPCNTB` links, doubled with masked
//!     `VPERMB`) instead of one mask after the other, and placing eight
//!     GUIDs' bytes per `VPERMI2B`, for lists long enough to gain from it;
//!     encodes seven GUIDs per `VPCOMPRESSB` (VBMI2).
//!
//! Lists of GUIDs (the count-prefixed lists of the update messages; the
//! count is the caller's to read or write) go through [`encode_many`] and
//! [`decode_many`].
//!
//! What each path costs, and the paths measured and left out (BMI2's
//! `PDEP`/`PEXT`, SSE2 for one value, a cached function pointer), is in
//! `codec/benches/README.md`, the one place the figures are kept.

use crate::buffer::BufferSizeError;
use crate::decoded::Decoded;

mod arch;
mod dispatch;
mod error;
mod generic;
pub mod portable;
pub mod table;
mod value;

#[cfg(target_arch = "x86_64")]
pub use arch::x86_64::*;

pub use dispatch::{decode_many, encode_many};
pub use error::{DecodeManyError, EncodeManyError, PackedGuidError};
pub use generic::{DecodeFn, DecodeManyFn, EncodeFn, EncodeManyFn};
pub use value::{EncodedPackedGuid, PackedGuid, MAX_ENCODED_LEN};

impl PackedGuid {
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
        dispatch::decode(input)
    }

    /// Writes the canonical encoding into `out` and returns its length (1..=9).
    ///
    /// The fixed-size form, which cannot fail: the fastest way to encode one
    /// value. Bytes of `out` past the returned length are unspecified.
    #[inline]
    pub fn encode_into(self, out: &mut [u8; MAX_ENCODED_LEN]) -> usize {
        dispatch::encode(self, out)
    }

    /// Writes the canonical encoding at the front of `out`, which must hold
    /// at least [`encoded_len`](Self::encoded_len) bytes, and returns its
    /// length. Bytes of `out` past the encoding are left as they were.
    ///
    /// # Errors
    /// [`BufferSizeError`] when `out` is shorter than the encoding; nothing
    /// is written then.
    ///
    /// ```
    /// use wow_guid_codec::PackedGuid;
    ///
    /// let mut message = [0xFF; 16];
    /// let len = PackedGuid(0xAD00_DE00).encode_to_slice(&mut message[4..]).unwrap();
    /// assert_eq!(&message[4..4 + len], &[0x0A, 0xDE, 0xAD]);
    /// ```
    pub fn encode_to_slice(self, out: &mut [u8]) -> Result<usize, BufferSizeError> {
        let encoded = self.encode();
        let Some(dest) = out.get_mut(..encoded.len()) else {
            return Err(BufferSizeError {
                needed: encoded.len(),
                available: out.len(),
            });
        };
        dest.copy_from_slice(&encoded);
        Ok(encoded.len())
    }

    /// The canonical encoding as a small value that derefs to `&[u8]`, held
    /// inline: no allocation.
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

    /// The canonical encoding as a new `Vec`.
    ///
    /// ```
    /// use wow_guid_codec::PackedGuid;
    ///
    /// assert_eq!(PackedGuid(0x0000_0000_AD00_DE00).to_vec(), [0x0A, 0xDE, 0xAD]);
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn to_vec(self) -> alloc::vec::Vec<u8> {
        self.encode().to_vec()
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

/// Appends the packed encodings of `guids` to `out`, one after another, with
/// [`encode_many`]. As there, the count (if the message has one) is the
/// caller's to write first.
#[cfg(feature = "alloc")]
pub fn encode_many_to_vec(guids: &[PackedGuid], out: &mut alloc::vec::Vec<u8>) {
    let start = out.len();
    // A slice of u64 has at most isize::MAX / 8 elements, so this cannot
    // overflow; saturating keeps that argument out of the reader's way.
    out.resize(
        start.saturating_add(guids.len().saturating_mul(MAX_ENCODED_LEN)),
        0,
    );
    let written = match encode_many(guids, &mut out[start..]) {
        Ok(written) => written,
        Err(e) => unreachable!("nine bytes per GUID always fit: {e}"),
    };
    out.truncate(start + written);
}

/// Decodes `count` packed GUIDs from the front of `input` with
/// [`decode_many`], appends them to `out`, and returns the number of bytes
/// they took.
///
/// `count` usually comes from the message itself, read by the caller, so it
/// is not trusted: at most one value per input byte is reserved, however
/// large it is.
///
/// # Errors
/// As [`decode_many`]; `out` then ends with the values before the failing
/// one.
#[cfg(feature = "alloc")]
pub fn decode_many_to_vec(
    input: &[u8],
    count: usize,
    out: &mut alloc::vec::Vec<PackedGuid>,
) -> Result<usize, DecodeManyError> {
    let start = out.len();
    // Every value takes at least one byte, so more than `input.len()` values
    // cannot all be there.
    let there = count.min(input.len());
    out.resize(start + there, PackedGuid(0));
    match decode_many(input, &mut out[start..]) {
        Ok(consumed) if there == count => Ok(consumed),
        Ok(consumed) => {
            // `there` values of at least one byte each filled the input.
            Err(DecodeManyError::UnexpectedEof {
                index: there,
                offset: consumed,
                mask: None,
                needed: 1,
                end: input.len(),
            })
        }
        Err(e) => {
            let DecodeManyError::UnexpectedEof { index, .. } = e;
            out.truncate(start + index);
            Err(e)
        }
    }
}

/// Every decoder compiled into this crate, by name: `default` is
/// [`PackedGuid::decode`] itself (currently [`table::decode`]), then each
/// implementation module's. Tests, fuzz targets and benchmarks iterate over
/// this list so that no implementation escapes the comparison with
/// [`crate::naive`] and the corpus.
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

/// Every implementation of [`encode_many`] this CPU runs, by name: `default`
/// is [`encode_many`] itself, then `table` (the portable loop, always
/// there), then each SIMD backend's list encoder whose CPU features this CPU
/// has (a function rather than a constant like [`ENCODERS`] for that
/// reason). Like [`ENCODERS`], held to [`crate::naive`] and the corpus by
/// the tests and fuzz targets.
pub fn encode_many_implementations() -> impl Iterator<Item = (&'static str, EncodeManyFn)> {
    let simd = arch::ENCODE_MANY
        .iter()
        .filter_map(|simd| Some((simd.name, (simd.get)()?)));
    [
        ("default", encode_many as EncodeManyFn),
        ("table", table::encode_many),
    ]
    .into_iter()
    .chain(simd)
}

/// Every implementation of [`decode_many`] this CPU runs, by name, like
/// [`encode_many_implementations`].
pub fn decode_many_implementations() -> impl Iterator<Item = (&'static str, DecodeManyFn)> {
    let simd = arch::DECODE_MANY
        .iter()
        .filter_map(|simd| Some((simd.name, (simd.get)()?)));
    [
        ("default", decode_many as DecodeManyFn),
        ("table", table::decode_many),
    ]
    .into_iter()
    .chain(simd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

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
