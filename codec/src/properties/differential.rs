//! Every implementation inside the codec against the naive baseline: the
//! packed decoders and encoders, their list forms, and the named decoder.

use alloc::vec::Vec;

use crate::packed::{self, MAX_ENCODED_LEN};
use crate::PackedGuidError;
use crate::{naive, NamedGuidRef, PackedGuid};

use super::message::{violated, Hex};

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
