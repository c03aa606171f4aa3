//! The edits the shrinker makes of a request, as [`super`]'s docs list
//! them, each held as what it changes ([`Edit`]) rather than as the bytes
//! it makes: [`super::candidates`] puts them in order and makes them.

use super::INTERESTING_BYTES;

/// The values a byte is set to when another is lowered: the interesting
/// bytes, and the smallest lead byte of each multi-byte UTF-8 length, so a
/// character can be traded for a smaller one of another length.
const RAISED_BYTES: [u8; 8] = raised_bytes();

const fn raised_bytes() -> [u8; 8] {
    const UTF8_LEADS: [u8; 3] = [0xc2, 0xe0, 0xf0];
    let mut out = [0; 8];
    let mut i = 0;
    while i < INTERESTING_BYTES.len() {
        out[i] = INTERESTING_BYTES[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = UTF8_LEADS[i - INTERESTING_BYTES.len()];
        i += 1;
    }
    out
}

/// Bytes lowered at most in one round of pair edits.
const PAIR_POSITIONS: usize = 64;

/// Inputs at most this long have every smaller value tried at every byte.
const EXHAUSTIVE_LOWERING_LEN: usize = 12;

/// One edit of a byte string, held instead of the bytes it makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Edit {
    /// `size` bytes from `start` removed (cut short when they run to the end).
    Delete { start: usize, size: usize },
    /// `size` bytes from `start` set to `value`.
    Fill {
        start: usize,
        size: usize,
        value: u8,
    },
    /// The byte at `at` lowered to `value`, and, for a pair, the later byte
    /// at `then` set to `other`.
    Set {
        at: usize,
        value: u8,
        then: Option<(usize, u8)>,
    },
    /// Bytes made whole: the packed edits, a few short ones.
    Whole(Vec<u8>),
}

impl Edit {
    /// The bytes this edit makes of `base`.
    pub(super) fn apply(&self, base: &[u8]) -> Vec<u8> {
        match *self {
            Edit::Delete { start, size } => {
                let mut c = Vec::with_capacity(base.len() - size);
                c.extend_from_slice(&base[..start]);
                c.extend_from_slice(&base[start + size..]);
                c
            }
            Edit::Fill { start, size, value } => {
                let mut c = base.to_vec();
                c[start..start + size].fill(value);
                c
            }
            Edit::Set { at, value, then } => {
                let mut c = base.to_vec();
                c[at] = value;
                if let Some((then, other)) = then {
                    c[then] = other;
                }
                c
            }
            Edit::Whole(ref bytes) => bytes.clone(),
        }
    }
}

