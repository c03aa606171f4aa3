//! The vector corpus, run straight through the codec.
//!
//! Every vector of `vectors/` (loaded by `wow-guid-vectors`, the one loader)
//! goes through every way the codec has of answering its request, called
//! directly, without the conformance protocol:
//!
//! - packed decode: [`naive::decode_packed`], every entry of
//!   [`packed::DECODERS`], every list decoder of
//!   [`packed::decode_many_implementations`] (the value alone, after the
//!   values of up to two earlier vectors, and after those of up to 48), and
//!   [`packed::decode_many_to_vec`];
//! - packed encode: [`naive::encode_packed`], every entry of
//!   [`packed::ENCODERS`], [`PackedGuid::encode`] and every helper built on
//!   it (`to_vec`, `encode_to_vec`, `write_to`, `encode_to_slice`),
//!   every list encoder (alone, after earlier GUIDs and after eight copies
//!   of its own, into a buffer of the exact length, one with room to spare,
//!   one with room for a 64-byte store past the end, and one a byte short),
//!   and [`packed::encode_many_to_vec`];
//! - named decode: [`naive::decode_named`], and both the borrowing
//!   ([`NamedGuidRef`]) and the owning ([`NamedGuid`]) decoder, with and
//!   without a name limit;
//! - named encode: both types, built with `from_raw_parts`, and where the
//!   name is text with `new` and from a [`Name`] (`Name::new` and both
//!   `TryFrom`s), through every encoding helper.
//!
//! Each answer is judged against the vector's expectation as the corpus
//! defines it (`valid`: exactly this value; `invalid`: this error code;
//! `acceptable`: this value or any error). Error codes are checked strictly:
//! this is the reference codec. Beyond the answer, each path is held to what
//! its API promises about the same input, derived from the vector alone: an
//! error's offsets (where the input ended, where a value started in a list),
//! whether a decoded value was canonical, the encoded length, which bytes a
//! slice encoder may touch, what a name limit of exactly the name's length
//! does.
//!
//! Before the vectors, the test checks that it reaches the portable list
//! implementations (the others are found at run time). The long lists (48
//! earlier values) are there for the loops that take a list a block at a
//! time (`packed::avx512`, 64 bytes a block when decoding, seven GUIDs when
//! encoding): they meet the vector's value, and its error, after some
//! blocks, which hold the earlier vectors' values.
//!
//! Failures are collected, not fatal one at a time: one report lists every
//! `id [path]: ...` with the request. The file holds nothing but the corpus,
//! so it also measures the corpus: `.ci/mutants.sh codec` plants bugs in
//! the codec and counts how many this test notices (docs/checking-the-suite.md).
//!
//! The codec's errors are mapped to the corpus's error codes here as the
//! runner's reference adapter maps them for the protocol; both mappings are
//! judged by the same vectors, so neither can drift from the corpus unseen.

use std::fmt::{self, Write as _};
use std::num::NonZeroU64;

use wow_guid_codec::named::GUID_LEN;
use wow_guid_codec::packed::{
    self, DecodeManyError, EncodeManyError, PackedGuidError, MAX_ENCODED_LEN,
};
use wow_guid_codec::{
    naive, BufferSizeError, Name, NamedGuid, NamedGuidDecodeError, NamedGuidRef,
    NamedGuidValueError, PackedGuid,
};
use wow_guid_vectors::{Corpus, ErrorCode, Expectation, Request, Value, Vector};

/// What one path of the codec answered, in the corpus's terms.
type Answer = Result<Value, ErrorCode>;

/// How many earlier values a list puts before the vector's own.
const MAX_LEAD: usize = 2;

/// How many earlier values a long list puts before the vector's own, when
/// the corpus has had that many: enough bytes (over 128) for the AVX-512
/// list decoder to decode whole 64-byte blocks before it reaches the
/// vector's value, and enough GUIDs (over 8) for the AVX-512 list encoder
/// to encode some blocks of seven, so that value (and its error) comes
/// after them.
const LONG_LEAD: usize = 48;

/// How many times a list repeats the vector's own value before it: more
/// than the seven GUIDs of a step of the AVX-512 list encoder.
const REPEATS: usize = 8;

/// The bytes a step of the AVX-512 list encoder stores at once, which it
/// needs left in the buffer to take the step.
const BLOCK_STORE: usize = 64;

