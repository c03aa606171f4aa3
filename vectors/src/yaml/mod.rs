//! Everything that knows the YAML syntax of vector files: parsing, the field
//! rules, and writing vectors.
//!
//! No other module sees YAML: they get [`Vector`]s and [`LoadError`]s out, and
//! hand `Vector`s in. Parsing is done by serde-saphyr into a spanned node tree
//! (`tree`), which `read` checks field by field, so every fault in a file
//! is reported, each at its line and column.
//!
//! Writing is public ([`write_vector`], [`write_comment`]) because the
//! runner's differential fuzzing prints vectors too, and so is
//! [`parser_message`], so that every YAML file the workspace reads words
//! its parser errors as the corpus does.

pub(crate) mod fields;
mod read;
mod tree;
mod write;

pub use tree::parser_message;
pub(crate) use write::write_file;
pub use write::{write_comment, write_vector};

use crate::error::LoadError;
use crate::interner::Interner;
use crate::model::Vector;

/// Parses and checks one file, appending every fault to `errors`.
///
/// The vectors come back in file order; a vector with any fault is left out.
///
/// Flag lists, version lists and sources come from `interner`, shared with
/// every other vector of the load that has the same.
pub(crate) fn read_file(
    file: &str,
    text: &str,
    errors: &mut Vec<LoadError>,
    interner: &mut Interner,
) -> Vec<Vector> {
    let root = match tree::parse(file, text) {
        Ok(root) => root,
        Err(error) => {
            errors.push(*error);
            return Vec::new();
        }
    };
    read::Reader::new(file, text, errors, interner).read_file(&root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Expectation, Location, Request, Value};
    use crate::vocab::{ErrorCode, Flag, Version};

    fn vector(id: &str, description: &str, request: Request, expect: Expectation) -> Vector {
        Vector {
            id: id.to_owned(),
            sequence: None,
            description: description.to_owned(),
            request,
            expect,
            flags: [Flag::Utf8].into(),
            versions: [Version::Tbc].into(),
            source: Some("a \"source\": with \\ and #".into()),
            location: Location::whole_file("w.yaml"),
        }
    }

    /// Vectors with every awkward part: long byte strings, text that needs
    /// escapes, ids and descriptions YAML would read as other types.
    fn awkward_vectors() -> Vec<Vector> {
        let long_name: Vec<u8> = (0..500u32).map(|i| b'a' + (i % 26) as u8).collect();
        vec![
            vector(
                "named.encode.tricky",
                "Quotes \" and \\ backslashes: # not a comment, \u{e9}, tab\there, bell \u{7}.",
                Request::EncodeNamed {
                    guid: 1,
                    name: Some(long_name.clone()),
                },
                Expectation::Valid(Value::Encoded { bytes: long_name }),
            ),
            vector(
                "named.encode.acceptable",
                "- starts like a list item",
                Request::EncodeNamed {
                    guid: 2,
                    name: None,
                },
                Expectation::Acceptable {
                    value: Value::Encoded { bytes: vec![] },
                    why: "multi\nline why".to_owned(),
                },
            ),
            vector(
                "123",
                "true",
                Request::DecodeNamed { bytes: vec![] },
                Expectation::Invalid(ErrorCode::Eof),
            ),
            vector(
                "named.decode.zero",
                "null",
                Request::DecodeNamed { bytes: vec![0; 9] },
                Expectation::Valid(Value::Named {
                    guid: 0,
                    consumed: 8,
                    name: None,
                }),
            ),
        ]
    }

    fn assert_reads_back(text: &str, vectors: Vec<Vector>) {
        let mut errors = Vec::new();
        let read = read_file("w.yaml", text, &mut errors, &mut Interner::default());
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        assert_eq!(read.len(), vectors.len());
        for (mut read, written) in read.into_iter().zip(vectors) {
            read.location = written.location.clone();
            assert_eq!(read, written);
        }
    }

    /// Whatever the writer writes, the reader reads back unchanged.
    #[test]
    fn written_vectors_read_back_unchanged() {
        let vectors = awkward_vectors();
        let text = write_file("a header\n\nwith a blank line", &vectors);
        assert!(
            text.starts_with("# a header\n#\n# with a blank line\nvectors:\n"),
            "{text}"
        );
        assert_reads_back(&text, vectors);
    }

    /// A step of a sequence is written with its `sequence` right after its
    /// id, and reads back as one.
    #[test]
    fn sequence_names_read_back() {
        let steps: Vec<Vector> = [1u64, 0]
            .into_iter()
            .map(|guid| {
                let mut v = vector(
                    &format!("packed.encode.s.{guid}"),
                    "A step.",
                    Request::EncodePacked { guid },
                    Expectation::Valid(Value::Encoded {
                        bytes: if guid == 0 { vec![0] } else { vec![1, 1] },
                    }),
                );
                v.sequence = Some("packed.encode.s".into());
                v.flags = [Flag::Stateful].into();
                v
            })
            .collect();
        let text = write_file("steps", &steps);
        assert!(
            text.contains("  - id: packed.encode.s.1\n    sequence: packed.encode.s\n"),
            "{text}"
        );
        assert_reads_back(&text, steps);
    }

    /// Items may sit at any indentation, with comments before them, as when
    /// they are appended to a file written by hand.
    #[test]
    fn vectors_read_back_at_any_indentation() {
        for indent in [0, 2, 5] {
            let vectors = awkward_vectors();
            let mut text = String::from("vectors:\n");
            for v in &vectors {
                write_comment(&mut text, "about the next item\n\nand more", indent);
                write_vector(&mut text, v, indent);
                text.push('\n');
            }
            assert_reads_back(&text, vectors);
        }
    }

    /// A mapping is written in block style exactly when one of its byte
    /// strings is longer than 24 bytes, and the long string goes on over
    /// lines of 24 bytes, indented past its key.
    #[test]
    fn byte_strings_longer_than_a_line_switch_to_block_style() {
        let bytes = |n: u8| (0..n).collect::<Vec<u8>>();
        let write = |request: Request, expect: Expectation| {
            let mut out = String::new();
            write_vector(&mut out, &vector("x.y", "d", request, expect), 1);
            out
        };
        let flow = write(
            Request::DecodePacked { bytes: bytes(24) },
            Expectation::Invalid(ErrorCode::Other),
        );
        assert!(
            flow.contains(
                "\n   input: { bytes: \"00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f \
                 10 11 12 13 14 15 16 17\" }\n   outcome: invalid\n   expect: { error: other }\n"
            ),
            "{flow}"
        );
        let block = write(
            Request::EncodeNamed {
                guid: 1,
                name: Some(bytes(50)),
            },
            Expectation::Valid(Value::Encoded { bytes: bytes(3) }),
        );
        assert!(
            block.contains(
                "\n   input:\n     guid: \"0000000000000001\"\n     name: \"00 01 02 03 04 05 06 07 \
                 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17\n       18 19 1a 1b 1c 1d 1e 1f \
                 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f\n       30 31\"\n   \
                 outcome: valid\n   expect: { bytes: \"00 01 02\" }\n"
            ),
            "{block}"
        );
    }

    #[test]
    fn comments_mark_every_line() {
        let mut out = String::new();
        write_comment(&mut out, "one\n\ntwo", 3);
        assert_eq!(out, "   # one\n   #\n   # two\n");
    }
}
