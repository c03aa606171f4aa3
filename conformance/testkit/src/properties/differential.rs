//! Agreement with the reference codec, as `run` judges it.

use wow_guid_vectors::Request;

use crate::codec::Codec;
use crate::oracle::assert_agrees;

/// Checks any request: the codec's answer is one `run` would accept for a
/// vector of it ([`crate::oracle`]).
///
/// # Panics
/// When it is not, with the request, the answer and the reference's.
#[track_caller]
pub fn differential(codec: &impl Codec, request: &Request) {
    assert_agrees(codec, request);
}
