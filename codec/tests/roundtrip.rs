//! Round trips between the packed-GUID encoders and decoders.
//!
//! decode(encode(g)) must give back `g` and consume exactly the encoding, and
//! encode(decode(b)) must give back `b` whenever `b` is canonical. Every
//! implementation in `packed::DECODERS` and `packed::ENCODERS` is paired with
//! every other.

use wow_guid_codec::naive;
use wow_guid_codec::packed::{DECODERS, ENCODERS, MAX_ENCODED_LEN};
use wow_guid_codec::PackedGuid;

use crate::support::SplitMix64;

fn edge_guids() -> Vec<u64> {
    let mut guids = vec![0, 1, u64::MAX, 0x0000_0000_AD00_DE00, 0xF130_0000_1234_0001];
    for i in 0..8 {
        guids.push(0x01 << (8 * i));
        guids.push(0x80 << (8 * i));
        guids.push(0xff << (8 * i));
        guids.push(u64::MAX ^ (0xff << (8 * i)));
    }
    guids.push(0x8080_8080_8080_8080);
    guids
}

fn check_round_trip(guid: u64) {
    let (naive_bytes, naive_len) = naive::encode_packed(guid);
    let expected = &naive_bytes[..naive_len];
    assert_eq!(
        PackedGuid(guid).encoded_len(),
        naive_len,
        "guid {guid:016x}"
    );
    assert_eq!(PackedGuid(guid).mask(), expected[0], "guid {guid:016x}");
    for &(encoder_name, encoder) in ENCODERS {
        let mut buf = [0xAAu8; MAX_ENCODED_LEN];
        let len = encoder(PackedGuid(guid), &mut buf);
        assert_eq!(
            &buf[..len],
            expected,
            "encoder {encoder_name:?}, guid {guid:016x}"
        );
        for &(decoder_name, decoder) in DECODERS {
            let decoded = decoder(&buf[..len]).unwrap();
            assert_eq!(
                (decoded.value.get(), decoded.consumed),
                (guid, len),
                "encoder {encoder_name:?} then decoder {decoder_name:?}, guid {guid:016x}"
            );
            assert!(decoded.is_canonical());
        }
    }
}

#[test]
fn edge_guids_round_trip() {
    for guid in edge_guids() {
        check_round_trip(guid);
    }
    assert_eq!(&*PackedGuid(0).encode(), &[0x00]);
    assert_eq!(
        &*PackedGuid(u64::MAX).encode(),
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
    );
}

#[test]
fn a_million_seeded_random_guids_round_trip() {
    let mut rng = SplitMix64(0x5eed_0000_0000_0001);
    for _ in 0..1_000_000 {
        check_round_trip(rng.guid());
    }
}

#[test]
fn canonical_bytes_survive_decode_then_encode() {
    let mut rng = SplitMix64(0x5eed_0000_0000_0002);
    let mut checked_non_canonical = 0;
    for _ in 0..1_000_000 {
        // Random mask and random bytes: canonical exactly when no sent byte is 0.
        let mask = rng.next() as u8;
        let mut input = vec![mask];
        for _ in 0..mask.count_ones() {
            // Bias towards zero bytes so that non-canonical inputs are common too.
            let byte = rng.next() as u8;
            input.push(if byte < 0x20 { 0 } else { byte });
        }
        let decoded = PackedGuid::decode(&input).unwrap();
        let canonical = input[1..].iter().all(|&b| b != 0);
        assert_eq!(decoded.is_canonical(), canonical, "input {input:02x?}");
        let encoded = decoded.value.encode();
        if canonical {
            assert_eq!(&*encoded, &input[..], "input {input:02x?}");
        } else {
            checked_non_canonical += 1;
            assert!(encoded.len() < input.len(), "input {input:02x?}");
            assert_eq!(PackedGuid::decode(&encoded).unwrap().value, decoded.value);
        }
    }
    assert!(checked_non_canonical > 100_000);
}

#[test]
fn vec_and_writer_helpers_append_the_same_bytes() {
    let mut rng = SplitMix64(0x5eed_0000_0000_0003);
    let mut via_vec = vec![0x42];
    let mut via_writer = vec![0x42];
    let mut expected = vec![0x42];
    for _ in 0..1000 {
        let guid = PackedGuid(rng.guid());
        guid.encode_to_vec(&mut via_vec);
        let written = guid.write_to(&mut via_writer).unwrap();
        assert_eq!(written, guid.encoded_len());
        let (bytes, len) = naive::encode_packed(guid.get());
        expected.extend_from_slice(&bytes[..len]);
    }
    assert_eq!(via_vec, expected);
    assert_eq!(via_writer, expected);
}

#[test]
fn a_stream_of_values_decodes_back_in_order() {
    let mut rng = SplitMix64(0x5eed_0000_0000_0004);
    let guids: Vec<u64> = (0..10_000).map(|_| rng.guid()).collect();
    let mut stream = Vec::new();
    for &g in &guids {
        PackedGuid(g).encode_to_vec(&mut stream);
    }
    let mut rest = &stream[..];
    for &g in &guids {
        let decoded = PackedGuid::decode(rest).unwrap();
        assert_eq!(decoded.value.get(), g);
        rest = &rest[decoded.consumed..];
    }
    assert!(rest.is_empty());
}
