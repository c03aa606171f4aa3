//! Property checks over the codec, shared by every fuzz harness.
//!
//! The cargo-fuzz targets in `fuzz/`, the bolero harnesses in
//! `tests/properties.rs` and the regression replay in
//! `tests/fuzz_regressions.rs` are all thin calls into this module, so a
//! property is written once and every harness checks the same thing. The
//! module only reads the codec's public API (and [`crate::naive`] as the
//! baseline); it never changes state and never touches the file system.
//!
//! Each function takes one input and **panics with a precise message** when
//! the codec breaks a property, the convention of fuzz targets: libFuzzer and
//! bolero both turn a panic into a saved reproducer. Every message names the
//! property, what was expected, what happened, and the input as hex in the
//! form the vector files use (`"0a de ad"`), so a finding can be pasted into a
//! vector.
//!
//! | function | property |
//! | --- | --- |
//! | [`packed_decode`], [`named_decode`] | no panic on any bytes; `consumed <= len`; `decode(input) == decode(input[..consumed])`; canonical form; encoded length; error offsets inside the input |
//! | [`named_decode_limits`], [`named_decode_with_limit`] | the name limit turns exactly the too-long names into `NameTooLong` and changes nothing else |
//! | [`packed_roundtrip`], [`named_roundtrip`] | `decode(encode(v)) == (v, encode(v).len())`; length function; every strict prefix is an error; trailing bytes are left alone |
//! | [`packed_differential`], [`named_differential`], [`differential`] | every entry of [`packed::DECODERS`] and [`packed::ENCODERS`], and the named decoder, agree with [`crate::naive`]: same value, same consumed, same error |
//! | [`packed_encode_many`], [`differential_encode_many`] | every entry of [`packed::encode_many_implementations`] writes the naive encodings end to end, and stops at exactly the first GUID that does not fit (every buffer size, or one chosen by the input) |
//! | [`packed_decode_many`], [`differential_decode_many`] | every entry of [`packed::decode_many_implementations`] reads what the naive decoder reads value after value, and fails at exactly the value where it fails (every count, or one chosen by the input) |
//! | [`stream`], [`stream_input`] | values encoded back to back decode back to the same sequence |
//!
//! New fast paths added to [`packed::DECODERS`], [`packed::ENCODERS`],
//! [`packed::encode_many_implementations`] or
//! [`packed::decode_many_implementations`] are covered without touching this
//! module: the differential properties walk all four lists.

use alloc::vec::Vec;
use core::fmt;

use crate::named::GUID_LEN;
use crate::packed::{self, MAX_ENCODED_LEN};
use crate::{naive, Decoded, NamedGuid, NamedGuidDecodeError, NamedGuidRef, PackedGuid};
use crate::{NamedGuidValueError, PackedGuidError};

/// Bytes shown as lowercase hex pairs separated by spaces, `-` when empty:
/// the way the vector files and the conformance protocol write byte strings.
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// Stops the harness with a message that names the property and the input.
#[cold]
#[track_caller]
fn violated(property: &str, input: &[u8], detail: fmt::Arguments<'_>) -> ! {
    panic!(
        "property `{property}` violated: {detail}\n  input ({} bytes): \"{}\"",
        input.len(),
        Hex(input)
    )
}

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