#[test]
fn every_vector_through_every_implementation() {
    let corpus = match Corpus::embedded() {
        Ok(corpus) => corpus,
        Err(errors) => panic!("the corpus does not load:\n{errors}"),
    };
    // The test is only as good as the implementations it reaches: the list
    // functions are found at run time, so check that the portable ones are
    // there. Each SIMD loop is there exactly when the CPU reports its
    // features: the registry's own test (`packed/arch`) holds it to that.
    for names in [
        packed::encode_many_implementations()
            .map(|(name, _)| name)
            .collect::<Vec<_>>(),
        packed::decode_many_implementations()
            .map(|(name, _)| name)
            .collect(),
    ] {
        assert!(
            names.starts_with(&["default", "table"]),
            "the list implementations are {names:?}"
        );
    }
    let mut run = Run::default();
    // The values of the latest valid packed vectors, to put in front of the
    // next one in a list: (encoding, GUID).
    let mut decode_lead: Vec<(Vec<u8>, u64)> = Vec::new();
    let mut encode_lead: Vec<(Vec<u8>, u64)> = Vec::new();
    for vector in corpus.iter() {
        match &vector.request {
            Request::DecodePacked { bytes } => {
                packed_decode(&mut run, vector, bytes, &decode_lead);
                if let Expectation::Valid(Value::Packed { guid, consumed }) = vector.expect {
                    remember(
                        &mut decode_lead,
                        bytes[..consumed].to_vec(),
                        guid,
                        LONG_LEAD,
                    );
                }
            }
            Request::EncodePacked { guid } => {
                packed_encode(&mut run, vector, *guid, &encode_lead);
                if let Expectation::Valid(Value::Encoded { bytes }) = &vector.expect {
                    remember(&mut encode_lead, bytes.clone(), *guid, LONG_LEAD);
                }
            }
            Request::DecodeNamed { bytes } => named_decode(&mut run, vector, bytes),
            Request::EncodeNamed { guid, name } => {
                named_encode(&mut run, vector, *guid, name.as_deref());
            }
            Request::SizePacked { .. } | Request::SizeNamed { .. } => sizes(&mut run, vector),
        }
    }
    assert!(
        run.vectors == corpus.iter().count() && run.vectors > 0,
        "ran {} of {} vectors",
        run.vectors,
        corpus.iter().count()
    );
    assert!(
        run.failures.is_empty(),
        "{} of {} checks on {} vectors failed:\n{}",
        run.failures.len(),
        run.checks,
        run.vectors,
        run.failures.join("\n")
    );
}

/// Keeps the last `keep` values.
fn remember(lead: &mut Vec<(Vec<u8>, u64)>, bytes: Vec<u8>, guid: u64, keep: usize) {
    lead.push((bytes, guid));
    if lead.len() > keep {
        lead.remove(0);
    }
}

/// The results so far.
#[derive(Default)]
struct Run {
    vectors: usize,
    checks: usize,
    failures: Vec<String>,
}

impl Run {
    /// Judges one path's answer against the vector's expectation.
    fn judge(&mut self, vector: &Vector, path: &str, answer: &Answer) {
        let conformant = match &vector.expect {
            Expectation::Valid(value) => answer.as_ref() == Ok(value),
            Expectation::Invalid(code) => answer.as_ref() == Err(code),
            Expectation::Acceptable { value, .. } => {
                answer.is_err() || answer.as_ref() == Ok(value)
            }
        };
        self.check(vector, path, conformant, || {
            format!("expected {}, got {}", Shown(&vector.expect), Shown(answer))
        });
    }

    /// Records one more fact about a path: `holds`, or a failure saying why.
    fn check(&mut self, vector: &Vector, path: &str, holds: bool, why: impl FnOnce() -> String) {
        self.checks += 1;
        if !holds {
            self.failures.push(format!(
                "{} [{path}]: {}; request {}",
                vector.id,
                why(),
                Shown(&vector.request)
            ));
        }
    }
}

fn packed_code(error: &PackedGuidError) -> ErrorCode {
    match error {
        PackedGuidError::UnexpectedEof { .. } => ErrorCode::Eof,
        _ => ErrorCode::Other,
    }
}

fn named_decode_code(error: &NamedGuidDecodeError) -> ErrorCode {
    match error {
        NamedGuidDecodeError::GuidEof { .. } | NamedGuidDecodeError::MissingNul { .. } => {
            ErrorCode::Eof
        }
        NamedGuidDecodeError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
        NamedGuidDecodeError::NameTooLong { .. } => ErrorCode::NameTooLong,
        _ => ErrorCode::Other,
    }
}

