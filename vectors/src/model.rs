//! The in-memory form of a vector: what to ask an implementation, what to
//! expect back, and where in the corpus the vector was written.
//!
//! These types are plain data shared by every consumer (codec tests, the
//! runner, fuzz corpus seeding). They hold already-validated values: the
//! loader is the only place that checks the rules, and this module never
//! touches files or YAML.

use core::fmt;
use std::sync::Arc;

use crate::vocab::{ErrorCode, Flag, GuidType, Op, Outcome, Version};

/// What an implementation is asked to do, with its input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// Decode a packed GUID from the front of `bytes`.
    DecodePacked {
        /// The input; bytes after the value belong to the next field.
        bytes: Vec<u8>,
    },
    /// Encode `guid` as a packed GUID.
    EncodePacked {
        /// The GUID to encode.
        guid: u64,
    },
    /// Decode a named GUID from the front of `bytes`.
    DecodeNamed {
        /// The input; bytes after the value belong to the next field.
        bytes: Vec<u8>,
    },
    /// Encode `guid` and `name` as a named GUID.
    EncodeNamed {
        /// The GUID to encode.
        guid: u64,
        /// The name's bytes, or `None` when the vector gives no name (which is
        /// different from an empty name). Not necessarily valid: vectors that
        /// expect `interior_nul` or `invalid_utf8` pass such names on purpose.
        name: Option<Vec<u8>>,
    },
    /// Say how many bytes the packed-GUID encoding of `guid` takes.
    SizePacked {
        /// The GUID to measure.
        guid: u64,
    },
    /// Say how many bytes the named-GUID encoding of `guid` and `name`
    /// takes, or refuse the value as [`Request::EncodeNamed`] would.
    SizeNamed {
        /// The GUID to measure.
        guid: u64,
        /// The name's bytes, or `None` when none is given, exactly as for
        /// [`Request::EncodeNamed`].
        name: Option<Vec<u8>>,
    },
}

/// The shortest name an implementation may refuse as too long, in bytes
/// without the NUL.
///
/// An implementation MAY bound the length of names, at this many bytes or
/// more: real clients read names into 256-byte buffers (255 bytes and the
/// NUL), so every name of up to 255 bytes must be read and written whole.
/// A bounded implementation answers a longer name with the error
/// `name_too_long`, never with a cut name (`NOTES.md`, "Names longer than
/// a bound").
pub const NAME_BOUND_FLOOR: usize = 256;

impl Request {
    /// The length in bytes of the name this request carries, without its
    /// NUL: the name to encode, or the bytes a decoder reads as a name (after
    /// a non-zero GUID, up to the first `00` or the end of the input).
    /// `None` when there is no name: packed GUIDs, GUID 0, a decode input
    /// shorter than the GUID, an encode without a name.
    #[must_use]
    pub fn name_len(&self) -> Option<usize> {
        match self {
            Request::DecodePacked { .. }
            | Request::EncodePacked { .. }
            | Request::SizePacked { .. } => None,
            Request::EncodeNamed { name, .. } | Request::SizeNamed { name, .. } => {
                name.as_ref().map(Vec::len)
            }
            Request::DecodeNamed { bytes } => {
                let (guid, name) = bytes.split_at_checked(8)?;
                if guid.iter().all(|&b| b == 0) {
                    return None;
                }
                Some(name.iter().position(|&b| b == 0).unwrap_or(name.len()))
            }
        }
    }

    /// Whether an implementation that bounds names may answer this request
    /// with the error `name_too_long`: its name is [`NAME_BOUND_FLOOR`] bytes
    /// or longer. The permission holds whatever the vector expects
    /// otherwise, a value or another error: a bounded reader stops at its
    /// bound before it meets a missing NUL or a bad byte further on.
    #[must_use]
    pub fn may_refuse_as_too_long(&self) -> bool {
        self.name_len().is_some_and(|len| len >= NAME_BOUND_FLOOR)
    }
    /// The kind of request: which operation on which type.
    #[must_use]
    pub const fn kind(&self) -> RequestKind {
        match self {
            Request::DecodePacked { .. } => RequestKind::DecodePacked,
            Request::EncodePacked { .. } => RequestKind::EncodePacked,
            Request::DecodeNamed { .. } => RequestKind::DecodeNamed,
            Request::EncodeNamed { .. } => RequestKind::EncodeNamed,
            Request::SizePacked { .. } => RequestKind::SizePacked,
            Request::SizeNamed { .. } => RequestKind::SizeNamed,
        }
    }

