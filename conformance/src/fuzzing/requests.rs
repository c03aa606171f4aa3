//! Seeded request generators that aim at the bugs real implementations have.
//!
//! Most requests are built from the formats' structure and the fault model
//! by the generators every codec author gets too
//! ([`wow_guid_testkit::generate`]: mask patterns, GUIDs with zero bytes,
//! names of every UTF-8 width and of lengths past the bounds, cuts, missing
//! NULs, trailing bytes), plus mutations of the corpus vectors' requests (bit flips, interesting
//! bytes, insertions, deletions, cuts, duplicated ranges) and a little uniform
//! noise.
//!
//! Every choice is drawn from an [`Unstructured`] over bytes from a SplitMix64
//! stream seeded by the run's seed and the request's index, so request `i` of
//! seed `s` is the same whatever came before it, whatever the batch sizes, on
//! every platform. Pure: no I/O.
//!
//! The stream is drawn lazily: most requests need a few hundred bytes of it,
//! so a request is first built from the first `FILLS` bytes, and only
//! one that used them all is built again from more of the stream, up to
//! the whole `ENTROPY`. Every draw takes bytes from the front of the
//! [`Unstructured`], in order, so a build that left bytes unused read
//! exactly what it would have read from the whole stream: the requests are
//! the same either way, only cheaper.

use arbitrary::Unstructured;
use wow_guid_vectors::{Request, RequestKind, Vector};

use wow_guid_testkit::generate::{byte_value, structured, trailing, weighted, Draw, Shapes};

/// Generator input behind each request: enough for the longest name with a
/// choice per character.
const ENTROPY: usize = 8192;

/// The lengths of stream a request is built from, in turn, until one is
/// not used up (see the module docs).
const FILLS: [usize; 3] = [256, 2048, ENTROPY];

// The stream is written a whole word at a time, each fill longer.
const _: () = assert!(
    FILLS[0].is_multiple_of(8)
        && FILLS[1].is_multiple_of(8)
        && FILLS[0] < FILLS[1]
        && FILLS[1] < ENTROPY
);

/// A small, fast, well-mixed generator (Steele, Lea and Flood's SplitMix64),
/// used only to fill the bytes behind [`Unstructured`]: all structure comes
/// from `arbitrary`.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Makes requests from a seed; see the module docs.
pub struct Generator {
    seed: u64,
    /// The corpus's requests by kind ([`RequestKind`] as index), for mutation.
    pool: [Vec<Request>; RequestKind::ALL.len()],
    /// The buffer lengths and UTF-8 sequences of the fault model.
    model: Shapes,
    entropy: Vec<u8>,
}

impl Generator {
    /// A generator for `seed` that mutates the requests of `corpus`.
    #[must_use]
    pub fn new(seed: u64, corpus: &[Vector]) -> Self {
        let mut pool: [Vec<Request>; RequestKind::ALL.len()] = Default::default();
        for v in corpus {
            pool[v.request.kind().index()].push(v.request.clone());
        }
        Self {
            seed,
            pool,
            model: Shapes::of_the_model(),
            entropy: vec![0; ENTROPY],
        }
    }

    /// Request number `index`, of one of `kinds` (all kinds when empty).
    pub fn request(&mut self, index: u64, kinds: &[RequestKind]) -> Request {
        let kinds = if kinds.is_empty() {
            &RequestKind::ALL[..]
        } else {
            kinds
        };
        let mut stream = self.stream(index);
        let mut filled = 0;
        for len in FILLS {
            for chunk in self.entropy[filled..len].chunks_exact_mut(8) {
                chunk.copy_from_slice(&stream.next().to_le_bytes());
            }
            filled = len;
            if len == ENTROPY {
                break;
            }
            if let Some(request) = self.build_from(len, kinds) {
                return request;
            }
        }
        self.build_all(kinds)
    }

    /// The request built from the first `len` bytes of the stream, unless
    /// it used them all (then more might have changed it).
    fn build_from(&self, len: usize, kinds: &[RequestKind]) -> Option<Request> {
        let mut u = Unstructured::new(&self.entropy[..len]);
        let request = self.build(&mut u, kinds);
        (!u.is_empty()).then_some(request)
    }

