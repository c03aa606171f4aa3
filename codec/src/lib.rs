//! Reference codec for World of Warcraft's `PackedGuid` and `NamedGuid` wire
//! types, as used by the 1.12 (Vanilla), 2.4.3 (TBC) and 3.3.5 (Wrath) world
//! protocol. Later clients lay GUIDs out differently and are out of scope.
//!
//! # The formats in brief
//!
//! **`PackedGuid`**: one mask byte, then one byte for each *set bit* of the
//! mask, least significant GUID byte first. Bit `i` set means byte `i` of the
//! GUID was sent; clear means it is zero. So the encoding is 1 to 9 bytes, and
//! GUID 0 is the single byte `00`. The mask's bit positions, not its value,
//! say which bytes follow.
//!
//! **`NamedGuid`**: a little-endian `u64`; if it is not zero, a C string
//! follows: the name's bytes, valid UTF-8, ended by a NUL byte.
//!
//! # The spec's worked example
//!
//! The bytes `0b00001010, 0xDE, 0xAD` say: bytes 1 and 3 were sent, `0xDE` and
//! `0xAD`, and all others are zero.
//!
//! ```
//! use wow_guid_codec::PackedGuid;
//!
//! let decoded = PackedGuid::decode(&[0b0000_1010, 0xDE, 0xAD]).unwrap();
//! assert_eq!(decoded.value.get(), 0x0000_0000_AD00_DE00);
//! assert_eq!(decoded.consumed, 3);
//! assert!(decoded.is_canonical());
//! assert_eq!(&*PackedGuid(0x0000_0000_AD00_DE00).encode(), &[0x0A, 0xDE, 0xAD]);
//! ```
//!
//! # Positions this codec takes where the spec is silent
//!
//! - **Decoding reads one value from the front of a longer message.** Bytes
//!   after it are the next field, never an error; [`Decoded::consumed`] says
//!   where that field starts.
//! - **Truncated input is an error**, with the offset where the input ended
//!   and how many bytes the value needed, never a panic or a read past the end.
//! - **Non-canonical packed GUIDs are accepted** (a mask bit set for a `00`
//!   byte), as every client and server accepts them;
//!   [`Decoded::is_canonical`] lets a strict consumer refuse them. The encoder
//!   only ever writes the shortest form.
//! - **Names are strict UTF-8**, as wowm's `CString` defines them; some tools
//!   decode them lossily or as Latin-1 instead.
//! - **No length limit on names.** One widely used implementation stops a name
//!   after 256 bytes and silently swallows the next byte, after which the rest
//!   of the message is read out of step. Here every name that fits in the
//!   input decodes; a server that wants a bound passes one, and exceeding it is
//!   a typed error ([`NamedGuidRef::decode_with_max_name_len`]).
//! - **A missing NUL at the end of the input is an error.** Some emulators
//!   tolerate it; the format does not.
//! - **No length prefix.** Real servers put a `u32` length before the name in
//!   `SMSG_MESSAGECHAT` for some GUID kinds; the `NamedGuid` type as specified
//!   has none, and this codec implements the type as written.
//!
//! # Known bugs this codec is tested against
//!
//! - The spec's own C snippet shifts `data[cursor]` after promoting it to a
//!   32-bit `int`: a byte `>= 0x80` at position 3 is sign-extended (the
//!   worked example prints `ffffffffad00de00`), and positions 4 to 7 shift
//!   by the width of the type or more, which is undefined behaviour.
//! - Reading the mask as a byte count instead of a bit set.
//!
//! # Method names
//!
//! Both wire types ([`PackedGuid`], and [`NamedGuid`] with its borrowing twin
//! [`NamedGuidRef`]) name their operations by one scheme: the verb says the
//! direction, the suffix says where the bytes come from or go.
//!
//! | method | does |
//! | --- | --- |
//! | `decode(&[u8]) -> Result<Decoded<Self>, _>` | reads one value from the front of the input; [`Decoded::consumed`] says where the next field starts |
//! | `encoded_len() -> usize` | the length every encoder below writes |
//! | `encode_to_slice(&mut [u8]) -> Result<usize, BufferSizeError>` | writes at the front of a caller's slice at least `encoded_len()` long, returns the length, leaves the rest of the slice alone |
//! | `encode_to_vec(&mut Vec<u8>)` | appends to a caller's `Vec` |
//! | `to_vec() -> Vec<u8>` | returns a new `Vec` |
//! | `write_to(&mut impl io::Write) -> io::Result<usize>` | writes to a writer, returns the length |
//!
//! Two more exist only where the type allows them. [`PackedGuid`]'s encoding
//! is at most 9 bytes, so it also has `encode_into(&mut [u8; 9]) -> usize`,
//! which cannot fail and is the fastest, and `encode() ->`
//! [`EncodedPackedGuid`], the encoding held inline without allocating.
//! [`NamedGuid`] and [`NamedGuidRef`] have `decode_with_max_name_len`, for a
//! caller that bounds names. Lists of packed GUIDs follow the same scheme as
//! free functions in [`packed`]: [`packed::encode_many`] (into a slice),
//! [`packed::encode_many_to_vec`], [`packed::decode_many`] and
//! [`packed::decode_many_to_vec`]. Every type shows itself with `Display`:
//! a GUID as 16 hex digits, most significant first, and `Debug` of
//! [`PackedGuid`] says the same.
//!
//! # Features
//!
//! - `std` (default): `std::io::Write` helpers; implies `alloc`.
//! - `alloc`: the owned [`NamedGuid`] and `Vec` helpers. Without it the crate
//!   is `no_std`, allocation-free, and still decodes both types
//!   ([`NamedGuidRef`] borrows its name from the input).
//! - `arbitrary`: `arbitrary::Arbitrary` for [`PackedGuid`], [`NamedGuid`]
//!   and [`Name`], for structured fuzzing.
//! - `properties`: the `properties` module, the property checks that the
//!   cargo-fuzz targets and the bolero harnesses share. For harnesses, not
//!   for applications.
//!
//! The [`naive`] module holds deliberately simple models of each decoder and
//! encoder, the baseline that tests, fuzzers and benchmarks compare with.
#![no_std]
// `unsafe` is denied everywhere but the SIMD backends under `packed/arch/`,
// which document why they need their blocks.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod buffer;
mod decoded;
pub mod naive;
pub mod named;
pub mod packed;
#[cfg(feature = "properties")]
pub mod properties;

pub use buffer::BufferSizeError;
pub use decoded::Decoded;
#[cfg(feature = "alloc")]
pub use named::{Name, NamedGuid};
pub use named::{NamedGuidDecodeError, NamedGuidRef, NamedGuidValueError};
pub use packed::{EncodedPackedGuid, PackedGuid, PackedGuidError};

/// The Rust examples of the crate's README (its crates.io page), run as
/// doctests so that what a new user copies first compiles and does what it
/// says.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
