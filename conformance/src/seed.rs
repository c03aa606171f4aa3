//! `seed-corpus`: the decode vectors' inputs as a fuzzing seed corpus.
//!
//! Each decode vector's input bytes become one file named after the vector
//! id: under `decode_packed_guid/` or `decode_named_guid/` for the target of
//! that type, and all of them under `differential/`, whose target takes any
//! input. This module only computes the files; the CLI writes them.

use std::path::PathBuf;

use wow_guid_vectors::{Request, Vector};

/// Seed-corpus directory for the packed-GUID decoder target.
pub const PACKED_DIR: &str = "decode_packed_guid";
/// Seed-corpus directory for the named-GUID decoder target.
pub const NAMED_DIR: &str = "decode_named_guid";
/// Seed-corpus directory for the differential target.
pub const DIFFERENTIAL_DIR: &str = "differential";

/// The files to write, as paths relative to the output directory and their bytes.
#[must_use]
pub fn seed_files(vectors: &[Vector]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for v in vectors {
        let (dir, bytes) = match &v.request {
            Request::DecodePacked { bytes } => (PACKED_DIR, bytes),
            Request::DecodeNamed { bytes } => (NAMED_DIR, bytes),
            Request::EncodePacked { .. } | Request::EncodeNamed { .. } => continue,
        };
        // Ids are `[a-z0-9][a-z0-9._-]*`, which is always a safe file name.
        files.push(([dir, v.id.as_str()].iter().collect(), bytes.clone()));
        files.push((
            [DIFFERENTIAL_DIR, v.id.as_str()].iter().collect(),
            bytes.clone(),
        ));
    }
    files
}
