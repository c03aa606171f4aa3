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
pub struct Disagreement<'c> {
    /// The vector.
    pub vector: &'c Vector,
    /// What the reference codec answers.
    pub reference: Response,
    /// Why that does not satisfy the vector.
    pub mismatch: Mismatch,
}

impl fmt::Display for Disagreement<'_> {
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
pub fn disagreements(vectors: &[Vector]) -> Vec<Disagreement<'_>> {
    vectors
        .iter()
        .filter_map(|vector| {
            reference_disagreement(vector).map(|(reference, mismatch)| Disagreement {
                vector,
                reference,
                mismatch,
            })
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
        assert!(disagreements(&sample()).is_empty());
    }

    #[test]
    fn disagreements_name_the_place_and_both_sides() {
        let mut vectors = sample();
        vectors[0].expect = Expectation::Valid(Value::Packed {
            guid: 0xffff_ffff_ad00_de00,
            consumed: 3,
        });
        vectors[1].expect = Expectation::Invalid(ErrorCode::Other);
        let found = disagreements(&vectors);
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
}
