//! One vector for each named-GUID cell of the fault model
//! (`fault-model.yaml`) that no hand-written vector already asks, built
//! from the cell's values by the format's definition. Every match over the
//! model's axes, classes and faults here is exhaustive: a new one does not
//! compile until this file says how to build it.

use super::{vector, DIR, NAMED_GUID, NEXT_FIELD};
use crate::fault_model::{
    coordinates, CellValue, Class, Fault, FaultCell, FaultModel, Faults, GuidIs, NameIs, NulAt,
    Trailing,
};
use crate::hex_text::format_guid;
use crate::model::{Expectation, Request, RequestKind, Value, Vector, NAME_BOUND_FLOOR};
use crate::vocab::{ErrorCode, Flag, GuidType};

/// The file of the fault model's named-GUID cells.
pub(super) const FILE: &str = "generated/named-fault-cells.yaml";

/// The note every cell's vector cites.
const SOURCE: &str = "NOTES.md#two-faults-in-one-input: one fault is answered with its own code, two with the code the precedence gives";

/// A short name of each class of the fault model: the class's bytes between
/// letters, so the class is all the name shows.
fn class_name(class: Class) -> &'static [u8] {
    match class {
        Class::Empty => b"",
        Class::Ascii => b"Thrall",
        Class::Utf82 => "Caf\u{e9}s".as_bytes(),
        Class::Utf83 => "5\u{20ac}s".as_bytes(),
        Class::Utf84 => "a\u{1f600}b".as_bytes(),
        Class::Bom => "\u{feff}Thrall".as_bytes(),
        Class::Noncharacter => "a\u{fdd0}b".as_bytes(),
        Class::EndsMultibyte => "a\u{e9}".as_bytes(),
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

/// A name of `len` bytes ending in a multi-byte character (two bytes when
/// `len` is 2, three from 3 on), so a buffer of `len` bytes or one less
/// cuts inside the character; letters before it.
fn ends_multibyte(len: usize) -> Vec<u8> {
    let last: &[u8] = if len >= 3 {
        "\u{20ac}".as_bytes()
    } else {
        "\u{e9}".as_bytes()
    };
    let mut name = letters(len - last.len());
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
    faults: Faults,
}

impl Wanted {
    fn of(cell: &FaultCell) -> Wanted {
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
            }
        }
        w
    }

    /// The name's bytes and what they are, in words.
    fn name(&self) -> (Vec<u8>, String) {
        match (self.length, self.class, self.nul_at) {
            (Some(len), Some(Class::EndsInvalid), _) => {
                let mut name = letters(len - 1);
                name.push(0x80);
                let what =
                    format!("a {len}-byte name whose last byte is a stray continuation byte 80");
                (name, what)
            }
            (Some(len), _, _) => (
                ends_multibyte(len),
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

    /// How each fault shows in the request, beyond what the name's bytes
    /// already hold: (the name ends with its NUL, the GUID is 0, a NUL and
    /// `z` follow the name's bytes).
    fn placed(&self) -> (bool, bool, bool) {
        let (mut terminated, mut guid_zero, mut nul_after) = (true, false, false);
        for fault in self.faults.iter() {
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
        let words: Vec<&str> = faults.iter().map(Fault::as_str).collect();
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
        let wanted = Wanted::of(&cell);
        let (request, expect, description) = match cell.request {
            RequestKind::DecodeNamed => decode(&model, &wanted),
            _ => encode(&model, &wanted),
        };
        if written.contains(&request) {
            continue;
        }
        out.push(vector(
            FILE,
            id(&cell, &wanted.faults),
            description,
            request,
            expect,
            Flag::FaultCell,
            Some(SOURCE),
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
    let expect = match model.code_for(&coordinates(&request).faults) {
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
        model.code_for(&coordinates(&request).faults),
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

/// `text` with its first letter upper-case.
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