/// Checks the round trip of one packed GUID through every encoding helper.
///
/// - `decode(encode(v)) == (v, encode(v).len())`, the result is canonical,
///   and [`PackedGuid::encoded_len`] is the encoding's length (1..=9).
/// - [`PackedGuid::encode_to_vec`] appends the same bytes, and so does
///   [`PackedGuid::write_to`] (with the `std` feature), which reports their
///   length.
/// - Every strict prefix of the encoding is an `UnexpectedEof` error, and
///   bytes after the encoding are left for the next field.
///
/// # Panics
/// When any of the above does not hold.
pub fn packed_roundtrip(value: PackedGuid) {
    let encoded = value.encode();
    let bytes: &[u8] = &encoded;
    if bytes.len() != value.encoded_len() || !(1..=MAX_ENCODED_LEN).contains(&bytes.len()) {
        violated(
            "packed.encoded-len",
            bytes,
            format_args!(
                "encode({value}) has {} bytes but encoded_len() = {}",
                bytes.len(),
                value.encoded_len()
            ),
        );
    }
    let decoded = PackedGuid::decode(bytes);
    let expected = Ok(Decoded {
        value,
        consumed: bytes.len(),
    });
    if decoded != expected || !decoded.is_ok_and(|d| d.is_canonical()) {
        violated(
            "packed.roundtrip",
            bytes,
            format_args!(
                "encode({value}) decodes to {decoded:?}, expected {expected:?}, canonical"
            ),
        );
    }
    let mut appended = Vec::with_capacity(1 + 2 * MAX_ENCODED_LEN);
    appended.push(0xee);
    value.encode_to_vec(&mut appended);
    if appended[1..] != *bytes || appended[0] != 0xee {
        violated(
            "packed.encode-to-vec",
            bytes,
            format_args!(
                "encode_to_vec({value}) after one byte gives \"{}\"",
                Hex(&appended)
            ),
        );
    }
    #[cfg(feature = "std")]
    {
        let result = value.write_to(&mut appended);
        if result.as_ref().ok() != Some(&bytes.len()) || appended[1 + bytes.len()..] != *bytes {
            violated(
                "packed.write-to",
                bytes,
                format_args!(
                    "write_to({value}) after the same bytes from encode_to_vec returned \
                     {result:?} and the buffer holds \"{}\"",
                    Hex(&appended)
                ),
            );
        }
    }
    for cut in 0..bytes.len() {
        let truncated = PackedGuid::decode(&bytes[..cut]);
        if !matches!(truncated, Err(PackedGuidError::UnexpectedEof { .. })) {
            violated(
                "packed.truncated",
                bytes,
                format_args!(
                    "the first {cut} bytes of encode({value}) decode to {truncated:?}, \
                     expected an UnexpectedEof error"
                ),
            );
        }
    }
    let tail = [0xff, 0x00, 0x80];
    let mut followed = Vec::with_capacity(bytes.len() + tail.len());
    followed.extend_from_slice(bytes);
    followed.extend_from_slice(&tail);
    let with_tail = PackedGuid::decode(&followed);
    if with_tail != expected {
        violated(
            "packed.trailing-bytes",
            &followed,
            format_args!("encode({value}) followed by other bytes decodes to {with_tail:?}"),
        );
    }
}

/// Checks the round trip of one named GUID through every encoding helper.
///
/// - `decode(encode(v)) == (v, encode(v).len())` for the owned and the
///   borrowed decoder, and [`NamedGuid::encoded_len`] is the real length.
/// - [`NamedGuidRef::encode_to_slice`] and [`NamedGuid::encode_to_slice`]
///   write the same bytes into a buffer of the exact length or longer (and
///   nothing past them), and refuse a shorter one without writing;
///   [`NamedGuid::write_to`] (with the `std` feature) appends the same bytes
///   and reports their length.
/// - The value can be rebuilt from its raw parts.
/// - Strict prefixes of the encoding are errors, and bytes after it are left
///   for the next field.
///
/// # Panics
/// When any of the above does not hold.
pub fn named_roundtrip(value: &NamedGuid) {
    let bytes = value.to_vec();
    let len = bytes.len();
    if len != value.encoded_len() || len != value.as_ref().encoded_len() {
        violated(
            "named.encoded-len",
            &bytes,
            format_args!(
                "encoding {value:?} gives {len} bytes but encoded_len() = {}",
                value.encoded_len()
            ),
        );
    }
    // Compared by reference: cloning the value for each comparison would
    // cost an allocation each.
    let expected = Ok((value, len));
    let decoded = NamedGuid::decode(&bytes);
    let borrowed = NamedGuidRef::decode(&bytes);
    if decoded.as_ref().map(|d| (&d.value, d.consumed)) != expected
        || borrowed
            != Ok(Decoded {
                value: value.as_ref(),
                consumed: len,
            })
    {
        violated(
            "named.roundtrip",
            &bytes,
            format_args!("{value:?} decodes to {decoded:?} (borrowed decoder: {borrowed:?})"),
        );
    }
    // One buffer, one byte longer than the encoding, for the three slice
    // lengths: every byte the encoder must leave alone is checked to still be
    // `ee`, the byte just past an exact-length slice included.
    let mut buf = alloc::vec![0xee; len + 1];
    let written = value.as_ref().encode_to_slice(&mut buf[..len]);
    if written != Ok(len) || buf[..len] != bytes[..] || buf[len] != 0xee {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice returned {written:?} and wrote \"{}\"",
                Hex(&buf)
            ),
        );
    }
    buf.fill(0xee);
    let written = value.encode_to_slice(&mut buf);
    if written != Ok(len) || buf[..len] != bytes[..] || buf[len] != 0xee {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice into {} bytes returned {written:?} and left \"{}\"",
                len + 1,
                Hex(&buf)
            ),
        );
    }
    buf.fill(0xee);
    if value.as_ref().encode_to_slice(&mut buf[..len - 1]).is_ok() || buf.iter().any(|&b| b != 0xee)
    {
        violated(
            "named.encode-to-slice",
            &bytes,
            format_args!(
                "encode_to_slice accepted or wrote to a buffer of {} bytes",
                len - 1
            ),
        );
    }
    // One buffer for `write_to` and then for the trailing-bytes check.
    let tail = [0x00, 0xff, 0x41, 0x00];
    let mut scratch = Vec::with_capacity(len + tail.len());
    #[cfg(feature = "std")]
    {
        let written = &mut scratch;
        written.push(0xee);
        let result = value.write_to(written);
        if result.as_ref().ok() != Some(&len) || written[0] != 0xee || written[1..] != bytes {
            violated(
                "named.write-to",
                &bytes,
                format_args!(
                    "write_to after one byte returned {result:?} and the buffer holds \"{}\"",
                    Hex(written)
                ),
            );
        }
    }
    let rebuilt = NamedGuid::from_raw_parts(value.guid(), value.name().map(str::as_bytes));
    if rebuilt.as_ref() != Ok(value) {
        violated(
            "named.from-raw-parts",
            &bytes,
            format_args!("from_raw_parts on the parts of {value:?} gives {rebuilt:?}"),
        );
    }
    // All prefixes would make long names quadratic; the ends and the middle
    // cover the GUID, the name and the missing NUL.
    for cut in [0, 1, GUID_LEN - 1, GUID_LEN, GUID_LEN + 1, len / 2, len - 1] {
        if cut >= len {
            continue;
        }
        let truncated = NamedGuidRef::decode(&bytes[..cut]);
        if !matches!(
            truncated,
            Err(NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. })
        ) {
            violated(
                "named.truncated",
                &bytes,
                format_args!(
                    "the first {cut} bytes of the encoding of {value:?} decode to {truncated:?}, \
                     expected a GuidEof or MissingNul error"
                ),
            );
        }
    }
    let mut followed = scratch;
    followed.clear();
    followed.extend_from_slice(&bytes);
    followed.extend_from_slice(&tail);
    // The borrowed decoder: the owned one is the same plus a copy of the
    // name, and was held to the borrowed one above on the same encoding.
    let with_tail = NamedGuidRef::decode(&followed);
    if with_tail
        != Ok(Decoded {
            value: value.as_ref(),
            consumed: len,
        })
    {
        violated(
            "named.trailing-bytes",
            &followed,
            format_args!(
                "the encoding of {value:?} followed by other bytes decodes to {with_tail:?}"
            ),
        );
    }
}

