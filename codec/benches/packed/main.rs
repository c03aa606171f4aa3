//! Packed-GUID throughput: the naive loop, every implementation in
//! `packed::DECODERS` and `packed::ENCODERS`, and the floor, on the same data
//! in one run.
//!
//! Decoding walks a whole stream of back-to-back values, as a message parser
//! does: decode at the front, add the GUID to a sum (so nothing is optimised
//! away), step past the value. Encoding writes a list of GUIDs one after
//! another into one buffer. The floor is the walk that only reads each mask
//! and skips its bytes: where the next value starts depends on this mask, so
//! no sequential decoder can be faster. It uses its best portable method, a
//! 256-entry length table; `floor-count-ones` shows what `count_ones` costs on
//! the default x86-64 target, which has no POPCNT.
//!
//! Every list function of `packed::decode_many_implementations()` and
//! `packed::encode_many_implementations()` does the same jobs as one call
//! each: decode the whole stream into an array of GUIDs, or encode the whole
//! list into the buffer. They are benchmarked as the lists give them (`many`
//! for the dispatcher, `many-<name>` for each implementation, the SIMD
//! backends among them where this CPU runs them), so a new backend is
//! measured here without a change to this file.
//!
//! Every one-value implementation is called directly, not through the `fn`
//! pointers of the lists, so that it is inlined into the loop as it is in a
//! dependent crate. The list functions are called through the lists'
//! pointers: one call per list, as in `packed::encode_many` itself (the
//! SIMD loops can only be reached that way).
//! `codec/benches/report.sh` runs this and prints the ratios.

mod data;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wow_guid_codec::packed::{
    decode_many_implementations, encode_many_implementations, portable, table, DecodeManyError,
    EncodeManyError, DECODERS, ENCODERS, MAX_ENCODED_LEN,
};
use wow_guid_codec::{naive, PackedGuid, PackedGuidError};

/// Decodes every value of `stream` with `decode` and returns the sum of the
/// GUIDs.
#[inline(always)]
fn walk(stream: &[u8], decode: impl Fn(&[u8]) -> Result<(u64, usize), PackedGuidError>) -> u64 {
    let mut rest = stream;
    let mut sum = 0u64;
    while !rest.is_empty() {
        match decode(rest) {
            Ok((guid, consumed)) => {
                sum = sum.wrapping_add(guid);
                rest = &rest[consumed..];
            }
            Err(e) => panic!("benchmark data does not decode: {e}"),
        }
    }
    sum
}

/// Encodes every GUID into `out`, one after another, and returns the length
/// written.
#[inline(always)]
fn write_all(
    guids: &[u64],
    out: &mut [u8],
    encode: impl Fn(u64, &mut [u8; MAX_ENCODED_LEN]) -> usize,
) -> usize {
    let mut pos = 0;
    for &guid in guids {
        let Some(slot) = out[pos..].first_chunk_mut::<MAX_ENCODED_LEN>() else {
            panic!("benchmark output buffer too small");
        };
        pos += encode(guid, slot);
    }
    pos
}

/// Bytes a value with this mask takes: 1 + its number of set bits.
static SKIP: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = 1 + (mask as u8).count_ones() as u8;
        mask += 1;
    }
    table
};

/// The floor: reads each mask and skips its bytes, nothing more. Returns the
/// number of values.
fn floor(stream: &[u8]) -> usize {
    let mut pos = 0;
    let mut values = 0;
    while let Some(&mask) = stream.get(pos) {
        pos += usize::from(SKIP[usize::from(mask)]);
        values += 1;
    }
    values
}

/// The floor with `count_ones` instead of the table.
fn floor_count_ones(stream: &[u8]) -> usize {
    let mut pos = 0;
    let mut values = 0;
    while let Some(&mask) = stream.get(pos) {
        pos += 1 + mask.count_ones() as usize;
        values += 1;
    }
    values
}

/// Expands the body once for each decoder, with `$name` bound to its name in
/// `packed::DECODERS` and `$decode` to a closure that calls it directly; fails
/// at start-up if an entry of the list is not benchmarked here.
macro_rules! each_decoder {
    (|$name:ident, $decode:ident| $body:block) => {{
        let benched = ["default", "portable", "table"];
        for (name, _) in DECODERS {
            assert!(
                benched.contains(name),
                "decoder {name:?} is not benchmarked: add it here"
            );
        }
        {
            let $name = "default";
            let $decode = |s: &[u8]| PackedGuid::decode(s).map(|d| (d.value.0, d.consumed));
            $body
        }
        {
            let $name = "portable";
            let $decode = |s: &[u8]| portable::decode(s).map(|d| (d.value.0, d.consumed));
            $body
        }
        {
            let $name = "table";
            let $decode = |s: &[u8]| table::decode(s).map(|d| (d.value.0, d.consumed));
            $body
        }
    }};
}

