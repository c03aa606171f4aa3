//! What a decoder does with any bytes: no panic, what it consumed, the
//! canonical form, errors inside the input, and the name limit.

use alloc::vec::Vec;

use crate::named::GUID_LEN;
use crate::packed::MAX_ENCODED_LEN;
use crate::PackedGuidError;
use crate::{Decoded, NamedGuid, NamedGuidDecodeError, NamedGuidRef, PackedGuid};

use super::message::{violated, Hex};

/// Checks every property of [`PackedGuid::decode`] on arbitrary bytes.
///
/// - It does not panic.
/// - On success `consumed` is `1 + popcount(mask)`, at most 9 and at most the
///   input's length, and decoding `input[..consumed]` gives the same result,
///   so the decoder never looked past what it consumed.
/// - Canonical form: when no mask bit stands for a `00` byte,
///   `encode(value) == input[..consumed]`; otherwise the encoding is strictly
///   shorter and decodes to the same value. [`Decoded::is_canonical`] agrees
///   with that byte-level definition, and [`PackedGuid::encoded_len`] and
///   [`PackedGuid::mask`] agree with the encoding.
/// - On error the input really was shorter than the mask asks for, and the
///   error's offset is the input's length.
///
/// # Panics
/// When any of the above does not hold; the message names the property and
/// shows the input as hex.
pub fn packed_decode(input: &[u8]) {
    let result = PackedGuid::decode(input);
    let decoded = match result {
        Ok(decoded) => decoded,
        Err(error) => return packed_error(input, error),
    };
    let Decoded { value, consumed } = decoded;
    let expected_consumed = 1 + input[0].count_ones() as usize;
    if consumed != expected_consumed || consumed > input.len() || consumed > MAX_ENCODED_LEN {
        violated(
            "packed.decode.consumed",
            input,
            format_args!(
                "consumed {consumed}, but the mask {:#04x} announces {expected_consumed} bytes \
                 and the input has {}",
                input[0],
                input.len()
            ),
        );
    }
    let prefix = PackedGuid::decode(&input[..consumed]);
    if prefix != result {
        violated(
            "packed.decode.prefix",
            input,
            format_args!("decode(input) = {result:?} but decode(input[..{consumed}]) = {prefix:?}"),
        );
    }
    let sent = &input[1..consumed];
    let canonical_bytes = sent.iter().all(|&b| b != 0);
    if decoded.is_canonical() != canonical_bytes {
        violated(
            "packed.decode.is-canonical",
            input,
            format_args!(
                "is_canonical() = {} but the GUID bytes sent are \"{}\"",
                decoded.is_canonical(),
                Hex(sent)
            ),
        );
    }
    let encoded = value.encode();
    if encoded.len() != value.encoded_len() || encoded[0] != value.mask() {
        violated(
            "packed.encoded-len",
            input,
            format_args!(
                "encode({value}) = \"{}\" but encoded_len() = {} and mask() = {:#04x}",
                Hex(&encoded),
                value.encoded_len(),
                value.mask()
            ),
        );
    }
    if canonical_bytes {
        if *encoded != input[..consumed] {
            violated(
                "packed.canonical.same-bytes",
                input,
                format_args!(
                    "the input is canonical, so encode({value}) should be \"{}\" but is \"{}\"",
                    Hex(&input[..consumed]),
                    Hex(&encoded)
                ),
            );
        }
    } else {
        let again = PackedGuid::decode(&encoded);
        let expected = Ok(Decoded {
            value,
            consumed: encoded.len(),
        });
        if encoded.len() >= consumed || again != expected {
            violated(
                "packed.canonical.shorter",
                input,
                format_args!(
                    "the input is not canonical ({consumed} bytes), so encode({value}) must be \
                     shorter and decode to the same value; it is \"{}\", which decodes to {again:?}",
                    Hex(&encoded)
                ),
            );
        }
    }
}