/// Compares every packed decoder and encoder with the naive model on
/// arbitrary bytes, one value at a time.
///
/// Every entry of [`packed::DECODERS`] must give the same GUID, the same
/// `consumed` and the same error as [`naive::decode_packed`]. Every entry of
/// [`packed::ENCODERS`] must write the same bytes as [`naive::encode_packed`]
/// for GUIDs read from the input (each of the first four 8-byte chunks,
/// little-endian, and the decoded value), whatever the output buffer held
/// before. The list functions have their own properties,
/// [`packed_decode_many`] and [`packed_encode_many`].
///
/// # Panics
/// When an implementation disagrees with the model.
pub fn packed_differential(input: &[u8]) {
    let model = naive::decode_packed(input);
    for &(name, decode) in packed::DECODERS {
        let got = decode(input).map(|d| (d.value.get(), d.consumed));
        if got != model {
            violated(
                "packed.differential.decode",
                input,
                format_args!(
                    "decoder `{name}` gives {got:?} (guid, consumed), the naive model {model:?}"
                ),
            );
        }
    }
    let chunks = input.chunks(8).take(4).map(le_guid);
    for guid in chunks.chain(model.ok().map(|(guid, _)| guid)) {
        packed_encoders(guid);
    }
}

/// A GUID from up to 8 bytes, little-endian, missing high bytes zero.
fn le_guid(chunk: &[u8]) -> u64 {
    let mut le = [0u8; 8];
    le[..chunk.len()].copy_from_slice(chunk);
    u64::from_le_bytes(le)
}

/// The first two bytes of a list target's input as a little-endian number,
/// which picks the count or buffer size to check, and the rest, which is
/// the list. Shorter inputs pick 0 and hold an empty list.
fn split_selector(input: &[u8]) -> (usize, &[u8]) {
    match input {
        [low, high, list @ ..] => (usize::from(u16::from_le_bytes([*low, *high])), list),
        _ => (0, &[]),
    }
}

/// What the naive decoder reads from a list input, value after value: the
/// model [`packed_decode_many`] holds every list decoder to.
#[derive(Debug, Default)]
struct NaiveWalk {
    /// The values read, up to the walk's limit or the first failure.
    values: Vec<PackedGuid>,
    /// Where each of those values ends.
    ends: Vec<usize>,
    /// The error for the value after them, when the walk stopped at one
    /// rather than at its limit.
    failure: Option<packed::DecodeManyError>,
}

