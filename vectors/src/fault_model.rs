//! The fault model: the classes of input each request meets, the lengths
//! where real code keeps fixed buffers and the faults an input can carry,
//! read from `fault-model.yaml` at the corpus root, and the cells of it that
//! a vector covers, read off the vector's bytes.
//!
//! The model is data so that one file says what the corpus must show: the
//! coverage test (`vectors/tests/fault_model.rs`) asks [`FaultModel::missing`]
//! for the cells no vector covers, the generator builds
//! `generated/named-fault-cells.yaml` from [`FaultModel::cells`], and
//! REFERENCE.md renders [`FaultModel::render`]. Which cells a vector covers
//! comes from its request's bytes alone ([`FaultModel::coordinates`]), never from its
//! id, flags or file, so a hand-written vector counts as much as a generated
//! one. The file is read into the enums of [`words`](Axis) (an unknown word
//! is refused at its line), so every match over faults, classes and axes is
//! exhaustive. Pure: the model's text is compiled in.

use core::fmt;
use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::model::{Expectation, RequestKind, Vector};
use crate::vocab::ErrorCode;

mod check;
mod coordinates;
mod render;
mod utf8;
mod words;

pub use check::ModelError;
pub use coordinates::{name_classes, Coordinates};
pub use utf8::{Extra, Pattern, Span, Utf8Cell, Utf8Table};
pub use words::{
    fault_words, Axis, CellValue, Class, Fault, Faults, GuidIs, NameIs, NulAt, Trailing,
};

/// The model's file name at the corpus root; the loader does not read it as
/// vectors.
pub const FILE: &str = crate::files::MODEL_FILE;

/// The fault model, as `fault-model.yaml` writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultModel {
    /// The buffer lengths: powers of two in a range, each with its two
    /// neighbours.
    pub lengths: Lengths,
    /// What a vector's bytes must show to have a value on each axis.
    pub axes: BTreeMap<Axis, String>,
    /// What each class means.
    pub classes: BTreeMap<Class, String>,
    /// Every fault, with the code it is answered with alone.
    pub faults: BTreeMap<Fault, InputFault>,
    /// Every pair of faults one input can carry, with its one code.
    pub pairs: Vec<Pair>,
    /// The table of well-formed UTF-8 byte sequences, and the extra
    /// sequences, whose cells are the values of the `utf8` axis.
    pub utf8: Utf8Table,
    /// The grids whose every cell needs a vector.
    pub grids: Vec<Grid>,
    /// Cells of the grids that are not asked for, each with why.
    pub left_out: Vec<LeftOut>,
    /// Axes the grids do not cross, each with why.
    pub not_crossed: Vec<NotCrossed>,
    /// The cells of `utf8`, derived once when the model is read.
    #[serde(skip)]
    utf8_cells: Vec<Utf8Cell>,
}

/// The buffer lengths of the model.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lengths {
    /// The smallest power of two.
    pub powers_of_two_from: usize,
    /// The largest power of two.
    pub powers_of_two_to: usize,
}

/// A fault.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputFault {
    /// What the fault is.
    pub about: String,
    /// The error code an input with this fault alone is answered with.
    pub code: ErrorCode,
}

/// Two faults in one input.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// The two faults.
    pub faults: [Fault; 2],
    /// The one code the pair is answered with.
    pub code: ErrorCode,
}

/// A grid: a request and, per axis, the values to cross.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// The grid's name, unique in the model.
    pub name: String,
    /// The request kind, in the protocol's words (`decode named_guid`).
    #[serde(deserialize_with = "request_kind")]
    pub request: RequestKind,
    /// What the grid asks for, in words.
    pub about: String,
    /// Per axis, `all` or the values to cross.
    pub axes: BTreeMap<Axis, Pick>,
}

/// A grid's values on one axis: all the axis has, or a list of words,
/// each with where it is written.
#[derive(Clone, Debug)]
pub enum Pick {
    /// `all`.
    All,
    /// The listed values' words.
    List(Vec<Spanned<String>>),
}