    /// The request built from the whole stream, however much it used.
    fn build_all(&self, kinds: &[RequestKind]) -> Request {
        self.build(&mut Unstructured::new(&self.entropy), kinds)
    }

    fn build(&self, u: &mut Unstructured<'_>, kinds: &[RequestKind]) -> Request {
        let kind = u
            .choose(kinds)
            .copied()
            .unwrap_or(RequestKind::DecodePacked);
        build(u, kind, &self.pool[kind.index()], &self.model)
    }

    /// The stream behind request `index`.
    fn stream(&self, index: u64) -> SplitMix64 {
        SplitMix64(mix(self.seed) ^ mix(index ^ 0x6a09_e667_f3bc_c908))
    }
}

#[derive(Clone, Copy)]
enum Recipe {
    Structured,
    Mutation,
    Uniform,
}

fn build(u: &mut Unstructured<'_>, kind: RequestKind, pool: &[Request], model: &Shapes) -> Request {
    let drawn = weighted(
        u,
        &[
            (6, Recipe::Structured),
            (3, Recipe::Mutation),
            (1, Recipe::Uniform),
        ],
    )
    .and_then(|source| match source {
        Recipe::Mutation if !pool.is_empty() => {
            let base = u.choose(pool)?.clone();
            mutate(u, base)
        }
        Recipe::Structured | Recipe::Mutation => structured(u, kind, model),
        Recipe::Uniform => uniform(u, kind),
    });
    // Out of entropy (it never happens with `ENTROPY` bytes, but the type
    // says it could): the smallest request of the kind is still a request.
    drawn.unwrap_or_else(|_| match kind {
        RequestKind::DecodePacked => Request::DecodePacked { bytes: vec![] },
        RequestKind::EncodePacked => Request::EncodePacked { guid: 0 },
        RequestKind::DecodeNamed => Request::DecodeNamed { bytes: vec![] },
        RequestKind::EncodeNamed => Request::EncodeNamed {
            guid: 0,
            name: None,
        },
        RequestKind::SizePacked => Request::SizePacked { guid: 0 },
        RequestKind::SizeNamed => Request::SizeNamed {
            guid: 0,
            name: None,
        },
    })
}

fn uniform_bytes(u: &mut Unstructured<'_>, short: usize, long: usize) -> Draw<Vec<u8>> {
    let len = if u.ratio(1u8, 8)? {
        u.int_in_range(0..=long)?
    } else {
        u.int_in_range(0..=short)?
    };
    (0..len).map(|_| u.arbitrary::<u8>()).collect()
}

fn uniform(u: &mut Unstructured<'_>, kind: RequestKind) -> Draw<Request> {
    Ok(match kind {
        RequestKind::DecodePacked => Request::DecodePacked {
            bytes: uniform_bytes(u, 12, 40)?,
        },
        RequestKind::EncodePacked => Request::EncodePacked {
            guid: u.arbitrary()?,
        },
        RequestKind::DecodeNamed => Request::DecodeNamed {
            bytes: uniform_bytes(u, 24, 600)?,
        },
        RequestKind::EncodeNamed => Request::EncodeNamed {
            guid: u.arbitrary()?,
            name: if u.ratio(1u8, 6)? {
                None
            } else {
                Some(uniform_bytes(u, 16, 600)?)
            },
        },
        // The value to measure, drawn as the value to encode is.
        RequestKind::SizePacked => measuring(uniform(u, RequestKind::EncodePacked)?),
        RequestKind::SizeNamed => measuring(uniform(u, RequestKind::EncodeNamed)?),
    })
}

/// The `size` request of the value `encode` writes.
fn measuring(encode: Request) -> Request {
    encode.size_request().unwrap_or(encode)
}