fn named_value_code(error: &NamedGuidValueError) -> ErrorCode {
    match error {
        NamedGuidValueError::NameWithoutGuid => ErrorCode::NameWithoutGuid,
        NamedGuidValueError::InteriorNul { .. } => ErrorCode::InteriorNul,
        NamedGuidValueError::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
        _ => ErrorCode::Other,
    }
}

fn packed_decode(run: &mut Run, vector: &Vector, bytes: &[u8], lead: &[(Vec<u8>, u64)]) {
    run.vectors += 1;
    let naive = naive::decode_packed(bytes);
    run.judge(
        vector,
        "naive",
        &naive
            .map(|(guid, consumed)| Value::Packed { guid, consumed })
            .map_err(|e| packed_code(&e)),
    );
    if let Err(e) = naive {
        packed_error_facts(run, vector, "naive", bytes, &e);
    }
    for &(name, decode) in packed::DECODERS {
        let result = decode(bytes);
        run.judge(
            vector,
            name,
            &result
                .map(|d| Value::Packed {
                    guid: u64::from(d.value),
                    consumed: d.consumed,
                })
                .map_err(|e| packed_code(&e)),
        );
        match result {
            Ok(decoded) => {
                let canonical = bytes
                    .get(1..decoded.consumed)
                    .is_some_and(|sent| sent.iter().all(|&b| b != 0));
                run.check(vector, name, decoded.is_canonical() == canonical, || {
                    format!(
                        "is_canonical() is {}, but the value bytes {} a zero",
                        decoded.is_canonical(),
                        if canonical { "have no" } else { "have" }
                    )
                });
            }
            Err(e) => packed_error_facts(run, vector, name, bytes, &e),
        }
    }
    for (name, decode_many) in packed::decode_many_implementations() {
        for lead in lead_choices(lead) {
            packed_decode_list(run, vector, name, decode_many, lead, bytes);
        }
    }
    for lead in lead_choices(lead) {
        packed_decode_to_vec(run, vector, lead, bytes);
    }
}

/// [`packed::decode_many_to_vec`] with `lead`'s values in front of the
/// vector's: appends them all, or on an error exactly the ones before it.
fn packed_decode_to_vec(run: &mut Run, vector: &Vector, lead: &[(Vec<u8>, u64)], bytes: &[u8]) {
    let path = format!("decode_many_to_vec, at index {}", lead.len());
    let mut input: Vec<u8> = lead.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let start = input.len();
    input.extend_from_slice(bytes);
    let mut before = vec![PackedGuid(7)];
    before.extend(lead.iter().map(|&(_, g)| PackedGuid(g)));
    let mut appended = vec![PackedGuid(7)];
    let result = packed::decode_many_to_vec(&input, lead.len() + 1, &mut appended);
    let answer = match result {
        Ok(end) if appended.len() == before.len() + 1 && appended[..before.len()] == before[..] => {
            Ok(Value::Packed {
                guid: appended[before.len()].get(),
                consumed: end.wrapping_sub(start),
            })
        }
        Ok(_) => Err(ErrorCode::Other),
        Err(DecodeManyError::UnexpectedEof { .. }) => Err(ErrorCode::Eof),
    };
    run.judge(vector, &path, &answer);
    if result.is_err() {
        run.check(vector, &path, appended == before, || {
            format!("after an error the Vec holds {appended:?}, not {before:?}")
        });
    }
}

/// What a packed-GUID decoding error must say about `bytes`: the input ended
/// at its end, after the mask (if any), before the value did.
fn packed_error_facts(
    run: &mut Run,
    vector: &Vector,
    path: &str,
    bytes: &[u8],
    e: &PackedGuidError,
) {
    let PackedGuidError::UnexpectedEof {
        mask,
        needed,
        available,
    } = *e
    else {
        return;
    };
    run.check(
        vector,
        path,
        available == bytes.len()
            && e.offset() == bytes.len()
            && mask == bytes.first().copied()
            && needed > available
            && needed <= MAX_ENCODED_LEN,
        || {
            format!(
                "the error {e:?} does not describe an input of {} bytes",
                bytes.len()
            )
        },
    );
}

/// The lists of earlier values to put in front of a vector: none, then the
/// last [`MAX_LEAD`] of `lead` (when there is any), then all of `lead` (when
/// it holds more).
fn lead_choices(lead: &[(Vec<u8>, u64)]) -> Vec<&[(Vec<u8>, u64)]> {
    let short = &lead[lead.len().saturating_sub(MAX_LEAD)..];
    let mut choices = vec![&lead[..0]];
    if !short.is_empty() {
        choices.push(short);
    }
    if lead.len() > short.len() {
        choices.push(lead);
    }
    choices
}

