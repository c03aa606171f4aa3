//! The flags that follow from a vector's request and expectation alone, by
//! one rule each: the home of what `zero-guid`, `truncated`, `long-name`
//! and the other topics mean in bytes.
//!
//! The generator flags its families with [`derived_flags`], the runner's
//! differential fuzzing flags its findings with it, and a test holds every
//! hand-written vector of the corpus to it, so a topic cannot mean one thing
//! in a generated file and another in a finding. Flags about a vector's
//! purpose or provenance rather than its bytes (`doc-example`, `mask-sweep`,
//! `mask-as-count`, `stateful`, `generated`) are not derived: whoever writes
//! the vector sets them. Pure.

use crate::model::{Expectation, Request, Value};
use crate::vocab::{ErrorCode, Flag};

/// Every flag `request` and `expect` imply, in the order of [`Flag::ALL`],
/// without repeats.
///
/// - `empty-input`: a decode of no bytes;
/// - `truncated`: a decode whose input ends inside the value (no bytes, an
///   `eof` packed GUID, fewer than 8 bytes of a named GUID, or a name
///   without its NUL);
/// - `zero-guid`, `max-guid`: the GUID asked for or expected is 0, or all
///   ones;
/// - `sign-bit`: a packed GUID with a byte `>= 0x80`;
/// - `single-byte`: a packed GUID with exactly one byte present (one mask
///   bit when decoding, one non-zero byte when encoding);
/// - `non-canonical`: a decoded packed GUID with a `00` byte present;
/// - `trailing-bytes`: a decode whose input goes on after the value;
/// - `nul-in-guid`: a named GUID whose wire bytes hold a `00` before a
///   non-zero byte, which a reader that takes the GUID for text stops at;
/// - `missing-nul`: a decoded name that runs to the end of the input;
/// - `empty-name`, `long-name` (255 bytes or more), `utf8` (valid, with a
///   multi-byte character), `invalid-utf8`: a whole name's bytes, or
///   (all but `empty-name`) the bytes of a name the input cuts short;
/// - `interior-nul`: a name to encode containing `00`;
///   `name-without-guid`: a name given with GUID 0; `no-name`: a non-zero
///   GUID to encode without a name.
#[must_use]
pub fn derived_flags(request: &Request, expect: &Expectation) -> Vec<Flag> {
    let mut flags = Vec::new();
    match request {
        Request::DecodePacked { bytes } => {
            if bytes.is_empty() {
                flags.push(Flag::EmptyInput);
            }
            if *expect == Expectation::Invalid(ErrorCode::Eof) {
                flags.push(Flag::Truncated);
            }
            if let Some(Value::Packed { guid, consumed }) = expect.value() {
                packed_guid_flags(*guid, &mut flags);
                let present = bytes.get(1..*consumed).unwrap_or_default();
                if present.len() == 1 {
                    flags.push(Flag::SingleByte);
                }
                if present.contains(&0) {
                    flags.push(Flag::NonCanonical);
                }
                if *consumed < bytes.len() {
                    flags.push(Flag::TrailingBytes);
                }
            }
        }
        Request::EncodePacked { guid } | Request::SizePacked { guid } => {
            packed_guid_flags(*guid, &mut flags);
            if guid.to_le_bytes().iter().filter(|&&b| b != 0).count() == 1 {
                flags.push(Flag::SingleByte);
            }
        }
        Request::DecodeNamed { bytes } => match bytes.split_first_chunk::<8>() {
            None => {
                if bytes.is_empty() {
                    flags.push(Flag::EmptyInput);
                }
                flags.push(Flag::Truncated);
            }
            Some((guid, rest)) => {
                let guid = u64::from_le_bytes(*guid);
                named_guid_flags(guid, &mut flags);
                if guid == 0 {
                    if !rest.is_empty() {
                        flags.push(Flag::TrailingBytes);
                    }
                } else if let Some(end) = rest.iter().position(|&b| b == 0) {
                    if end + 1 < rest.len() {
                        flags.push(Flag::TrailingBytes);
                    }
                    name_flags(&rest[..end], &mut flags);
                } else {
                    flags.push(Flag::MissingNul);
                    flags.push(Flag::Truncated);
                    // The bytes of a name cut short still say what kind of
                    // name it is (long, not UTF-8, ...): a reader meets them
                    // before it meets the end.
                    if !rest.is_empty() {
                        name_flags(rest, &mut flags);
                    }
                }
            }
        },
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
            named_guid_flags(*guid, &mut flags);
            match name {
                Some(_) if *guid == 0 => flags.push(Flag::NameWithoutGuid),
                None if *guid != 0 => flags.push(Flag::NoName),
                _ => {}
            }
            if let Some(name) = name {
                if name.contains(&0) {
                    flags.push(Flag::InteriorNul);
                }
                name_flags(name, &mut flags);
            }
        }
    }
    flags.sort();
    flags.dedup();
    flags
}

/// The flags of any GUID's value.
fn guid_flags(guid: u64, flags: &mut Vec<Flag>) {
    if guid == 0 {
        flags.push(Flag::ZeroGuid);
    }
    if guid == u64::MAX {
        flags.push(Flag::MaxGuid);
    }
}

/// The flags of a packed GUID: its value's, and `sign-bit`.
fn packed_guid_flags(guid: u64, flags: &mut Vec<Flag>) {
    guid_flags(guid, flags);
    if guid.to_le_bytes().iter().any(|&b| b >= 0x80) {
        flags.push(Flag::SignBit);
    }
}

/// The flags of a named GUID: its value's, and `nul-in-guid` when a `00`
/// comes before a non-zero byte on the wire (least significant first).
fn named_guid_flags(guid: u64, flags: &mut Vec<Flag>) {
    guid_flags(guid, flags);
    let bytes = guid.to_le_bytes();
    let last = bytes.iter().rposition(|&b| b != 0).unwrap_or(0);
    if bytes[..last].contains(&0) {
        flags.push(Flag::NulInGuid);
    }
}

fn name_flags(name: &[u8], flags: &mut Vec<Flag>) {
    if name.is_empty() {
        flags.push(Flag::EmptyName);
    }
    if name.len() >= 255 {
        flags.push(Flag::LongName);
    }
    match std::str::from_utf8(name) {
        Err(_) => flags.push(Flag::InvalidUtf8),
        Ok(text) if !text.is_ascii() => flags.push(Flag::Utf8),
        Ok(_) => {}
    }
}
