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

/// Fields of a vector whose outcome is not `acceptable`: all but `why`.
pub(crate) const VECTOR_FIELDS_WITHOUT_WHY: &[&str] = &WITHOUT_WHY;

const WITHOUT_WHY: [&str; VECTOR_FIELDS.len() - 1] = without(VECTOR_FIELDS, "why");

/// `fields` without `field`, which must be among them once; a list of the
/// right length is checked when the constant is built.
const fn without<const N: usize>(fields: &[&'static str], field: &str) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    let mut n = 0;
    while i < fields.len() {
        if !same(fields[i], field) {
            assert!(n < N, "the field to leave out is not in the list");
            out[n] = fields[i];
            n += 1;
        }
        i += 1;
    }
    assert!(
        n == N,
        "the field to leave out is in the list more than once"
    );
    out
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

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
