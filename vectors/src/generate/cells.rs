//! One vector for each named-GUID cell of the fault model
//! (`fault-model.yaml`) that no hand-written vector already asks, built
//! from the cell's values by the format's definition. Every match over the
//! model's axes, classes and faults here is exhaustive: a new one does not
//! compile until this file says how to build it.

use super::{vector, DIR, NAMED_GUID, NEXT_FIELD};
use crate::fault_model::{
    Axis, CellValue, Class, Fault, FaultCell, FaultModel, Faults, GuidIs, NameIs, NulAt, Trailing,
    Utf8Cell,
};
use crate::hex_text::{format_guid, format_spaced};
use crate::model::{Expectation, Request, RequestKind, Value, Vector, NAME_BOUND_FLOOR};
use crate::vocab::{ErrorCode, Flag, GuidType};

/// The file of the fault model's named-GUID cells.
pub(super) const FILE: &str = "generated/named-fault-cells.yaml";

/// The note a cell's vector cites.
const SOURCE: &str = "NOTES.md#two-faults-in-one-input: one fault is answered with its own code, two with the code the precedence gives";

/// The note the vector of a UTF-8 cell, of a control character or of a
/// name ending in a 4-byte character cites, when it carries one fault at
/// most.
const UTF8_SOURCE: &str = "NOTES.md#every-bound-of-the-utf-8-table: every bound of the standard's table of well-formed UTF-8, from both sides, each sequence cut short, and the forms real code writes beyond it";

/// A short name of each class of the fault model: the class's bytes between
/// letters, so the class is all the name shows.
fn class_name(class: Class) -> &'static [u8] {
    match class {
        Class::Empty => b"",
        Class::Ascii => b"Thrall",
        // Every C0 control character, then DEL.
        Class::Control => b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f",
        Class::Utf82 => "Caf\u{e9}s".as_bytes(),
        Class::Utf83 => "5\u{20ac}s".as_bytes(),
        Class::Utf84 => "a\u{1f600}b".as_bytes(),
        Class::Bom => "\u{feff}Thrall".as_bytes(),
        Class::Noncharacter => "a\u{fdd0}b".as_bytes(),
        Class::EndsMultibyte => "a\u{e9}".as_bytes(),
        Class::EndsUtf84 => "a\u{1f600}".as_bytes(),
        Class::EndsInvalid => b"a\x80",
        Class::StrayContinuation => b"a\x80b",
        Class::TruncatedSequence => b"a\xe2\x82b",
        Class::Overlong => b"a\xc0\xafb",
        Class::Surrogate => b"a\xed\xa0\x80b",
        Class::AboveMax => b"a\xf4\x90\x80\x80b",
    }
}

/// `len` letters a to z, over and over.
fn letters(len: usize) -> Vec<u8> {
    (0..len).map(|i| b'a' + (i % 26) as u8).collect()
}

/// A name of `len` bytes ending in a multi-byte character, so a buffer of
/// `len` bytes or one less cuts inside the character; letters before it.
/// The character is U+1F600 (four bytes) when `four`, else U+20AC (three)
/// from a length of 3 on and U+00E9 (two) at 2.
fn ends_multibyte(len: usize, four: bool) -> Vec<u8> {
    let last: &[u8] = match (four, len) {
        (true, _) => "\u{1f600}".as_bytes(),
        (false, 3..) => "\u{20ac}".as_bytes(),
        (false, _) => "\u{e9}".as_bytes(),
    };
    let mut name = letters(len.saturating_sub(last.len()));
    name.extend_from_slice(last);
    name
}

/// What a cell asks of its vector, value by value.
#[derive(Default)]
struct Wanted {
    guid_bytes: Option<u8>,
    guid: Option<GuidIs>,
    trailing: bool,
    class: Option<Class>,
    absent: bool,
    nul_at: Option<NulAt>,
    length: Option<usize>,
    /// A UTF-8 cell's bytes, and what they are: every cell with those
    /// bytes, for one vector asks them all.
    utf8: Option<(Vec<u8>, String)>,
    faults: Faults,
}

