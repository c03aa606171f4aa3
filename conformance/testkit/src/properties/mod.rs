//! The properties a fuzz target or a property test checks on one input,
//! generic over [`Codec`](crate::Codec).
//!
//! Each function takes the codec and one request and **panics with a
//! message** that names the property, what was expected, what happened and
//! the request as a protocol line (bytes in hex), the convention of fuzz
//! targets: libFuzzer and bolero both turn a panic into a saved
//! reproducer, and the request line can be pasted into a vector or sent to
//! an adapter. A request of a kind the property does not apply to passes.
//!
//! | function | property |
//! | --- | --- |
//! | [`decode`] | no panic on any bytes; what was consumed is within the input; decoding exactly the consumed bytes gives the same value; bytes after the value are left alone |
//! | [`round_trip`] | what the codec encodes, it decodes back to the same value, consuming every byte (so a bound on decoding needs the same bound on encoding); every strict prefix of an encoding is refused |
//! | [`differential`] | the answer is one `run` would accept for a vector of the request (the reference codec's, widened where the corpus leaves a choice) |
//!
//! The reference codec's own fuzz targets call these on
//! [`Reference`](crate::Reference), beside the properties only a codec with
//! several implementations inside has (`wow_guid_codec::properties`).

mod decode;
mod differential;
mod round_trip;

pub use decode::decode;
pub use differential::differential;
pub use round_trip::round_trip;