fn packed_decode_list(
    run: &mut Run,
    vector: &Vector,
    name: &str,
    decode_many: packed::DecodeManyFn,
    lead: &[(Vec<u8>, u64)],
    bytes: &[u8],
) {
    let path = format!("list {name}, at index {}", lead.len());
    let mut input: Vec<u8> = lead.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let start = input.len();
    input.extend_from_slice(bytes);
    let mut out = vec![PackedGuid(0x0bad); lead.len() + 1];
    let result = decode_many(&input, &mut out);
    let lead_guids: Vec<PackedGuid> = lead.iter().map(|&(_, g)| PackedGuid(g)).collect();
    let answer = match result {
        Ok(end) => Ok(Value::Packed {
            guid: out[lead.len()].get(),
            consumed: end.wrapping_sub(start),
        }),
        Err(DecodeManyError::UnexpectedEof { .. }) => Err(ErrorCode::Eof),
    };
    run.judge(vector, &path, &answer);
    run.check(vector, &path, out[..lead.len()] == lead_guids[..], || {
        format!(
            "the earlier values decode to {:?}, not {lead_guids:?}",
            &out[..lead.len()]
        )
    });
    if let Err(
        e @ DecodeManyError::UnexpectedEof {
            index,
            offset,
            mask,
            needed,
            end,
        },
    ) = result
    {
        run.check(
            vector,
            &path,
            index == lead.len()
                && offset == start
                && mask == bytes.first().copied()
                && needed > bytes.len()
                && needed <= MAX_ENCODED_LEN
                && end == input.len(),
            || {
                format!(
                    "the error {e:?} does not describe value {} at offset {start} of {} bytes",
                    lead.len(),
                    input.len()
                )
            },
        );
    }
}

fn packed_encode(run: &mut Run, vector: &Vector, guid: u64, lead: &[(Vec<u8>, u64)]) {
    run.vectors += 1;
    let encoded = |bytes: &[u8]| -> Answer {
        Ok(Value::Encoded {
            bytes: bytes.to_vec(),
        })
    };
    let (naive, naive_len) = naive::encode_packed(guid);
    run.judge(vector, "naive", &encoded(&naive[..naive_len]));
    for &(name, encode) in packed::ENCODERS {
        // A dirty buffer: an encoder must not rely on zeroes.
        let mut out = [0xcc; MAX_ENCODED_LEN];
        let len = encode(PackedGuid(guid), &mut out);
        run.judge(vector, name, &encoded(out.get(..len).unwrap_or(&out)));
    }
    // Built with the conversion a caller would use, as the decoders' values
    // are read with the one back.
    let value = PackedGuid::from(guid);
    run.judge(vector, "encode", &encoded(&value.encode()));
    run.judge(vector, "to_vec", &encoded(&value.to_vec()));
    slice_encoder(run, vector, "encode_to_slice", |out| {
        value.encode_to_slice(out)
    });
    let mut appended = vec![0xaa];
    value.encode_to_vec(&mut appended);
    run.judge(vector, "encode_to_vec", &encoded(&appended[1..]));
    let mut written = Vec::new();
    let result = value.write_to(&mut written);
    run.judge(vector, "write_to", &encoded(&written));
    run.check(
        vector,
        "write_to",
        result.as_ref().ok() == Some(&written.len()),
        || format!("returned {result:?} after writing {} bytes", written.len()),
    );
    // The vector's own value, eight times before itself: the loop that
    // encodes seven GUIDs a step (`packed::avx512`) meets it in every slot
    // of a step, not only where the corpus's order puts it.
    let repeated = match vector.expect.value() {
        Some(Value::Encoded { bytes }) => vec![(bytes.clone(), guid); REPEATS],
        _ => Vec::new(),
    };
    for (name, encode_many) in packed::encode_many_implementations() {
        for lead in lead_choices(lead).into_iter().chain([repeated.as_slice()]) {
            packed_encode_list(run, vector, name, encode_many, lead, guid);
        }
    }
    let mut appended = vec![0xaa];
    packed::encode_many_to_vec(&[value], &mut appended);
    run.judge(vector, "encode_many_to_vec", &encoded(&appended[1..]));
    if let Some(Value::Encoded { bytes }) = vector.expect.value() {
        run.check(
            vector,
            "encoded_len",
            value.encoded_len() == bytes.len(),
            || format!("encoded_len() is {}", value.encoded_len()),
        );
        run.check(vector, "mask", bytes.first() == Some(&value.mask()), || {
            format!("mask() is {:02x}", value.mask())
        });
    }
}