impl Wanted {
    fn of(cell: &FaultCell, model: &FaultModel) -> Wanted {
        let mut w = Wanted::default();
        for value in &cell.values {
            match value {
                // Packed-GUID axes: their cells are other families' vectors.
                CellValue::Cut(_) | CellValue::Mask(_) | CellValue::ZeroByteAt(_) => {}
                CellValue::Class(class) => w.class = Some(*class),
                CellValue::Faults(faults) => w.faults = faults.clone(),
                CellValue::Guid(guid) => w.guid = Some(*guid),
                CellValue::GuidBytes(n) => w.guid_bytes = Some(*n),
                CellValue::Length(len) => w.length = Some(*len),
                CellValue::Name(name) => w.absent = *name == NameIs::Absent,
                CellValue::NulAt(at) => w.nul_at = Some(*at),
                CellValue::Trailing(trailing) => w.trailing = *trailing == Trailing::Yes,
                CellValue::Utf8(cell) => w.utf8 = Some(utf8_cells(model, cell)),
            }
        }
        w
    }

    /// The name's bytes and what they are, in words.
    fn name(&self) -> (Vec<u8>, String) {
        if let Some((bytes, about)) = &self.utf8 {
            let what = format!("the name {} ({about})", format_spaced(bytes));
            return (bytes.clone(), what);
        }
        match (self.length, self.class, self.nul_at) {
            (Some(len), Some(Class::EndsInvalid), _) => {
                let mut name = letters(len - 1);
                name.push(0x80);
                let what =
                    format!("a {len}-byte name whose last byte is a stray continuation byte 80");
                (name, what)
            }
            (Some(len), Some(Class::EndsUtf84), _) => (
                ends_multibyte(len, true),
                format!("a {len}-byte name ending in a 4-byte character"),
            ),
            (Some(len), _, _) => (
                ends_multibyte(len, false),
                format!("a {len}-byte name ending in a multi-byte character"),
            ),
            (None, Some(class), _) => (
                class_name(class).to_vec(),
                format!("a name of class {class}"),
            ),
            (None, None, Some(at)) => {
                let name = match at {
                    NulAt::First => b"\0abc".to_vec(),
                    NulAt::Middle => b"ab\0c".to_vec(),
                    NulAt::Last => b"abc\0".to_vec(),
                };
                (name, format!("a name whose NUL is its {at} byte"))
            }
            (None, None, None) => (b"a".to_vec(), "the name a".to_owned()),
        }
    }

    fn source(&self) -> &'static str {
        let utf8 =
            self.utf8.is_some() || matches!(self.class, Some(Class::Control | Class::EndsUtf84));
        if utf8 && self.faults.len() < 2 {
            UTF8_SOURCE
        } else {
            SOURCE
        }
    }

    /// How each fault shows in the request, beyond what the name's bytes
    /// already hold: (the name ends with its NUL, the GUID is 0, a NUL and
    /// `z` follow the name's bytes).
    fn placed(&self) -> (bool, bool, bool) {
        let (mut terminated, mut guid_zero, mut nul_after) = (true, false, false);
        for &fault in &self.faults {
            match fault {
                Fault::MissingTerminator => terminated = false,
                Fault::NameWithGuidZero => guid_zero = true,
                Fault::InteriorNul => nul_after = self.nul_at.is_none(),
                // The name's bytes hold it (its class or length cell).
                Fault::InvalidUtf8 => {}
                // The input's length holds it (`guid-bytes`); a packed
                // GUID's `cut` cells are another family's.
                Fault::TruncatedGuid | Fault::Truncated => {}
            }
        }
        (terminated, guid_zero, nul_after)
    }
}

/// A UTF-8 cell's bytes and what they are, in the words of every cell
/// with the same bytes.
fn utf8_cells(model: &FaultModel, cell: &Utf8Cell) -> (Vec<u8>, String) {
    let abouts: Vec<String> = model
        .values(Axis::Utf8)
        .into_iter()
        .filter_map(|value| match value {
            CellValue::Utf8(other) if other.bytes == cell.bytes => Some(other.about),
            _ => None,
        })
        .collect();
    (cell.bytes.clone(), abouts.join("; "))
}

