//! The PackedGuid/NamedGuid test-vector corpus, and the loader that reads it.
//!
//! This first part holds the vocabulary of the format (the word lists), the
//! text form of byte strings and GUIDs, the in-memory vector model, and the
//! load errors. The YAML loader and the corpus follow.
#![forbid(unsafe_code)]

mod error;
pub mod hex_text;
mod model;
mod vocab;

pub use error::{Expected, Found, IdError, LoadError, LoadErrorKind, LoadErrors, Section};
pub use model::{Expectation, Location, Request, Value, Vector};
pub use vocab::{ErrorCode, Flag, GuidType, Op, Outcome, ParseWordError, Version};
