//! Everything that knows the YAML syntax of vector files: parsing, the field
//! rules, and writing files (for the generator).
//!
//! No other module sees YAML: they get [`Vector`]s and [`LoadError`]s out, and
//! hand `Vector`s in. Parsing is done by serde-saphyr into a spanned node tree
//! ([`tree`]), which [`read`] checks field by field, so every fault in a file
//! is reported, each at its line and column.

mod read;
mod tree;
mod write;

pub(crate) use write::write_file;

use crate::error::LoadError;
use crate::model::Vector;
use crate::vocab::{GuidType, Op, Outcome};

/// Fields of a file's top level.
pub(crate) const FILE_FIELDS: &[&str] = &["vectors"];

/// Fields of a vector, in the order the writer emits them.
pub(crate) const VECTOR_FIELDS: &[&str] = &[
    "id",
    "description",
    "type",
    "op",
    "input",
    "outcome",
    "expect",
    "why",
    "flags",
    "versions",
    "source",
];

/// Fields of a vector whose outcome is not `acceptable`.
pub(crate) const VECTOR_FIELDS_WITHOUT_WHY: &[&str] = &[
    "id",
    "description",
    "type",
    "op",
    "input",
    "outcome",
    "expect",
    "flags",
    "versions",
    "source",
];

/// Fields a vector must have (besides `why` for outcome `acceptable`).
#[cfg(test)]
pub(crate) const VECTOR_REQUIRED: &[&str] = &[
    "id",
    "description",
    "type",
    "op",
    "input",
    "outcome",
    "expect",
    "versions",
];

/// Every field an `input` may have, whatever the type and op.
pub(crate) const INPUT_FIELDS: &[&str] = &["bytes", "guid", "name"];

/// Every field an `expect` may have, whatever the type, op and outcome.
pub(crate) const EXPECT_FIELDS: &[&str] = &["guid", "consumed", "name", "bytes", "error"];

/// The fields of `input` for one type and op. All are required except an
/// encode's `name`.
pub(crate) const fn input_fields(guid_type: GuidType, op: Op) -> &'static [&'static str] {
    match (guid_type, op) {
        (_, Op::Decode) => &["bytes"],
        (GuidType::PackedGuid, Op::Encode) => &["guid"],
        (GuidType::NamedGuid, Op::Encode) => &["guid", "name"],
    }
}

/// The fields of `expect` for one type, op and outcome. All are required
/// except a decoded named GUID's `name`, which is required exactly when the
/// GUID is not 0.
pub(crate) const fn expect_fields(
    guid_type: GuidType,
    op: Op,
    outcome: Outcome,
) -> &'static [&'static str] {
    match (guid_type, op, outcome) {
        (_, _, Outcome::Invalid) => &["error"],
        (_, Op::Encode, _) => &["bytes"],
        (GuidType::PackedGuid, Op::Decode, _) => &["guid", "consumed"],
        (GuidType::NamedGuid, Op::Decode, _) => &["guid", "consumed", "name"],
    }
}

/// Parses and checks one file, appending every fault to `errors`.
///
/// The vectors come back in file order; a vector with any fault is left out.
pub(crate) fn read_file(file: &str, text: &str, errors: &mut Vec<LoadError>) -> Vec<Vector> {
    let root = match tree::parse(file, text) {
        Ok(root) => root,
        Err(error) => {
            errors.push(*error);
            return Vec::new();
        }
    };
    read::Reader::new(file, text, errors).read_file(&root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Expectation, Location, Request, Value};
    use crate::vocab::{ErrorCode, Flag, Version};

    fn vector(id: &str, description: &str, request: Request, expect: Expectation) -> Vector {
        Vector {
            id: id.to_owned(),
            description: description.to_owned(),
            request,
            expect,
            flags: vec![Flag::Utf8],
            versions: vec![Version::Tbc],
            source: Some("a \"source\": with \\ and #".to_owned()),
            location: Location::whole_file("w.yaml"),
        }
    }

    /// Whatever the writer writes, the reader reads back unchanged.
    #[test]
    fn written_vectors_read_back_unchanged() {
        let long_name: Vec<u8> = (0..500u32).map(|i| b'a' + (i % 26) as u8).collect();
        let vectors = vec![
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
        ];
        let text = write_file("a header\n\nwith a blank line", &vectors);
        assert!(
            text.starts_with("# a header\n#\n# with a blank line\nvectors:\n"),
            "{text}"
        );
        let mut errors = Vec::new();
        let read = read_file("w.yaml", &text, &mut errors);
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        assert_eq!(read.len(), vectors.len());
        for (mut read, written) in read.into_iter().zip(vectors) {
            read.location = written.location.clone();
            assert_eq!(read, written);
        }
    }
}
