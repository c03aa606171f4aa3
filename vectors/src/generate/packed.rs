//! The packed-GUID families: every mask, every truncation point, each
//! one-byte GUID, and bytes with the sign bit at every position.

use super::vector;
use crate::hex_text::format_guid;
use crate::model::{Expectation, Request, Value, Vector};
use crate::vocab::{ErrorCode, Flag};

/// The GUID byte placed at each position in the mask sweep: distinct and
/// non-zero everywhere, so a byte put at the wrong position changes the
/// result, and every sweep GUID has the mask it was built from.
const PATTERN: [u8; 8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];

/// The wire form of a packed GUID with mask `mask` and `byte(i)` at each set
/// position `i`, and the GUID those bytes make: straight from the definition.
pub(super) fn packed(mask: u8, byte: impl Fn(usize) -> u8) -> (Vec<u8>, u64) {
    let mut wire = vec![mask];
    let mut guid = 0u64;
    for i in 0..8 {
        if mask & (1 << i) != 0 {
            let b = byte(i);
            wire.push(b);
            guid |= u64::from(b) << (8 * i);
        }
    }
    (wire, guid)
}

/// The shortest wire form of `guid`: a mask bit for each non-zero byte.
pub(super) fn shortest(guid: u64) -> Vec<u8> {
    let bytes = guid.to_le_bytes();
    let mask = (0..8)
        .filter(|&i| bytes[i] != 0)
        .fold(0u8, |mask, i| mask | (1 << i));
    packed(mask, |i| bytes[i]).0
}

/// The positions of the set bits of a mask, for descriptions.
fn positions(mask: u8) -> String {
    let list: Vec<String> = (0..8)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| i.to_string())
        .collect();
    list.join(", ")
}

/// Every mask, decoded and encoded.
pub(super) fn mask_sweep() -> Vec<Vector> {
    const FILE: &str = "generated/packed-masks.yaml";
    let mut out = Vec::new();
    for mask in 0..=u8::MAX {
        let (wire, guid) = packed(mask, |i| PATTERN[i]);
        let (decode_text, encode_text, source) = if mask == 0 {
            (
                "Mask 00: no bytes follow, GUID 0 is the single byte 00.".to_owned(),
                "GUID 0 encodes as the single byte 00.".to_owned(),
                Some(
                    "NOTES.md#guid-0-is-one-byte: GUID 0 is the single byte 00 (not 2 to 9 bytes)",
                ),
            )
        } else {
            let (bytes, s, are) = if mask.count_ones() == 1 {
                ("byte", "s", "is")
            } else {
                ("bytes", "", "are")
            };
            let at = positions(mask);
            (
                format!("Mask {mask:02x}: GUID {bytes} {at} follow{s}, least significant first."),
                format!(
                    "GUID {}: {bytes} {at} {are} non-zero, so the mask is {mask:02x}.",
                    format_guid(guid)
                ),
                None,
            )
        };
        out.push(vector(
            FILE,
            format!("packed.decode.mask-{mask:02x}"),
            decode_text,
            Request::DecodePacked {
                bytes: wire.clone(),
            },
            Expectation::Valid(Value::Packed {
                guid,
                consumed: wire.len(),
            }),
            Flag::MaskSweep,
            source,
        ));
        out.push(vector(
            FILE,
            format!("packed.encode.mask-{mask:02x}"),
            encode_text,
            Request::EncodePacked { guid },
            Expectation::Valid(Value::Encoded { bytes: wire }),
            Flag::MaskSweep,
            source,
        ));
    }
    out
}

