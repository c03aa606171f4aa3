//! The shrinker's neighbourhood of a request: every request one edit away
//! that is smaller in the shrinker's order ([`key`]), smallest first,
//! without repeats, made one at a time as the search asks for them.
//!
//! Why one at a time: a long input has a large neighbourhood (an 8 KiB name
//! about 160,000 candidates), each a copy of the whole input. Made all at
//! once, keyed and sorted, that was gigabytes per shrinking step (a `fuzz`
//! run held 2.4 GB to shrink one long name), although the search mostly
//! moves on after its first batch. So an edit is held as what it changes
//! ([`Edit`]), put in order by where its bytes first differ from the input
//! ([`Place`], known without making them), and made into bytes only when
//! its turn comes. The simple way, every candidate made, sorted and
//! deduplicated, is kept beside it for the tests to check the order against.

use std::collections::VecDeque;

use wow_guid_vectors::Request;

use super::edits::{edits_of, guid_edits, guid_pair_edits, packed_edits, Edit};

/// The order requests are shrunk in, smaller first ([`super`]'s docs say
/// what it is).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    present: bool,
    len: usize,
    bytes: Vec<u8>,
    guid_bytes: u32,
    guid: u64,
}

fn non_zero_bytes(guid: u64) -> u32 {
    guid.to_le_bytes().iter().filter(|&&b| b != 0).count() as u32
}

/// The size of `request` in the shrinker's order.
#[must_use]
pub fn key(request: &Request) -> Key {
    match request {
        Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => Key {
            present: true,
            len: bytes.len(),
            bytes: bytes.clone(),
            guid_bytes: 0,
            guid: 0,
        },
        Request::EncodePacked { guid } | Request::SizePacked { guid } => Key {
            present: false,
            len: 0,
            bytes: Vec::new(),
            guid_bytes: non_zero_bytes(*guid),
            guid: *guid,
        },
        Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => Key {
            present: name.is_some(),
            len: name.as_ref().map_or(0, Vec::len),
            bytes: name.clone().unwrap_or_default(),
            guid_bytes: non_zero_bytes(*guid),
            guid: *guid,
        },
    }
}

/// How a candidate's bytes compare with the input's first bytes of the same
/// length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    /// Smaller at the first byte that differs.
    Below,
    /// No byte differs: the input cut to that length.
    Same,
    /// Larger at the first byte that differs.
    Above,
}

/// Where a candidate falls in the order, known without making its bytes:
/// its length, then how it compares with the input cut to that length
/// (which side, where the first difference is, the byte there). Of two
/// candidates of one length below the input, the one that differs first is
/// smaller; above it, the one that differs last. Candidates at different
/// places differ; at one place they may still differ after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    len: usize,
    side: Side,
    /// The first difference, for `Below`; its complement for `Above`; 0 for
    /// `Same`.
    at: usize,
    /// The candidate's byte at the first difference.
    value: u8,
}

impl Place {
    /// The place of a candidate of `len` bytes that first differs from
    /// `base` at `first` (position, byte), if it does.
    fn new(base: &[u8], len: usize, first: Option<(usize, u8)>) -> Self {
        let (side, at, value) = match first {
            None => (Side::Same, 0, 0),
            Some((at, value)) if value < base[at] => (Side::Below, at, value),
            Some((at, value)) => (Side::Above, usize::MAX - at, value),
        };
        Self {
            len,
            side,
            at,
            value,
        }
    }

    /// Whether the candidate is smaller than the input of `len` bytes itself.
    fn is_smaller(&self, len: usize) -> bool {
        self.len < len || (self.len == len && self.side == Side::Below)
    }
}

/// For deleting `size` bytes of `base`: for each start, where the result
/// first differs from `base` cut to the same length (`None`: nowhere, the
/// input cut short), in one pass from the end.
fn deletion_differences(base: &[u8], size: usize) -> Vec<Option<usize>> {
    let len = base.len() - size;
    let mut out = vec![None; len + 1];
    for i in (0..len).rev() {
        out[i] = if base[i + size] == base[i] {
            out[i + 1]
        } else {
            Some(i)
        };
    }
    out
}

