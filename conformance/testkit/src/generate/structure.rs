//! Requests built from the formats' structure, aimed at the bugs real
//! implementations have (uniform random bytes almost never hit a 257-byte
//! name or a mask whose bit 3 carries a byte `>= 0x80`):
//!
//! - packed decode: mask patterns (one bit, runs from either end, alternating
//!   bits, all, none, any), a byte per set bit drawn from `00 01 7f 80 ff` or
//!   anything, then the exact form, a cut at any point, or trailing bytes;
//! - packed encode: GUIDs of one byte at any position, high bytes set, bytes
//!   present at random with interesting values, 0, all ones, anything;
//! - named decode: such a GUID (0 included, followed by a name all the same),
//!   a name from the fault model ([`super::names`]), then the NUL, the NUL
//!   and trailing bytes, no NUL, or the GUID cut short;
//! - named encode: such a GUID with such a name, or with none.
//!
//! The runner's fuzzer draws these beside its mutations of the corpus.

use arbitrary::Unstructured;
use wow_guid_vectors::{Request, RequestKind};

use super::draw::{weighted, Draw};
use super::names::{name, Shapes};

/// The byte values that find bugs: zero, one, either side of the sign bit,
/// all ones. The request generators draw them and the runner's shrinker
/// tries them.
pub const INTERESTING_BYTES: [u8; 5] = [0x00, 0x01, 0x7f, 0x80, 0xff];

/// A byte: one of [`INTERESTING_BYTES`] five times in eight, else any.
pub fn byte_value(u: &mut Unstructured<'_>) -> Draw<u8> {
    if u.ratio(5u8, 8)? {
        Ok(*u.choose(&INTERESTING_BYTES)?)
    } else {
        u.arbitrary()
    }
}

#[derive(Clone, Copy)]
enum MaskPattern {
    SingleBit,
    LowRun,
    HighRun,
    Alternating,
    All,
    Zero,
    Any,
}

/// A mask of a packed GUID: one bit, a run from either end, alternating
/// bits, all, none, or any.
fn mask(u: &mut Unstructured<'_>) -> Draw<u8> {
    let pattern = weighted(
        u,
        &[
            (4, MaskPattern::SingleBit),
            (1, MaskPattern::LowRun),
            (1, MaskPattern::HighRun),
            (1, MaskPattern::Alternating),
            (1, MaskPattern::All),
            (1, MaskPattern::Zero),
            (4, MaskPattern::Any),
        ],
    )?;
    Ok(match pattern {
        MaskPattern::SingleBit => 1 << u.int_in_range(0..=7u8)?,
        MaskPattern::LowRun => ((1u16 << u.int_in_range(1..=8u8)?) - 1) as u8,
        MaskPattern::HighRun => 0xffu8 << u.int_in_range(0..=7u8)?,
        MaskPattern::Alternating => *u.choose(&[0x55, 0xaa])?,
        MaskPattern::All => 0xff,
        MaskPattern::Zero => 0,
        MaskPattern::Any => u.arbitrary()?,
    })
}

#[derive(Clone, Copy)]
enum GuidPattern {
    Zero,
    AllOnes,
    SingleByte,
    HighBytes,
    PerByte,
    Small,
    Any,
}

