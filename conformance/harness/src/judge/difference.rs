//! Which part of two values differs, and its wording: the GUID's differing
//! bytes, how many bytes too many or too few were consumed, where two
//! names or encodings part.

use std::fmt;

use wow_guid_vectors::hex_text::format as hex;
use wow_guid_vectors::Value;

use super::byte_diff::FirstDifference;

/// Which part of two values differs: the one comparison behind the wording
/// of a [`Mismatch::WrongValue`](super::Mismatch::WrongValue) (`Display`)
/// and the fuzzer's class of it, so the two cannot drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueDifference<'a> {
    /// Decoded values of one shape whose GUID, byte count or both differ;
    /// each part that differs holds `(expected, got)`, and at least one does.
    Decoded {
        guid: Option<(u64, u64)>,
        consumed: Option<(usize, usize)>,
    },
    /// Decoded named GUIDs with equal GUID and byte count: the name is left.
    Name {
        expected: Option<&'a [u8]>,
        got: Option<&'a [u8]>,
    },
    /// Two encodings.
    Encoding { expected: &'a [u8], got: &'a [u8] },
    /// Two sizes (the answers to a `size` request).
    Size { expected: usize, got: usize },
    /// A value of another shape than the expected one.
    Kind,
}

impl<'a> ValueDifference<'a> {
    /// Classifies how `got` differs from `expected`.
    pub(crate) fn between(expected: &'a Value, got: &'a Value) -> Self {
        match (expected, got) {
            (
                Value::Packed {
                    guid: eg,
                    consumed: ec,
                },
                Value::Packed {
                    guid: gg,
                    consumed: gc,
                },
            )
            | (
                Value::Named {
                    guid: eg,
                    consumed: ec,
                    ..
                },
                Value::Named {
                    guid: gg,
                    consumed: gc,
                    ..
                },
            ) if eg != gg || ec != gc => Self::Decoded {
                guid: (eg != gg).then_some((*eg, *gg)),
                consumed: (ec != gc).then_some((*ec, *gc)),
            },
            (Value::Named { name: en, .. }, Value::Named { name: gn, .. }) => Self::Name {
                expected: en.as_deref(),
                got: gn.as_deref(),
            },
            (Value::Encoded { bytes: e }, Value::Encoded { bytes: g }) => Self::Encoding {
                expected: e,
                got: g,
            },
            (Value::Size { size: e }, Value::Size { size: g }) => Self::Size {
                expected: *e,
                got: *g,
            },
            _ => Self::Kind,
        }
    }
}

/// Which part differs, in the format's words, and by how much: the GUID's
/// differing bytes (by wire position), the consumed count's error, and
/// where names and encodings part ([`FirstDifference`]).
impl fmt::Display for ValueDifference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Decoded { guid, consumed } => {
                let mut parts = Vec::new();
                if let Some((expected, got)) = guid {
                    parts.push(format!(
                        "GUID {got:016x}, expected {expected:016x} ({})",
                        GuidBytes(expected ^ got)
                    ));
                }
                if let Some((expected, got)) = consumed {
                    parts.push(format!(
                        "consumed {got} bytes, expected {expected} ({} too {})",
                        expected.abs_diff(got),
                        if got > expected { "many" } else { "few" }
                    ));
                }
                write!(f, "wrong value: {}", parts.join("; "))
            }
            Self::Name {
                expected: Some(expected),
                got: Some(got),
            } => match FirstDifference::between(expected, got) {
                Some(difference) => write!(f, "wrong name: bytes {difference}"),
                None => f.write_str("wrong name"),
            },
            Self::Name { expected, got } => write!(
                f,
                "wrong name: {}, expected {}",
                NameText(got),
                NameText(expected)
            ),
            Self::Encoding { expected, got } => match FirstDifference::between(expected, got) {
                Some(difference) => write!(f, "wrong encoding: bytes {difference}"),
                None => f.write_str("wrong encoding"),
            },
            Self::Size { expected, got } => write!(
                f,
                "wrong size: {got} bytes, expected {expected} ({} too {})",
                expected.abs_diff(got),
                if got > expected { "many" } else { "few" }
            ),
            Self::Kind => f.write_str("wrong kind of value for this request"),
        }
    }
}

/// The wire positions (byte 0 least significant) set in the XOR of two
/// GUIDs: which of the eight bytes differ.
struct GuidBytes(u64);

impl fmt::Display for GuidBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes: Vec<String> = (0..8)
            .filter(|i| (self.0 >> (8 * i)) & 0xff != 0)
            .map(|i: u32| i.to_string())
            .collect();
        match bytes.as_slice() {
            [one] => write!(f, "byte {one} differs"),
            more => write!(f, "bytes {} differ", more.join(", ")),
        }
    }
}

/// A name that may be absent, short enough for one line: `none`, or its
/// hex, cut after 16 bytes with its length.
struct NameText<'a>(Option<&'a [u8]>);

impl fmt::Display for NameText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        match self.0 {
            None => f.write_str("none"),
            Some(name) if name.len() <= SHOWN => f.write_str(&hex(name)),
            Some(name) => write!(f, "{}… ({} bytes)", hex(&name[..SHOWN]), name.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(guid: u64, consumed: usize) -> Value {
        Value::Packed { guid, consumed }
    }

    #[test]
    fn both_differing_parts_are_named_guid_first() {
        let (expected, got) = (packed(0x0102, 3), packed(0x01, 2));
        let difference = ValueDifference::between(&expected, &got);
        assert_eq!(
            difference,
            ValueDifference::Decoded {
                guid: Some((0x0102, 0x01)),
                consumed: Some((3, 2)),
            }
        );
        assert_eq!(
            difference.to_string(),
            "wrong value: GUID 0000000000000001, expected 0000000000000102 (bytes 0, 1 differ); \
             consumed 2 bytes, expected 3 (1 too few)"
        );
        assert_eq!(
            ValueDifference::between(&expected, &Value::Encoded { bytes: vec![0] }),
            ValueDifference::Kind
        );
    }

    #[test]
    fn a_missing_or_long_name_and_one_differing_guid_byte_read_in_one_short_line() {
        let named = |name: Option<Vec<u8>>| Value::Named {
            guid: 1,
            consumed: 9,
            name,
        };
        let (none, long) = (named(None), named(Some(vec![b'x'; 300])));
        assert_eq!(
            ValueDifference::between(&none, &long).to_string(),
            "wrong name: 78787878787878787878787878787878… (300 bytes), expected none"
        );
        // Up to 16 bytes show whole.
        let short = named(Some(vec![b'x'; 16]));
        assert_eq!(
            ValueDifference::between(&short, &none).to_string(),
            "wrong name: none, expected 78787878787878787878787878787878"
        );
        assert_eq!(
            ValueDifference::between(&packed(0x99_0000, 3), &packed(0x98_0000, 3)).to_string(),
            "wrong value: GUID 0000000000980000, expected 0000000000990000 (byte 2 differs)"
        );
        assert_eq!(
            ValueDifference::between(&packed(1, 2), &packed(1, 9)).to_string(),
            "wrong value: consumed 9 bytes, expected 2 (7 too many)"
        );
        assert_eq!(
            ValueDifference::between(&packed(1, 9), &packed(1, 2)).to_string(),
            "wrong value: consumed 2 bytes, expected 9 (7 too few)"
        );
    }
}
