//! Exhaustive checks of every packed-GUID decoder against the naive model.
//!
//! Small enough input spaces are walked completely: every mask with patterned
//! bytes (and every prefix of each), and every input of 0 to 3 bytes. Each
//! implementation listed in `packed::DECODERS` is checked, so a fast path
//! added there is covered without touching this file.

use wow_guid_codec::naive;
use wow_guid_codec::packed::{DecodeFn, DECODERS};
use wow_guid_codec::{PackedGuid, PackedGuidError};

/// Runs `decoder` and the naive model on `input` and fails with the input in
/// hex when they disagree in any way (value, consumed, or error).
fn assert_agrees(name: &str, decoder: DecodeFn, input: &[u8]) {
    let got = decoder(input).map(|d| (d.value.get(), d.consumed));
    let want = naive::decode_packed(input);
    assert_eq!(got, want, "decoder {name:?} on input {input:02x?}");
}

/// A mask followed by distinct, recognisable bytes: byte `k` after the mask
/// is `0x11 * (k + 1)` with the top bit set for odd `k`, so a byte landing in
/// the wrong position or being sign-extended changes the result.
fn patterned(mask: u8) -> Vec<u8> {
    let mut input = vec![mask];
    for k in 0..mask.count_ones() as u8 {
        let byte = 0x11u8.wrapping_mul(k + 1) | if k % 2 == 1 { 0x80 } else { 0 };
        input.push(byte);
    }
    input
}

#[test]
fn every_mask_with_patterned_bytes_matches_the_naive_model() {
    for &(name, decoder) in DECODERS {
        for mask in 0..=255u8 {
            let input = patterned(mask);
            assert_agrees(name, decoder, &input);
            // The decoded GUID has exactly the mask's bytes in the mask's positions.
            let decoded = decoder(&input).unwrap();
            assert_eq!(decoded.consumed, input.len());
            let mut bytes = input[1..].iter();
            for (i, b) in decoded.value.get().to_le_bytes().into_iter().enumerate() {
                let expected = if mask & (1 << i) != 0 {
                    *bytes.next().unwrap()
                } else {
                    0
                };
                assert_eq!(b, expected, "decoder {name:?}, mask {mask:#04x}, byte {i}");
            }
        }
    }
}

#[test]
fn every_shorter_prefix_is_an_eof_error_at_its_end() {
    for &(name, decoder) in DECODERS {
        for mask in 0..=255u8 {
            let input = patterned(mask);
            for len in 0..input.len() {
                let prefix = &input[..len];
                let err = decoder(prefix).unwrap_err();
                assert_eq!(
                    err,
                    PackedGuidError::UnexpectedEof {
                        mask: prefix.first().copied(),
                        needed: if len == 0 { 1 } else { input.len() },
                        available: len,
                    },
                    "decoder {name:?} on prefix {prefix:02x?}"
                );
                assert_eq!(err.offset(), len);
            }
        }
    }
}

#[test]
fn trailing_bytes_are_left_for_the_next_field() {
    for &(name, decoder) in DECODERS {
        for mask in 0..=255u8 {
            let mut input = patterned(mask);
            let value_len = input.len();
            input.extend_from_slice(&[0xff, 0x00, 0x80, 0x7f, 0x01, 0xff, 0xff, 0xff, 0xff]);
            for extra in 0..=9 {
                let with_tail = &input[..value_len + extra];
                let decoded = decoder(with_tail).unwrap();
                assert_eq!(decoded.consumed, value_len, "decoder {name:?}");
                assert_eq!(decoded, decoder(&input[..value_len]).unwrap());
            }
        }
    }
}

#[test]
fn every_input_of_up_to_three_bytes_matches_the_naive_model() {
    for &(name, decoder) in DECODERS {
        assert_agrees(name, decoder, &[]);
        for a in 0..=255u8 {
            assert_agrees(name, decoder, &[a]);
            for b in 0..=255u8 {
                assert_agrees(name, decoder, &[a, b]);
                for c in 0..=255u8 {
                    assert_agrees(name, decoder, &[a, b, c]);
                }
            }
        }
    }
}

#[test]
fn the_spec_example_and_its_c_bug() {
    let decoded = PackedGuid::decode(&[0b0000_1010, 0xDE, 0xAD]).unwrap();
    // The spec's C snippet prints ffffffffad00de00 here: 0xAD is shifted as a
    // 32-bit int into its sign bit and sign-extended when widened.
    assert_eq!(decoded.value.get(), 0x0000_0000_AD00_DE00);
    assert_ne!(decoded.value.get(), 0xffff_ffff_ad00_de00);
}

#[test]
fn the_mask_is_a_bit_set_not_a_count() {
    // Mask 0x02 means "byte 1 follows", one byte; reading it as a count of two
    // bytes would take 0x22 as well and misplace 0x11.
    let decoded = PackedGuid::decode(&[0x02, 0x11, 0x22]).unwrap();
    assert_eq!(decoded.value.get(), 0x1100);
    assert_eq!(decoded.consumed, 2);
}

#[test]
fn non_canonical_input_decodes_and_is_reported() {
    let decoded = PackedGuid::decode(&[0xff, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(decoded.value.get(), 0);
    assert_eq!(decoded.consumed, 9);
    assert!(!decoded.is_canonical());
    let decoded = PackedGuid::decode(&[0x03, 0x00, 0x05]).unwrap();
    assert_eq!(decoded.value.get(), 0x0500);
    assert!(!decoded.is_canonical());
    assert!(PackedGuid::decode(&[0x02, 0x05]).unwrap().is_canonical());
    assert!(PackedGuid::decode(&[0x00]).unwrap().is_canonical());
}
