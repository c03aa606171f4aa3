//! The seeded generator shared by the codec's tests and benchmarks.
//!
//! A directory module, so cargo does not build it as a test of its own;
//! benchmarks include it by path. Each user needs only some of the methods.
#![allow(dead_code)]

/// SplitMix64: small, well mixed and seedable, so every run (and every
/// failure) is reproducible from its seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A random byte (the best-mixed top bits).
    pub fn byte(&mut self) -> u8 {
        (self.next() >> 56) as u8
    }

    /// Uniform in `low..=high` (the modulo bias is far below noise).
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }

    /// A GUID with a random subset of its bytes zeroed, so that every mask
    /// and every encoded length is common rather than almost always 9 bytes.
    pub fn guid(&mut self) -> u64 {
        let keep = self.byte();
        let bytes = self.next().to_le_bytes();
        let mut guid = 0u64;
        for (i, byte) in bytes.into_iter().enumerate() {
            if keep & (1 << i) != 0 {
                guid |= u64::from(byte) << (8 * i);
            }
        }
        guid
    }
}
