//! Unit tests that test modules through the crate's public and internal
//! API, kept out of `src/`.

mod citation;
mod hex_text;
mod release;
mod topics;