fn mutate_bytes(u: &mut Unstructured<'_>, bytes: &mut Vec<u8>) -> Draw<()> {
    for _ in 0..u.int_in_range(1..=3u8)? {
        let len = bytes.len();
        match u.int_in_range(0..=6u8)? {
            0 if len > 0 => {
                let i = u.choose_index(len)?;
                bytes[i] ^= 1 << u.int_in_range(0..=7u8)?;
            }
            1 if len > 0 => {
                let i = u.choose_index(len)?;
                bytes[i] = byte_value(u)?;
            }
            2 => {
                let i = u.int_in_range(0..=len)?;
                bytes.insert(i, byte_value(u)?);
            }
            3 if len > 0 => {
                bytes.remove(u.choose_index(len)?);
            }
            4 => bytes.truncate(u.int_in_range(0..=len)?),
            5 => trailing(u, bytes)?,
            6 if len > 0 => {
                let start = u.choose_index(len)?;
                let end = u.int_in_range(start + 1..=len.min(start + 8))?;
                let at = u.int_in_range(0..=len)?;
                let copy = bytes[start..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => bytes.push(byte_value(u)?),
        }
    }
    Ok(())
}

fn mutate_guid(u: &mut Unstructured<'_>, guid: u64) -> Draw<u64> {
    let mut bytes = guid.to_le_bytes();
    match u.int_in_range(0..=3u8)? {
        0 => bytes[u.choose_index(8)?] ^= 1 << u.int_in_range(0..=7u8)?,
        1 => bytes[u.choose_index(8)?] = byte_value(u)?,
        2 => bytes[u.choose_index(8)?] = 0,
        _ => bytes.swap(u.choose_index(8)?, u.choose_index(8)?),
    }
    Ok(u64::from_le_bytes(bytes))
}

fn mutate(u: &mut Unstructured<'_>, request: Request) -> Draw<Request> {
    Ok(match request {
        Request::DecodePacked { mut bytes } => {
            mutate_bytes(u, &mut bytes)?;
            Request::DecodePacked { bytes }
        }
        Request::DecodeNamed { mut bytes } => {
            mutate_bytes(u, &mut bytes)?;
            Request::DecodeNamed { bytes }
        }
        Request::EncodePacked { guid } => Request::EncodePacked {
            guid: mutate_guid(u, guid)?,
        },
        Request::EncodeNamed { guid, name } => match (u.int_in_range(0..=2u8)?, name) {
            (0, name) => Request::EncodeNamed {
                guid: mutate_guid(u, guid)?,
                name,
            },
            (1, Some(mut name)) => {
                mutate_bytes(u, &mut name)?;
                Request::EncodeNamed {
                    guid,
                    name: Some(name),
                }
            }
            (_, Some(_)) => Request::EncodeNamed { guid, name: None },
            (_, None) => Request::EncodeNamed {
                guid,
                name: Some(Vec::new()),
            },
        },
        // A size request's value mutates as the value to encode does.
        size @ (Request::SizePacked { .. } | Request::SizeNamed { .. }) => match size.measured() {
            Some(encode) => measuring(mutate(u, encode)?),
            None => size,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wow_guid_vectors::Corpus;

    fn generator(seed: u64) -> Generator {
        Generator::new(seed, &Corpus::embedded().expect("corpus loads").vectors)
    }

    #[test]
    fn the_same_seed_and_index_give_the_same_request() {
        let mut a = generator(7);
        let mut b = generator(7);
        let first: Vec<Request> = (0..200).map(|i| a.request(i, &RequestKind::ALL)).collect();
        // Asked in another order, each index still gives its own request.
        for i in (0..200).rev() {
            assert_eq!(b.request(i, &RequestKind::ALL), first[i as usize]);
        }
        let mut c = generator(8);
        let other: Vec<Request> = (0..200).map(|i| c.request(i, &RequestKind::ALL)).collect();
        assert_ne!(first, other);
    }

    /// The lazy stream (see the module docs) gives every request exactly
    /// as a stream filled whole would.
    #[test]
    fn a_request_from_the_first_bytes_is_the_one_from_the_whole_stream() {
        let mut lazy = generator(1);
        let mut whole = generator(1);
        for i in 0..20_000 {
            let kinds = &RequestKind::ALL[..=(i as usize % RequestKind::ALL.len())];
            let mut stream = whole.stream(i);
            for chunk in whole.entropy.chunks_exact_mut(8) {
                chunk.copy_from_slice(&stream.next().to_le_bytes());
            }
            assert_eq!(
                lazy.request(i, kinds),
                whole.build_all(kinds),
                "request {i}"
            );
        }
    }

    /// The requests of seed 1, pinned by a hash of their protocol lines:
    /// what makes them cheaper must not change them (the fuzzer's findings
    /// follow from them).
    #[test]
    fn the_requests_of_seed_1_are_pinned() {
        let mut g = generator(1);
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for i in 0..50_000 {
            let line =
                wow_guid_harness::protocol::request_line("-", &g.request(i, &RequestKind::ALL));
            for b in line.bytes().chain([b'\n']) {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(hash, 0xae02_19ea_fc4e_e362, "{hash:#018x}");
    }

    #[test]
    fn only_the_asked_kinds_come_out() {
        let mut g = generator(1);
        for i in 0..500 {
            let r = g.request(i, &[RequestKind::EncodePacked, RequestKind::DecodeNamed]);
            assert!(matches!(
                r.kind(),
                RequestKind::EncodePacked | RequestKind::DecodeNamed
            ));
        }
    }

    /// The generators reach the cases the module docs promise, often.
    #[test]
    fn the_interesting_cases_come_up() {
        let mut g = generator(3);
        let requests: Vec<Request> = (0..20_000)
            .map(|i| g.request(i, &RequestKind::ALL))
            .collect();
        let count = |f: &dyn Fn(&Request) -> bool| requests.iter().filter(|r| f(r)).count();
        let sign_bit_at_3 = count(&|r| match r {
            Request::DecodePacked { bytes } => {
                bytes.len() >= 2 && bytes[0] & 0x08 != 0 && {
                    let at = 1 + (bytes[0] & 0x07).count_ones() as usize;
                    bytes.get(at).is_some_and(|&b| b >= 0x80)
                }
            }
            _ => false,
        });
        let long_names = count(&|r| match r {
            Request::DecodeNamed { bytes } => {
                bytes.len() > 8 + 257 && !bytes[8..8 + 257].contains(&0)
            }
            _ => false,
        });
        let boundary = |n: usize| {
            count(&|r| match r {
                Request::EncodeNamed {
                    name: Some(name), ..
                } => name.len() == n,
                _ => false,
            })
        };
        let missing_nul = count(&|r| match r {
            Request::DecodeNamed { bytes } => {
                bytes.len() >= 8 && bytes[..8] != [0; 8] && !bytes[8..].contains(&0)
            }
            _ => false,
        });
        let invalid_names = count(&|r| match r {
            Request::EncodeNamed {
                name: Some(name), ..
            } => std::str::from_utf8(name).is_err(),
            _ => false,
        });
        let zero_guid_with_name = count(&|r| match r {
            Request::DecodeNamed { bytes } => bytes.len() > 9 && bytes[..8] == [0; 8],
            _ => false,
        });
        for (what, n) in [
            ("sign bit at position 3", sign_bit_at_3),
            ("257+ byte names", long_names),
            ("255-byte names", boundary(255)),
            ("256-byte names", boundary(256)),
            ("257-byte names", boundary(257)),
            ("missing NUL", missing_nul),
            ("invalid UTF-8 names", invalid_names),
            ("GUID 0 followed by a name", zero_guid_with_name),
        ] {
            assert!(n >= 20, "only {n} of 20000 requests have {what}");
        }
    }

    /// The generator knows the fault model: within a stated number of
    /// requests at a fixed seed it asks every named-GUID cell of the model
    /// (every class, every kind of invalid UTF-8, every buffer length with
    /// its multi-byte end, each fault and each pair), as the corpus does.
    #[test]
    fn the_requests_reach_every_named_cell_of_the_fault_model() {
        use wow_guid_vectors::fault_model::FaultModel;
        // 25,000 requests of each of the six kinds, as the four took
        // 100,000 before `size` was added.
        const REQUESTS: u64 = 150_000;
        let model = FaultModel::load().expect("the model loads");
        let mut missing: Vec<_> = model
            .cells()
            .into_iter()
            .filter(|c| c.request.guid_type() == wow_guid_vectors::GuidType::NamedGuid)
            .collect();
        let mut g = generator(1);
        for i in 0..REQUESTS {
            if missing.is_empty() {
                break;
            }
            let request = g.request(i, &RequestKind::ALL);
            let at = model.coordinates(&request);
            missing.retain(|cell| !(cell.request == request.kind() && at.covers(cell)));
        }
        assert!(
            missing.is_empty(),
            "{} named cells not reached in {REQUESTS} requests at seed 1:\n{}",
            missing.len(),
            missing
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
