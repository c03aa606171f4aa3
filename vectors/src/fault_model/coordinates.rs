//! Where a request lies in the fault model, read off its bytes alone: the
//! values it has on each axis and the faults it carries.

use std::collections::BTreeSet;

use super::utf8::shown;
use super::{
    CellValue, Class, Fault, FaultCell, FaultModel, Faults, GuidIs, NameIs, NulAt, Trailing,
};
use crate::model::Request;

/// Where a request lies in the model: the values its bytes have, and its
/// faults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coordinates {
    /// Every value the bytes show (a name can show several classes). The
    /// `fault` axis is not here: see `faults`.
    pub values: BTreeSet<CellValue>,
    /// The faults.
    pub faults: Faults,
}

impl Coordinates {
    fn set(&mut self, value: CellValue) {
        self.values.insert(value);
    }

    fn fault(&mut self, fault: Fault) {
        self.faults.insert(fault);
    }

    /// Whether these coordinates have the cell's value on each of its axes.
    #[must_use]
    pub fn covers(&self, cell: &FaultCell) -> bool {
        cell.values.iter().all(|value| match value {
            CellValue::Faults(faults) => *faults == self.faults,
            value => self.values.contains(value),
        })
    }
}

/// `yes` when `more`.
fn trailing(more: bool) -> CellValue {
    CellValue::Trailing(if more { Trailing::Yes } else { Trailing::No })
}

impl FaultModel {
    /// The model's coordinates of `request`, from its bytes alone.
    #[must_use]
    pub fn coordinates(&self, request: &Request) -> Coordinates {
        let mut c = Coordinates::default();
        match request {
            Request::DecodePacked { bytes } => packed_coordinates(bytes, &mut c),
            Request::EncodePacked { guid } | Request::SizePacked { guid } => {
                let bytes = guid.to_le_bytes();
                let mask = (0..8)
                    .filter(|&i| bytes[i] != 0)
                    .fold(0u8, |m, i| m | (1 << i));
                c.set(CellValue::Mask(mask));
            }
            Request::DecodeNamed { bytes } => {
                if let Some(name) = named_coordinates(bytes, &mut c) {
                    self.name_coordinates(name, &mut c);
                }
            }
            Request::EncodeNamed { guid, name } | Request::SizeNamed { guid, name } => {
                if let Some(name) = encoded_coordinates(*guid, name.as_deref(), &mut c) {
                    self.name_coordinates(name, &mut c);
                }
            }
        }
        c
    }

    /// The name's length, classes and UTF-8 cells, and `invalid_utf8` when
    /// it is not UTF-8.
    fn name_coordinates(&self, name: &[u8], c: &mut Coordinates) {
        c.set(CellValue::Length(name.len()));
        let classes = name_classes(name);
        if classes.iter().any(|class| class.is_invalid()) {
            c.fault(Fault::InvalidUtf8);
        }
        for class in classes {
            c.set(CellValue::Class(class));
        }
        for cell in shown(&self.utf8_cells, name) {
            c.set(CellValue::Utf8(cell.clone()));
        }
    }
}

/// A named GUID's input: a short GUID, GUID 0, or a GUID and the name to
/// look at, which is returned.
fn named_coordinates<'a>(bytes: &'a [u8], c: &mut Coordinates) -> Option<&'a [u8]> {
    let Some((guid, rest)) = bytes.split_first_chunk::<8>() else {
        c.set(CellValue::GuidBytes(bytes.len() as u8));
        c.fault(Fault::TruncatedGuid);
        return None;
    };
    if u64::from_le_bytes(*guid) == 0 {
        c.set(CellValue::Guid(GuidIs::Zero));
        c.set(trailing(!rest.is_empty()));
        return None;
    }
    c.set(CellValue::Guid(GuidIs::NonZero));
    Some(match rest.iter().position(|&b| b == 0) {
        Some(end) => {
            c.set(trailing(end + 1 < rest.len()));
            &rest[..end]
        }
        None => {
            c.set(trailing(false));
            c.fault(Fault::MissingTerminator);
            rest
        }
    })
}

/// A named GUID to encode: GUID 0 or not, the name given or not, where its
/// NUL is; the name to look at is returned.
fn encoded_coordinates<'a>(
    guid: u64,
    name: Option<&'a [u8]>,
    c: &mut Coordinates,
) -> Option<&'a [u8]> {
    c.set(CellValue::Guid(if guid == 0 {
        GuidIs::Zero
    } else {
        GuidIs::NonZero
    }));
    let Some(name) = name else {
        c.set(CellValue::Name(NameIs::Absent));
        return None;
    };
    c.set(CellValue::Name(NameIs::Given));
    if guid == 0 {
        c.fault(Fault::NameWithGuidZero);
    }
    if let Some(at) = name.iter().position(|&b| b == 0) {
        c.fault(Fault::InteriorNul);
        c.set(CellValue::NulAt(if at == 0 {
            NulAt::First
        } else if at + 1 == name.len() {
            NulAt::Last
        } else {
            NulAt::Middle
        }));
    }
    Some(name)
}

