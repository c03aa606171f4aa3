//! A vector's `expect`: the answer a conformant implementation gives, whose
//! fields depend on the vector's type, operation and outcome, checked
//! against the request where the two must agree (`consumed`, `name`).

use serde_saphyr::Spanned;

use super::super::fields::{expect_fields, EXPECT_FIELDS};
use super::super::tree::Node;
use super::{Fields, Reader};
use crate::error::{LoadErrorKind, Section};
use crate::model::{Request, Value};
use crate::vocab::{ErrorCode, GuidType, Op, Outcome};

/// An expectation before `why` (which sits beside `expect`) is attached.
pub(super) enum Unjudged {
    Valid(Value),
    Invalid(ErrorCode),
    Acceptable(Value),
}

impl Reader<'_> {
    /// The `expect` mapping; without a known type, op and outcome only its
    /// keys are checked.
    pub(super) fn expect(
        &mut self,
        node: &Spanned<Node>,
        kind: Option<(GuidType, Op, Outcome)>,
        request: Option<&Request>,
    ) -> Option<Unjudged> {
        let allowed = kind.map_or(EXPECT_FIELDS, |(t, o, out)| expect_fields(t, o, out));
        let fields = self.fields(
            node,
            "expect",
            Section::Expect(kind),
            EXPECT_FIELDS,
            allowed,
        )?;
        let (guid_type, op, outcome) = kind?;
        if outcome == Outcome::Invalid {
            let code = self.required_as(&fields, "error", Self::word::<ErrorCode>)?;
            return Some(Unjudged::Invalid(code));
        }
        let value = match op {
            Op::Encode => Value::Encoded {
                bytes: self.required_as(&fields, "bytes", Self::hex)?,
            },
            Op::Size => Value::Size {
                size: self.required_as(&fields, "size", Self::count)?,
            },
            Op::Decode => self.decoded(&fields, guid_type, request)?,
        };
        Some(match outcome {
            Outcome::Valid => Unjudged::Valid(value),
            _ => Unjudged::Acceptable(value),
        })
    }

    /// A decode's expected value: `consumed` within the input, and for a
    /// named GUID a `name` exactly when the GUID is not 0.
    fn decoded(
        &mut self,
        fields: &Fields<'_>,
        guid_type: GuidType,
        request: Option<&Request>,
    ) -> Option<Value> {
        let guid = self.required_as(fields, "guid", Self::guid);
        let consumed = self.required_as(fields, "consumed", Self::count);
        if let (Some(consumed), Some(input)) = (consumed, request.and_then(Request::input_bytes)) {
            if consumed == 0 || consumed > input.len() {
                self.error(
                    fields.key_or_mapping("consumed"),
                    LoadErrorKind::ConsumedOutOfRange {
                        consumed,
                        input_len: input.len(),
                    },
                );
                return None;
            }
        }
        Some(match guid_type {
            GuidType::PackedGuid => Value::Packed {
                guid: guid?,
                consumed: consumed?,
            },
            GuidType::NamedGuid => {
                let guid = guid?;
                let name = self.optional(fields, "name", Self::hex)?;
                if (guid == 0) == name.is_some() {
                    let at = match fields.key_location("name") {
                        Some(at) if guid == 0 => at.clone(),
                        _ => fields.location.clone(),
                    };
                    self.error(
                        at,
                        LoadErrorKind::NameAndGuidDisagree {
                            guid_is_zero: guid == 0,
                        },
                    );
                    return None;
                }
                Value::Named {
                    guid,
                    consumed: consumed?,
                    name,
                }
            }
        })
    }
}
