//! Every packed-GUID implementation against the naive model, on the inputs
//! where fast paths go wrong.
//!
//! The fast decoder loads eight bytes at once when nine or more remain and
//! falls back to a byte-by-byte gather near the end of the input, so besides
//! every mask this file walks every input length from 0 to 12 around that
//! boundary, with bytes after the value that must be left alone, and a seeded
//! run of random inputs. The list encoders write straight into the buffer
//! while nine bytes remain and check each value near the end, so they get
//! every GUID length at every distance from the end of the buffer. Each
//! check loops over every entry of `packed::DECODERS`, `packed::ENCODERS`,
//! `packed::encode_many_implementations()` or
//! `packed::decode_many_implementations()`, so an implementation added to
//! those lists is covered without touching this file.

use wow_guid_codec::naive;
use wow_guid_codec::packed::{
    decode_many_implementations, encode_many_implementations, DecodeManyError, EncodeManyError,
    DECODERS, ENCODERS, MAX_ENCODED_LEN,
};
use wow_guid_codec::PackedGuid;

/// Random inputs decoded by each decoder in the seeded run.
const RANDOM_INPUTS: usize = 1 << 20;
/// Random GUIDs encoded by each encoder in the seeded run.
const RANDOM_GUIDS: usize = 1 << 20;

use crate::support::SplitMix64;

/// Decodes `input` with `decode` and with the naive model and fails, naming
/// the decoder and the input in hex, unless value, consumed length and error
/// are all identical.
fn check_decoder(name: &str, decode: wow_guid_codec::packed::DecodeFn, input: &[u8]) {
    let got = decode(input).map(|d| (d.value.get(), d.consumed));
    let want = naive::decode_packed(input);
    assert_eq!(got, want, "decoder {name:?} on input {input:02x?}");
    if let Ok(decoded) = decode(input) {
        let canonical = input[1..decoded.consumed].iter().all(|&b| b != 0);
        assert_eq!(
            decoded.is_canonical(),
            canonical,
            "decoder {name:?}: is_canonical on input {input:02x?}"
        );
    }
}

/// Encodes `guid` with `encode` and with the naive model and fails unless
/// the length and the bytes up to it are identical.
fn check_encoder(name: &str, encode: wow_guid_codec::packed::EncodeFn, guid: u64) {
    // Start from a dirty buffer: an encoder must not rely on zeroes.
    let mut out = [0xcc; MAX_ENCODED_LEN];
    let len = encode(PackedGuid(guid), &mut out);
    let (want, want_len) = naive::encode_packed(guid);
    assert_eq!(
        &out[..len],
        &want[..want_len],
        "encoder {name:?} on GUID {guid:016x}"
    );
}

/// The mask followed by one recognisable byte per set bit: byte `k` is
/// `0x11 * (k + 1)` with the top bit set for odd `k`, so a byte in the wrong
/// slot or sign-extended changes the value.
fn patterned(mask: u8) -> Vec<u8> {
    let mut input = vec![mask];
    for k in 0..mask.count_ones() as u8 {
        input.push(0x11u8.wrapping_mul(k + 1) | if k % 2 == 1 { 0x80 } else { 0 });
    }
    input
}

#[test]
fn the_lists_name_each_implementation_once() {
    for names in [
        DECODERS.iter().map(|&(name, _)| name).collect::<Vec<_>>(),
        ENCODERS.iter().map(|&(name, _)| name).collect::<Vec<_>>(),
        encode_many_implementations()
            .map(|(name, _)| name)
            .collect::<Vec<_>>(),
        decode_many_implementations()
            .map(|(name, _)| name)
            .collect::<Vec<_>>(),
    ] {
        assert_eq!(names.first(), Some(&"default"), "{names:?}");
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "duplicate names in {names:?}");
    }
}

#[test]
fn every_mask_and_every_prefix_with_trailing_bytes() {
    for &(name, decode) in DECODERS {
        for mask in 0..=255u8 {
            let value = patterned(mask);
            // Every prefix, then the value followed by 0 to 9 bytes of the
            // next field, which must not leak into the value.
            for len in 0..=value.len() {
                check_decoder(name, decode, &value[..len]);
            }
            for trailing in 0..=9 {
                for filler in [0x00, 0xff, 0x5a] {
                    let mut input = value.clone();
                    input.extend(std::iter::repeat_n(filler, trailing));
                    check_decoder(name, decode, &input);
                    let decoded = decode(&input).unwrap();
                    assert_eq!(decoded.consumed, value.len(), "decoder {name:?}");
                }
            }
        }
    }
}

