//! The benchmark data sets, generated from fixed seeds so that every run and
//! every machine measures the same bytes.
//!
//! GUID layouts follow the Wrath (3.3.5) world server: the top 16 bits are
//! the high type; objects that have a template (creatures, game objects,
//! pets, vehicles) put its entry in bits 24..48 and a spawn counter in bits
//! 0..24; players and items put a counter in the low bits.

/// Values in each decode stream. The benchmark walks the same stream over and
/// over, and a branch predictor learns a short one by heart, which flatters
/// the naive loop as no real message stream would: on the realistic mix it
/// measured 7.7 ns per value with 65,536 values and 8.5 with 262,144, while
/// the floor stayed at 2.7. The 262,144-value streams (about 1.4 MB) are
/// larger than the 1 MB L2 of the machine measured, but they are read in
/// order, so the prefetcher keeps up and the floor does not move.
pub const DECODE_VALUES: usize = 1 << 18;

/// GUIDs in each encode list. The naive encoder's branches (is this byte
/// zero?) depend on the GUIDs, not their order, so a shorter list suffices
/// (the list and the output take about 1.1 MB).
pub const ENCODE_VALUES: usize = 1 << 16;

/// One decode data set: back-to-back packed GUIDs.
pub struct Stream {
    /// Name used in the benchmark id.
    pub name: &'static str,
    /// The encoded values, one after another.
    pub bytes: Vec<u8>,
}

/// One encode data set.
pub struct Guids {
    /// Name used in the benchmark id.
    pub name: &'static str,
    /// The GUIDs to encode.
    pub guids: Vec<u64>,
}

#[path = "../../tests/support/mod.rs"]
mod support;
use support::SplitMix64;

/// High types of the Wrath world server (the top 16 bits of a GUID).
const PLAYER: u64 = 0x0000;
const ITEM: u64 = 0x4000;
const GAME_OBJECT: u64 = 0xf110;
const UNIT: u64 = 0xf130;
const PET: u64 = 0xf140;
const VEHICLE: u64 = 0xf150;

fn with_entry(high: u64, entry: u64, counter: u64) -> u64 {
    (high << 48) | (entry << 24) | counter
}

/// The realistic mix, in percent: what a busy zone's update, movement and
/// combat messages carry. Creatures dominate; players, items and game objects
/// follow; an absent target or owner is GUID 0.
const MIX: [(u64, Kind); 7] = [
    (45, Kind::Creature),
    (20, Kind::Player),
    (10, Kind::Zero),
    (10, Kind::Item),
    (8, Kind::GameObject),
    (4, Kind::Pet),
    (3, Kind::Vehicle),
];

#[derive(Clone, Copy)]
enum Kind {
    Creature,
    Player,
    Zero,
    Item,
    GameObject,
    Pet,
    Vehicle,
}

fn realistic_guid(rng: &mut SplitMix64) -> u64 {
    let mut pick = rng.range(0, 99);
    let mut kind = Kind::Zero;
    for (percent, candidate) in MIX {
        if pick < percent {
            kind = candidate;
            break;
        }
        pick -= percent;
    }
    match kind {
        // Template entries: creatures up to ~40,000, game objects up to
        // ~200,000 (three bytes); spawn counters up to a few hundred thousand.
        Kind::Creature => with_entry(UNIT, rng.range(1, 40_000), rng.range(1, 500_000)),
        Kind::GameObject => with_entry(GAME_OBJECT, rng.range(1, 200_000), rng.range(1, 300_000)),
        Kind::Pet => with_entry(PET, rng.range(1, 40_000), rng.range(1, 100_000)),
        Kind::Vehicle => with_entry(VEHICLE, rng.range(1, 40_000), rng.range(1, 500_000)),
        // Small low counters: a realm's characters and items.
        Kind::Player => (PLAYER << 48) | rng.range(1, 100_000),
        Kind::Item => (ITEM << 48) | rng.range(1, 10_000_000),
        Kind::Zero => 0,
    }
}

/// GUIDs in the realistic Wrath mix.
pub fn realistic_guids() -> Guids {
    let mut rng = SplitMix64(0x0335_0001);
    Guids {
        name: "realistic",
        guids: (0..ENCODE_VALUES)
            .map(|_| realistic_guid(&mut rng))
            .collect(),
    }
}

/// Uniformly random 64-bit GUIDs: nearly all nine bytes long.
pub fn uniform_guids() -> Guids {
    let mut rng = SplitMix64(0x0f0f_0001);
    Guids {
        name: "uniform",
        guids: (0..ENCODE_VALUES).map(|_| rng.next()).collect(),
    }
}

/// The realistic mix, encoded back to back.
pub fn realistic_stream() -> Stream {
    let mut rng = SplitMix64(0x0335_0002);
    let mut bytes = Vec::new();
    for _ in 0..DECODE_VALUES {
        let guid = realistic_guid(&mut rng);
        let (encoded, len) = wow_guid_codec::naive::encode_packed(guid);
        bytes.extend_from_slice(&encoded[..len]);
    }
    Stream {
        name: "realistic",
        bytes,
    }
}

/// Uniformly random masks, each followed by as many random non-zero bytes
/// as it has set bits: the worst case for a decoder that branches on the mask.
pub fn random_mask_stream() -> Stream {
    let mut rng = SplitMix64(0x0f0f_0002);
    let mut bytes = Vec::new();
    for _ in 0..DECODE_VALUES {
        let mask = rng.range(0, 255) as u8;
        bytes.push(mask);
        for _ in 0..mask.count_ones() {
            bytes.push(rng.range(1, 255) as u8);
        }
    }
    Stream {
        name: "random-masks",
        bytes,
    }
}