fn packed_error(input: &[u8], error: PackedGuidError) {
    let PackedGuidError::UnexpectedEof {
        mask,
        needed,
        available,
    } = error;
    let consistent = match input.first() {
        None => mask.is_none() && needed == 1,
        Some(&m) => mask == Some(m) && needed == 1 + m.count_ones() as usize,
    };
    if !consistent
        || available != input.len()
        || needed <= input.len()
        || error.offset() != available
    {
        violated(
            "packed.decode.error",
            input,
            format_args!(
                "decode failed with {error:?}, which does not describe this input \
                 (it has {} bytes)",
                input.len()
            ),
        );
    }
}

/// Checks every property of [`NamedGuidRef::decode`] and [`NamedGuid::decode`]
/// on arbitrary bytes.
///
/// - Neither panics, and the owned and borrowed decoders agree.
/// - On success `consumed` is 8 for GUID 0 and `8 + name + 1` otherwise, at
///   most the input's length; decoding `input[..consumed]` gives the same
///   result; the encoding of the value is exactly `input[..consumed]` (the
///   format has one form per value) and its length is
///   [`NamedGuidRef::encoded_len`]; the value can be rebuilt with
///   [`NamedGuid::from_raw_parts`].
/// - On error the error describes the input (offsets inside it, the GUID
///   really short, the NUL really missing) and is never
///   [`NamedGuidDecodeError::NameTooLong`], as there is no limit.
///
/// The limited decoder has its own property, [`named_decode_limits`].
///
/// # Panics
/// When any of the above does not hold.
pub fn named_decode(input: &[u8]) {
    let result = NamedGuidRef::decode(input);
    let owned = NamedGuid::decode(input);
    // Compared as borrowed values: no second copy of the name.
    let owned_ref = owned
        .as_ref()
        .map(|d| Decoded {
            value: d.value.as_ref(),
            consumed: d.consumed,
        })
        .map_err(|e| *e);
    if owned_ref != result {
        violated(
            "named.decode.owned-agrees",
            input,
            format_args!("NamedGuidRef::decode = {result:?} but NamedGuid::decode = {owned:?}"),
        );
    }
    match result {
        Ok(decoded) => named_success(input, decoded),
        Err(error) => named_error(input, error),
    }
}

/// Checks [`named_decode_with_limit`] on arbitrary bytes for the limits
/// where a decoder's handling of long names can go wrong: 0, 1, 255, 256,
/// 257, no limit (`usize::MAX`), the name's own length and one less.
///
/// # Panics
/// When the limited decoder differs from the model for one of them.
pub fn named_decode_limits(input: &[u8]) {
    // The unlimited result and the name's length are the same for every
    // limit: computed once, they leave one decoder call per limit.
    let result = NamedGuidRef::decode(input);
    let name_len = name_len(input);
    for limit in [0, 1, 255, 256, 257, usize::MAX] {
        check_limit(input, limit, result, name_len);
    }
    if let Some(len) = name_len {
        check_limit(input, len, result, name_len);
        check_limit(input, len.saturating_sub(1), result, name_len);
    }
}

/// Length of the name a non-zero GUID would carry: bytes from offset 8 to the
/// first NUL, `None` when there is no GUID, it is 0, or there is no NUL.
fn name_len(input: &[u8]) -> Option<usize> {
    let (guid, rest) = input.split_first_chunk::<GUID_LEN>()?;
    if u64::from_le_bytes(*guid) == 0 {
        return None;
    }
    rest.iter().position(|&b| b == 0)
}

fn named_success(input: &[u8], decoded: Decoded<NamedGuidRef<'_>>) {
    let Decoded { value, consumed } = decoded;
    let expected_consumed = match value {
        NamedGuidRef::Zero => GUID_LEN,
        NamedGuidRef::Named { name, .. } => GUID_LEN + name.len() + 1,
    };
    if consumed != expected_consumed || consumed > input.len() {
        violated(
            "named.decode.consumed",
            input,
            format_args!(
                "decoded {value:?} consuming {consumed} bytes; expected {expected_consumed}, \
                 within the input's {}",
                input.len()
            ),
        );
    }
    let prefix = NamedGuidRef::decode(&input[..consumed]);
    if prefix != Ok(decoded) {
        violated(
            "named.decode.prefix",
            input,
            format_args!(
                "decode(input) = {decoded:?} but decode(input[..{consumed}]) = {prefix:?}"
            ),
        );
    }
    let mut encoded = Vec::new();
    value.encode_to_vec(&mut encoded);
    if encoded != input[..consumed] || value.encoded_len() != encoded.len() {
        violated(
            "named.canonical.same-bytes",
            input,
            format_args!(
                "{value:?} decoded from \"{}\" encodes to \"{}\" (encoded_len() = {})",
                Hex(&input[..consumed]),
                Hex(&encoded),
                value.encoded_len()
            ),
        );
    }
    let rebuilt = NamedGuid::from_raw_parts(value.guid(), value.name().map(str::as_bytes));
    if rebuilt != Ok(value.to_owned_value()) {
        violated(
            "named.decode.valid-value",
            input,
            format_args!("decoded {value:?}, but from_raw_parts on its parts gives {rebuilt:?}"),
        );
    }
}

