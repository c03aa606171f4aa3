//! Generators for fuzzing a codec: the runner's own request generator,
//! for `arbitrary` (cargo-fuzz / libFuzzer) and bolero.
//!
//! Raw bytes almost never make the inputs that find codec bugs: a name of
//! 257 bytes, a name cut inside a four-byte character, a GUID whose zero
//! bytes a mask must skip, a mask that names bytes the input lacks. These
//! generators build them from the formats' structure and the fault model
//! (`vectors/fault-model.yaml`): names of every UTF-8 width and of lengths
//! at and past every bound (up to 1100 bytes), GUIDs with zero bytes,
//! damaged encodings (cut, without their NUL, with trailing bytes, with
//! invalid UTF-8 or an interior NUL in the name), and requests of the six
//! kinds drawn from the fault model. They are the same functions the
//! runner's differential fuzzer draws from.
//!
//! Each wrapper type implements [`arbitrary::Arbitrary`], so a libFuzzer
//! target takes it as its input (`fuzz_target!(|r: AnyRequest| ...)`) and
//! bolero draws it with `check!().with_arbitrary::<AnyRequest>()`. The
//! functions beneath them ([`structured`], [`name`], [`guid`], ...) take an
//! [`Unstructured`] for generators of your own. A generator never fails
//! for want of input: short input gives the smallest choices, so even
//! bolero's small default inputs reach names past 256 bytes.

mod draw;
mod names;
mod structure;

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use wow_guid_vectors::{Request, RequestKind};

pub use draw::{weighted, Draw};
pub use names::{name, Shapes};
pub use structure::{byte_value, guid, structured, trailing, INTERESTING_BYTES};

/// The fault model's shapes, loaded once.
fn shapes() -> &'static Shapes {
    static SHAPES: OnceLock<Shapes> = OnceLock::new();
    SHAPES.get_or_init(Shapes::of_the_model)
}

/// A request of any of the six kinds, built from the formats' structure
/// and the fault model ([`structured`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyRequest(pub Request);

impl<'a> Arbitrary<'a> for AnyRequest {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let kind = *u.choose(&RequestKind::ALL)?;
        structured(u, kind, shapes()).map(Self)
    }
}

/// An encode request of either kind: what a round trip starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeRequest(pub Request);

impl<'a> Arbitrary<'a> for EncodeRequest {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let kind = *u.choose(&[RequestKind::EncodePacked, RequestKind::EncodeNamed])?;
        structured(u, kind, shapes()).map(Self)
    }
}

/// The input of a decode request of either kind: a well-formed or damaged
/// encoding (cut, without its NUL, with trailing bytes, with faults in the
/// name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeRequest(pub Request);

impl<'a> Arbitrary<'a> for DecodeRequest {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let kind = *u.choose(&[RequestKind::DecodePacked, RequestKind::DecodeNamed])?;
        structured(u, kind, shapes()).map(Self)
    }
}

/// A name: empty, short, at one of the fault model's buffer lengths (254
/// and 258 around the 256-byte cap included), or long (259 to 1100 bytes);
/// ASCII, characters of every UTF-8 width, a BOM, or a fault of the model
/// (invalid UTF-8 of every kind, an interior NUL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name(pub Vec<u8>);

impl<'a> Arbitrary<'a> for Name {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        name(u, shapes()).map(Self)
    }
}

/// A GUID of a shape that finds bugs ([`guid`]): zero bytes between set
/// ones, high bytes, one byte, 0, all ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guid(pub u64);

impl<'a> Arbitrary<'a> for Guid {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        guid(u).map(Self)
    }
}
