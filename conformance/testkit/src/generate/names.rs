//! The names the request generator writes, from the fault model
//! (`vectors/fault-model.yaml`): a length (empty, short, one of the model's
//! buffer lengths, every power of two from 1 to 8192 and its neighbours,
//! half the time ending in a multi-byte character that a buffer of that
//! size cuts, or long); characters of the model's classes (ASCII, control
//! characters, every UTF-8 length, noncharacters, code-point edges, a
//! leading BOM); and at most one planted thing: a sequence of the model's
//! UTF-8 table at one of its bounds (a cut one at the name's end), or faults
//! of the model in the name's bytes (an invalid sequence of each kind, an
//! embedded NUL, or both at once). Every class and fault of the model has
//! its arm in an exhaustive match here ([`sample`], [`plant`]), so a new
//! one does not compile until the generator can draw it.

use arbitrary::Unstructured;
use wow_guid_vectors::fault_model::{Axis, CellValue, Class, Fault, FaultModel, Utf8Cell};

use super::draw::{weighted, Draw};

/// What the generator takes from the fault model
/// (`vectors/fault-model.yaml`): its buffer lengths, with 254 and 258
/// around the 256-byte cap one implementation applies, and the sequences
/// of its UTF-8 table. Without the model (a test keeps it loading), only
/// 254 and 258.
pub struct Shapes {
    lengths: Vec<usize>,
    table: Vec<Utf8Cell>,
}

impl Shapes {
    /// The shapes of the fault model (`vectors/fault-model.yaml`).
    #[must_use]
    pub fn of_the_model() -> Shapes {
        let model = FaultModel::load().ok();
        let mut lengths = model
            .as_ref()
            .map(FaultModel::buffer_lengths)
            .unwrap_or_default();
        lengths.extend([254, 258]);
        lengths.sort_unstable();
        lengths.dedup();
        let table = model
            .map(|model| model.values(Axis::Utf8))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|value| match value {
                CellValue::Utf8(cell) => Some(cell),
                _ => None,
            })
            .collect();
        Shapes { lengths, table }
    }
}

/// At most four bytes, kept inline: one character, or one invalid
/// sequence of the fault model (none is longer). A name is drawn a
/// character at a time, and a heap allocation per character was most of
/// the cost of drawing a long one.
#[derive(Clone, Copy)]
struct Sequence {
    bytes: [u8; 4],
    len: usize,
}

impl Sequence {
    /// The bytes of `slice` (at most four).
    fn of(slice: &[u8]) -> Self {
        let mut bytes = [0; 4];
        bytes[..slice.len()].copy_from_slice(slice);
        Self {
            bytes,
            len: slice.len(),
        }
    }