/// The id of a cell's vector: its request, each value but the faults, then
/// the faults (or `valid`).
fn id(cell: &FaultCell, faults: &Faults) -> String {
    let mut id = format!("{}.cell", cell.request.id_prefix());
    for value in &cell.values {
        if !matches!(value, CellValue::Faults(_)) {
            id.push_str(&format!(".{}-{value}", value.axis()));
        }
    }
    id.push('.');
    if faults.is_empty() {
        id.push_str("valid");
    } else {
        let words: Vec<&str> = faults.iter().map(|f| f.as_str()).collect();
        id.push_str(&words.join("."));
    }
    id
}

/// One vector for each cell of the fault model's named-GUID grids.
pub(super) fn fault_cells() -> Vec<Vector> {
    // The checked-in model is valid: a test loads it, and so does the
    // coverage test; an invalid one generates no cells, which that test
    // reports.
    let Ok(model) = FaultModel::load() else {
        return Vec::new();
    };
    // A cell whose one possible input a hand-written vector already asks
    // (GUID 0 alone, the empty input) gets no second vector: the corpus
    // refuses two vectors with one request and answer.
    let written: Vec<Request> = crate::Corpus::embedded_with_errors()
        .0
        .vectors
        .into_iter()
        .filter(|v| !v.location.file.starts_with(DIR))
        .map(|v| v.request)
        .collect();
    let mut out = Vec::new();
    for cell in model.cells() {
        if cell.request.guid_type() != GuidType::NamedGuid {
            continue;
        }
        let wanted = Wanted::of(&cell, &model);
        let (request, expect, description) = match cell.request {
            RequestKind::DecodeNamed => decode(&model, &wanted),
            RequestKind::EncodeNamed => encode(&model, &wanted),
            // The size cells are written by hand (named_guid/size.yaml):
            // the coverage test names one that lacks its vector.
            RequestKind::SizeNamed
            | RequestKind::DecodePacked
            | RequestKind::EncodePacked
            | RequestKind::SizePacked => continue,
        };
        // A request asked already (by hand, or for another cell with the
        // same bytes) covers this cell too: the corpus refuses two vectors
        // with one request and answer.
        if written.contains(&request) || out.iter().any(|v: &Vector| v.request == request) {
            continue;
        }
        let faults = model.coordinates(&request).faults;
        out.push(vector(
            FILE,
            id(&cell, &faults),
            description,
            request,
            expect,
            Flag::FaultCell,
            Some(wanted.source()),
        ));
    }
    out
}

/// A decode cell's request, expectation and description.
fn decode(model: &FaultModel, w: &Wanted) -> (Request, Expectation, String) {
    if let Some(n) = w.guid_bytes {
        let bytes = NAMED_GUID.to_le_bytes()[..usize::from(n)].to_vec();
        return (
            Request::DecodeNamed { bytes },
            Expectation::Invalid(ErrorCode::Eof),
            format!("Only {n} of the 8 GUID bytes: the input ends inside the GUID."),
        );
    }
    if w.guid == Some(GuidIs::Zero) {
        let mut bytes = vec![0u8; 8];
        if w.trailing {
            bytes.extend_from_slice(&NEXT_FIELD);
        }
        let expect = Expectation::Valid(Value::Named {
            guid: 0,
            consumed: 8,
            name: None,
        });
        let after = if w.trailing {
            "; the next field's bytes are left alone"
        } else {
            ""
        };
        let description = format!("GUID 0: no name follows{after}.");
        return (Request::DecodeNamed { bytes }, expect, description);
    }
    let (name, what) = w.name();
    let (terminated, _, _) = w.placed();
    let mut bytes = NAMED_GUID.to_le_bytes().to_vec();
    bytes.extend_from_slice(&name);
    if terminated {
        bytes.push(0);
    }
    let consumed = bytes.len();
    if w.trailing {
        bytes.extend_from_slice(&NEXT_FIELD);
    }
    let request = Request::DecodeNamed { bytes };
    let expect = match model.code_for(&model.coordinates(&request).faults) {
        Some(code) => Expectation::Invalid(code),
        None => Expectation::Valid(Value::Named {
            guid: NAMED_GUID,
            consumed,
            name: Some(name.clone()),
        }),
    };
    let layout = if !terminated {
        ", running to the end of the input without its NUL"
    } else if w.trailing {
        ", its NUL, then the next field"
    } else {
        ", then its NUL"
    };
    let description = format!(
        "{}{layout}: {}.",
        capitalise(&what),
        outcome_words(&expect, name.len()),
    );
    (request, expect, description)
}

