//! The expected outcome of any request, stated as a vector would state it,
//! and the one judge of an answer to any request ([`judge_request`]).
//!
//! The fuzzer, a codec's own tests and anyone judging requests without a
//! vector must judge exactly as `run` does, so a generated request needs the
//! expectation the corpus would give it: the reference codec's answer (a
//! value `valid`, an error `invalid` with its code), with the choice the
//! corpus leaves (`acceptable` vectors) left for every request of that
//! shape. A test holds this to every vector of the embedded corpus, so a
//! new `acceptable` rule cannot go unnoticed. Pure.

use wow_guid_vectors::{Expectation, Request, Value};

use crate::implementation::Fault;
use crate::judge::{judge, JudgeOptions, Verdict};
use crate::protocol::Response;
use crate::reference;

/// Why GUID 0 with an empty name may be encoded as eight `00` bytes.
const ZERO_GUID_EMPTY_NAME: &str = "The format has no way to write a name after GUID 0. An \
    implementation whose type tells no name from an empty name rejects this; one whose type \
    cannot writes eight 00 bytes, which loses nothing.";

/// Why a non-zero GUID without a name may be encoded with an empty name.
const GUID_WITHOUT_NAME: &str = "A non-zero GUID is always followed by a name on the wire. An \
    implementation whose type cannot tell no name from an empty name writes the empty name; one \
    that can may reject the call.";

/// The expectation a vector for `request` would carry: the reference
/// codec's answer, made `acceptable` where the corpus lets an
/// implementation choose. A `size` request is expected to answer as the
/// encode of its value does, with the encoding's length for its bytes: the
/// same refusals, and the same choices.
#[must_use]
pub fn corpus_expectation(request: &Request) -> Expectation {
    if let Some(encode) = request.measured() {
        return measured(corpus_expectation(&encode));
    }
    match (reference::exact_expectation(request), request) {
        // The corpus: named.encode.name-without-guid.empty.
        (
            Expectation::Invalid(_),
            Request::EncodeNamed {
                guid: 0,
                name: Some(name),
            },
        ) if name.is_empty() => Expectation::Acceptable {
            value: Value::Encoded { bytes: vec![0; 8] },
            why: ZERO_GUID_EMPTY_NAME.to_owned(),
        },
        // The corpus: named.encode.no-name.
        (Expectation::Invalid(_), Request::EncodeNamed { guid, name: None }) if *guid != 0 => {
            let mut bytes = guid.to_le_bytes().to_vec();
            bytes.push(0);
            Expectation::Acceptable {
                value: Value::Encoded { bytes },
                why: GUID_WITHOUT_NAME.to_owned(),
            }
        }
        (expectation, _) => expectation,
    }
}

/// An encode's expectation as the expectation of the `size` request for
/// the same value: every value written becomes its length.
fn measured(encode: Expectation) -> Expectation {
    let size = |value: Value| match value {
        Value::Encoded { bytes } => Value::Size { size: bytes.len() },
        other => other,
    };
    match encode {
        Expectation::Valid(value) => Expectation::Valid(size(value)),
        Expectation::Invalid(code) => Expectation::Invalid(code),
        Expectation::Acceptable { value, why } => Expectation::Acceptable {
            value: size(value),
            why,
        },
    }
}

/// Judges `reply` to any `request` exactly as `run` judges a vector: the
/// [`judge`] with [`corpus_expectation`]. The one judge of a request
/// without a vector (the fuzzer, the shrinker, a codec's own tests).
#[must_use]
pub fn judge_request(
    request: &Request,
    reply: &Result<Response, Fault>,
    options: JudgeOptions,
) -> Verdict {
    judge(request, &corpus_expectation(request), reply, options)
}