impl NaiveWalk {
    /// Walks `input` for at most `limit` values: enough to know what decoding
    /// any count up to `limit` returns.
    fn new(input: &[u8], limit: usize) -> Self {
        let mut walk = Self::default();
        walk.walk(input, limit);
        walk
    }

    /// [`NaiveWalk::new`] in place, keeping the space the last walk took.
    fn walk(&mut self, input: &[u8], limit: usize) {
        let Self {
            values,
            ends,
            failure,
        } = self;
        values.clear();
        ends.clear();
        // Every value takes at least one byte.
        let capacity = limit.min(input.len());
        values.reserve(capacity);
        ends.reserve(capacity);
        let mut offset = 0;
        *failure = loop {
            if values.len() == limit {
                break None;
            }
            match naive::decode_packed(&input[offset..]) {
                Ok((guid, consumed)) => {
                    values.push(PackedGuid(guid));
                    offset += consumed;
                    ends.push(offset);
                }
                Err(PackedGuidError::UnexpectedEof { mask, needed, .. }) => {
                    break Some(packed::DecodeManyError::UnexpectedEof {
                        index: values.len(),
                        offset,
                        mask,
                        needed,
                        end: input.len(),
                    });
                }
            }
        };
    }

    /// What decoding `count` values returns (`count` at most the walk's
    /// limit): the bytes they take, or the failure when the input holds
    /// fewer.
    fn expected(&self, count: usize) -> Result<usize, packed::DecodeManyError> {
        let Some(last) = count.checked_sub(1) else {
            return Ok(0);
        };
        match (self.ends.get(last), self.failure) {
            (Some(&end), _) => Ok(end),
            (None, Some(failure)) => Err(failure),
            (None, None) => unreachable!("the walk reads up to its limit or fails first"),
        }
    }
}

/// Every entry of [`packed::decode_many_implementations`], and
/// [`packed::decode_many_to_vec`], against the naive decoder walking `input`
/// value after value.
///
/// For every count from 0 to one past the number of values the naive walk
/// reads before it fails or the input ends: the same values and the same
/// bytes consumed, or, for the count one too many, `UnexpectedEof` for that
/// value with the naive error's mask and length at its offset. The
/// `differential_decode_many` fuzz target checks one count per input
/// ([`differential_decode_many`]).
///
/// # Panics
/// When an implementation disagrees with the model.
pub fn packed_decode_many(input: &[u8]) {
    let walk = NaiveWalk::new(input, usize::MAX);
    for count in 0..=walk.values.len() + 1 {
        check_decode_many(input, &walk, count);
    }
}

/// The input of the `differential_decode_many` fuzz target: a count selector
/// (two bytes, little-endian) and a list of packed GUIDs back to back, as
/// messages carry them after their count.
///
/// Checks what [`packed_decode_many`] checks, for one count: the selector
/// modulo `len + 2` for a list of `len` bytes. That range holds every count
/// [`packed_decode_many`] walks (a list of `len` bytes has at most `len`
/// values) and larger ones, which must fail like the first count too many.
/// One count per input keeps each run linear in the input's length; walking
/// them all is quadratic, which held the target to a few thousand runs a
/// second.
///
/// # Panics
/// When an implementation disagrees with the model.
pub fn differential_decode_many(input: &[u8]) {
    differential_decode_many_with(input, &mut DecodeManyScratch::default());
}

/// [`differential_decode_many`] with the naive walk's lists kept in
/// `scratch`: a harness that keeps one between inputs saves two allocations
/// per input. The buffers the implementations write to are still allocated
/// per input, exactly as long as the call says, so that the address
/// sanitizer sees a write past them.
///
/// # Panics
/// As [`differential_decode_many`].
pub fn differential_decode_many_with(input: &[u8], scratch: &mut DecodeManyScratch) {
    let (selector, list) = split_selector(input);
    let count = selector % (list.len() + 2);
    scratch.0.walk(list, count);
    check_decode_many(list, &scratch.0, count);
}

/// Scratch space for [`differential_decode_many_with`]: the naive walk's
/// values and where each ends.
#[derive(Debug, Default)]
pub struct DecodeManyScratch(NaiveWalk);