/// Puts each edit of `base` that makes a smaller candidate at its place,
/// in order; the others are dropped.
fn placed(base: &[u8], edits: Vec<Edit>) -> Vec<(Place, Edit)> {
    let mut differences: Vec<Option<Vec<Option<usize>>>> = Vec::new();
    let mut out: Vec<(Place, Edit)> = edits
        .into_iter()
        .filter_map(|edit| {
            let place = match edit {
                Edit::Delete { start, size } => {
                    if differences.len() <= size {
                        differences.resize(size + 1, None);
                    }
                    let first = differences[size]
                        .get_or_insert_with(|| deletion_differences(base, size))[start];
                    Place::new(
                        base,
                        base.len() - size,
                        first.map(|at| (at, base[at + size])),
                    )
                }
                Edit::Fill { start, size, value } => {
                    let first = (start..start + size).find(|&i| base[i] != value);
                    Place::new(base, base.len(), first.map(|at| (at, value)))
                }
                Edit::Set { at, value, .. } => Place::new(base, base.len(), Some((at, value))),
                Edit::Whole(ref bytes) => {
                    let first = bytes.iter().zip(base).position(|(a, b)| a != b);
                    Place::new(base, bytes.len(), first.map(|at| (at, bytes[at])))
                }
            };
            place.is_smaller(base.len()).then_some((place, edit))
        })
        .collect();
    out.sort_by_key(|(place, _)| *place);
    out
}

/// The byte strings one edit away from an input that are smaller, smallest
/// first, without repeats, each made when it is asked for (a place's worth
/// at a time).
struct ByteCandidates {
    base: Vec<u8>,
    edits: Vec<(Place, Edit)>,
    /// The first edit not made yet.
    next: usize,
    /// Made, in order, not handed out yet.
    ready: VecDeque<Vec<u8>>,
}

impl ByteCandidates {
    fn new(base: Vec<u8>, edits: Vec<Edit>) -> Self {
        let edits = placed(&base, edits);
        Self {
            base,
            edits,
            next: 0,
            ready: VecDeque::new(),
        }
    }
}

impl Iterator for ByteCandidates {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        while self.ready.is_empty() {
            let (place, _) = self.edits.get(self.next)?;
            let rest = &self.edits[self.next..];
            let end = rest.partition_point(|(p, _)| p == place);
            let mut made = Vec::new();
            // Deletions at one place make the same bytes: one is enough (a
            // long run of one byte has thousands of them).
            let mut deleted = false;
            for (_, edit) in &rest[..end] {
                if matches!(edit, Edit::Delete { .. }) {
                    if deleted {
                        continue;
                    }
                    deleted = true;
                }
                made.push(edit.apply(&self.base));
            }
            made.sort_unstable();
            made.dedup();
            self.ready = made.into();
            self.next += end;
        }
        self.ready.pop_front()
    }
}

/// The GUIDs one edit away from `g` that are smaller (fewer non-zero
/// bytes, then smaller), smallest first, without repeats: a few hundred at
/// most, made at once.
fn smaller_guids(g: u64, wide: bool) -> Vec<u64> {
    let mut out = Vec::new();
    if wide {
        guid_pair_edits(g, &mut out);
    } else {
        guid_edits(g, &mut out);
    }
    let order = |g: &u64| (non_zero_bytes(*g), *g);
    out.retain(|c| order(c) < order(&g));
    out.sort_unstable_by_key(order);
    out.dedup();
    out
}