fn packed_encode_list(
    run: &mut Run,
    vector: &Vector,
    name: &str,
    encode_many: packed::EncodeManyFn,
    lead: &[(Vec<u8>, u64)],
    guid: u64,
) {
    let Some(Value::Encoded { bytes: want }) = vector.expect.value() else {
        return;
    };
    let mut guids: Vec<PackedGuid> = lead.iter().map(|&(_, g)| PackedGuid(g)).collect();
    guids.push(PackedGuid(guid));
    let mut whole: Vec<u8> = lead.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let start = whole.len();
    whole.extend_from_slice(want);
    // Exactly enough room (the careful path for the end of a buffer), then
    // room to spare (the fast path), then room for a whole block's store
    // past the end (the AVX-512 steps write 64 bytes at a time), all dirty.
    for spare in [0, MAX_ENCODED_LEN, BLOCK_STORE] {
        let path = format!("list {name}, at index {}, {spare} bytes spare", lead.len());
        let mut out = vec![0xcc; whole.len() + spare];
        let answer = match encode_many(&guids, &mut out) {
            Ok(len) if len >= start && len <= out.len() && out[..start] == whole[..start] => {
                Ok(Value::Encoded {
                    bytes: out[start..len].to_vec(),
                })
            }
            Ok(_) | Err(_) => Err(ErrorCode::Other),
        };
        run.judge(vector, &path, &answer);
    }
    // A byte short: the vector's GUID no longer fits, and the error says so.
    let path = format!("list {name}, at index {}, a byte short", lead.len());
    let mut short = vec![0xcc; whole.len() - 1];
    let result = encode_many(&guids, &mut short);
    let expected = Err(EncodeManyError::OutputTooSmall {
        index: lead.len(),
        offset: start,
        needed: want.len(),
        available: whole.len() - 1,
    });
    run.check(
        vector,
        &path,
        result == expected && short[..start] == whole[..start],
        || format!("returned {result:?} (expected {expected:?}) and wrote {short:02x?}"),
    );
}

fn named_decode(run: &mut Run, vector: &Vector, bytes: &[u8]) {
    run.vectors += 1;
    let value = |guid: u64, name: Option<&[u8]>, consumed: usize| Value::Named {
        guid,
        consumed,
        name: name.map(<[u8]>::to_vec),
    };
    let naive = naive::decode_named(bytes);
    run.judge(
        vector,
        "naive",
        &naive
            .map(|(guid, name, consumed)| value(guid, name, consumed))
            .map_err(|e| named_decode_code(&e)),
    );
    if let Err(e) = naive {
        named_error_facts(run, vector, "naive", bytes, &e);
    }
    let borrowed = |d: wow_guid_codec::Decoded<NamedGuidRef<'_>>| {
        value(
            d.value.guid(),
            d.value.name().map(str::as_bytes),
            d.consumed,
        )
    };
    let owned = |d: wow_guid_codec::Decoded<NamedGuid>| {
        value(
            d.value.guid(),
            d.value.name().map(str::as_bytes),
            d.consumed,
        )
    };
    let results = [
        (
            "NamedGuidRef::decode",
            NamedGuidRef::decode(bytes).map(borrowed),
        ),
        ("NamedGuid::decode", NamedGuid::decode(bytes).map(owned)),
        (
            "NamedGuidRef::decode_with_max_name_len(MAX)",
            NamedGuidRef::decode_with_max_name_len(bytes, usize::MAX).map(borrowed),
        ),
        (
            "NamedGuid::decode_with_max_name_len(MAX)",
            NamedGuid::decode_with_max_name_len(bytes, usize::MAX).map(owned),
        ),
    ];
    for (path, result) in results {
        run.judge(
            vector,
            path,
            &result.clone().map_err(|e| named_decode_code(&e)),
        );
        if let Err(e) = result {
            named_error_facts(run, vector, path, bytes, &e);
        }
    }
    named_decode_limits(run, vector, bytes);
}

