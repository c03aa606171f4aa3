//! bolero harnesses over `wow_guid_codec::properties`, the same property
//! functions the cargo-fuzz targets in `fuzz/` call.
//!
//! Under plain `cargo test` each harness runs a fixed number of random
//! inputs ([`ITERATIONS`], or `BOLERO_RANDOM_ITERATIONS` from the
//! environment). Setting the count also lifts bolero's default one-second
//! cap, which would otherwise cut a run (and the replay of a corpus) short
//! without saying so; `iterations_really_run` proves the count is honoured.
//!
//! For longer runs with coverage guidance, `cargo bolero test` drives the
//! same harnesses with libFuzzer (see `fuzz/README.md`).

use bolero::{check, produce, produce_with, ValueGenerator};
use wow_guid_codec::properties::{self, StreamItem};
use wow_guid_codec::{NamedGuid, NamedGuidRef, PackedGuid};

/// Random inputs per harness under `cargo test`. Each property is a few
/// hundred nanoseconds to a few microseconds, so this keeps every harness
/// well under a second in the test profile while still walking every mask
/// and every error path many times.
const ITERATIONS: usize = 100_000;

/// Names up to this many characters (up to four times as many bytes): past
/// the 255/256/257 boundaries where one known decoder cuts names.
const MAX_NAME_CHARS: usize = 400;

/// Maps a random number to a character of a random UTF-8 width, never NUL:
/// uniform code points would be almost all four bytes long and miss the
/// ASCII and two- and three-byte paths.
fn name_char(seed: u32) -> char {
    let (class, rest) = (seed % 4, seed / 4);
    let code = match class {
        0 => 1 + rest % 0x7f,
        1 => 0x80 + rest % (0x800 - 0x80),
        // Three-byte range without the surrogates, which are not chars.
        2 => {
            let c = 0x800 + rest % (0x1_0000 - 0x800 - 0x800);
            if c >= 0xd800 {
                c + 0x800
            } else {
                c
            }
        }
        _ => 0x1_0000 + rest % (0x11_0000 - 0x1_0000),
    };
    char::from_u32(code).unwrap_or('?')
}

/// Names of random length and character widths, without NUL.
fn names() -> impl ValueGenerator<Output = String> {
    produce_with::<Vec<u32>>()
        .len(0usize..=MAX_NAME_CHARS)
        .map_gen(|seeds| seeds.into_iter().map(name_char).collect())
}

/// GUIDs with a random subset of their bytes zeroed: uniform `u64`s almost
/// never have a zero byte, and the zero bytes are what the mask is about.
fn guids() -> impl ValueGenerator<Output = u64> {
    produce::<(u64, u8)>().map_gen(|(guid, keep)| zero_bytes(guid, keep))
}

/// `guid` with byte `i` cleared wherever bit `i` of `keep` is clear.
fn zero_bytes(guid: u64, keep: u8) -> u64 {
    let mut bytes = guid.to_le_bytes();
    for (i, byte) in bytes.iter_mut().enumerate() {
        if keep & (1 << i) == 0 {
            *byte = 0;
        }
    }
    u64::from_le_bytes(bytes)
}

/// Lists of up to `max` GUIDs with random bytes zeroed, as [`guids`] makes
/// them.
fn zero_heavy_lists(max: usize) -> impl ValueGenerator<Output = Vec<u64>> {
    produce_with::<Vec<(u64, u8)>>()
        .len(0usize..=max)
        .map_gen(|guids| {
            guids
                .into_iter()
                .map(|(guid, keep)| zero_bytes(guid, keep))
                .collect()
        })
}

/// Raw bytes of a random length up to `max`. bolero's own byte inputs are at
/// most 64 bytes under `cargo test` whatever `with_max_len` says, too short
/// for names past 256 bytes.
fn bytes(max: usize) -> impl ValueGenerator<Output = Vec<u8>> {
    produce_with::<Vec<u8>>().len(0usize..=max)
}

