//! Fuzz and test your own World of Warcraft `PackedGuid`/`NamedGuid`
//! codec with what the wow-guid project uses on its reference codec.
//!
//! Implement [`Codec`] (the four decode and encode operations of the
//! conformance protocol, with its error codes; not its optional `size`) for your codec, and this crate gives you:
//!
//! - [`corpus`]: the whole vector corpus as one `cargo test`, judged and
//!   reported as the runner's `run` judges and reports a program (failures
//!   grouped by cause, a few of each in full), and every encode's own round
//!   trip;
//! - [`oracle`]: whether an answer to any request is one `run` would
//!   accept, the one judge the runner, its fuzzer and your tests share;
//! - [`properties`]: the checks a fuzz target or a property test calls on
//!   one input (no panic, what was consumed, trailing bytes left alone,
//!   round trip, agreement with the reference), each panicking with a
//!   message that names the input;
//! - [`generate`]: inputs that find codec bugs, for `arbitrary` (cargo-fuzz)
//!   and bolero: names of every UTF-8 width and past every bound, GUIDs
//!   with zero bytes, damaged encodings, requests from the fault model;
//! - [`round_trip`]: the check that an implementation reads back what it
//!   writes, for a codec in process or a program behind the protocol.
//!
//! It depends on the reference codec, the corpus and the harness, and on
//! no command-line crate. `examples/fuzz-your-codec/` in the repository is
//! a crate to copy: a codec with planted bugs, its corpus test, its bolero
//! harness and its cargo-fuzz targets, which CI keeps finding those bugs.
//!
//! # Example: the corpus as a test
//!
//! ```
//! use wow_guid_testkit::{Codec, Named, Packed, Reference};
//! use wow_guid_vectors::ErrorCode;
//!
//! /// A codec under test; here it hands every call to the reference.
//! struct Mine;
//!
//! impl Codec for Mine {
//!     fn decode_packed(&self, bytes: &[u8]) -> Result<Packed, ErrorCode> {
//!         Reference.decode_packed(bytes)
//!     }
//!     fn encode_packed(&self, guid: u64) -> Result<Vec<u8>, ErrorCode> {
//!         Reference.encode_packed(guid)
//!     }
//!     fn decode_named(&self, bytes: &[u8]) -> Result<Named, ErrorCode> {
//!         Reference.decode_named(bytes)
//!     }
//!     fn encode_named(&self, guid: u64, name: Option<&[u8]>) -> Result<Vec<u8>, ErrorCode> {
//!         Reference.encode_named(guid, name)
//!     }
//! }
//!
//! // In a #[test]: every vector, grouped failures, and the round trips.
//! wow_guid_testkit::corpus::assert_corpus(&Mine);
//! ```

pub mod codec;
pub mod corpus;
pub mod generate;
pub mod in_process;
pub mod oracle;
pub mod properties;
pub mod reference;
pub mod round_trip;

pub use codec::{Codec, Named, Packed};
pub use reference::Reference;