pub(super) fn truncation() -> Vec<Vector> {
    const FILE: &str = "generated/packed-truncation.yaml";
    let mut out = Vec::new();
    let (full, _) = packed(0xff, |i| PATTERN[i]);
    for len in 1..full.len() {
        out.push(vector(
            FILE,
            format!("packed.decode.truncated.ff.len-{len}"),
            format!(
                "Mask ff promises 8 GUID bytes but only {} follow: the input ends inside the value.",
                len - 1
            ),
            Request::DecodePacked {
                bytes: full[..len].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::Truncated,
            Some("NOTES.md#truncated-input-is-an-error: input that ends inside the value is an error"),
        ));
    }
    for mask in 1..u8::MAX {
        let (wire, _) = packed(mask, |i| PATTERN[i]);
        let promised = wire.len() - 1;
        out.push(vector(
            FILE,
            format!("packed.decode.truncated.{mask:02x}.one-short"),
            format!(
                "Mask {mask:02x} promises {promised} GUID byte{} but the input ends one byte early.",
                if promised == 1 { "" } else { "s" }
            ),
            Request::DecodePacked {
                bytes: wire[..wire.len() - 1].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::Truncated,
            None,
        ));
    }
    out
}

pub(super) fn single_byte() -> Vec<Vector> {
    const FILE: &str = "generated/packed-single-byte.yaml";
    let mut out = Vec::new();
    for position in 0..8 {
        let mask = 1u8 << position;
        for byte in [0x00u8, 0x7f, 0x80, 0xff] {
            let (wire, guid) = packed(mask, |_| byte);
            let decode_text = if byte == 0 {
                format!(
                    "Mask {mask:02x} sends byte {position} as 00: not the shortest form, still GUID 0, and both bytes are consumed."
                )
            } else {
                format!("Mask {mask:02x} sends byte {position} as {byte:02x}.")
            };
            out.push(vector(
                FILE,
                format!("packed.decode.single.byte{position}-{byte:02x}"),
                decode_text,
                Request::DecodePacked {
                    bytes: wire.clone(),
                },
                Expectation::Valid(Value::Packed {
                    guid,
                    consumed: wire.len(),
                }),
                Flag::SingleByte,
                (byte == 0).then_some("NOTES.md#decoders-accept-non-shortest-forms: every decoder accepts non-shortest forms"),
            ));
            if byte != 0 {
                out.push(vector(
                    FILE,
                    format!("packed.encode.single.byte{position}-{byte:02x}"),
                    format!(
                        "GUID {} has only byte {position} set, so the mask is {mask:02x}.",
                        format_guid(guid)
                    ),
                    Request::EncodePacked { guid },
                    Expectation::Valid(Value::Encoded { bytes: wire }),
                    Flag::SingleByte,
                    None,
                ));
            }
        }
    }
    out
}

pub(super) fn sign_bit() -> Vec<Vector> {
    const FILE: &str = "generated/packed-sign-bit.yaml";
    const SOURCE: &str =
        "NOTES.md#the-specs-c-snippet-sign-extends: the spec's C snippet shifts the byte as an int";
    let mut out = Vec::new();
    let push_pair = |out: &mut Vec<Vector>, name: String, what: String, bytes: [u8; 8]| {
        let (wire, guid) = packed(0xff, |i| bytes[i]);
        out.push(vector(
            FILE,
            format!("packed.decode.sign-bit.{name}"),
            format!("Mask ff with {what}: GUID {}.", format_guid(guid)),
            Request::DecodePacked {
                bytes: wire.clone(),
            },
            Expectation::Valid(Value::Packed {
                guid,
                consumed: wire.len(),
            }),
            Flag::SignBit,
            Some(SOURCE),
        ));
        out.push(vector(
            FILE,
            format!("packed.encode.sign-bit.{name}"),
            format!("GUID {} ({what}) encodes with mask ff.", format_guid(guid)),
            Request::EncodePacked { guid },
            Expectation::Valid(Value::Encoded {
                bytes: shortest(guid),
            }),
            Flag::SignBit,
            Some(SOURCE),
        ));
    };
    for position in 0..8 {
        for byte in [0x80u8, 0xff] {
            let mut bytes = [0x01u8; 8];
            bytes[position] = byte;
            push_pair(
                &mut out,
                format!("byte{position}-{byte:02x}"),
                format!("byte {position} = {byte:02x} and all others 01"),
                bytes,
            );
        }
    }
    push_pair(
        &mut out,
        "all-bytes".to_owned(),
        "every byte >= 0x80".to_owned(),
        [0x80, 0x91, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7],
    );
    out
}
