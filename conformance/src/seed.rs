//! `seed-corpus`: the vectors' inputs as a fuzzing seed corpus.
//!
//! Each decode vector's input bytes become one file named after the vector
//! id: under `decode_packed_guid/` or `decode_named_guid/` for the target of
//! that type, and all of them under `differential/`, whose target takes any
//! input. Each encode vector's value becomes a seed of the round-trip target
//! of its type (`roundtrip_packed_guid/`, `roundtrip_named_guid/`), written
//! as the bytes from which `arbitrary` builds that value (the targets take
//! a `PackedGuid` or a `NamedGuid` through it); a value those targets cannot
//! take (a name with a NUL or not UTF-8, a name after GUID 0, no name after
//! another GUID) has no seed. This module only computes the files; the CLI
//! writes them.

use std::path::PathBuf;

use arbitrary::{Arbitrary, Unstructured};
use wow_guid_vectors::{Request, Vector};

/// Seed-corpus directory for the packed-GUID decoder target.
pub const PACKED_DIR: &str = "decode_packed_guid";
/// Seed-corpus directory for the named-GUID decoder target.
pub const NAMED_DIR: &str = "decode_named_guid";
/// Seed-corpus directory for the differential target.
pub const DIFFERENTIAL_DIR: &str = "differential";
/// Seed-corpus directory for the packed-GUID round-trip target.
pub const PACKED_ROUNDTRIP_DIR: &str = "roundtrip_packed_guid";
/// Seed-corpus directory for the named-GUID round-trip target.
pub const NAMED_ROUNDTRIP_DIR: &str = "roundtrip_named_guid";

/// The eight bytes from which `arbitrary` reads `guid`.
fn guid_bytes(guid: u64) -> [u8; 8] {
    let le = guid.to_le_bytes();
    let read = u64::arbitrary(&mut Unstructured::new(&le)).ok();
    if read == Some(guid) {
        le
    } else {
        guid.to_be_bytes()
    }
}

/// The bytes from which `arbitrary` reads `guid` and then `name` as a
/// `String` (a length from the end of the input, then the characters), if
/// any: checked by reading them back.
fn named_bytes(guid: u64, name: &str) -> Option<Vec<u8>> {
    [1usize, 2, 4].into_iter().find_map(|width| {
        let len = u32::try_from(name.len()).ok()?;
        let size = &len.to_be_bytes()[4 - width..];
        let mut bytes = guid_bytes(guid).to_vec();
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(size);
        let mut u = Unstructured::new(&bytes);
        let read = (
            u64::arbitrary(&mut u).ok()?,
            String::arbitrary(&mut u).ok()?,
        );
        (read == (guid, name.to_owned())).then_some(bytes)
    })
}

/// The seed of an encode request's round-trip target, if it has one.
fn encode_seed(request: &Request) -> Option<(&'static str, Vec<u8>)> {
    match request {
        Request::EncodePacked { guid } => Some((PACKED_ROUNDTRIP_DIR, guid_bytes(*guid).to_vec())),
        Request::EncodeNamed {
            guid: 0,
            name: None,
        } => Some((NAMED_ROUNDTRIP_DIR, guid_bytes(0).to_vec())),
        Request::EncodeNamed {
            guid,
            name: Some(name),
        } if *guid != 0 => {
            let name = std::str::from_utf8(name)
                .ok()
                .filter(|n| !n.contains('\0'))?;
            Some((NAMED_ROUNDTRIP_DIR, named_bytes(*guid, name)?))
        }
        _ => None,
    }
}

/// The files to write, as paths relative to the output directory and their bytes.
#[must_use]
pub fn seed_files(vectors: &[Vector]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for v in vectors {
        let (dir, bytes) = match &v.request {
            Request::DecodePacked { bytes } => (PACKED_DIR, bytes),
            Request::DecodeNamed { bytes } => (NAMED_DIR, bytes),
            encode @ (Request::EncodePacked { .. } | Request::EncodeNamed { .. }) => {
                if let Some((dir, bytes)) = encode_seed(encode) {
                    files.push(([dir, v.id.as_str()].iter().collect(), bytes));
                }
                continue;
            }
            // A size request's value is an encode's, seeded by the encode
            // vectors already.
            Request::SizePacked { .. } | Request::SizeNamed { .. } => continue,
        };
        // Ids are `[a-z0-9][a-z0-9._-]*`, which is always a safe file name.
        for dir in [dir, DIFFERENTIAL_DIR] {
            files.push(([dir, v.id.as_str()].iter().collect(), bytes.clone()));
        }
    }
    files
}
