//! The fault model's words: its axes, faults and name classes, and the
//! values a cell takes on each axis. Each list is declared once, here, as
//! a word enum; `fault-model.yaml` is read into these enums (a misspelt
//! word is refused at its line), and every match over them is exhaustive,
//! so the compiler names each place a new fault, class or axis needs.
//!
//! The axes and faults are declared in the alphabetical order of their
//! words: a cell lists its values in axis order, and a generated vector's
//! id is built from them, so the order is part of the ids (a test keeps
//! it).

use core::fmt;
use std::collections::BTreeSet;

use super::utf8::Utf8Cell;
use crate::vocab::word_enum;

word_enum! {
    /// An axis of the model: one thing a request's bytes show.
    pub enum Axis ("axis") {
        /// `class`: what a name's bytes hold.
        Class = "class",
        /// `cut`: where a packed GUID's input ends inside the value.
        Cut = "cut",
        /// `fault`: the faults the input carries.
        Fault = "fault",
        /// `guid`: whether a named GUID is 0.
        Guid = "guid",
        /// `guid-bytes`: how many GUID bytes a short named GUID has.
        GuidBytes = "guid-bytes",
        /// `length`: a name's length in bytes.
        Length = "length",
        /// `mask`: a packed GUID's mask.
        Mask = "mask",
        /// `name`: whether a name is given to encode.
        Name = "name",
        /// `nul-at`: where a name to encode holds a NUL.
        NulAt = "nul-at",
        /// `trailing`: whether the input goes on after the value.
        Trailing = "trailing",
        /// `utf8`: a cell of the table of well-formed UTF-8.
        Utf8 = "utf8",
        /// `zero-byte-at`: where a packed GUID sends a `00` byte.
        ZeroByteAt = "zero-byte-at",
    }
}

word_enum! {
    /// A fault an input can carry.
    pub enum Fault ("fault") {
        /// `interior_nul`: a name to encode holds a NUL.
        InteriorNul = "interior_nul",
        /// `invalid_utf8`: a name is not UTF-8.
        InvalidUtf8 = "invalid_utf8",
        /// `missing_terminator`: a name runs to the end without its NUL.
        MissingTerminator = "missing_terminator",
        /// `name_with_guid_zero`: a name given with GUID 0.
        NameWithGuidZero = "name_with_guid_zero",
        /// `truncated`: a packed GUID's input ends inside the value.
        Truncated = "truncated",
        /// `truncated_guid`: a named GUID's input ends inside the GUID.
        TruncatedGuid = "truncated_guid",
    }
}

word_enum! {
    /// What a name's bytes show (a name has every class its bytes show).
    pub enum Class ("name class") {
        /// `empty`: no bytes.
        Empty = "empty",
        /// `ascii`: only bytes `01`..`7f`.
        Ascii = "ascii",
        /// `control`: a C0 control character or DEL, valid and kept.
        Control = "control",
        /// `utf8-2`: a 2-byte character.
        Utf82 = "utf8-2",
        /// `utf8-3`: a 3-byte character.
        Utf83 = "utf8-3",
        /// `utf8-4`: a 4-byte character.
        Utf84 = "utf8-4",
        /// `bom`: starts with U+FEFF.
        Bom = "bom",
        /// `noncharacter`: a noncharacter, valid and kept.
        Noncharacter = "noncharacter",
        /// `ends-multibyte`: the last character is multi-byte.
        EndsMultibyte = "ends-multibyte",
        /// `ends-utf8-4`: the last character is a 4-byte character.
        EndsUtf84 = "ends-utf8-4",
        /// `ends-invalid`: the last byte is part of an invalid sequence.
        EndsInvalid = "ends-invalid",
        /// `stray-continuation`: a continuation byte where a character
        /// should start.
        StrayContinuation = "stray-continuation",
        /// `truncated-sequence`: a lead byte without all its continuations.
        TruncatedSequence = "truncated-sequence",
        /// `overlong`: an overlong form.
        Overlong = "overlong",
        /// `surrogate`: a surrogate.
        Surrogate = "surrogate",
        /// `above-max`: above U+10FFFF.
        AboveMax = "above-max",
    }
}