#[test]
fn decode_packed_guid() {
    // Longer inputs only add bytes the decoder must ignore.
    check!()
        .with_generator(bytes(16))
        .with_iterations(ITERATIONS)
        .for_each(|input| properties::packed_decode(input));
}

#[test]
fn decode_named_guid() {
    check!()
        .with_generator(bytes(600))
        .with_iterations(ITERATIONS)
        .for_each(|input| {
            properties::named_decode(input);
            properties::named_decode_limits(input);
        });
}

/// Random bytes rarely hold a long valid name; this builds well-formed
/// encodings and then damages them (cut, one byte changed, bytes after), so
/// every decoder path sees long names too.
#[test]
fn decode_named_guid_built() {
    let inputs = (
        guids(),
        names(),
        produce::<Option<(u16, u8)>>(),
        produce::<Option<u16>>(),
        produce_with::<Vec<u8>>().len(0usize..=4),
    );
    check!()
        .with_generator(inputs)
        .with_iterations(ITERATIONS)
        .for_each(|(guid, name, damage, cut, tail)| {
            let mut bytes = guid.to_le_bytes().to_vec();
            if *guid != 0 {
                bytes.extend_from_slice(name.as_bytes());
                bytes.push(0);
            }
            bytes.extend_from_slice(tail);
            if let Some((at, byte)) = *damage {
                let at = usize::from(at) % bytes.len();
                bytes[at] = byte;
            }
            if let Some(cut) = *cut {
                bytes.truncate(usize::from(cut) % (bytes.len() + 1));
            }
            properties::named_decode(&bytes);
            properties::named_decode_limits(&bytes);
            properties::named_differential(&bytes);
        });
}

#[test]
fn roundtrip_packed_guid() {
    check!()
        .with_generator(guids())
        .with_iterations(ITERATIONS)
        .for_each(|&guid| properties::packed_roundtrip(PackedGuid(guid)));
}

/// The same generator as the `roundtrip_packed_guid` fuzz target.
#[test]
fn roundtrip_packed_guid_arbitrary() {
    check!()
        .with_arbitrary::<PackedGuid>()
        .with_iterations(ITERATIONS)
        .for_each(|&guid| properties::packed_roundtrip(guid));
}

#[test]
fn roundtrip_named_guid() {
    check!()
        .with_generator((guids(), names()))
        .with_iterations(ITERATIONS)
        .for_each(|(guid, name)| {
            let value = if *guid == 0 {
                NamedGuid::new(0, None)
            } else {
                NamedGuid::new(*guid, Some(name))
            };
            let value = value.expect("the generators make only valid values");
            properties::named_roundtrip(&value);
        });
}

/// The same generator as the `roundtrip_named_guid` fuzz target.
#[test]
fn roundtrip_named_guid_arbitrary() {
    check!()
        .with_arbitrary::<NamedGuid>()
        .with_iterations(ITERATIONS)
        .for_each(properties::named_roundtrip);
}

#[test]
fn differential() {
    check!()
        .with_generator(bytes(64))
        .with_iterations(ITERATIONS)
        .for_each(|input| properties::differential(input));
}

#[test]
fn differential_encoders() {
    check!()
        .with_generator(guids())
        .with_iterations(ITERATIONS)
        .for_each(|&guid| properties::packed_encoders(guid));
}

/// Lists of up to 12 zero-heavy GUIDs through every list encoder, with every
/// output buffer size.
#[test]
fn differential_encode_many() {
    check!()
        .with_generator(zero_heavy_lists(12))
        .with_iterations(ITERATIONS / 10)
        .for_each(|guids| properties::packed_encode_many(guids));
}

/// Lists long enough for several steps of the AVX-512 list encoder (seven
/// GUIDs a step while eight remain and 64 bytes of the buffer are left),
/// zero-heavy so that the steps write anywhere from 7 to 63 bytes, through
/// every list encoder with every output buffer size.
#[test]
fn differential_encode_many_long() {
    check!()
        .with_generator(zero_heavy_lists(40))
        .with_iterations(ITERATIONS / 100)
        .for_each(|guids| properties::packed_encode_many(guids));
}