fn named_error(input: &[u8], error: NamedGuidDecodeError) {
    let guid = input
        .first_chunk::<GUID_LEN>()
        .map(|g| u64::from_le_bytes(*g));
    let name = input.get(GUID_LEN..).unwrap_or_default();
    let describes_input = match error {
        NamedGuidDecodeError::GuidEof { available } => {
            input.len() < GUID_LEN && available == input.len()
        }
        NamedGuidDecodeError::MissingNul { name_start, end } => {
            guid.is_some_and(|g| g != 0)
                && name_start == GUID_LEN
                && end == input.len()
                && !name.contains(&0)
        }
        NamedGuidDecodeError::InvalidUtf8 { name_start, offset } => {
            let nul = name.iter().position(|&b| b == 0);
            guid.is_some_and(|g| g != 0)
                && name_start == GUID_LEN
                && nul.is_some_and(|nul| {
                    offset >= GUID_LEN
                        && offset < GUID_LEN + nul
                        && core::str::from_utf8(&name[..nul]).is_err()
                        && core::str::from_utf8(&input[GUID_LEN..offset]).is_ok()
                })
        }
        // No limit was given, so no limit can be exceeded.
        NamedGuidDecodeError::NameTooLong { .. } => false,
    };
    if !describes_input || error.offset() > input.len() {
        violated(
            "named.decode.error",
            input,
            format_args!("decode failed with {error:?}, which does not describe this input"),
        );
    }
}

/// Checks [`NamedGuidRef::decode_with_max_name_len`] against the unlimited
/// decoder for one limit: a name longer than `limit` bytes (or no NUL within
/// `limit + 1` name bytes) is [`NamedGuidDecodeError::NameTooLong`]; every
/// other input decodes exactly as without a limit. This is the property a
/// decoder that silently cuts names at some length breaks.
///
/// # Panics
/// When the limited decoder differs from that model.
pub fn named_decode_with_limit(input: &[u8], limit: usize) {
    check_limit(input, limit, NamedGuidRef::decode(input), name_len(input));
}

/// [`named_decode_with_limit`], given what the unlimited decoder returns for
/// `input` and [`name_len`] of it.
fn check_limit(
    input: &[u8],
    limit: usize,
    unlimited: Result<Decoded<NamedGuidRef<'_>>, NamedGuidDecodeError>,
    name_len: Option<usize>,
) {
    let too_long = Err(NamedGuidDecodeError::NameTooLong {
        name_start: GUID_LEN,
        max: limit,
    });
    let name_bytes = input.len().saturating_sub(GUID_LEN);
    let expected = match unlimited {
        Ok(Decoded {
            value: NamedGuidRef::Named { name, .. },
            ..
        }) if name.len() > limit => too_long,
        Err(NamedGuidDecodeError::MissingNul { .. }) if name_bytes > limit => too_long,
        Err(NamedGuidDecodeError::InvalidUtf8 { .. })
            if name_len.is_some_and(|len| len > limit) =>
        {
            too_long
        }
        other => other,
    };
    let limited = NamedGuidRef::decode_with_max_name_len(input, limit);
    if limited != expected {
        violated(
            "named.decode.limit",
            input,
            format_args!(
                "decode_with_max_name_len(input, {limit}) = {limited:?}, expected {expected:?} \
                 (the unlimited decode gives {unlimited:?})"
            ),
        );
    }
}