/// Cells of a grid left out.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// The grid's name.
    pub grid: Spanned<String>,
    /// The values the left-out cells have (the other axes are free).
    pub cells: BTreeMap<Axis, Spanned<String>>,
    /// Why.
    pub why: String,
}

/// Something the grids do not cross.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotCrossed {
    /// What is not crossed.
    pub what: String,
    /// Why.
    pub why: String,
}

/// One cell: a grid and one value on each of its axes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FaultCell {
    /// The grid's name.
    pub grid: String,
    /// The request kind.
    pub request: RequestKind,
    /// One value per axis, in axis order.
    pub values: Vec<CellValue>,
}

impl fmt::Display for FaultCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|value| format!("{}={value}", value.axis()))
            .collect();
        write!(f, "{} [{}]", self.grid, values.join(", "))
    }
}

impl FaultModel {
    /// The buffer lengths: each power of two in range and its neighbours,
    /// ascending, without repeats.
    #[must_use]
    pub fn buffer_lengths(&self) -> Vec<usize> {
        let mut out = BTreeSet::new();
        let mut power = self.lengths.powers_of_two_from.max(1);
        while power <= self.lengths.powers_of_two_to {
            out.extend([power - 1, power, power + 1]);
            power *= 2;
        }
        out.remove(&0);
        out.into_iter().collect()
    }

    /// Every value `axis` can take.
    #[must_use]
    pub fn values(&self, axis: Axis) -> Vec<CellValue> {
        let positions = || 0..8u8;
        match axis {
            Axis::Class => Class::ALL.iter().map(|&c| CellValue::Class(c)).collect(),
            Axis::Cut => core::iter::once(None)
                .chain(positions().map(Some))
                .map(CellValue::Cut)
                .collect(),
            // Fault sets: none, each fault, each pair.
            Axis::Fault => core::iter::once(Faults::default())
                .chain(self.faults.keys().map(|&f| Faults::from_iter([f])))
                .chain(self.pairs.iter().map(|p| Faults::from_iter(p.faults)))
                .map(CellValue::Faults)
                .collect(),
            Axis::Guid => GuidIs::ALL.iter().map(|&g| CellValue::Guid(g)).collect(),
            Axis::GuidBytes => positions().map(CellValue::GuidBytes).collect(),
            Axis::Length => self
                .buffer_lengths()
                .into_iter()
                .map(CellValue::Length)
                .collect(),
            Axis::Mask => (0..=u8::MAX).map(CellValue::Mask).collect(),
            Axis::Name => NameIs::ALL.iter().map(|&n| CellValue::Name(n)).collect(),
            Axis::NulAt => NulAt::ALL.iter().map(|&n| CellValue::NulAt(n)).collect(),
            Axis::Trailing => Trailing::ALL
                .iter()
                .map(|&t| CellValue::Trailing(t))
                .collect(),
            Axis::Utf8 => self
                .utf8_cells
                .iter()
                .cloned()
                .map(CellValue::Utf8)
                .collect(),
            Axis::ZeroByteAt => positions().map(CellValue::ZeroByteAt).collect(),
        }
    }

    /// The value of `axis` written `word`, if it has one.
    fn value(&self, axis: Axis, word: &str) -> Option<CellValue> {
        self.values(axis)
            .into_iter()
            .find(|v| v.to_string() == word)
    }

    /// A grid's values on `axis`, in the order it lists them; a word the
    /// axis does not have is left out (`check` refuses it).
    fn picked(&self, axis: Axis, pick: &Pick) -> Vec<CellValue> {
        match pick {
            Pick::All => self.values(axis),
            Pick::List(words) => words
                .iter()
                .filter_map(|w| self.value(axis, &w.value))
                .collect(),
        }
    }

