//! The generated part of the corpus: systematic sweeps that would be tedious
//! and error-prone to write by hand (every mask, every truncation point, every
//! byte position, long names).
//!
//! Expected values are built here from the definition of the formats (place
//! the bytes at the positions of the set mask bits, and read the GUID off
//! them), never by calling a codec: this crate must not depend on the
//! implementations it judges. The files are checked in below `generated/`;
//! [`check`] (the runner's `generate --check`, the test
//! `generated_files_are_up_to_date`) fails when they differ from [`files`],
//! and [`write_all`] rewrites them.
//!
//! Ids are built from the parameters of each case (mask, length, position,
//! byte), never from a counter, so adding a case never renames another.

use crate::model::{Expectation, Location, Request, Vector};
use crate::topics::derived_flags;
use crate::vocab::Flag;

mod cells;
mod names;
mod packed;
mod sync;

pub use sync::{check, diff, writable, write_all, CheckError, Drift, WriteError, CORPUS_MARKERS};

/// The command that rewrites the generated files.
pub const COMMAND: &str = "cargo run -p wow-guid-conformance -- generate";

/// The command that fails when the generated files are out of date.
pub const CHECK_COMMAND: &str = "cargo run -p wow-guid-conformance -- generate --check";

/// The directory below the corpus root that holds only generated files.
pub const DIR: &str = "generated";

/// The GUID of the long-name vectors: all bytes distinct, so a byte-order
/// mistake shows.
const NAMED_GUID: u64 = 0x0123_4567_89ab_cdef;

/// What follows the NUL of a long name in a decode input: the next field,
/// which a decoder must leave alone.
const NEXT_FIELD: [u8; 3] = [0x01, 0x02, 0x03];

/// The generated files as (path relative to the corpus root, contents), in a
/// fixed order. Deterministic: same code, same bytes.
#[must_use]
pub fn files() -> Vec<(String, String)> {
    families()
        .into_iter()
        .map(|family| {
            let header = format!(
                "GENERATED FILE: do not edit. Regenerate with\n  {COMMAND}\n\
                 (`generate --check` and the test generated_files_are_up_to_date fail when this\n\
                 file is out of date). Written by vectors/src/generate.rs, which builds\n\
                 every expected value from the format's definition, not by running a codec.\n\n{}\n\n\
                 yaml-language-server: $schema=../schema.json",
                family.about
            );
            (
                family.path.to_owned(),
                crate::yaml::write_file(&header, &family.vectors),
            )
        })
        .collect()
}

/// Every generated family as [`crate::reference_page`] summarises it, in the
/// order of [`files`].
#[must_use]
pub fn summaries() -> Vec<crate::reference_page::FamilySummary> {
    families()
        .into_iter()
        .map(|family| crate::reference_page::FamilySummary {
            path: family.path.to_owned(),
            rule: family.about.to_owned(),
            note: family.note.to_owned(),
            ids: family.vectors.into_iter().map(|v| v.id).collect(),
        })
        .collect()
}

/// One generated file.
struct Family {
    path: &'static str,
    about: &'static str,
    /// The anchor of the note in `NOTES.md` the family rests on.
    note: &'static str,
    vectors: Vec<Vector>,
}