/// What a named-GUID decoding error must say about `bytes`.
fn named_error_facts(
    run: &mut Run,
    vector: &Vector,
    path: &str,
    bytes: &[u8],
    e: &NamedGuidDecodeError,
) {
    let holds = match *e {
        NamedGuidDecodeError::GuidEof { available } => {
            bytes.len() < GUID_LEN && available == bytes.len()
        }
        NamedGuidDecodeError::MissingNul { name_start, end } => {
            bytes.len() >= GUID_LEN
                && name_start == GUID_LEN
                && end == bytes.len()
                && !bytes[GUID_LEN..].contains(&0)
        }
        NamedGuidDecodeError::InvalidUtf8 { name_start, offset } => {
            name_start == GUID_LEN
                && offset >= GUID_LEN
                && bytes
                    .get(GUID_LEN..offset)
                    .is_some_and(|valid| !valid.contains(&0) && std::str::from_utf8(valid).is_ok())
                && bytes
                    .get(offset..)
                    .and_then(|rest| rest.split(|&b| b == 0).next())
                    .is_some_and(|rest| !rest.is_empty() && std::str::from_utf8(rest).is_err())
        }
        _ => false,
    };
    run.check(vector, path, holds && e.offset() <= bytes.len(), || {
        format!(
            "the error {e:?} (offset {}) does not describe an input of {} bytes",
            e.offset(),
            bytes.len()
        )
    });
}

/// A name limit of exactly the name's length changes nothing; one less
/// makes the name too long, at the offset where the limit ends.
fn named_decode_limits(run: &mut Run, vector: &Vector, bytes: &[u8]) {
    // The name's length, or for a name without its NUL, the bytes after the
    // GUID: the most the decoder can look at.
    let limit = match vector.expect.value() {
        Some(Value::Named {
            name: Some(name), ..
        }) => name.len(),
        None if bytes.len() >= GUID_LEN && bytes[..GUID_LEN] != [0; GUID_LEN] => {
            match bytes[GUID_LEN..].iter().position(|&b| b == 0) {
                Some(nul) => nul,
                None => bytes.len() - GUID_LEN,
            }
        }
        _ => return,
    };
    let exact = NamedGuidRef::decode_with_max_name_len(bytes, limit);
    let unlimited = NamedGuidRef::decode(bytes);
    run.check(
        vector,
        "decode_with_max_name_len(name length)",
        exact == unlimited,
        || format!("with a limit of {limit} gives {exact:?}, without {unlimited:?}"),
    );
    let Some(below) = limit.checked_sub(1) else {
        return;
    };
    let too_long = Err(NamedGuidDecodeError::NameTooLong {
        name_start: GUID_LEN,
        max: below,
    });
    for (path, result) in [
        (
            "NamedGuidRef::decode_with_max_name_len(name length - 1)",
            NamedGuidRef::decode_with_max_name_len(bytes, below).map(|d| d.consumed),
        ),
        (
            "NamedGuid::decode_with_max_name_len(name length - 1)",
            NamedGuid::decode_with_max_name_len(bytes, below).map(|d| d.consumed),
        ),
    ] {
        run.check(vector, path, result == too_long, || {
            format!("gives {result:?}, expected {too_long:?}")
        });
        if let Err(e) = result {
            run.check(vector, path, e.offset() == GUID_LEN + below, || {
                format!(
                    "the error's offset is {}, expected {}",
                    e.offset(),
                    GUID_LEN + below
                )
            });
        }
    }
}

fn named_encode(run: &mut Run, vector: &Vector, guid: u64, name: Option<&[u8]>) {
    run.vectors += 1;
    let text = match name {
        None => Some(None),
        Some(bytes) => std::str::from_utf8(bytes).ok().map(Some),
    };
    let borrowed = NamedGuidRef::from_raw_parts(guid, name);
    let owned = NamedGuid::from_raw_parts(guid, name);
    named_encode_borrowed(run, vector, "NamedGuidRef::from_raw_parts", borrowed);
    named_encode_owned(run, vector, "NamedGuid::from_raw_parts", owned.clone());
    if let Some(text) = text {
        named_encode_borrowed(
            run,
            vector,
            "NamedGuidRef::new",
            NamedGuidRef::new(guid, text),
        );
        named_encode_owned(run, vector, "NamedGuid::new", NamedGuid::new(guid, text));
    }
    if let (Some(Some(text)), Some(guid)) = (text, NonZeroU64::new(guid)) {
        for (built, name) in [
            ("Name::new", Name::new(text)),
            ("Name::try_from(&str)", Name::try_from(text)),
            ("Name::try_from(String)", Name::try_from(text.to_owned())),
        ] {
            named_encode_owned(
                run,
                vector,
                built,
                name.map(|name| NamedGuid::Named { guid, name }),
            );
        }
    }
    if let Some(Some(text)) = text {
        if let Ok(name) = Name::new(text) {
            let (deref, as_str) = ((*name).to_owned(), name.as_str().to_owned());
            let seen = deref == text && as_str == text;
            let owned = name.into_string();
            run.check(vector, "Name", seen && owned == text, || {
                format!("a Name of {text:?} reads back as {deref:?}, {as_str:?}, {owned:?}")
            });
        }
    }
    if let Ok(value) = owned {
        run.check(
            vector,
            "as_ref",
            value.as_ref() == borrowed.unwrap_or(NamedGuidRef::Zero),
            || format!("{:?} borrows as {:?}", value, value.as_ref()),
        );
        let parts_kept = value.guid() == guid
            && match (value.name(), name) {
                (Some(kept), Some(given)) => kept.as_bytes() == given,
                (None, None) => true,
                // A non-zero GUID given no name is refused, so never here.
                _ => false,
            };
        run.check(vector, "guid/name", parts_kept, || {
            format!("{value:?} does not keep the parts it was built from")
        });
    }
}

