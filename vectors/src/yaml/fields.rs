//! The field names of the format, in one place: which fields a file, a
//! vector, an `input` and an `expect` may have, and which of them a given
//! type, op and outcome allow. The reader checks files against these lists,
//! the writer emits fields in their order, and a test holds `schema.json`
//! to them. Constants only; no parsing.

use crate::vocab::{GuidType, Op, Outcome};

/// Fields of a file's top level.
pub(crate) const FILE_FIELDS: &[&str] = &["vectors"];

/// Fields of a vector, in the order the writer emits them.
pub(crate) const VECTOR_FIELDS: &[&str] = &[
    "id",
    "sequence",
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

/// Fields of a vector whose outcome is not `acceptable`: all but `why`
/// (a test holds the two lists to each other).
pub(crate) const VECTOR_FIELDS_WITHOUT_WHY: &[&str] = &[
    "id",
    "sequence",
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
pub(crate) const EXPECT_FIELDS: &[&str] = &["guid", "consumed", "name", "bytes", "size", "error"];

/// The fields of `input` for one type and op. All are required except an
/// encode's or a size's `name`: a `size` request takes the value as
/// `encode` does.
pub(crate) const fn input_fields(guid_type: GuidType, op: Op) -> &'static [&'static str] {
    match (guid_type, op) {
        (_, Op::Decode) => &["bytes"],
        (GuidType::PackedGuid, Op::Encode | Op::Size) => &["guid"],
        (GuidType::NamedGuid, Op::Encode | Op::Size) => &["guid", "name"],
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
        (_, Op::Size, _) => &["size"],
        (GuidType::PackedGuid, Op::Decode, _) => &["guid", "consumed"],
        (GuidType::NamedGuid, Op::Decode, _) => &["guid", "consumed", "name"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_why_is_every_vector_field_but_why() {
        let but_why: Vec<&str> = VECTOR_FIELDS
            .iter()
            .copied()
            .filter(|f| *f != "why")
            .collect();
        assert_eq!(VECTOR_FIELDS_WITHOUT_WHY, but_why);
    }
}