/// [`packed_decode_many`] for one count.
fn check_decode_many(input: &[u8], walk: &NaiveWalk, count: usize) {
    let expected = walk.expected(count);
    let values = &walk.values[..count.min(walk.values.len())];
    // Exactly `count` long, so the address sanitizer catches a write past
    // it; the spare slot is for `decode_many_to_vec` below.
    let mut out = Vec::with_capacity(count + 1);
    out.resize(count, PackedGuid(0));
    for (name, decode_many) in packed::decode_many_implementations() {
        out.fill(PackedGuid(0x0bad_0bad_0bad_0bad));
        let got = decode_many(input, &mut out);
        let good = &out[..values.len()];
        if got != expected || good != values {
            violated(
                "packed.differential.decode-many",
                input,
                format_args!(
                    "`{name}` decoding {count} value(s) returns {got:?} and {good:?}; the naive \
                     walk gives {expected:?} and {values:?}"
                ),
            );
        }
    }
    let mut appended = out;
    appended.clear();
    appended.push(PackedGuid(1));
    let got = packed::decode_many_to_vec(input, count, &mut appended);
    if got != expected || appended[0] != PackedGuid(1) || appended[1..] != *values {
        violated(
            "packed.differential.decode-many",
            input,
            format_args!(
                "decode_many_to_vec of {count} value(s) returns {got:?} and appends {:?}; \
                 the naive walk gives {expected:?} and {values:?}",
                &appended[1..]
            ),
        );
    }
}

/// Every entry of [`packed::ENCODERS`] against [`naive::encode_packed`] for
/// one GUID, with the output buffer pre-filled with zeros and with `ff`.
///
/// # Panics
/// When an encoder's bytes or length differ from the model's.
pub fn packed_encoders(guid: u64) {
    let (model, model_len) = naive::encode_packed(guid);
    let model = &model[..model_len];
    for &(name, encode) in packed::ENCODERS {
        for fill in [0x00, 0xff] {
            let mut out = [fill; MAX_ENCODED_LEN];
            let len = encode(PackedGuid(guid), &mut out);
            if len > MAX_ENCODED_LEN || out[..len] != *model {
                violated(
                    "packed.differential.encode",
                    &guid.to_le_bytes(),
                    format_args!(
                        "encoder `{name}` writes \"{}\" (length {len}, buffer filled with \
                         {fill:#04x}) for GUID {guid:016x}; the naive model writes \"{}\"",
                        Hex(&out[..len.min(MAX_ENCODED_LEN)]),
                        Hex(model)
                    ),
                );
            }
        }
    }
}

/// The naive encodings of a list of GUIDs laid end to end: the model
/// [`packed_encode_many`] holds every list encoder to.
#[derive(Debug, Default)]
struct NaiveList {
    /// The GUIDs, as the list functions take them.
    list: Vec<PackedGuid>,
    /// Their encodings back to back.
    bytes: Vec<u8>,
    /// Where each encoding ends.
    ends: Vec<usize>,
    /// The GUIDs as little-endian bytes, for the failure messages.
    input: Vec<u8>,
}

impl NaiveList {
    fn new(guids: impl ExactSizeIterator<Item = u64>) -> Self {
        let mut model = Self::default();
        model.fill(guids);
        model
    }

    /// [`NaiveList::new`] in place. The list the implementations read is
    /// allocated anew, exactly as long as it is, so that the address
    /// sanitizer sees a read past it; the model's own lists keep the space
    /// the last one took.
    fn fill(&mut self, guids: impl ExactSizeIterator<Item = u64>) {
        self.list = Vec::with_capacity(guids.len());
        self.bytes.clear();
        self.bytes.reserve(guids.len() * MAX_ENCODED_LEN);
        self.ends.clear();
        self.ends.reserve(guids.len());
        self.input.clear();
        self.input.reserve(guids.len() * 8);
        for guid in guids {
            let (bytes, len) = naive::encode_packed(guid);
            self.bytes.extend_from_slice(&bytes[..len]);
            self.ends.push(self.bytes.len());
            self.list.push(PackedGuid(guid));
            self.input.extend_from_slice(&guid.to_le_bytes());
        }
    }

    /// What encoding the list into `available` bytes returns.
    fn expected(&self, available: usize) -> Result<usize, packed::EncodeManyError> {
        match self.ends.iter().position(|&end| end > available) {
            None => Ok(self.bytes.len()),
            Some(index) => {
                let offset = if index == 0 { 0 } else { self.ends[index - 1] };
                Err(packed::EncodeManyError::OutputTooSmall {
                    index,
                    offset,
                    needed: self.ends[index] - offset,
                    available,
                })
            }
        }
    }
}