fn named_encode_borrowed(
    run: &mut Run,
    vector: &Vector,
    built: &str,
    value: Result<NamedGuidRef<'_>, NamedGuidValueError>,
) {
    let value = match value {
        Ok(value) => value,
        Err(e) => {
            run.judge(vector, built, &Err(named_value_code(&e)));
            return;
        }
    };
    let mut appended = vec![0xaa];
    value.encode_to_vec(&mut appended);
    run.judge(
        vector,
        &format!("{built}, encode_to_vec"),
        &encoded(&appended[1..]),
    );
    let mut written = Vec::new();
    let result = value.write_to(&mut written);
    run.judge(vector, &format!("{built}, write_to"), &encoded(&written));
    run.check(
        vector,
        built,
        result.as_ref().ok() == Some(&written.len()),
        || {
            format!(
                "write_to returned {result:?} after writing {} bytes",
                written.len()
            )
        },
    );
    run.judge(
        vector,
        &format!("{built}, to_vec"),
        &encoded(&value.to_vec()),
    );
    slice_encoder(run, vector, &format!("{built}, encode_to_slice"), |out| {
        value.encode_to_slice(out)
    });
    encoded_len_fact(run, vector, built, value.encoded_len());
}

fn named_encode_owned(
    run: &mut Run,
    vector: &Vector,
    built: &str,
    value: Result<NamedGuid, NamedGuidValueError>,
) {
    let value = match value {
        Ok(value) => value,
        Err(e) => {
            run.judge(vector, built, &Err(named_value_code(&e)));
            return;
        }
    };
    run.judge(
        vector,
        &format!("{built}, to_vec"),
        &encoded(&value.to_vec()),
    );
    let mut appended = vec![0xaa];
    value.encode_to_vec(&mut appended);
    run.judge(
        vector,
        &format!("{built}, encode_to_vec"),
        &encoded(&appended[1..]),
    );
    let mut written = Vec::new();
    let result = value.write_to(&mut written);
    run.judge(vector, &format!("{built}, write_to"), &encoded(&written));
    run.check(
        vector,
        built,
        result.as_ref().ok() == Some(&written.len()),
        || {
            format!(
                "write_to returned {result:?} after writing {} bytes",
                written.len()
            )
        },
    );
    slice_encoder(run, vector, &format!("{built}, encode_to_slice"), |out| {
        value.encode_to_slice(out)
    });
    encoded_len_fact(run, vector, built, value.encoded_len());
}

/// A `size` vector: the length the codec's values say their encoding
/// takes, before any byte is written, or the refusal of the value.
fn sizes(run: &mut Run, vector: &Vector) {
    run.vectors += 1;
    let size = |size| Ok(Value::Size { size });
    match &vector.request {
        Request::SizePacked { guid } => {
            let len = PackedGuid(*guid).encode().len();
            run.judge(vector, "PackedGuid::encode, len", &size(len));
        }
        Request::SizeNamed { guid, name } => {
            let borrowed = NamedGuidRef::from_raw_parts(*guid, name.as_deref());
            let answer = borrowed
                .map(|v| v.encoded_len())
                .map_err(|e| named_value_code(&e));
            run.judge(vector, "NamedGuidRef::encoded_len", &answer.and_then(size));
            let owned = NamedGuid::from_raw_parts(*guid, name.as_deref());
            let answer = owned
                .map(|v| v.encoded_len())
                .map_err(|e| named_value_code(&e));
            run.judge(vector, "NamedGuid::encoded_len", &answer.and_then(size));
        }
        _ => {}
    }
}