/// A GUID of a shape that finds bugs: 0, all ones, one byte at any
/// position, high bytes set, bytes present at random (so with zero bytes
/// between them), small, or any.
pub fn guid(u: &mut Unstructured<'_>) -> Draw<u64> {
    let pattern = weighted(
        u,
        &[
            (1, GuidPattern::Zero),
            (1, GuidPattern::AllOnes),
            (3, GuidPattern::SingleByte),
            (2, GuidPattern::HighBytes),
            (4, GuidPattern::PerByte),
            (1, GuidPattern::Small),
            (1, GuidPattern::Any),
        ],
    )?;
    Ok(match pattern {
        GuidPattern::Zero => 0,
        GuidPattern::AllOnes => u64::MAX,
        GuidPattern::SingleByte => u64::from(byte_value(u)?) << (8 * u.int_in_range(0..=7u32)?),
        GuidPattern::HighBytes => {
            let mut bytes = [0u8; 8];
            for b in &mut bytes[4..] {
                *b = byte_value(u)?;
            }
            if u.ratio(1u8, 2)? {
                for b in &mut bytes[..4] {
                    *b = byte_value(u)?;
                }
            }
            u64::from_le_bytes(bytes)
        }
        GuidPattern::PerByte => {
            let mut bytes = [0u8; 8];
            for b in &mut bytes {
                if u.ratio(1u8, 2)? {
                    *b = byte_value(u)?;
                }
            }
            u64::from_le_bytes(bytes)
        }
        GuidPattern::Small => u64::from(u.int_in_range(1..=255u8)?),
        GuidPattern::Any => u.arbitrary()?,
    })
}

#[derive(Clone, Copy)]
enum PackedEnding {
    Exact,
    Cut,
    Trailing,
}

#[derive(Clone, Copy)]
enum NamedLayout {
    Terminated,
    Trailing,
    MissingNul,
    GuidCut,
}

/// Appends one to four bytes of [`byte_value`]: what a decoder must
/// leave alone.
pub fn trailing(u: &mut Unstructured<'_>, bytes: &mut Vec<u8>) -> Draw<()> {
    for _ in 0..u.int_in_range(1..=4u8)? {
        bytes.push(byte_value(u)?);
    }
    Ok(())
}

/// A request of `kind` built from the format's structure: see the module
/// docs.
pub fn structured(u: &mut Unstructured<'_>, kind: RequestKind, model: &Shapes) -> Draw<Request> {
    Ok(match kind {
        RequestKind::DecodePacked => {
            let mask = mask(u)?;
            let mut bytes = vec![mask];
            for bit in 0..8 {
                if mask & (1 << bit) != 0 {
                    bytes.push(byte_value(u)?);
                }
            }
            match weighted(
                u,
                &[
                    (4, PackedEnding::Exact),
                    (2, PackedEnding::Cut),
                    (2, PackedEnding::Trailing),
                ],
            )? {
                PackedEnding::Exact => {}
                // Every point, the empty input included.
                PackedEnding::Cut => bytes.truncate(u.int_in_range(0..=bytes.len() - 1)?),
                PackedEnding::Trailing => trailing(u, &mut bytes)?,
            }
            Request::DecodePacked { bytes }
        }
        RequestKind::EncodePacked => Request::EncodePacked { guid: guid(u)? },
        RequestKind::DecodeNamed => {
            // GUID 0 is followed by a name too: the decoder must stop
            // after the eight GUID bytes.
            let mut bytes = guid(u)?.to_le_bytes().to_vec();
            bytes.extend_from_slice(&name(u, model)?);
            match weighted(
                u,
                &[
                    (4, NamedLayout::Terminated),
                    (2, NamedLayout::Trailing),
                    (2, NamedLayout::MissingNul),
                    (1, NamedLayout::GuidCut),
                ],
            )? {
                NamedLayout::Terminated => bytes.push(0),
                NamedLayout::Trailing => {
                    bytes.push(0);
                    trailing(u, &mut bytes)?;
                }
                NamedLayout::MissingNul => {}
                NamedLayout::GuidCut => bytes.truncate(u.int_in_range(0..=7)?),
            }
            Request::DecodeNamed { bytes }
        }
        RequestKind::EncodeNamed => Request::EncodeNamed {
            guid: guid(u)?,
            name: if u.ratio(1u8, 6)? {
                None
            } else {
                Some(name(u, model)?)
            },
        },
        // The value to measure is drawn as the value to encode is.
        RequestKind::SizePacked | RequestKind::SizeNamed => {
            let encode = if kind == RequestKind::SizePacked {
                RequestKind::EncodePacked
            } else {
                RequestKind::EncodeNamed
            };
            let encode = structured(u, encode, model)?;
            encode.size_request().unwrap_or(encode)
        }
    })
}