/// The values below `b` worth trying: all of them, or a few landmarks.
fn lowered(b: u8, all: bool) -> Vec<u8> {
    if all {
        return (0..b).collect();
    }
    let mut v: Vec<u8> = [0, 1, b / 2, b.wrapping_sub(1), 0x20, 0x41, 0x7f, 0x80]
        .into_iter()
        .filter(|&w| w < b)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Window sizes for deleting and setting: every small one, and powers of two.
fn window_sizes(len: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (1..=4).filter(|&s| s <= len).collect();
    let mut s = 8;
    while s < len {
        sizes.push(s);
        s *= 2;
    }
    sizes
}

/// Where windows of `size` start: everywhere for small windows, at half-size
/// steps (and flush with the end) for large ones.
fn window_starts(len: usize, size: usize) -> Vec<usize> {
    if size > len {
        return Vec::new();
    }
    if size <= 4 {
        return (0..=len - size).collect();
    }
    let mut starts: Vec<usize> = (0..=len - size).step_by(size / 2).collect();
    starts.push(len - size);
    starts
}

/// The usual edits of a byte string: cuts, deletions, fills, lowerings.
fn byte_edits(b: &[u8], out: &mut Vec<Edit>) {
    let len = b.len();
    let cut = |n: usize| Edit::Delete {
        start: n,
        size: len - n,
    };
    if len <= 64 {
        out.extend((0..len).map(cut));
    } else {
        let mut n = len / 2;
        while n > 0 {
            out.push(cut(n));
            n /= 2;
        }
        out.push(cut(0));
        out.extend((1..=4).map(|d| cut(len - d)));
    }
    for size in window_sizes(len) {
        for start in window_starts(len, size) {
            out.push(Edit::Delete { start, size });
            if size >= 2 {
                out.extend([0x00, 0x01].map(|value| Edit::Fill { start, size, value }));
            }
        }
    }
    let all = len <= EXHAUSTIVE_LOWERING_LEN;
    for (at, &byte) in b.iter().enumerate() {
        out.extend(lowered(byte, all).into_iter().map(|value| Edit::Set {
            at,
            value,
            then: None,
        }));
    }
}

/// Lower one byte and set a later one to an interesting value. The bytes
/// lowered are the first few and those not already `00` or `01`, which in a
/// long input that has been through the usual edits are the few that matter.
fn byte_pair_edits(b: &[u8], out: &mut Vec<Edit>) {
    let len = b.len();
    let all = len <= 4;
    let positions = (0..len)
        .filter(|&i| i < 16 || b[i] > 1)
        .take(PAIR_POSITIONS);
    for at in positions {
        for value in lowered(b[at], all) {
            let later = b.iter().enumerate().skip(at + 1).take(8);
            for (then, &was) in later {
                for other in RAISED_BYTES {
                    if other != was {
                        out.push(Edit::Set {
                            at,
                            value,
                            then: Some((then, other)),
                        });
                    }
                }
            }
        }
    }
}

/// Edits that keep a packed input well formed: a mask bit goes with its byte.
pub(super) fn packed_edits(b: &[u8], out: &mut Vec<Edit>) {
    let Some((&mask, rest)) = b.split_first() else {
        return;
    };
    let n = mask.count_ones() as usize;
    if rest.len() < n {
        return;
    }
    let (data, trailing) = rest.split_at(n);
    let mut slots = [None; 8];
    let mut next = data.iter();
    for (bit, slot) in slots.iter_mut().enumerate() {
        if mask & (1 << bit) != 0 {
            *slot = next.next().copied();
        }
    }
    let encode = |slots: &[Option<u8>; 8]| {
        let mut c = vec![0];
        for (bit, slot) in slots.iter().enumerate() {
            if let Some(byte) = slot {
                c[0] |= 1 << bit;
                c.push(*byte);
            }
        }
        c.extend_from_slice(trailing);
        Edit::Whole(c)
    };
    for bit in 0..8 {
        if slots[bit].is_none() {
            continue;
        }
        let mut cleared = slots;
        cleared[bit] = None;
        out.push(encode(&cleared));
        for lower in 0..bit {
            if slots[lower].is_none() {
                let mut moved = cleared;
                moved[lower] = slots[bit];
                out.push(encode(&moved));
            }
        }
    }
}

/// The edits of a byte string: the usual ones, or the pairs when `wide`.
pub(super) fn edits_of(b: &[u8], wide: bool) -> Vec<Edit> {
    let mut out = Vec::new();
    if wide {
        byte_pair_edits(b, &mut out);
    } else {
        byte_edits(b, &mut out);
    }
    out
}

pub(super) fn guid_edits(g: u64, out: &mut Vec<u64>) {
    out.extend([0, 1, g >> 1, g.saturating_sub(1)]);
    out.extend((1..8).map(|k| g >> (8 * k)));
    let bytes = g.to_le_bytes();
    for i in 0..8 {
        let b = bytes[i];
        if b == 0 {
            continue;
        }
        let mut zeroed = bytes;
        zeroed[i] = 0;
        out.push(u64::from_le_bytes(zeroed));
        for to in 0..=i {
            out.push(u64::from(b) << (8 * to));
            if bytes[to] == 0 {
                let mut moved = zeroed;
                moved[to] = b;
                out.push(u64::from_le_bytes(moved));
            }
        }
        for w in lowered(b, true) {
            let mut c = bytes;
            c[i] = w;
            out.push(u64::from_le_bytes(c));
        }
    }
}

/// Lower a byte and set a less significant one to an interesting value.
pub(super) fn guid_pair_edits(g: u64, out: &mut Vec<u64>) {
    let bytes = g.to_le_bytes();
    for i in 0..8 {
        for w in lowered(bytes[i], false) {
            for j in 0..i {
                for x in INTERESTING_BYTES {
                    let mut c = bytes;
                    c[i] = w;
                    c[j] = x;
                    out.push(u64::from_le_bytes(c));
                }
            }
        }
    }
}