/// Every request one edit away from `request` that is smaller, smallest
/// first, without repeats, each made when the iteration reaches it (the
/// edits are listed in [`super`]'s docs). `wide` asks for the larger
/// neighbourhood (pairs of edits) instead of the usual one.
#[must_use]
pub fn neighbours(request: &Request, wide: bool) -> Box<dyn Iterator<Item = Request>> {
    if let Some(encode) = request.measured() {
        return Box::new(neighbours(&encode, wide).filter_map(|c| c.size_request()));
    }
    match request.clone() {
        Request::DecodePacked { bytes } => {
            let mut edits = edits_of(&bytes, wide);
            if !wide {
                packed_edits(&bytes, &mut edits);
            }
            Box::new(ByteCandidates::new(bytes, edits).map(|bytes| Request::DecodePacked { bytes }))
        }
        Request::DecodeNamed { bytes } => Box::new(
            ByteCandidates::new(bytes.clone(), edits_of(&bytes, wide))
                .map(|bytes| Request::DecodeNamed { bytes }),
        ),
        Request::EncodePacked { guid } => Box::new(
            smaller_guids(guid, wide)
                .into_iter()
                .map(|guid| Request::EncodePacked { guid }),
        ),
        Request::EncodeNamed { guid, name } => {
            // No name is smaller than any name; every smaller name with
            // the same GUID, smaller than the same name with a smaller GUID.
            let unnamed =
                (name.is_some() && !wide).then_some(Request::EncodeNamed { guid, name: None });
            let names = name.clone().into_iter().flat_map(move |n| {
                ByteCandidates::new(n.clone(), edits_of(&n, wide)).map(move |n| {
                    Request::EncodeNamed {
                        guid,
                        name: Some(n),
                    }
                })
            });
            let guids =
                smaller_guids(guid, wide)
                    .into_iter()
                    .map(move |guid| Request::EncodeNamed {
                        guid,
                        name: name.clone(),
                    });
            Box::new(unnamed.into_iter().chain(names).chain(guids))
        }
        Request::SizePacked { .. } | Request::SizeNamed { .. } => Box::new(std::iter::empty()),
    }
}

/// [`neighbours`], all of them at once.
#[must_use]
pub fn candidates(request: &Request, wide: bool) -> Vec<Request> {
    neighbours(request, wide).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The simple way: every candidate made, keyed, sorted, deduplicated.
    fn simple(base: &[u8], edits: &[Edit]) -> Vec<Vec<u8>> {
        let mut all: Vec<Vec<u8>> = edits.iter().map(|e| e.apply(base)).collect();
        all.retain(|c| (c.len(), c) < (base.len(), &base.to_vec()));
        all.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
        all.dedup();
        all
    }

    /// A small deterministic generator, so that a failure names its input.
    fn inputs() -> Vec<Vec<u8>> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = vec![Vec::new(), vec![0], vec![1, 0], vec![0x10, 0x01]];
        for _ in 0..400 {
            let len = (next() % 90) as usize;
            // Few distinct bytes, so that runs, repeats and ties are common.
            let alphabet = [0x00, 0x01, 0x41, 0x80, 0xc2, 0xff];
            let spread = 1 + next() % 6;
            out.push(
                (0..len)
                    .map(|_| alphabet[(next() % spread) as usize])
                    .collect(),
            );
        }
        out.push(vec![0x01; 300]);
        out.push(b"abcdefgh".repeat(40));
        out
    }

    #[test]
    fn made_in_turn_they_are_what_the_simple_way_makes_in_the_same_order() {
        for base in inputs() {
            for wide in [false, true] {
                let mut edits = edits_of(&base, wide);
                if !wide {
                    packed_edits(&base, &mut edits);
                }
                let expected = simple(&base, &edits);
                let made: Vec<Vec<u8>> = ByteCandidates::new(base.clone(), edits).collect();
                assert_eq!(made, expected, "input {base:02x?}, wide {wide}");
            }
        }
    }

    #[test]
    fn a_deletion_differs_where_the_bytes_it_moves_first_do() {
        let base = [1, 1, 1, 2, 1, 1];
        assert_eq!(
            deletion_differences(&base, 1),
            [Some(2), Some(2), Some(2), Some(3), None, None]
        );
        let place = |edit: Edit| placed(&base, vec![edit])[0].0;
        // Deleting any of the first three `1`s makes `1 1 2 1 1`: one place.
        assert_eq!(
            place(Edit::Delete { start: 0, size: 1 }),
            place(Edit::Delete { start: 2, size: 1 })
        );
    }
}