/// The encoders' counterpart of `each_decoder!`.
macro_rules! each_encoder {
    (|$name:ident, $encode:ident| $body:block) => {{
        let benched = ["default", "portable", "table"];
        for (name, _) in ENCODERS {
            assert!(
                benched.contains(name),
                "encoder {name:?} is not benchmarked: add it here"
            );
        }
        {
            let $name = "default";
            let $encode = |g: u64, out: &mut [u8; MAX_ENCODED_LEN]| PackedGuid(g).encode_into(out);
            $body
        }
        {
            let $name = "portable";
            let $encode =
                |g: u64, out: &mut [u8; MAX_ENCODED_LEN]| portable::encode(PackedGuid(g), out);
            $body
        }
        {
            let $name = "table";
            let $encode =
                |g: u64, out: &mut [u8; MAX_ENCODED_LEN]| table::encode(PackedGuid(g), out);
            $body
        }
    }};
}

/// The benchmark name of a list implementation: `many` for the dispatcher
/// (`default`), `many-<name>` for each implementation it chooses between.
fn list_name(name: &str) -> String {
    match name {
        "default" => "many".to_owned(),
        name => format!("many-{name}"),
    }
}

/// Unwraps a list decoder's result; the benchmark streams always decode.
fn consumed(result: Result<usize, DecodeManyError>) -> usize {
    match result {
        Ok(consumed) => consumed,
        Err(e) => panic!("benchmark data does not decode: {e}"),
    }
}

/// Unwraps a list encoder's result; the benchmark buffers always have room.
fn written(result: Result<usize, EncodeManyError>) -> usize {
    match result {
        Ok(len) => len,
        Err(e) => panic!("benchmark output buffer too small: {e}"),
    }
}

fn decode(c: &mut Criterion) {
    for stream in [data::realistic_stream(), data::random_mask_stream()] {
        let bytes = stream.bytes.as_slice();
        let expected = walk(bytes, naive::decode_packed);
        assert_eq!(floor(bytes), data::DECODE_VALUES);
        assert_eq!(floor_count_ones(bytes), data::DECODE_VALUES);

        let mut group = c.benchmark_group(format!("decode/{}", stream.name));
        group.throughput(Throughput::Elements(data::DECODE_VALUES as u64));
        group.bench_function("naive", |b| {
            b.iter(|| walk(black_box(bytes), naive::decode_packed));
        });
        group.bench_function("floor", |b| b.iter(|| floor(black_box(bytes))));
        group.bench_function("floor-count-ones", |b| {
            b.iter(|| floor_count_ones(black_box(bytes)));
        });
        each_decoder!(|name, decode| {
            assert_eq!(walk(bytes, decode), expected, "decoder {name:?}");
            group.bench_function(name, |b| b.iter(|| walk(black_box(bytes), decode)));
        });
        let mut values = vec![PackedGuid(0); data::DECODE_VALUES];
        for (name, decode_many) in decode_many_implementations() {
            assert_eq!(consumed(decode_many(bytes, &mut values)), bytes.len());
            let sum = values.iter().fold(0u64, |sum, g| sum.wrapping_add(g.get()));
            assert_eq!(sum, expected, "list decoder {name:?}");
            group.bench_function(list_name(name), |b| {
                b.iter(|| consumed(decode_many(black_box(bytes), &mut values)))
            });
        }
        group.finish();
    }
}

fn encode(c: &mut Criterion) {
    for guids in [data::uniform_guids(), data::realistic_guids()] {
        let list = guids.guids.as_slice();
        let mut out = vec![0u8; list.len() * MAX_ENCODED_LEN];
        let naive_encode = |guid: u64, slot: &mut [u8; MAX_ENCODED_LEN]| {
            let (bytes, len) = naive::encode_packed(guid);
            *slot = bytes;
            len
        };
        let expected_len = write_all(list, &mut out, naive_encode);
        let expected = out[..expected_len].to_vec();

        let mut group = c.benchmark_group(format!("encode/{}", guids.name));
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function("naive", |b| {
            b.iter(|| write_all(black_box(list), &mut out, naive_encode));
        });
        each_encoder!(|name, encode| {
            let len = write_all(list, &mut out, encode);
            assert_eq!(&out[..len], expected.as_slice(), "encoder {name:?}");
            group.bench_function(name, |b| {
                b.iter(|| write_all(black_box(list), &mut out, encode))
            });
        });
        let packed: Vec<PackedGuid> = list.iter().map(|&guid| PackedGuid(guid)).collect();
        for (name, encode_many) in encode_many_implementations() {
            let len = written(encode_many(&packed, &mut out));
            assert_eq!(&out[..len], expected.as_slice(), "list encoder {name:?}");
            group.bench_function(list_name(name), |b| {
                b.iter(|| written(encode_many(black_box(&packed), &mut out)))
            });
        }
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = packed;
    config = config();
    targets = decode, encode
}
criterion_main!(packed);