    /// Every cell the model asks for: the product of each grid's axes,
    /// without the cells left out.
    #[must_use]
    pub fn cells(&self) -> Vec<FaultCell> {
        let mut out = Vec::new();
        for grid in &self.grids {
            let mut cells: Vec<Vec<CellValue>> = vec![Vec::new()];
            for (&axis, pick) in &grid.axes {
                let values = self.picked(axis, pick);
                cells = cells
                    .iter()
                    .flat_map(|cell| {
                        values
                            .iter()
                            .map(|value| [&cell[..], std::slice::from_ref(value)].concat())
                    })
                    .collect();
            }
            let left_out: Vec<Vec<CellValue>> = self
                .left_out
                .iter()
                .filter(|left| left.grid.value == grid.name)
                .map(|left| {
                    left.cells
                        .iter()
                        .filter_map(|(&axis, word)| self.value(axis, &word.value))
                        .collect()
                })
                .collect();
            out.extend(
                cells
                    .into_iter()
                    .filter(|values| {
                        !left_out
                            .iter()
                            .any(|left| left.iter().all(|v| values.contains(v)))
                    })
                    .map(|values| FaultCell {
                        grid: grid.name.clone(),
                        request: grid.request,
                        values,
                    }),
            );
        }
        out
    }

    /// The cells no vector of `vectors` covers, in the model's order.
    #[must_use]
    pub fn missing(&self, vectors: &[Vector]) -> Vec<FaultCell> {
        let covered: Vec<(RequestKind, Coordinates)> = vectors
            .iter()
            .map(|v| (v.request.kind(), self.coordinates(&v.request)))
            .collect();
        self.cells()
            .into_iter()
            .filter(|cell| {
                !covered
                    .iter()
                    .any(|(kind, coords)| *kind == cell.request && coords.covers(cell))
            })
            .collect()
    }

    /// The vectors whose expectation disagrees with the code the model
    /// gives their faults: a single fault's code, or a pair's pinned code.
    /// Each entry is (vector id, what the model says).
    #[must_use]
    pub fn disagreements(&self, vectors: &[Vector]) -> Vec<(String, String)> {
        let disagrees = |vector: &Vector| {
            let faults = self.coordinates(&vector.request).faults;
            let code = self.code_for(&faults)?;
            let agrees = match &vector.expect {
                Expectation::Invalid(expected) => *expected == code,
                // Either answer is allowed: any error agrees.
                Expectation::Acceptable { .. } => true,
                Expectation::Valid(_) => false,
            };
            let says = format!("faults {} are answered with {code}", fault_words(&faults));
            (!agrees).then(|| (vector.id.clone(), says))
        };
        vectors.iter().filter_map(disagrees).collect()
    }

    /// The expected code for an input with these faults: one fault's own
    /// code, or the pair's pinned one; `None` for a valid input or a set of
    /// faults the model does not pin.
    #[must_use]
    pub fn code_for(&self, faults: &Faults) -> Option<ErrorCode> {
        match faults.len() {
            0 => None,
            1 => faults
                .first()
                .and_then(|f| self.faults.get(f))
                .map(|f| f.code),
            _ => self
                .pairs
                .iter()
                .find(|p| Faults::from_iter(p.faults) == *faults)
                .map(|p| p.code),
        }
    }
}

/// A request kind from the protocol's words (`decode named_guid`).
fn request_kind<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<RequestKind, D::Error> {
    let words = String::deserialize(deserializer)?;
    RequestKind::ALL
        .into_iter()
        .find(|k| k.to_string() == words)
        .ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{words:?} is not a request (decode/encode packed_guid/named_guid)"
            ))
        })
}

impl<'de> Deserialize<'de> for Pick {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Pick;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`all` or a list of the axis's values")
            }
            fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Pick, E> {
                if word == "all" {
                    Ok(Pick::All)
                } else {
                    Err(E::custom(format!(
                        "{word:?} names no set of values (a grid takes `all` or a list)"
                    )))
                }
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Pick, A::Error> {
                let seq = serde::de::value::SeqAccessDeserializer::new(seq);
                Vec::deserialize(seq).map(Pick::List)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}