    /// The encode request of the value a `size` request measures: its
    /// answer is the length of that request's answer, or the same refusal.
    /// `None` for any other request.
    #[must_use]
    pub fn measured(&self) -> Option<Request> {
        match self {
            Request::SizePacked { guid } => Some(Request::EncodePacked { guid: *guid }),
            Request::SizeNamed { guid, name } => Some(Request::EncodeNamed {
                guid: *guid,
                name: name.clone(),
            }),
            _ => None,
        }
    }

    /// The `size` request of the value an encode request writes, the
    /// inverse of [`Request::measured`]. `None` for any other request.
    #[must_use]
    pub fn size_request(&self) -> Option<Request> {
        match self {
            Request::EncodePacked { guid } => Some(Request::SizePacked { guid: *guid }),
            Request::EncodeNamed { guid, name } => Some(Request::SizeNamed {
                guid: *guid,
                name: name.clone(),
            }),
            _ => None,
        }
    }

    /// The wire type the request exercises.
    #[must_use]
    pub const fn guid_type(&self) -> GuidType {
        self.kind().guid_type()
    }

    /// Whether the request decodes or encodes.
    #[must_use]
    pub const fn op(&self) -> Op {
        self.kind().op()
    }

    /// The input bytes of a decode request, `None` for an encode request.
    #[must_use]
    pub fn input_bytes(&self) -> Option<&[u8]> {
        match self {
            Request::DecodePacked { bytes } | Request::DecodeNamed { bytes } => Some(bytes),
            _ => None,
        }
    }
}

/// The six kinds of request, each an operation on a type: what an
/// implementation may support or not, and what reports count by.
///
/// Its words are the vocabulary's: `decode packed_guid` is [`Op`]'s word,
/// a space and [`GuidType`]'s, as the protocol writes a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestKind {
    /// `decode packed_guid`.
    DecodePacked,
    /// `encode packed_guid`.
    EncodePacked,
    /// `decode named_guid`.
    DecodeNamed,
    /// `encode named_guid`.
    EncodeNamed,
    /// `size packed_guid`.
    SizePacked,
    /// `size named_guid`.
    SizeNamed,
}

impl RequestKind {
    /// Every kind, in the order of [`RequestKind::index`].
    pub const ALL: [RequestKind; 6] = [
        RequestKind::DecodePacked,
        RequestKind::EncodePacked,
        RequestKind::DecodeNamed,
        RequestKind::EncodeNamed,
        RequestKind::SizePacked,
        RequestKind::SizeNamed,
    ];

    /// The kind's operation.
    #[must_use]
    pub const fn op(self) -> Op {
        match self {
            Self::DecodePacked | Self::DecodeNamed => Op::Decode,
            Self::EncodePacked | Self::EncodeNamed => Op::Encode,
            Self::SizePacked | Self::SizeNamed => Op::Size,
        }
    }

    /// The kind's type.
    #[must_use]
    pub const fn guid_type(self) -> GuidType {
        match self {
            Self::DecodePacked | Self::EncodePacked | Self::SizePacked => GuidType::PackedGuid,
            Self::DecodeNamed | Self::EncodeNamed | Self::SizeNamed => GuidType::NamedGuid,
        }
    }

    /// The kind's place in [`RequestKind::ALL`], for arrays indexed by kind.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How the ids of vectors of this kind begin (`packed.decode`, then a
    /// `.` and the topic): the corpus's naming convention.
    #[must_use]
    pub const fn id_prefix(self) -> &'static str {
        match self {
            Self::DecodePacked => "packed.decode",
            Self::EncodePacked => "packed.encode",
            Self::DecodeNamed => "named.decode",
            Self::EncodeNamed => "named.encode",
            Self::SizePacked => "packed.size",
            Self::SizeNamed => "named.size",
        }
    }
}

/// The kind as the protocol writes it: `decode packed_guid`.
impl fmt::Display for RequestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.op(), self.guid_type())
    }
}

