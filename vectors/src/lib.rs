//! The PackedGuid/NamedGuid test-vector corpus, and the loader that reads it.
//!
//! The corpus is a set of YAML files below this crate's directory. Each file
//! lists vectors: a request to an implementation (decode these bytes, encode
//! this GUID), what a conformant implementation answers, and what the vector
//! is about. The files are compiled into the crate ([`Corpus::embedded`]), so
//! every consumer (the codec's tests, the conformance runner, the fuzz corpus
//! seeder) reads the same vectors through the same loader, and they can also
//! be loaded from a directory ([`Corpus::load_dir`]) or from strings
//! ([`Corpus::from_sources`]).
//!
//! ```
//! use wow_guid_vectors::{Corpus, Expectation, Request, Value};
//!
//! let corpus = Corpus::embedded().expect("the checked-in corpus loads");
//! let example = corpus.get("packed.decode.doc-example").unwrap();
//! assert_eq!(example.request, Request::DecodePacked { bytes: vec![0x0a, 0xde, 0xad] });
//! assert_eq!(
//!     example.expect,
//!     Expectation::Valid(Value::Packed { guid: 0x0000_0000_ad00_de00, consumed: 3 })
//! );
//! ```
//!
//! This documentation is the specification of the file format. `README.md`
//! beside the corpus says the same for spec authors, with a step-by-step
//! guide to adding a case, and `schema.json` says it as a JSON Schema.
//!
//! # Files
//!
//! Every `*.yaml` file below the corpus root is part of the corpus; entries
//! whose names start with `.` and directories named `target` are skipped, and
//! a `*.yml` file is an error (rename it). Files are read in the order of their
//! paths relative to the root, compared as bytes, and the vectors of a file in
//! the order written, so the corpus order is fixed. Paths use `/`.
//!
//! A vector file is a regular file (a symlink to one inside the corpus
//! directory is followed) of at most [`MAX_FILE_BYTES`] (16 MiB), in UTF-8.
//! Anything else named `*.yaml` (a FIFO, a socket, a device, a directory, a
//! symlink that leads out of the corpus directory) and any larger file is an
//! error at that file, found before anything is read from it, so a hostile
//! directory cannot make the loader block, read without end, or quote a
//! file from elsewhere in its messages.
//!
//! | directory        | contents                                             |
//! |------------------|------------------------------------------------------|
//! | `packed_guid/`   | hand-written PackedGuid vectors, one file per topic  |
//! | `named_guid/`    | hand-written NamedGuid vectors, one file per topic   |
//! | `generated/`     | written by [`generate`]; never edit by hand          |
//!
//! A file is a mapping with one field, `vectors`, a non-empty list of vectors:
//!
//! ```yaml
//! vectors:
//!   - id: packed.decode.doc-example
//!     description: The spec's worked example.
//!     type: packed_guid
//!     op: decode
//!     input: { bytes: "0a de ad" }
//!     outcome: valid
//!     expect: { guid: "00000000ad00de00", consumed: 3 }
//!     flags: [doc-example, sign-bit]
//!     versions: [vanilla, tbc, wrath]
//!     source: "NOTES.md#the-worked-example: the spec's Examples section"
//! ```
//!
//! # A vector's fields
//!
//! | field         | YAML type          | required           | meaning |
//! |---------------|--------------------|--------------------|---------|
//! | `id`          | string             | yes                | Unique across the corpus, `[a-z0-9][a-z0-9._-]*`, never reused once published ([`Vector::id`]). |
//! | `sequence`    | string             | iff `stateful`     | The sequence the vector is a step of, spelled like an id; see [Sequences](#sequences). |
//! | `description` | string, one line   | yes                | What the vector checks. |
//! | `type`        | word               | yes                | `packed_guid` or `named_guid` ([`GuidType`]). |
//! | `op`          | word               | yes                | `decode`, `encode` or `size` ([`Op`]): `size` asks how many bytes the value's encoding takes. |
//! | `input`       | mapping            | yes                | The request's input; fields below. |
//! | `outcome`     | word               | yes                | `valid`, `invalid` or `acceptable` ([`Outcome`]). |
//! | `expect`      | mapping            | yes                | The expected answer; fields below. |
//! | `why`         | string             | iff `acceptable`   | Why both answers are conformant. Not allowed for other outcomes. |
//! | `flags`       | list of words      | no, default `[]`   | Topics, from [`Flag`]; no repeats. |
//! | `versions`    | list of words      | yes, at least one  | From [`Version`]; no repeats; only versions that use the type ([`GuidType::versions`]: `named_guid` is TBC and Wrath only). |
//! | `source`      | string, one line   | no                 | Where the expectation comes from: a citation of a note below the corpus root, then text ([`citation`]). |
//!
//! Any other field is an error, as is any field written twice.
//!
//! ## `input`
//!
//! | type          | op       | fields |
//! |---------------|----------|--------|
//! | either        | `decode` | `bytes`: the input, a hex string. The value is read from the front; bytes after it are the next field of the message. |
//! | `packed_guid` | `encode`, `size` | `guid`: the GUID to encode or measure. |
//! | `named_guid`  | `encode`, `size` | `guid`: the GUID; `name` (optional): the name's bytes as hex. No `name` means "no name given", which is not the same as `name: ""` (an empty name). A name may be invalid on purpose (containing NUL, not UTF-8). |
//!
//! ## `expect`
//!
//! | outcome                  | type / op            | fields |
//! |--------------------------|----------------------|--------|
//! | `invalid`                | any                  | `error`: an [`ErrorCode`] (`eof`, `invalid_utf8`, `interior_nul`, `name_without_guid`, `name_too_long`, `other`). |
//! | `valid` / `acceptable`   | `packed_guid` decode | `guid`; `consumed`: how many input bytes the value took, 1 to the input's length. |
//! | `valid` / `acceptable`   | `named_guid` decode  | `guid`; `consumed`; `name`: the name's bytes without the NUL, present exactly when `guid` is not 0 (`""` for an empty name). |
//! | `valid` / `acceptable`   | any encode           | `bytes`: the complete encoding. |
//! | `valid` / `acceptable`   | any size             | `size`: the encoding's length in bytes. A size vector expects what the encode of its value expects, with the length for the bytes ([`Request::measured`]). |
//!
//! ## Scalars
//!
//! - **Byte strings** (`bytes`, `name`) are double-quoted hex strings: pairs
//!   of hex digits, either case, whitespace allowed between bytes (never inside
//!   one), so long values may continue over several lines. `""` is the empty
//!   byte string. Quotes are required so that YAML cannot read `00` as a number.
//! - **GUIDs** are double-quoted strings of exactly 16 hex digits, most
//!   significant first, without `0x`: `"00000000ad00de00"`.
//! - **Counts** (`consumed`, `size`) are plain non-negative integers.
//! - **Words** (`type`, `op`, `outcome`, `error`, flags, versions) are plain
//!   strings from the lists in [`GuidType`], [`Op`], [`Outcome`], [`ErrorCode`],
//!   [`Flag`] and [`Version`]; each enum's `WORDS` constant lists them.
//!
//! YAML anchors and aliases work; merge keys (`<<`) are refused, because not
//! every YAML reader that consumes the corpus supports them. Parsing runs
//! under serde-saphyr's budgets (per file: at most 1,000,000 nodes, about
//! 33,000 vectors; aliases replaying at most one parser event per byte of
//! the file, as many copies kept of what anchors hold, and the scalar text,
//! aliases included, at most twice the file's size; at most ten aliases per
//! anchor once a file has 100), and a key inside a mapping key must be a
//! scalar (the parser copies a key once for each level of keys it is
//! inside), so a hostile file is an error, not a hang, and costs memory in
//! proportion to its size.
//!
//! # Outcomes
//!
//! - `valid`: the implementation must succeed with exactly the expected value
//!   (GUID, bytes consumed and name for a decode; every byte for an encode).
//! - `invalid`: the implementation must fail. A runner may accept any error,
//!   or, when error codes are checked strictly, only the expected code.
//! - `acceptable`: used only where the spec is silent. Succeeding with exactly
//!   the expected value and failing with any error are both conformant; any
//!   other value is not. `why` says why.
//!
//! # Sequences
//!
//! Some implementations keep state between calls (a reused buffer, a cached
//! mask). A vector that is a step of an ordered sequence names it in
//! `sequence` ([`Vector::sequence`]), and carries the flag
//! [`Flag::Stateful`], exactly then. The steps of a sequence:
//!
//! - are consecutive vectors of one file, in the order they run
//!   ([`LoadErrorKind::SequenceSplit`]);
//! - are at least two ([`LoadErrorKind::SequenceOfOne`]);
//! - may mix request kinds (an encoder and a decoder sharing a buffer is
//!   one such bug, and a fuzz finding may be one); the corpus's
//!   hand-written sequences are each of one kind, so that selecting by type
//!   or op takes each whole or not at all, and every request kind has one;
//! - run in file order, in one session, with nothing in between. A runner
//!   that selects any step runs the whole sequence, and a runner that
//!   replays one step sends the steps before it first
//!   ([`Corpus::steps_through`]).
//!
//! A sequence's name is spelled like an id. Because a step's point is its
//! position, steps are exempt from the duplicate-content rule below.
//!
//! # Rules across vectors
//!
//! - Ids are unique across the corpus ([`LoadErrorKind::DuplicateId`]).
//! - No two vectors outside sequences have the same request and the same
//!   expectation (outcome and value or error code; `why` does not count):
//!   [`LoadErrorKind::DuplicateContent`].
//! - No two vectors outside sequences have the same request and different
//!   expectations for a version they share: [`LoadErrorKind::ConflictingContent`].
//!
//! # Errors
//!
//! Loading never stops at the first fault and never panics: every fault in
//! every file becomes a [`LoadError`] with its [`Location`] (file, line,
//! column of the offending character where there is one) and a
//! [`LoadErrorKind`] whose message says what to change. They come back
//! together, sorted, as [`LoadErrors`]. A vector with any fault is not loaded.
//!
//! # Generated files
//!
//! The files in `generated/` ([`generate::files`]) and `REFERENCE.md`, the
//! corpus as one page ([`reference_page`]), are checked in.
//! `cargo run -p wow-guid-conformance -- generate` rewrites them
//! ([`generate::write_all`]); `generate --check` and the test
//! `generated_files_are_up_to_date` fail when they are stale
//! ([`generate::check`]).
//!
//! # Writing vectors
//!
//! [`yaml::write_vector`] writes a [`Vector`] in this format, and
//! [`yaml::write_comment`] writes `#` lines. The generator writes its files
//! with them, and the runner's differential fuzzing its findings; whatever
//! they write, the loader reads back unchanged.
#![forbid(unsafe_code)]

pub mod acceptance;
pub mod citation;
mod corpus;
mod error;
pub mod fault_model;
mod files;
pub mod generate;
pub mod hex_text;
mod interner;
mod model;
mod near_miss;
pub mod reference_page;
pub mod release;
#[cfg(test)]
mod schema_tests;
pub mod topics;
mod vocab;
pub mod yaml;

pub use acceptance::{Accepted, CodeSet};
pub use corpus::Corpus;
pub use error::{Expected, Found, IdError, LoadError, LoadErrorKind, LoadErrors, Section};
pub use files::{read_bounded, FileError, Pipes, MAX_FILE_BYTES};
pub use model::{Expectation, Location, Request, RequestKind, Value, Vector, NAME_BOUND_FLOOR};
pub use vocab::{ErrorCode, Flag, GuidType, Op, Outcome, ParseWordError, Version};

/// The corpus root: this crate's directory as it was when the crate was
/// built. The runner's `generate` and `lint` use it by default.
pub const SOURCE_DIR: &str = env!("CARGO_MANIFEST_DIR");