/// Every entry of [`packed::encode_many_implementations`], and
/// [`packed::encode_many_to_vec`], against the naive encodings of `guids`
/// laid end to end.
///
/// - With room to spare and with exactly enough room: the same bytes and the
///   same length, whatever the buffer held before.
/// - With every shorter buffer: `OutputTooSmall` for the first GUID whose
///   encoding does not fit entirely, at the offset where it would start, and
///   the GUIDs before it written exactly.
///
/// The `differential_encode_many` fuzz target checks one buffer size per
/// input ([`differential_encode_many`]).
///
/// # Panics
/// When an implementation disagrees with the model.
pub fn packed_encode_many(guids: &[u64]) {
    let model = NaiveList::new(guids.iter().copied());
    for available in 0..=model.bytes.len() + MAX_ENCODED_LEN {
        check_encode_many(&model, available);
    }
    check_encode_many_to_vec(&model);
}

/// The input of the `differential_encode_many` fuzz target: a buffer-size
/// selector (two bytes, little-endian) and the GUIDs, 8 bytes each,
/// little-endian (a short last chunk has its missing high bytes zero).
///
/// Checks what [`packed_encode_many`] checks, for one buffer size: the
/// selector modulo the number of sizes that property walks (`0..=len + 9`
/// for encodings of `len` bytes, so exactly enough room and room to spare
/// are among them), then [`packed::encode_many_to_vec`]. One size per input
/// keeps each run linear in the input's length.
///
/// # Panics
/// When an implementation disagrees with the model.
pub fn differential_encode_many(input: &[u8]) {
    differential_encode_many_with(input, &mut EncodeManyScratch::default());
}

/// [`differential_encode_many`] with the naive model's lists kept in
/// `scratch`: a harness that keeps one between inputs saves three
/// allocations per input. The list the implementations read and the buffers
/// they write to are still allocated per input, exactly as long as the call
/// says, so that the address sanitizer sees an access past them.
///
/// # Panics
/// As [`differential_encode_many`].
pub fn differential_encode_many_with(input: &[u8], scratch: &mut EncodeManyScratch) {
    let (selector, list) = split_selector(input);
    let model = &mut scratch.0;
    model.fill(list.chunks(8).map(le_guid));
    check_encode_many(model, selector % (model.bytes.len() + MAX_ENCODED_LEN + 1));
    check_encode_many_to_vec(model);
}

/// Scratch space for [`differential_encode_many_with`]: the naive model's
/// encodings, where each ends, and the GUIDs' bytes for messages.
#[derive(Debug, Default)]
pub struct EncodeManyScratch(NaiveList);

/// [`packed_encode_many`] for one buffer size, filled with `00` when the size
/// is even and `ff` when it is odd.
fn check_encode_many(model: &NaiveList, available: usize) {
    let expected = model.expected(available);
    let written = match expected {
        Ok(len) => len,
        Err(packed::EncodeManyError::OutputTooSmall { offset, .. }) => offset,
    };
    let fill = if available.is_multiple_of(2) {
        0x00
    } else {
        0xff
    };
    let mut out = alloc::vec![fill; available];
    for (name, encode_many) in packed::encode_many_implementations() {
        out.fill(fill);
        let got = encode_many(&model.list, &mut out);
        if got != expected || out[..written] != model.bytes[..written] {
            violated(
                "packed.differential.encode-many",
                &model.input,
                format_args!(
                    "`{name}` into a {available}-byte buffer filled with {fill:#04x} \
                     returns {got:?} and writes \"{}\"; the naive model gives {expected:?} \
                     and \"{}\"",
                    Hex(&out[..written]),
                    Hex(&model.bytes[..written])
                ),
            );
        }
    }
}

/// [`packed::encode_many_to_vec`] appends the naive encodings.
fn check_encode_many_to_vec(model: &NaiveList) {
    let mut appended = alloc::vec![0xaa];
    packed::encode_many_to_vec(&model.list, &mut appended);
    if appended[0] != 0xaa || appended[1..] != model.bytes[..] {
        violated(
            "packed.differential.encode-many",
            &model.input,
            format_args!(
                "encode_many_to_vec after one byte aa gives \"{}\"; the naive model \"{}\"",
                Hex(&appended),
                Hex(&model.bytes)
            ),
        );
    }
}

/// Compares the named decoder with [`naive::decode_named`] on arbitrary
/// bytes: same GUID, same name bytes, same `consumed`, same error.
///
/// # Panics
/// When the codec disagrees with the model.
pub fn named_differential(input: &[u8]) {
    let model = naive::decode_named(input);
    let got = NamedGuidRef::decode(input).map(|d| {
        (
            d.value.guid(),
            d.value.name().map(str::as_bytes),
            d.consumed,
        )
    });
    if got != model {
        violated(
            "named.differential.decode",
            input,
            format_args!(
                "the codec gives {got:?} (guid, name, consumed), the naive model {model:?}"
            ),
        );
    }
}

