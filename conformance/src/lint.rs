//! `lint`: checks a corpus against the reference codec.
//!
//! Structural problems (bad YAML, unknown fields, duplicate ids) are found
//! by the vectors crate's loader, which reports them with file, line and
//! column. This module does the other half: every vector must agree with
//! the reference codec exactly, error codes included. A disagreement means
//! the vector or the codec is wrong, and either way the corpus cannot be
//! trusted to judge other implementations until it is resolved. Pure.

use std::fmt;

use wow_guid_vectors::{Expectation, Vector};

use crate::judge::Mismatch;
use crate::protocol::{self, Response};
use crate::run::reference_disagreement;

/// A vector the reference codec does not satisfy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorBug<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// What the reference codec answers.
    pub reference: Response,
    /// Why that does not satisfy the vector.
    pub mismatch: Mismatch,
}

impl fmt::Display for VectorBug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.vector;
        let expected = match &v.expect {
            Expectation::Valid(value) | Expectation::Acceptable { value, .. } => {
                Response::Ok(value.clone())
            }
            Expectation::Invalid(code) => Response::Error(*code),
        };
        write!(
            f,
            "{}: vector `{}` expects `{}`{} but the reference codec answers `{}`: {}",
            v.location,
            v.id,
            protocol::response_line(&v.id, &expected),
            if matches!(v.expect, Expectation::Acceptable { .. }) {
                " (or an error)"
            } else {
                ""
            },
            protocol::response_line(&v.id, &self.reference),
            self.mismatch,
        )
    }
}

/// Every vector of `vectors` that the reference codec does not satisfy, in order.
#[must_use]
pub fn vector_bugs(vectors: &[Vector]) -> Vec<VectorBug<'_>> {
    vectors
        .iter()
        .filter_map(|vector| {
            reference_disagreement(vector).map(|(reference, mismatch)| VectorBug {
                vector,
                reference,
                mismatch,
            })
        })
        .collect()
}

/// A vector no implementation can pass: the reference codec's response to
/// it would be longer than the protocol's line bound
/// ([`MAX_RESPONSE_LINE`](protocol::MAX_RESPONSE_LINE) with its newline), so
/// the runner would stop reading it and fail the vector against any
/// implementation, the built-in reference included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oversized<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// The length of the reference codec's response line, newline included.
    pub line_bytes: usize,
}

impl fmt::Display for Oversized<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: vector `{}`: the reference codec's response line would be {} bytes with its \
             newline, over the protocol's bound of {} (PROTOCOL.md, \"Lines\"), so no \
             implementation can pass it; shorten its input",
            self.vector.location,
            self.vector.id,
            self.line_bytes,
            protocol::MAX_RESPONSE_LINE
        )
    }
}

/// Every vector of `vectors` whose reference response would not fit in a
/// protocol line, in order.
#[must_use]
pub fn oversized(vectors: &[Vector]) -> Vec<Oversized<'_>> {
    vectors
        .iter()
        .filter_map(|vector| {
            let response = crate::reference::answer(&vector.request);
            let line_bytes = protocol::response_line(&vector.id, &response).len() + 1;
            (line_bytes > protocol::MAX_RESPONSE_LINE).then_some(Oversized { vector, line_bytes })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::tests::sample;
    use wow_guid_vectors::{ErrorCode, Value};

    #[test]
    fn a_clean_corpus_has_no_disagreements() {
        assert!(vector_bugs(&sample()).is_empty());
    }

    #[test]
    fn disagreements_name_the_place_and_both_sides() {
        let mut vectors = sample();
        vectors[0].expect = Expectation::Valid(Value::Packed {
            guid: 0xffff_ffff_ad00_de00,
            consumed: 3,
        });
        vectors[1].expect = Expectation::Invalid(ErrorCode::Other);
        let found = vector_bugs(&vectors);
        assert_eq!(found.len(), 2);
        assert_eq!(
            found[0].to_string(),
            "sample.yaml:1:5: vector `packed.decode.doc-example` expects \
             `packed.decode.doc-example ok ffffffffad00de00 3` but the reference codec answers \
             `packed.decode.doc-example ok 00000000ad00de00 3`: wrong value: GUID 00000000ad00de00, \
             expected ffffffffad00de00 (bytes 4, 5, 6, 7 differ)"
        );
        assert!(found[1]
            .to_string()
            .contains("wrong error code `eof`, expected `other`"));
    }

    #[test]
    fn a_response_over_the_line_bound_is_found_and_one_just_under_is_not() {
        // `ID ok GUID CONSUMED NAME`: the name's hex is most of the line.
        let with_name = |name_len: usize| {
            let mut bytes = vec![1, 0, 0, 0, 0, 0, 0, 0];
            bytes.extend(std::iter::repeat_n(b'a', name_len));
            bytes.push(0);
            let mut v = sample().remove(0);
            v.id = "named.decode.long".into();
            v.request = wow_guid_vectors::Request::DecodeNamed { bytes };
            v
        };
        let line = |v: &Vector| {
            protocol::response_line(&v.id, &crate::reference::answer(&v.request)).len() + 1
        };
        let probe = with_name(0);
        // Each name byte is two hex digits.
        let mut fits = (protocol::MAX_RESPONSE_LINE - line(&probe)) / 2;
        while line(&with_name(fits)) > protocol::MAX_RESPONSE_LINE {
            fits -= 1;
        }
        while line(&with_name(fits + 1)) <= protocol::MAX_RESPONSE_LINE {
            fits += 1;
        }
        let vectors = [with_name(fits), with_name(fits + 1)];
        assert!(line(&vectors[0]) >= protocol::MAX_RESPONSE_LINE - 1);
        let found = oversized(&vectors);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].vector, &vectors[1]);
        assert!(found[0].line_bytes > protocol::MAX_RESPONSE_LINE);
        assert!(
            found[0].to_string().contains(
                "`named.decode.long`: the reference codec's response line would be 10485"
            ),
            "{}",
            found[0]
        );
    }
}