/// A packed GUID's input: its mask, where it is cut, its `00` bytes, and
/// whether it goes on.
fn packed_coordinates(bytes: &[u8], c: &mut Coordinates) {
    let Some((&mask, rest)) = bytes.split_first() else {
        c.set(CellValue::Cut(None));
        c.fault(Fault::Truncated);
        return;
    };
    c.set(CellValue::Mask(mask));
    let need = mask.count_ones() as usize;
    if rest.len() < need {
        c.set(CellValue::Cut(Some(rest.len() as u8)));
        c.fault(Fault::Truncated);
        return;
    }
    c.set(trailing(rest.len() > need));
    let positions = (0..8u8).filter(|i| mask & (1 << i) != 0);
    for (position, byte) in positions.zip(rest) {
        if *byte == 0 {
            c.set(CellValue::ZeroByteAt(position));
        }
    }
}

/// Every class a name's bytes show: its characters' lengths, control
/// characters, a leading BOM, noncharacters, a multi-byte (and a 4-byte)
/// last character, and each kind of
/// invalid sequence it holds. A decoder's view: after an invalid sequence
/// the scan goes on at the next byte that can start a character.
#[must_use]
pub fn name_classes(name: &[u8]) -> BTreeSet<Class> {
    let mut classes = BTreeSet::new();
    if name.is_empty() {
        classes.insert(Class::Empty);
        return classes;
    }
    if name.iter().all(u8::is_ascii) {
        classes.insert(Class::Ascii);
    }
    if name.iter().any(|&b| (0x01..0x20).contains(&b) || b == 0x7f) {
        classes.insert(Class::Control);
    }
    if name.starts_with(&[0xef, 0xbb, 0xbf]) {
        classes.insert(Class::Bom);
    }
    let mut i = 0;
    let mut last_width = 0;
    while i < name.len() {
        let (width, class) = sequence(&name[i..]);
        classes.extend(class);
        last_width = if class.is_some_and(Class::is_invalid) {
            0
        } else {
            width
        };
        if width > 1 && last_width > 0 && noncharacter(&name[i..i + width]) {
            classes.insert(Class::Noncharacter);
        }
        i += width;
    }
    if last_width > 1 {
        classes.insert(Class::EndsMultibyte);
    }
    if last_width == 4 {
        classes.insert(Class::EndsUtf84);
    }
    if last_width == 0 {
        classes.insert(Class::EndsInvalid);
    }
    classes
}

/// The sequence at the start of `bytes` (never empty): how many bytes it
/// takes, and the class it shows (its length's class when valid, the kind
/// of invalid sequence when not; none for an ASCII byte).
fn sequence(bytes: &[u8]) -> (usize, Option<Class>) {
    let lead = bytes[0];
    let continuations = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| (0x80..=0xbf).contains(*b))
            .count()
    };
    let (width, low, high): (usize, u8, u8) = match lead {
        0x00..=0x7f => return (1, None),
        0x80..=0xbf => return (1, Some(Class::StrayContinuation)),
        0xf5..=0xff => return (1, Some(Class::AboveMax)),
        0xc0 | 0xc1 => {
            // An overlong lead: with a continuation byte after it, the two
            // are one overlong form.
            let continued = bytes.get(1).is_some_and(|b| (0x80..=0xbf).contains(b));
            return (1 + usize::from(continued), Some(Class::Overlong));
        }
        0xc2..=0xdf => (2, 0x80, 0xbf),
        0xe0 => (3, 0xa0, 0xbf),
        0xed => (3, 0x80, 0x9f),
        0xe1..=0xef => (3, 0x80, 0xbf),
        0xf0 => (4, 0x90, 0xbf),
        0xf4 => (4, 0x80, 0x8f),
        0xf1..=0xf3 => (4, 0x80, 0xbf),
    };
    // The second byte's range tells overlongs, surrogates and values
    // above U+10FFFF from a sequence cut short.
    match bytes.get(1) {
        Some(&second) if (low..=high).contains(&second) => {}
        Some(&second) if (0x80..=0xbf).contains(&second) => {
            let class = match lead {
                0xe0 | 0xf0 => Class::Overlong,
                0xed => Class::Surrogate,
                _ => Class::AboveMax,
            };
            // The sequence's continuation bytes are one error.
            return (continuations(1), Some(class));
        }
        _ => return (1, Some(Class::TruncatedSequence)),
    }
    let complete = (2..width).all(|k| bytes.get(k).is_some_and(|b| (0x80..=0xbf).contains(b)));
    if !complete {
        return (continuations(1), Some(Class::TruncatedSequence));
    }
    let class = match width {
        2 => Class::Utf82,
        3 => Class::Utf83,
        _ => Class::Utf84,
    };
    (width, Some(class))
}

/// Whether a valid character's bytes are a noncharacter (U+FDD0..U+FDEF,
/// or U+xFFFE and U+xFFFF).
fn noncharacter(character: &[u8]) -> bool {
    core::str::from_utf8(character)
        .ok()
        .and_then(|text| text.chars().next())
        .is_some_and(|ch| {
            let code = u32::from(ch);
            (0xfdd0..=0xfdef).contains(&code) || code & 0xfffe == 0xfffe
        })
}