fn families() -> Vec<Family> {
    vec![
        Family {
            path: cells::FILE,
            note: "two-faults-in-one-input",
            about: "One named GUID for each cell of the fault model (vectors/fault-model.yaml):\n\
                    every class of name bytes, every kind of invalid UTF-8, every bound of\n\
                    the standard's table of well-formed UTF-8 from both sides and each of\n\
                    its sequences cut short, every buffer length (powers of two from 1 to\n\
                    8192 and their neighbours, the name ending in a 3- or 4-byte character),\n\
                    each fault alone and each pair of faults one input can carry, with the\n\
                    code the model gives them.",
            vectors: cells::fault_cells(),
        },
        Family {
            path: "generated/named-long-names.yaml",
            note: "names-longer-than-a-bound",
            about: "Named GUIDs with names of 255, 256, 257, 300 and 4096 bytes, decoded with\n\
                    bytes after the NUL and encoded. One widely used implementation stops a\n\
                    name after 256 bytes and swallows the next byte; these catch it.",
            vectors: names::long_names(),
        },
        Family {
            path: "generated/packed-masks.yaml",
            note: "the-mask-selects-byte-positions",
            about: "Every mask 00..ff, decoded and encoded. GUID byte i is 0x11 * (i + 1)\n\
                    wherever mask bit i is set, so a byte put at the wrong position shows.",
            vectors: packed::mask_sweep(),
        },
        Family {
            path: "generated/packed-sign-bit.yaml",
            note: "the-specs-c-snippet-sign-extends",
            about: "A GUID byte >= 0x80 at every position, among 01 bytes. The spec's C\n\
                    snippet shifts the byte as a 32-bit int: at position 3 the result\n\
                    overflows the int (undefined behaviour; usually sign-extended into the\n\
                    high bytes), from position 4 on the shift count is too large (undefined\n\
                    behaviour too).",
            vectors: packed::sign_bit(),
        },
        Family {
            path: "generated/packed-single-byte.yaml",
            note: "the-mask-selects-byte-positions",
            about: "Each one-bit mask with the byte 00, 7f, 80 and ff, decoded, and encoded\n\
                    where the byte is not 00 (the 00 forms are non-canonical).",
            vectors: packed::single_byte(),
        },
        Family {
            path: "generated/packed-truncation.yaml",
            note: "truncated-input-is-an-error",
            about: "Truncated packed GUIDs: the 9-byte value with mask ff cut after each of\n\
                    its first 8 bytes, and every other non-zero mask one byte short.",
            vectors: packed::truncation(),
        },
    ]
}

/// A generated vector: every generated vector carries `generated` and all the
/// versions its type is used in.
fn vector(
    file: &str,
    id: String,
    description: String,
    request: Request,
    expect: Expectation,
    family: Flag,
    source: Option<&str>,
) -> Vector {
    // The family's flag first, then what the bytes imply (one rule for
    // every topic: crate::topics), then `generated`.
    let mut flags = vec![family];
    flags.extend(
        derived_flags(&request, &expect)
            .into_iter()
            .filter(|f| *f != family),
    );
    flags.push(Flag::Generated);
    Vector {
        id,
        sequence: None,
        description,
        versions: request.guid_type().versions().into(),
        request,
        expect,
        flags: flags.into(),
        source: source.map(Into::into),
        location: Location::whole_file(file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_packed_values_from_the_definition() {
        // The spec's worked example, built the way every generated case is.
        let (wire, guid) = packed::packed(0x0a, |i| [0, 0xde, 0, 0xad, 0, 0, 0, 0][i]);
        assert_eq!(wire, [0x0a, 0xde, 0xad]);
        assert_eq!(guid, 0x0000_0000_ad00_de00);
        assert_eq!(packed::shortest(guid), wire);
        assert_eq!(packed::shortest(0), [0x00]);
        assert_eq!(packed::shortest(u64::MAX), [0xff; 9]);
    }

    #[test]
    fn written_files_load_back_to_the_same_vectors() {
        let written: Vec<(String, String)> = files();
        let loaded = crate::Corpus::from_sources(&written).unwrap_or_else(|e| panic!("{e}"));
        let built: Vec<Vector> = families().into_iter().flat_map(|f| f.vectors).collect();
        assert_eq!(loaded.vectors.len(), built.len());
        for (mut loaded, built) in loaded.vectors.into_iter().zip(built) {
            assert_eq!(loaded.location.file, built.location.file);
            loaded.location = built.location.clone();
            assert_eq!(loaded, built);
        }
    }

    #[test]
    fn output_is_deterministic() {
        assert_eq!(files(), files());
    }

    #[test]
    fn every_generated_file_sits_in_the_generated_directory() {
        for (path, contents) in files() {
            assert!(
                path.starts_with("generated/") && path.ends_with(".yaml"),
                "{path}"
            );
            assert!(
                contents.starts_with("# GENERATED FILE: do not edit."),
                "{path}"
            );
            assert!(contents.contains(COMMAND), "{path}");
        }
    }
}