/// Both differentials on the same bytes: the input of the `differential`
/// fuzz target.
///
/// # Panics
/// As [`packed_differential`] and [`named_differential`].
pub fn differential(input: &[u8]) {
    packed_differential(input);
    named_differential(input);
}

/// One value of a message in the [`stream`] property: a packed GUID, or a
/// named GUID that borrows its name (from the fuzzer's input, in
/// [`stream_input`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamItem<'a> {
    /// A packed GUID field.
    Packed(PackedGuid),
    /// A named GUID field.
    Named(NamedGuidRef<'a>),
}

impl StreamItem<'_> {
    fn encoded_len(&self) -> usize {
        match self {
            Self::Packed(guid) => guid.encoded_len(),
            Self::Named(named) => named.encoded_len(),
        }
    }

    fn encode_to_vec(&self, message: &mut Vec<u8>) {
        match self {
            Self::Packed(guid) => guid.encode_to_vec(message),
            Self::Named(named) => named.encode_to_vec(message),
        }
    }
}

/// Reads an item as `derive(Arbitrary)` on an enum of [`PackedGuid`] and
/// [`NamedGuid`] would (a `u32` picks the variant, then the value as that
/// type's own impl reads it), except that the name is borrowed from the
/// input instead of copied: a name with a NUL in it is cut at its first NUL
/// (the owned [`Name`](crate::Name) drops every NUL, which needs a copy).
#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for StreamItem<'a> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        if (u64::from(<u32 as arbitrary::Arbitrary>::arbitrary(u)?) * 2) >> 32 == 0 {
            return Ok(Self::Packed(u.arbitrary()?));
        }
        Ok(Self::Named(
            match core::num::NonZeroU64::new(u.arbitrary()?) {
                None => NamedGuidRef::Zero,
                Some(guid) => {
                    let name: &str = u.arbitrary()?;
                    let name = name.find('\0').map_or(name, |end| &name[..end]);
                    NamedGuidRef::Named { guid, name }
                }
            },
        ))
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        arbitrary::size_hint::and(
            <u32 as arbitrary::Arbitrary>::size_hint(depth),
            <u64 as arbitrary::Arbitrary>::size_hint(depth),
        )
    }
}