/// Back-to-back values through every list decoder, with every count up to
/// one past what the input holds.
#[test]
fn differential_decode_many() {
    check!()
        .with_generator(bytes(96))
        .with_iterations(ITERATIONS / 10)
        .for_each(|input| properties::packed_decode_many(input));
}

/// Lists long enough for whole 64-byte blocks of the AVX-512 list decoder
/// (it decodes a block while 128 bytes remain), through every list decoder
/// with every count. A quarter of the bytes are zero and a quarter have at
/// most four bits set, so blocks hold anywhere from a handful of values to
/// dozens, and values end at every offset of the next block.
#[test]
fn differential_decode_many_long() {
    let lists = produce_with::<Vec<(u8, u8)>>()
        .len(0usize..=700)
        .map_gen(|bytes| {
            bytes
                .into_iter()
                .map(|(byte, kind)| match kind % 4 {
                    0 => 0,
                    1 => byte & 0x0f,
                    _ => byte,
                })
                .collect::<Vec<u8>>()
        });
    check!()
        .with_generator(lists)
        .with_iterations(ITERATIONS / 100)
        .for_each(|input| properties::packed_decode_many(input));
}

/// Streams read from raw bytes, as the `stream` fuzz target reads them.
#[test]
fn stream() {
    let mut scratch = properties::StreamScratch::default();
    check!()
        .with_generator(bytes(256))
        .with_iterations(ITERATIONS)
        .for_each(|input| properties::stream_input(input, &mut scratch));
}

/// Streams of the mixed values the other generators make: zero-heavy
/// GUIDs, names of every UTF-8 width (bolero's default lengths here).
#[test]
fn stream_built() {
    let fields = produce_with::<Vec<(bool, (u64, u8), Vec<u32>)>>()
        .len(0usize..=8)
        .map_gen(|fields| {
            fields
                .into_iter()
                .map(|(packed, (guid, keep), name)| {
                    let name: String = name.into_iter().map(name_char).collect();
                    (packed, zero_bytes(guid, keep), name)
                })
                .collect::<Vec<_>>()
        });
    check!()
        .with_generator(fields)
        .with_iterations(ITERATIONS)
        .for_each(|fields| {
            let items: Vec<StreamItem> = fields
                .iter()
                .map(|(packed, guid, name)| {
                    if *packed {
                        StreamItem::Packed(PackedGuid(*guid))
                    } else if *guid == 0 {
                        StreamItem::Named(NamedGuidRef::Zero)
                    } else {
                        StreamItem::Named(
                            NamedGuidRef::new(*guid, Some(name)).expect("names have no NUL"),
                        )
                    }
                })
                .collect();
            properties::stream(&items);
        });
}

#[test]
fn fixed_values() {
    properties::fixed_values();
}

/// Guards the setup itself: if bolero fell back to its time cap, or
/// skipped inputs, the harnesses above would pass having checked little.
#[test]
fn iterations_really_run() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let expected = std::env::var("BOLERO_RANDOM_ITERATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(ITERATIONS);
    let runs = AtomicUsize::new(0);
    let lengths = AtomicUsize::new(0);
    check!()
        .with_generator(bytes(16))
        .with_iterations(ITERATIONS)
        .for_each(|input| {
            runs.fetch_add(1, Ordering::Relaxed);
            lengths.fetch_or(1 << input.len(), Ordering::Relaxed);
            properties::packed_decode(input);
        });
    assert_eq!(
        runs.into_inner(),
        expected,
        "bolero ran a different number of inputs"
    );
    // Every length 0..=16 turns up in that many random inputs, so the
    // inputs really vary.
    assert_eq!(
        lengths.into_inner(),
        (1 << 17) - 1,
        "input lengths seen (bit n = length n)"
    );
}