    /// The UTF-8 of code point `code`; the replacement character stands in
    /// for a surrogate, which is no character.
    fn character(code: u32) -> Self {
        let mut bytes = [0; 4];
        let len = char::from_u32(code)
            .unwrap_or('\u{fffd}')
            .encode_utf8(&mut bytes)
            .len();
        Self { bytes, len }
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Bytes that show `class`, drawn at random: a character of it, or an
/// invalid sequence of its kind. Every class of the fault model has its
/// arm, so a new class does not compile until the fuzzer can draw it.
fn sample(u: &mut Unstructured<'_>, class: Class) -> Draw<Sequence> {
    let character = Sequence::character;
    let cont = |u: &mut Unstructured<'_>| u.int_in_range(0x80..=0xbfu8);
    Ok(match class {
        Class::Empty => Sequence::of(&[]),
        Class::Ascii => Sequence::of(&[u.int_in_range(0x20..=0x7eu8)?]),
        Class::Control => Sequence::of(&[*u.choose(&[0x01, 0x09, 0x0a, 0x1f, 0x7f])?]),
        Class::Utf82 => character(u.int_in_range(0x80..=0x7ff)?),
        Class::Utf83 => character(u.int_in_range(0x800..=0xffff)?),
        Class::Utf84 | Class::EndsUtf84 => character(u.int_in_range(0x1_0000..=0x10_ffff)?),
        Class::Bom => character(0xfeff),
        Class::Noncharacter => {
            character(*u.choose(&[0xfdd0, 0xfdef, 0xfffe, 0x1_fffe, 0x10_fffe])?)
        }
        Class::EndsMultibyte => {
            let class = *u.choose(&[Class::Utf82, Class::Utf83, Class::Utf84])?;
            sample(u, class)?
        }
        Class::StrayContinuation | Class::EndsInvalid => Sequence::of(&[cont(u)?]),
        Class::Overlong => match u.int_in_range(0..=2u8)? {
            0 => Sequence::of(&[0xc0 | (cont(u)? & 1), cont(u)?]),
            1 => Sequence::of(&[0xe0, cont(u)? & 0x9f, cont(u)?]),
            _ => Sequence::of(&[0xf0, cont(u)? & 0x8f, cont(u)?, cont(u)?]),
        },
        Class::Surrogate => Sequence::of(&[0xed, cont(u)? | 0x20, cont(u)?]),
        Class::AboveMax => match u.int_in_range(0..=1u8)? {
            0 => Sequence::of(&[0xf4, cont(u)? | 0x10, cont(u)?, cont(u)?]),
            _ => Sequence::of(&[u.int_in_range(0xf5..=0xffu8)?]),
        },
        // A lead byte whose continuation bytes never come: what follows is
        // ASCII, a lead byte, the NUL, or the end of the input.
        Class::TruncatedSequence => match u.int_in_range(0..=2u8)? {
            0 => Sequence::of(&[0xc2 | (cont(u)? & 0x1d)]),
            1 => Sequence::of(&[0xe1, cont(u)?]),
            _ => Sequence::of(&[0xf1, cont(u)?, cont(u)?]),
        },
    })
}

/// The classes a name's characters are drawn from, and `None` for the
/// first and last code points of each UTF-8 length, U+FEFF and the
/// replacement character.
const CONTENT: [Option<Class>; 7] = [
    Some(Class::Ascii),
    Some(Class::Control),
    Some(Class::Utf82),
    Some(Class::Utf83),
    Some(Class::Utf84),
    None,
    Some(Class::Noncharacter),
];

fn valid_char(u: &mut Unstructured<'_>) -> Draw<Sequence> {
    match *u.choose(&CONTENT)? {
        Some(class) => sample(u, class),
        None => {
            let code = *u.choose(&[
                0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xffff, 0x1_0000,
                0x10_ffff,
            ])?;
            Ok(Sequence::character(code))
        }
    }
}

/// The bytes that put `fault` in a name. Every fault of the fault model
/// has its arm; the ones a name's bytes cannot carry are the input's
/// layout's (its GUID, its NUL, its length: see [`super::structured`]).
fn plant(u: &mut Unstructured<'_>, fault: Fault) -> Draw<Vec<u8>> {
    Ok(match fault {
        Fault::InvalidUtf8 => {
            let invalid: Vec<Class> = Class::ALL
                .iter()
                .copied()
                .filter(|c| c.is_invalid())
                .collect();
            let class = *u.choose(&invalid)?;
            sample(u, class)?.as_slice().to_vec()
        }
        Fault::InteriorNul => vec![0],
        Fault::MissingTerminator
        | Fault::NameWithGuidZero
        | Fault::Truncated
        | Fault::TruncatedGuid => Vec::new(),
    })
}

#[derive(Clone, Copy)]
enum NameLength {
    Empty,
    Short,
    Boundary,
    Long,
}

#[derive(Clone, Copy)]
enum NameStyle {
    Ascii,
    Utf8,
    /// U+FEFF first, which UTF-8-with-signature decoders drop.
    Bom,
    /// A sequence of the fault model's UTF-8 table at one of its bounds.
    Table,
    /// Faults of the model in the name's bytes (a pair: two in one name).
    Faulty(&'static [Fault]),
}

/// A name: its length class first, then its contents, then at most one
/// planted fault (or one pair) or sequence of the UTF-8 table, at a
/// character boundary so it is the only one. At a buffer length, half the
/// names end in a multi-byte character, so a buffer of that size cuts it.
pub fn name(u: &mut Unstructured<'_>, model: &Shapes) -> Draw<Vec<u8>> {
    let target = match weighted(
        u,
        &[
            (1, NameLength::Empty),
            (4, NameLength::Short),
            (4, NameLength::Boundary),
            (1, NameLength::Long),
        ],
    )? {
        NameLength::Empty => 0,
        NameLength::Short => u.int_in_range(1..=16)?,
        NameLength::Boundary => *u.choose(&model.lengths)?,
        NameLength::Long => u.int_in_range(259..=1100)?,
    };
    let style = weighted(
        u,
        &[
            (3, NameStyle::Ascii),
            (3, NameStyle::Utf8),
            (1, NameStyle::Bom),
            (2, NameStyle::Table),
            (2, NameStyle::Faulty(&[Fault::InvalidUtf8])),
            (1, NameStyle::Faulty(&[Fault::InteriorNul])),
            (
                1,
                NameStyle::Faulty(&[Fault::InvalidUtf8, Fault::InteriorNul]),
            ),
        ],
    )?;
    let at_buffer = model.lengths.contains(&target);
    // The end character is drawn before the contents, which may use up
    // the entropy of a long name.
    let mut wide_end = if target >= 2 && at_buffer && u.ratio(1u8, 2)? {
        let width = u.int_in_range(2..=4usize)?.min(target);
        sample(u, [Class::Utf82, Class::Utf83, Class::Utf84][width - 2])?
            .as_slice()
            .to_vec()
    } else {
        Vec::new()
    };
    let (planted, at_end) = planted(u, style, model)?;
    if at_end {
        wide_end = Vec::new();
    }
    let mut name = Vec::with_capacity(target);
    if matches!(style, NameStyle::Bom) {
        name.extend_from_slice("\u{feff}".as_bytes());
    }
    let base_len = target
        .saturating_sub(planted.len())
        .saturating_sub(wide_end.len());
    let boundaries = contents(u, style, base_len, &mut name)?;
    if !planted.is_empty() {
        // At a buffer length, half the faults end the name, where a reader
        // that cuts the name at its buffer's end never sees them.
        let at = if at_end || (wide_end.is_empty() && at_buffer && u.ratio(1u8, 2)?) {
            name.len()
        } else {
            *u.choose(&boundaries)?
        };
        name.splice(at..at, planted);
    }
    name.extend_from_slice(&wide_end);
    Ok(name)
}

/// What a name of `style` plants, and whether it must end the name (a
/// sequence of the table cut short).
fn planted(u: &mut Unstructured<'_>, style: NameStyle, model: &Shapes) -> Draw<(Vec<u8>, bool)> {
    Ok(match style {
        NameStyle::Ascii | NameStyle::Utf8 | NameStyle::Bom => (Vec::new(), false),
        NameStyle::Table => {
            let cell = u.choose(&model.table)?;
            (cell.bytes.clone(), cell.ends_name)
        }
        NameStyle::Faulty(faults) => {
            let mut planted = Vec::new();
            for &fault in faults {
                let bytes = plant(u, fault)?;
                if u.ratio(1u8, 2)? {
                    planted.splice(0..0, bytes);
                } else {
                    planted.extend(bytes);
                }
            }
            (planted, false)
        }
    })
}

/// Fills `name` with characters up to `len` bytes, and returns the
/// character boundaries. Faults are planted among letters or among
/// characters of every length, so each fault meets each class of name.
fn contents(
    u: &mut Unstructured<'_>,
    style: NameStyle,
    len: usize,
    name: &mut Vec<u8>,
) -> Draw<Vec<usize>> {
    let mut boundaries = vec![name.len()];
    let wide_content = match style {
        NameStyle::Utf8 => true,
        NameStyle::Ascii => false,
        _ => u.ratio(1u8, 2)?,
    };
    boundaries.reserve(len.saturating_sub(name.len()));
    while name.len() < len {
        if wide_content {
            let encoded = valid_char(u)?;
            if name.len() + encoded.len > len {
                // Pad with ASCII so boundary lengths come out exact.
                name.push(b'a');
            } else {
                name.extend_from_slice(encoded.as_slice());
            }
        } else {
            name.push(u.int_in_range(0x20..=0x7eu8)?);
        }
        boundaries.push(name.len());
    }
    Ok(boundaries)
}