/// A successful result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The result of decoding a packed GUID.
    Packed {
        /// The GUID.
        guid: u64,
        /// How many input bytes the value took.
        consumed: usize,
    },
    /// The result of decoding a named GUID.
    Named {
        /// The GUID.
        guid: u64,
        /// How many input bytes the value took (GUID, name and NUL).
        consumed: usize,
        /// The name's bytes without the NUL; present exactly when `guid != 0`.
        name: Option<Vec<u8>>,
    },
    /// The result of any encode: the bytes written.
    Encoded {
        /// The encoding.
        bytes: Vec<u8>,
    },
    /// The result of any `size` request: how many bytes the encoding takes.
    Size {
        /// The encoding's length in bytes.
        size: usize,
    },
}

/// What a conformant implementation does with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// It succeeds with exactly this value.
    Valid(Value),
    /// It fails; with this error code when error codes are checked strictly.
    Invalid(ErrorCode),
    /// The spec is silent: succeeding with exactly `value` and failing with
    /// any error are both conformant.
    Acceptable {
        /// The one value a succeeding implementation must produce.
        value: Value,
        /// Why both answers are allowed.
        why: String,
    },
}

impl Expectation {
    /// The outcome word of this expectation.
    #[must_use]
    pub const fn outcome(&self) -> Outcome {
        match self {
            Expectation::Valid(_) => Outcome::Valid,
            Expectation::Invalid(_) => Outcome::Invalid,
            Expectation::Acceptable { .. } => Outcome::Acceptable,
        }
    }

    /// The value a succeeding implementation must produce, if success is allowed.
    #[must_use]
    pub const fn value(&self) -> Option<&Value> {
        match self {
            Expectation::Valid(value) | Expectation::Acceptable { value, .. } => Some(value),
            Expectation::Invalid(_) => None,
        }
    }
}

/// A position in the corpus.
///
/// `file` is the path relative to the corpus root with `/` separators (for
/// example `packed_guid/decode.yaml`). `line` and `column` count from 1;
/// columns count characters, not bytes. Line 0 means the location is the whole
/// file (for example when it cannot be read), and then `Display` shows only the
/// file. The file name is shared by every location in the file, not copied.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// Path relative to the corpus root, `/`-separated.
    pub file: Arc<str>,
    /// Line, from 1; 0 for the whole file.
    pub line: usize,
    /// Column in characters, from 1; 0 for the whole file.
    pub column: usize,
}

impl Location {
    /// A location that stands for a whole file.
    #[must_use]
    pub fn whole_file(file: &str) -> Self {
        Location {
            file: file.into(),
            line: 0,
            column: 0,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.file)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        }
    }
}

/// One test vector: a request, what to expect, and what it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// Unique across the corpus and never reused: `[a-z0-9][a-z0-9._-]*`.
    pub id: String,
    /// The stateful sequence this vector is a step of, by name, or `None`
    /// for a vector that stands alone; the crate documentation's
    /// [Sequences](crate#sequences) says what the loader holds steps to.
    pub sequence: Option<String>,
    /// One line saying what the vector checks.
    pub description: String,
    /// What to ask the implementation.
    pub request: Request,
    /// What a conformant implementation answers.
    pub expect: Expectation,
    /// Topics, in the order written; no duplicates. A loaded corpus keeps
    /// one copy of each distinct list, shared by the vectors that have it
    /// (so are `versions` and `source`).
    pub flags: Arc<[Flag]>,
    /// The client versions the vector applies to, in the order written; at
    /// least one, no duplicates.
    pub versions: Arc<[Version]>,
    /// Where the expectation comes from (a spec sentence, a real bug), if given.
    pub source: Option<Arc<str>>,
    /// Where the vector starts in the corpus.
    pub location: Location,
}

impl Vector {
    /// Whether the vector carries `flag`.
    #[must_use]
    pub fn has_flag(&self, flag: Flag) -> bool {
        self.flags.contains(&flag)
    }

    /// Whether `self` and `other` are steps of one sequence, which must run
    /// together, in order, in one session.
    #[must_use]
    pub fn same_sequence(&self, other: &Vector) -> bool {
        self.sequence.is_some() && self.sequence == other.sequence
    }

    /// Whether the vector applies to `version`.
    #[must_use]
    pub fn applies_to(&self, version: Version) -> bool {
        self.versions.contains(&version)
    }
}