/// An encode cell's request, expectation and description.
fn encode(model: &FaultModel, w: &Wanted) -> (Request, Expectation, String) {
    let (name, what) = w.name();
    let (_, guid_zero, nul_after) = w.placed();
    let guid = if guid_zero || w.guid == Some(GuidIs::Zero) {
        0
    } else {
        NAMED_GUID
    };
    let name = if w.absent {
        None
    } else if nul_after {
        // The class's bytes, then a NUL inside the name.
        let mut with_nul = name;
        with_nul.extend_from_slice(b"\0z");
        Some(with_nul)
    } else {
        Some(name)
    };
    let request = Request::EncodeNamed {
        guid,
        name: name.clone(),
    };
    let expect = encode_expectation(
        model.code_for(&model.coordinates(&request).faults),
        guid,
        name.as_deref(),
    );
    let description = match &name {
        None => format!(
            "GUID {} given without a name: {}.",
            format_guid(guid),
            outcome_words(&expect, 0)
        ),
        Some(bytes) => format!(
            "{} with GUID {}{}: {}.",
            capitalise(&what),
            format_guid(guid),
            if nul_after {
                ", a NUL and z after it"
            } else {
                ""
            },
            outcome_words(&expect, bytes.len()),
        ),
    };
    (request, expect, description)
}

/// What encoding `name` with `guid` is expected to give, the model's code
/// for its faults being `code`.
fn encode_expectation(code: Option<ErrorCode>, guid: u64, name: Option<&[u8]>) -> Expectation {
    let mut wire = guid.to_le_bytes().to_vec();
    match (code, name) {
        // GUID 0 with an empty name: nothing is lost by writing GUID 0
        // alone, so either answer is allowed.
        (Some(ErrorCode::NameWithoutGuid), Some(b"")) => Expectation::Acceptable {
            value: Value::Encoded { bytes: wire },
            why: "The format has no way to write a name after GUID 0. An implementation whose type tells no name from an empty name rejects this (name_without_guid); one whose type cannot writes eight 00 bytes, which loses nothing.".to_owned(),
        },
        (Some(code), _) => Expectation::Invalid(code),
        (None, None) if guid != 0 => {
            wire.push(0);
            Expectation::Acceptable {
                value: Value::Encoded { bytes: wire },
                why: "A non-zero GUID is always followed by a name on the wire. An implementation whose type cannot tell no name from an empty name writes the empty name (the GUID, then 00); one that can may reject the call.".to_owned(),
            }
        }
        (None, None) => Expectation::Valid(Value::Encoded { bytes: wire }),
        (None, Some(bytes)) => {
            wire.extend_from_slice(bytes);
            wire.push(0);
            Expectation::Valid(Value::Encoded { bytes: wire })
        }
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What a fault cell's vector expects, in words.
fn outcome_words(expect: &Expectation, name_len: usize) -> String {
    let bound = if name_len >= NAME_BOUND_FLOOR {
        super::names::bound_note(name_len)
    } else {
        ""
    };
    match expect {
        Expectation::Invalid(code) => format!("error {code}{bound}"),
        Expectation::Valid(_) => format!("read and written whole{bound}"),
        Expectation::Acceptable { .. } => "either answer is allowed".to_owned(),
    }
}