/// Encodes `items` back to back, as fields of one message, and checks that
/// decoding them one after the other, each from where the previous one
/// stopped, gives back the same values and ends exactly at the end.
///
/// The `io::Write` helpers append exactly what `encode_to_vec` appends, so a
/// message written through them is the same; [`packed_roundtrip`] and
/// [`named_roundtrip`] check that for each value. The owned [`NamedGuid`]
/// encodes through the borrowed [`NamedGuidRef`], which is what is used
/// here.
///
/// # Panics
/// When a value comes back different, or decoding stops early or late.
pub fn stream(items: &[StreamItem<'_>]) {
    let mut message = Vec::with_capacity(items.iter().map(StreamItem::encoded_len).sum());
    for item in items {
        item.encode_to_vec(&mut message);
    }
    stream_decodes(items.iter().copied(), items.len(), &message);
}

/// Scratch space for [`stream_input`]: the message and what was read from
/// the input. A harness that keeps one between inputs allocates nothing per
/// input once it has grown.
#[cfg(feature = "arbitrary")]
#[derive(Debug, Default)]
pub struct StreamScratch {
    message: Vec<u8>,
    items: Vec<ItemInInput>,
}

/// A [`StreamItem`] read from an input, with its name as a range of the
/// input instead of a borrow, so that [`StreamScratch`] outlives the input.
#[cfg(feature = "arbitrary")]
#[derive(Debug)]
enum ItemInInput {
    Packed(PackedGuid),
    Zero,
    Named {
        guid: core::num::NonZeroU64,
        name: core::ops::Range<usize>,
    },
}

/// [`stream`] on a fuzzer's raw input, the items read from it exactly as
/// `Vec<StreamItem>` would read them (`arbitrary_take_rest`). An input that
/// does not make a list of items is skipped, as `fuzz_target!` skips it.
///
/// The message and the list of items are kept in `scratch`, so that a
/// harness allocates nothing per input. The message's spare capacity hides
/// nothing from the address sanitizer: the single-value decoders read
/// through bounds-checked slices only.
///
/// # Panics
/// As [`stream`].
#[cfg(feature = "arbitrary")]
pub fn stream_input(input: &[u8], scratch: &mut StreamScratch) {
    let Ok(items) =
        arbitrary::Unstructured::new(input).arbitrary_take_rest_iter::<StreamItem<'_>>()
    else {
        return;
    };
    scratch.message.clear();
    scratch.items.clear();
    for item in items {
        let Ok(item) = item else { return };
        item.encode_to_vec(&mut scratch.message);
        scratch.items.push(match item {
            StreamItem::Packed(guid) => ItemInInput::Packed(guid),
            StreamItem::Named(NamedGuidRef::Zero) => ItemInInput::Zero,
            StreamItem::Named(NamedGuidRef::Named { guid, name }) => {
                // A name is borrowed from the input: where it starts there
                // (an empty one may point anywhere).
                let start = if name.is_empty() {
                    0
                } else {
                    name.as_ptr() as usize - input.as_ptr() as usize
                };
                ItemInInput::Named {
                    guid,
                    name: start..start + name.len(),
                }
            }
        });
    }
    let items = scratch.items.iter().map(|item| match item {
        ItemInInput::Packed(guid) => StreamItem::Packed(*guid),
        ItemInInput::Zero => StreamItem::Named(NamedGuidRef::Zero),
        ItemInInput::Named { guid, name } => StreamItem::Named(NamedGuidRef::Named {
            guid: *guid,
            name: core::str::from_utf8(&input[name.clone()]).expect("a name read as UTF-8"),
        }),
    });
    stream_decodes(items, scratch.items.len(), &scratch.message);
}

/// The decoding half of [`stream`]: `items` (`count` of them) decode one
/// after the other from `message`, which ends exactly where the last one
/// does.
fn stream_decodes<'a>(items: impl Iterator<Item = StreamItem<'a>>, count: usize, message: &[u8]) {
    let mut offset = 0;
    for (index, item) in items.enumerate() {
        let rest = &message[offset..];
        // Named values are decoded borrowed: the owned decoder is the same
        // plus a copy of the name, and `named_decode` checks that the two
        // agree.
        let (same, consumed) = match item {
            StreamItem::Packed(guid) => match PackedGuid::decode(rest) {
                Ok(d) => (d.value == guid, d.consumed),
                Err(_) => (false, 0),
            },
            StreamItem::Named(named) => match NamedGuidRef::decode(rest) {
                Ok(d) => (d.value == named, d.consumed),
                Err(_) => (false, 0),
            },
        };
        if !same {
            stream_mismatch(message, index, offset, &item);
        }
        offset += consumed;
    }
    if offset != message.len() {
        violated(
            "stream.length",
            message,
            format_args!(
                "decoding {count} items stopped at offset {offset} of {}",
                message.len()
            ),
        );
    }
}

/// Reports item `index` of a stream, at `offset` of `message`, decoding to
/// something other than `item`.
#[cold]
fn stream_mismatch(message: &[u8], index: usize, offset: usize, item: &StreamItem<'_>) -> ! {
    let rest = &message[offset..];
    let decoded = match item {
        StreamItem::Packed(_) => PackedGuid::decode(rest)
            .map(|d| StreamItem::Packed(d.value))
            .map_err(DecodeFailure::Packed),
        StreamItem::Named(_) => NamedGuidRef::decode(rest)
            .map(|d| StreamItem::Named(d.value))
            .map_err(DecodeFailure::Named),
    };
    violated(
        "stream.roundtrip",
        message,
        format_args!("item {index} at offset {offset} decodes to {decoded:?}, expected {item:?}"),
    )
}

/// An error from either decoder, so a stream step can report what failed.
#[derive(Debug, PartialEq, Eq)]
enum DecodeFailure {
    Packed(PackedGuidError),
    Named(NamedGuidDecodeError),
}

/// Values that must never be rejected or mangled, whatever else the fuzzer
/// finds: GUID 0 without a name, the spec's example, and the extremes.
///
/// # Panics
/// When one of them fails its round trip.
pub fn fixed_values() {
    let fixed = [0, 1, 0x0000_0000_AD00_DE00, 0x8000_0000_0000_0000, u64::MAX];
    for guid in fixed {
        packed_roundtrip(PackedGuid(guid));
        packed_encoders(guid);
    }
    packed_encode_many(&fixed);
    let zero = NamedGuid::from_raw_parts(0, None);
    if zero != Ok(NamedGuid::Zero) {
        violated(
            "named.zero-without-name",
            &[],
            format_args!("from_raw_parts(0, None) gives {zero:?}"),
        );
    }
    named_roundtrip(&NamedGuid::Zero);
    if NamedGuid::from_raw_parts(0, Some(b"")) != Err(NamedGuidValueError::NameWithoutGuid) {
        violated(
            "named.zero-without-name",
            &[],
            format_args!("from_raw_parts(0, Some(\"\")) must be refused: GUID 0 carries no name"),
        );
    }
}