#[test]
fn every_length_up_to_12_at_the_end_of_a_buffer() {
    // The eight-byte load applies from nine bytes on; lengths 0 to 12 cross
    // that boundary for every mask. The input is the tail of a longer buffer
    // so that it ends exactly where readable memory does.
    let mut rng = SplitMix64(0x5eed_0001);
    for &(name, decode) in DECODERS {
        for mask in 0..=255u8 {
            for len in 0..=12usize {
                for fill in 0..4 {
                    let mut buffer = vec![0xee; 16];
                    let start = buffer.len();
                    buffer.push(mask);
                    for k in 0..len.saturating_sub(1) {
                        buffer.push(match fill {
                            0 => 0x00,
                            1 => 0xff,
                            2 => 0x80 | k as u8,
                            _ => rng.byte(),
                        });
                    }
                    let input = &buffer[start..start + len];
                    assert_eq!(input.len(), len);
                    check_decoder(name, decode, input);
                }
            }
        }
    }
}

#[test]
fn a_seeded_million_random_inputs() {
    for &(name, decode) in DECODERS {
        // The same seed for each decoder, so all see the same inputs.
        let mut rng = SplitMix64(0x5eed_0002);
        let mut input = Vec::with_capacity(24);
        for _ in 0..RANDOM_INPUTS {
            input.clear();
            let len = (rng.next() % 20) as usize;
            input.extend((0..len).map(|_| rng.byte()));
            check_decoder(name, decode, &input);
        }
    }
}

#[test]
fn a_stream_of_back_to_back_values_decodes_in_step() {
    // Values packed one after another, as in a message: a decoder that gets a
    // length wrong reads every later value out of step.
    let mut rng = SplitMix64(0x5eed_0003);
    let guids: Vec<u64> = (0..10_000).map(|_| rng.guid()).collect();
    let mut stream = Vec::new();
    for &guid in &guids {
        let (bytes, len) = naive::encode_packed(guid);
        stream.extend_from_slice(&bytes[..len]);
    }
    for &(name, decode) in DECODERS {
        let mut rest = stream.as_slice();
        for (index, &guid) in guids.iter().enumerate() {
            let decoded = decode(rest).unwrap_or_else(|e| panic!("{name:?}, value {index}: {e}"));
            assert_eq!(decoded.value.get(), guid, "decoder {name:?}, value {index}");
            rest = &rest[decoded.consumed..];
        }
        assert!(rest.is_empty(), "decoder {name:?}");
    }
}

#[test]
fn every_mask_with_patterned_and_extreme_bytes_encodes() {
    for &(name, encode) in ENCODERS {
        for mask in 0..=255u8 {
            for byte in [0x01u8, 0x7f, 0x80, 0xff] {
                let mut guid = 0u64;
                for i in 0..8 {
                    if mask & (1 << i) != 0 {
                        guid |= u64::from(byte.wrapping_add(i)) << (8 * i);
                    }
                }
                check_encoder(name, encode, guid);
            }
        }
    }
}

#[test]
fn a_seeded_million_random_guids_encode_and_decode_back() {
    for &(name, encode) in ENCODERS {
        let mut rng = SplitMix64(0x5eed_0004);
        for _ in 0..RANDOM_GUIDS {
            let guid = rng.guid();
            check_encoder(name, encode, guid);
        }
        // Uniform GUIDs too: almost all nine bytes long.
        for _ in 0..RANDOM_GUIDS / 16 {
            let guid = rng.next();
            check_encoder(name, encode, guid);
            let mut out = [0; MAX_ENCODED_LEN];
            let len = encode(PackedGuid(guid), &mut out);
            for &(decoder_name, decode) in DECODERS {
                let decoded = decode(&out[..len]).unwrap();
                assert_eq!(
                    (decoded.value.get(), decoded.consumed),
                    (guid, len),
                    "encoder {name:?} then decoder {decoder_name:?}"
                );
            }
        }
    }
}

/// The naive encodings of `guids`, end to end.
fn naive_list(guids: &[PackedGuid]) -> Vec<u8> {
    let mut out = Vec::new();
    for guid in guids {
        let (bytes, len) = naive::encode_packed(guid.get());
        out.extend_from_slice(&bytes[..len]);
    }
    out
}