/// A slice encoder into a slice of exactly the expected length and one with
/// room to spare (both dirty) answers with what it wrote at the front, and
/// leaves the spare bytes alone; into one a byte short it fails without
/// writing.
fn slice_encoder(
    run: &mut Run,
    vector: &Vector,
    path: &str,
    encode: impl Fn(&mut [u8]) -> Result<usize, BufferSizeError>,
) {
    let Some(Value::Encoded { bytes: want }) = vector.expect.value() else {
        return;
    };
    for spare in [0, MAX_ENCODED_LEN] {
        let mut out = vec![0xcc; want.len() + spare];
        let result = encode(&mut out);
        let answer = match result {
            Ok(len) if len <= out.len() => encoded(&out[..len]),
            Ok(_) | Err(_) => Err(ErrorCode::Other),
        };
        run.judge(vector, &format!("{path}, {spare} bytes spare"), &answer);
        let end = result.unwrap_or(0).min(out.len());
        run.check(vector, path, out[end..].iter().all(|&b| b == 0xcc), || {
            format!("wrote past the encoding: {out:02x?}")
        });
    }
    let Some(short) = want.len().checked_sub(1) else {
        return;
    };
    let mut out = vec![0xcc; short];
    let result = encode(&mut out);
    let expected = Err(BufferSizeError {
        needed: want.len(),
        available: short,
    });
    run.check(
        vector,
        &format!("{path}, a byte short"),
        result == expected && out.iter().all(|&b| b == 0xcc),
        || format!("returned {result:?} (expected {expected:?}) and left {out:02x?}"),
    );
}

fn encoded(bytes: &[u8]) -> Answer {
    Ok(Value::Encoded {
        bytes: bytes.to_vec(),
    })
}

fn encoded_len_fact(run: &mut Run, vector: &Vector, path: &str, len: usize) {
    if let Some(Value::Encoded { bytes }) = vector.expect.value() {
        run.check(vector, path, len == bytes.len(), || {
            format!("encoded_len() is {len}, the encoding {} bytes", bytes.len())
        });
    }
}

/// Requests, answers and expectations the way the vector files write them:
/// bytes as hex, GUIDs as 16 hex digits.
struct Shown<'a, T>(&'a T);

struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            write!(f, "{byte:02x}")?;
        }
        f.write_char('"')
    }
}

impl fmt::Display for Shown<'_, Request> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Request::DecodePacked { bytes } => write!(f, "decode packed_guid {}", Hex(bytes)),
            Request::EncodePacked { guid } => write!(f, "encode packed_guid {guid:016x}"),
            Request::DecodeNamed { bytes } => write!(f, "decode named_guid {}", Hex(bytes)),
            Request::EncodeNamed { guid, name: None } => {
                write!(f, "encode named_guid {guid:016x}, no name")
            }
            Request::EncodeNamed {
                guid,
                name: Some(name),
            } => write!(f, "encode named_guid {guid:016x}, name {}", Hex(name)),
            Request::SizePacked { guid } => write!(f, "size packed_guid {guid:016x}"),
            Request::SizeNamed { guid, name: None } => {
                write!(f, "size named_guid {guid:016x}, no name")
            }
            Request::SizeNamed {
                guid,
                name: Some(name),
            } => write!(f, "size named_guid {guid:016x}, name {}", Hex(name)),
        }
    }
}

impl fmt::Display for Shown<'_, Value> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Packed { guid, consumed } => write!(f, "guid {guid:016x}, consumed {consumed}"),
            Value::Named {
                guid,
                consumed,
                name: None,
            } => write!(f, "guid {guid:016x}, consumed {consumed}, no name"),
            Value::Named {
                guid,
                consumed,
                name: Some(name),
            } => write!(
                f,
                "guid {guid:016x}, consumed {consumed}, name {}",
                Hex(name)
            ),
            Value::Encoded { bytes } => write!(f, "bytes {}", Hex(bytes)),
            Value::Size { size } => write!(f, "size {size}"),
        }
    }
}

impl fmt::Display for Shown<'_, Answer> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Ok(value) => write!(f, "ok, {}", Shown(value)),
            Err(code) => write!(f, "error {code}"),
        }
    }
}

impl fmt::Display for Shown<'_, Expectation> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expectation::Valid(value) => write!(f, "ok, {}", Shown(value)),
            Expectation::Invalid(code) => write!(f, "error {code}"),
            Expectation::Acceptable { value, .. } => {
                write!(f, "ok, {}, or any error", Shown(value))
            }
        }
    }
}