impl Class {
    /// Whether a name showing this class is not UTF-8.
    #[must_use]
    pub const fn is_invalid(self) -> bool {
        matches!(
            self,
            Class::StrayContinuation
                | Class::TruncatedSequence
                | Class::Overlong
                | Class::Surrogate
                | Class::AboveMax
        )
    }
}

word_enum! {
    /// Whether the input goes on after the value.
    pub enum Trailing ("trailing") {
        /// `yes`: the next field's bytes follow.
        Yes = "yes",
        /// `no`: the input ends with the value.
        No = "no",
    }
}

word_enum! {
    /// Whether a named GUID is 0.
    pub enum GuidIs ("GUID") {
        /// `zero`: GUID 0, which carries no name.
        Zero = "zero",
        /// `non-zero`: a GUID followed by a name.
        NonZero = "non-zero",
    }
}

word_enum! {
    /// Whether a name is given to encode.
    pub enum NameIs ("name") {
        /// `given`: a name is given.
        Given = "given",
        /// `absent`: no name at all.
        Absent = "absent",
    }
}

word_enum! {
    /// Where a name to encode holds its first NUL.
    pub enum NulAt ("NUL position") {
        /// `first`: the name's first byte.
        First = "first",
        /// `middle`: neither first nor last.
        Middle = "middle",
        /// `last`: the name's last byte.
        Last = "last",
    }
}

/// The faults one input carries: none, one, or a pair (in the
/// alphabetical order of their words, which is [`Fault`]'s order).
pub type Faults = BTreeSet<Fault>;

/// A set of faults as the model writes it: the words joined by `+`, `none`
/// when empty.
#[must_use]
pub fn fault_words(faults: &Faults) -> String {
    if faults.is_empty() {
        return "none".to_owned();
    }
    let words: Vec<&str> = faults.iter().map(|f| f.as_str()).collect();
    words.join("+")
}

/// One value on one axis: what a cell asks for, and what a request's
/// bytes show.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CellValue {
    /// `class`.
    Class(Class),
    /// `cut`: how many GUID bytes came before the end; `None` when not even
    /// the mask byte did (`empty`).
    Cut(Option<u8>),
    /// `fault`.
    Faults(Faults),
    /// `guid`.
    Guid(GuidIs),
    /// `guid-bytes`.
    GuidBytes(u8),
    /// `length`.
    Length(usize),
    /// `mask`.
    Mask(u8),
    /// `name`.
    Name(NameIs),
    /// `nul-at`.
    NulAt(NulAt),
    /// `trailing`.
    Trailing(Trailing),
    /// `utf8`.
    Utf8(Utf8Cell),
    /// `zero-byte-at`.
    ZeroByteAt(u8),
}

impl CellValue {
    /// The axis the value lies on.
    #[must_use]
    pub fn axis(&self) -> Axis {
        match self {
            CellValue::Class(_) => Axis::Class,
            CellValue::Cut(_) => Axis::Cut,
            CellValue::Faults(_) => Axis::Fault,
            CellValue::Guid(_) => Axis::Guid,
            CellValue::GuidBytes(_) => Axis::GuidBytes,
            CellValue::Length(_) => Axis::Length,
            CellValue::Mask(_) => Axis::Mask,
            CellValue::Name(_) => Axis::Name,
            CellValue::NulAt(_) => Axis::NulAt,
            CellValue::Trailing(_) => Axis::Trailing,
            CellValue::Utf8(_) => Axis::Utf8,
            CellValue::ZeroByteAt(_) => Axis::ZeroByteAt,
        }
    }
}

/// The value's word in the model file and in generated ids.
impl fmt::Display for CellValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellValue::Class(class) => class.fmt(f),
            CellValue::Cut(None) => f.write_str("empty"),
            CellValue::Cut(Some(n)) | CellValue::GuidBytes(n) | CellValue::ZeroByteAt(n) => {
                n.fmt(f)
            }
            CellValue::Faults(faults) => f.write_str(&fault_words(faults)),
            CellValue::Guid(guid) => guid.fmt(f),
            CellValue::Length(length) => length.fmt(f),
            CellValue::Mask(mask) => write!(f, "{mask:02x}"),
            CellValue::Name(name) => name.fmt(f),
            CellValue::NulAt(at) => at.fmt(f),
            CellValue::Trailing(trailing) => trailing.fmt(f),
            CellValue::Utf8(cell) => f.write_str(&cell.word),
        }
    }
}