#[test]
fn a_seeded_list_of_a_million_guids_encodes_like_the_naive_loop() {
    let mut rng = SplitMix64(0x5eed_0005);
    // Zero-heavy and uniform GUIDs interleaved at random, so that long and
    // short encodings follow each other in every order.
    let guids: Vec<PackedGuid> = (0..RANDOM_GUIDS)
        .map(|_| {
            PackedGuid(if rng.byte() < 128 {
                rng.guid()
            } else {
                rng.next()
            })
        })
        .collect();
    let want = naive_list(&guids);
    for (name, encode_many) in encode_many_implementations() {
        // Exactly enough room, then room to spare, in dirty buffers.
        for extra in [0, MAX_ENCODED_LEN] {
            let mut out = vec![0xcc; want.len() + extra];
            let len = encode_many(&guids, &mut out).unwrap();
            assert_eq!(len, want.len(), "{name:?} with {extra} spare bytes");
            assert!(out[..len] == want[..], "{name:?} with {extra} spare bytes");
        }
    }
    let mut appended = Vec::new();
    wow_guid_codec::packed::encode_many_to_vec(&guids, &mut appended);
    assert!(appended == want, "encode_many_to_vec");
    // And back, followed by a byte of the next field.
    let mut stream = want;
    stream.push(0xff);
    for (name, decode_many) in decode_many_implementations() {
        let mut decoded = vec![PackedGuid(1); guids.len()];
        assert_eq!(
            decode_many(&stream, &mut decoded),
            Ok(stream.len() - 1),
            "{name:?}"
        );
        assert!(decoded == guids, "list decoder {name:?}");
    }
}

#[test]
fn every_mask_at_every_distance_from_the_end_of_the_input() {
    // The list decoders read nine bytes at once while nine remain and check
    // each value in the last few: put each mask's value at each distance
    // from the end, after values that shift it there, complete and cut short.
    for mask in 0..=255u8 {
        let value = patterned(mask);
        let want = naive::decode_packed(&value).unwrap().0;
        for lead in 0..10 {
            let mut input = vec![0x00; lead];
            input.extend_from_slice(&value);
            for (name, decode_many) in decode_many_implementations() {
                let mut out = vec![PackedGuid(1); lead + 1];
                assert_eq!(
                    decode_many(&input, &mut out),
                    Ok(input.len()),
                    "{name:?} {input:02x?}"
                );
                assert_eq!(out[lead], PackedGuid(want), "{name:?} {input:02x?}");
                assert!(out[..lead].iter().all(|&g| g == PackedGuid(0)), "{name:?}");
                if value.len() > 1 {
                    assert_eq!(
                        decode_many(&input[..input.len() - 1], &mut out),
                        Err(DecodeManyError::UnexpectedEof {
                            index: lead,
                            offset: lead,
                            mask: Some(mask),
                            needed: value.len(),
                            end: input.len() - 1,
                        }),
                        "{name:?} {input:02x?}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_length_at_every_distance_from_the_end_of_the_buffer() {
    // One GUID of each encoded length 1..=9, after a run of 9-byte GUIDs and
    // a GUID 0 that put it at each distance from the end of a buffer just
    // large enough (so the GUID 0 is sometimes written by the careful path
    // for the end of the buffer, and the failing GUID is not its first).
    for len in 1..=MAX_ENCODED_LEN {
        // `len - 1` low bytes set: 0 for length 1, u64::MAX for length 9.
        let last = PackedGuid(
            u64::MAX
                .checked_shr(8 * (MAX_ENCODED_LEN - len) as u32)
                .unwrap_or(0),
        );
        assert_eq!(last.encoded_len(), len);
        for lead in 0..4 {
            let mut guids = vec![PackedGuid(0x8182_8384_8586_8788); lead];
            guids.push(PackedGuid(0));
            guids.push(last);
            let want = naive_list(&guids);
            for (name, encode_many) in encode_many_implementations() {
                let mut out = vec![0xcc; want.len()];
                assert_eq!(encode_many(&guids, &mut out), Ok(want.len()), "{name:?}");
                assert!(out == want, "{name:?}: {out:02x?}");
                let mut short = vec![0xcc; want.len() - 1];
                assert_eq!(
                    encode_many(&guids, &mut short),
                    Err(EncodeManyError::OutputTooSmall {
                        index: lead + 1,
                        offset: want.len() - len,
                        needed: len,
                        available: want.len() - 1,
                    }),
                    "{name:?}"
                );
                assert!(
                    short[..want.len() - len] == want[..want.len() - len],
                    "{name:?}"
                );
            }
        }
    }
}

#[test]
fn long_lists_of_one_mask_through_every_list_decoder() {
    // The AVX-512 loop decodes 64-byte blocks while 128 bytes remain: every
    // mask repeated over 300 bytes puts values of one length at every
    // offset of a block (64 values a block for mask 0, values that cross
    // into the next block for the longer ones), and every count up to one
    // past the values there ends the list in every position of a block.
    for mask in 0..=255u8 {
        let value = patterned(mask);
        let input: Vec<u8> = value.iter().copied().cycle().take(300).collect();
        wow_guid_codec::properties::packed_decode_many(&input);
    }
}
