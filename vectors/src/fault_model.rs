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
//! comes from its request's bytes alone ([`coordinates`]), never from its
//! id, flags or file, so a hand-written vector counts as much as a generated
//! one. Pure: the model's text is compiled in.

use core::fmt;
use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::model::{Expectation, Request, RequestKind, Vector};
use crate::vocab::ErrorCode;

/// The model's file name at the corpus root; the loader does not read it as
/// vectors.
pub const FILE: &str = crate::files::MODEL_FILE;

/// The words an axis may use for a computed set of values.
const AXIS_WORDS: [&str; 4] = ["all-bytes", "buffer-lengths", "classes", "any"];

/// The model's text, as checked in.
const TEXT: &str = include_str!("../fault-model.yaml");

/// The fault model, as `fault-model.yaml` writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultModel {
    /// The buffer lengths: powers of two in a range, each with its two
    /// neighbours.
    pub lengths: Lengths,
    /// Every axis a cell can have a value on, by name.
    pub axes: BTreeMap<String, Axis>,
    /// The values of the `class` axis.
    pub classes: Vec<Described>,
    /// Every fault, by name, with the code it is answered with alone.
    pub faults: BTreeMap<String, InputFault>,
    /// Every pair of faults one input can carry, with its one code.
    pub pairs: Vec<Pair>,
    /// The grids whose every cell needs a vector.
    pub grids: Vec<Grid>,
    /// Cells of the grids that are not asked for, each with why.
    pub left_out: Vec<LeftOut>,
    /// Axes the grids do not cross, each with why.
    pub not_crossed: Vec<NotCrossed>,
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

/// An axis: what its values mean, and which values it has.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// What a vector's bytes must show to have a value on this axis.
    pub about: String,
    /// The values, or a word for a computed set: `all-bytes` (`00`..`ff`),
    /// `buffer-lengths`, `classes`, `any` (fault sets).
    pub values: Values,
}

/// An axis's values, listed or named by a word.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Values {
    /// A computed set, by its word.
    Word(String),
    /// The values themselves.
    List(Vec<String>),
}

/// A value with what it means.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Described {
    /// The value.
    pub name: String,
    /// What it means.
    pub about: String,
}

/// A fault.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputFault {
    /// What the fault is.
    pub about: String,
    /// The error code an input with this fault alone is answered with.
    #[serde(deserialize_with = "error_code")]
    pub code: ErrorCode,
}

/// Two faults in one input.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// The two faults.
    pub faults: [String; 2],
    /// The one code the pair is answered with.
    #[serde(deserialize_with = "error_code")]
    pub code: ErrorCode,
}

/// A grid: a request and, per axis, the values to cross.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// The grid's name, unique in the model.
    pub name: String,
    /// The request kind, in the protocol's words (`decode named_guid`).
    pub request: String,
    /// What the grid asks for, in words.
    pub about: String,
    /// Per axis, `all` or the values to cross.
    pub axes: BTreeMap<String, Values>,
}

/// Cells of a grid left out.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    /// The grid's name.
    pub grid: String,
    /// The values the left-out cells have (the other axes are free).
    pub cells: BTreeMap<String, String>,
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
    /// (axis, value), in axis order.
    pub values: Vec<(String, String)>,
}

impl fmt::Display for FaultCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [", self.grid)?;
        for (i, (axis, value)) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{axis}={value}")?;
        }
        f.write_str("]")
    }
}

/// What is wrong with the model's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The YAML does not read as a model.
    Syntax(String),
    /// A grid names an axis the model does not define.
    UnknownAxis {
        /// The grid.
        grid: String,
        /// The axis.
        axis: String,
    },
    /// A grid, pair or left-out entry names a value its axis does not have.
    UnknownValue {
        /// Where: the grid or list.
        place: String,
        /// The axis.
        axis: String,
        /// The value.
        value: String,
    },
    /// An axis or grid names its values with a word that means nothing:
    /// an axis takes `all-bytes`, `buffer-lengths`, `classes` or `any`, a
    /// grid `all`.
    UnknownWord {
        /// Where: the axis, or the grid and axis.
        place: String,
        /// The word.
        word: String,
    },
    /// A grid's request is not a request kind.
    UnknownRequest {
        /// The grid.
        grid: String,
        /// The request as written.
        request: String,
    },
    /// Two grids have one name.
    DuplicateGrid(String),
    /// A left-out entry names no grid of the model.
    UnknownGrid(String),
    /// A pair of faults no grid asks for.
    PairNotInAGrid(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{FILE}: ")?;
        match self {
            ModelError::Syntax(message) => write!(f, "{message}"),
            ModelError::UnknownAxis { grid, axis } => {
                write!(f, "grid {grid}: no axis named {axis:?}")
            }
            ModelError::UnknownValue { place, axis, value } => {
                write!(f, "{place}: axis {axis} has no value {value:?}")
            }
            ModelError::UnknownRequest { grid, request } => write!(
                f,
                "grid {grid}: {request:?} is not a request (decode/encode packed_guid/named_guid)"
            ),
            ModelError::UnknownWord { place, word } => write!(
                f,
                "{place}: {word:?} names no set of values (an axis takes all-bytes, \
                 buffer-lengths, classes or any; a grid takes all or a list)"
            ),
            ModelError::DuplicateGrid(name) => write!(f, "two grids are named {name}"),
            ModelError::UnknownGrid(name) => write!(f, "left_out names no grid {name}"),
            ModelError::PairNotInAGrid(pair) => {
                write!(f, "the pair {pair} is listed but no grid asks for it")
            }
        }
    }
}

impl std::error::Error for ModelError {}

impl FaultModel {
    /// The checked-in model.
    ///
    /// # Errors
    /// When `fault-model.yaml` does not read as a model or does not hold
    /// together (a test keeps the checked-in file valid).
    pub fn load() -> Result<FaultModel, ModelError> {
        Self::parse(TEXT)
    }

    /// Reads and checks a model's text.
    ///
    /// # Errors
    /// When `text` is not a model, or names an axis, value, grid or request
    /// that does not exist.
    pub fn parse(text: &str) -> Result<FaultModel, ModelError> {
        let model: FaultModel =
            serde_saphyr::from_str(text).map_err(|e| ModelError::Syntax(e.to_string()))?;
        model.check()?;
        Ok(model)
    }

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
    fn axis_values(&self, axis: &str) -> Option<Vec<String>> {
        let axis = self.axes.get(axis)?;
        Some(match &axis.values {
            Values::List(values) => values.clone(),
            Values::Word(word) => match word.as_str() {
                "all-bytes" => (0..=255u8).map(|b| format!("{b:02x}")).collect(),
                "buffer-lengths" => self
                    .buffer_lengths()
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
                "classes" => self.classes.iter().map(|c| c.name.clone()).collect(),
                // Fault sets: each fault, each pair, and none.
                "any" => {
                    let mut all = vec!["none".to_owned()];
                    all.extend(self.faults.keys().cloned());
                    all.extend(self.pairs.iter().map(|p| fault_set(&p.faults)));
                    all
                }
                // Refused by `check`.
                _ => Vec::new(),
            },
        })
    }

    fn check(&self) -> Result<(), ModelError> {
        for (name, axis) in &self.axes {
            if let Values::Word(word) = &axis.values {
                if !AXIS_WORDS.contains(&word.as_str()) {
                    return Err(ModelError::UnknownWord {
                        place: format!("axis {name}"),
                        word: word.clone(),
                    });
                }
            }
        }
        let mut names = BTreeSet::new();
        for grid in &self.grids {
            if !names.insert(grid.name.as_str()) {
                return Err(ModelError::DuplicateGrid(grid.name.clone()));
            }
            if request_kind(&grid.request).is_none() {
                return Err(ModelError::UnknownRequest {
                    grid: grid.name.clone(),
                    request: grid.request.clone(),
                });
            }
            for (axis, values) in &grid.axes {
                let Some(known) = self.axis_values(axis) else {
                    return Err(ModelError::UnknownAxis {
                        grid: grid.name.clone(),
                        axis: axis.clone(),
                    });
                };
                if let Values::Word(word) = values {
                    if word != "all" {
                        return Err(ModelError::UnknownWord {
                            place: format!("grid {}, axis {axis}", grid.name),
                            word: word.clone(),
                        });
                    }
                }
                if let Values::List(values) = values {
                    for value in values {
                        if !known.contains(value) {
                            return Err(ModelError::UnknownValue {
                                place: format!("grid {}", grid.name),
                                axis: axis.clone(),
                                value: value.clone(),
                            });
                        }
                    }
                }
            }
        }
        for left in &self.left_out {
            let Some(grid) = self.grids.iter().find(|g| g.name == left.grid) else {
                return Err(ModelError::UnknownGrid(left.grid.clone()));
            };
            for (axis, value) in &left.cells {
                let known = self.axis_values(axis).unwrap_or_default();
                if !grid.axes.contains_key(axis) || !known.contains(value) {
                    return Err(ModelError::UnknownValue {
                        place: format!("left_out of {}", grid.name),
                        axis: axis.clone(),
                        value: value.clone(),
                    });
                }
            }
        }
        for pair in &self.pairs {
            for fault in &pair.faults {
                if !self.faults.contains_key(fault) {
                    return Err(ModelError::UnknownValue {
                        place: "pairs".to_owned(),
                        axis: "fault".to_owned(),
                        value: fault.clone(),
                    });
                }
            }
            let set = fault_set(&pair.faults);
            let asked = self.grids.iter().any(|g| {
                matches!(g.axes.get("fault"), Some(Values::List(values)) if values.contains(&set))
            });
            if !asked {
                return Err(ModelError::PairNotInAGrid(set));
            }
        }
        Ok(())
    }

    /// Every cell the model asks for: the product of each grid's axes,
    /// without the cells left out.
    #[must_use]
    pub fn cells(&self) -> Vec<FaultCell> {
        let mut out = Vec::new();
        for grid in &self.grids {
            let Some(request) = request_kind(&grid.request) else {
                continue;
            };
            let mut cells: Vec<Vec<(String, String)>> = vec![Vec::new()];
            for (axis, values) in &grid.axes {
                let values = match values {
                    Values::List(values) => values.clone(),
                    Values::Word(_) => self.axis_values(axis).unwrap_or_default(),
                };
                cells = cells
                    .into_iter()
                    .flat_map(|cell| {
                        values.iter().map(move |value| {
                            let mut cell = cell.clone();
                            cell.push((axis.clone(), value.clone()));
                            cell
                        })
                    })
                    .collect();
            }
            for values in cells {
                let left_out = self.left_out.iter().any(|left| {
                    left.grid == grid.name
                        && left.cells.iter().all(|(axis, value)| {
                            values.iter().any(|(a, v)| a == axis && v == value)
                        })
                });
                if !left_out {
                    out.push(FaultCell {
                        grid: grid.name.clone(),
                        request,
                        values,
                    });
                }
            }
        }
        out
    }

    /// The cells no vector of `vectors` covers, in the model's order.
    #[must_use]
    pub fn missing(&self, vectors: &[Vector]) -> Vec<FaultCell> {
        let covered: Vec<(RequestKind, Coordinates)> = vectors
            .iter()
            .map(|v| (v.request.kind(), coordinates(&v.request)))
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
        let mut out = Vec::new();
        for vector in vectors {
            let faults = coordinates(&vector.request).faults;
            let code = code_for(self, &faults);
            let Some(code) = code else { continue };
            let agrees = match &vector.expect {
                Expectation::Invalid(expected) => *expected == code,
                // Either answer is allowed: any error agrees.
                Expectation::Acceptable { .. } => true,
                Expectation::Valid(_) => false,
            };
            if !agrees {
                out.push((
                    vector.id.clone(),
                    format!("faults {} are answered with {code}", fault_set(&faults)),
                ));
            }
        }
        out
    }

    /// The model as Markdown: the axes, the faults and pairs, the grids
    /// with their cell counts, and what is left out and why.
    #[must_use]
    pub fn render(&self) -> String {
        use fmt::Write as _;
        let mut out = String::new();
        let cells = self.cells();
        let lengths: Vec<String> = self
            .buffer_lengths()
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(
            out,
            "The corpus is built from a written fault model (`vectors/{FILE}`); a test fails \
             when one of its {} cells has no vector. A vector covers a cell by its bytes, \
             whoever wrote it.\n",
            cells.len()
        );
        let _ = writeln!(
            out,
            "**Buffer lengths** (name bytes): {}.\n",
            lengths.join(", ")
        );
        out.push_str("| Axis | What the bytes show |\n|---|---|\n");
        for (name, axis) in &self.axes {
            let _ = writeln!(out, "| `{name}` | {} |", cell_text(&axis.about));
        }
        out.push_str("\n| Class | What the name holds |\n|---|---|\n");
        for class in &self.classes {
            let _ = writeln!(out, "| `{}` | {} |", class.name, cell_text(&class.about));
        }
        out.push_str("\n| Fault | Code | What |\n|---|---|---|\n");
        for (name, fault) in &self.faults {
            let _ = writeln!(
                out,
                "| `{name}` | `{}` | {} |",
                fault.code,
                cell_text(&fault.about)
            );
        }
        for pair in &self.pairs {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | two faults in one input |",
                fault_set(&pair.faults),
                pair.code
            );
        }
        out.push_str("\n| Grid | Request | Cells | Asks for |\n|---|---|---|---|\n");
        for grid in &self.grids {
            let count = cells.iter().filter(|c| c.grid == grid.name).count();
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {count} | {} |",
                grid.name,
                grid.request,
                cell_text(&grid.about)
            );
        }
        out.push_str("\n**Left out**\n\n");
        for left in &self.left_out {
            let cells: Vec<String> = left.cells.iter().map(|(a, v)| format!("{a}={v}")).collect();
            let _ = writeln!(
                out,
                "- `{}` [{}]: {}",
                left.grid,
                cells.join(", "),
                left.why
            );
        }
        for not in &self.not_crossed {
            let _ = writeln!(out, "- {}: {}", not.what, not.why);
        }
        out
    }
}

/// An error code, read as its vocabulary word.
fn error_code<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
    let word = String::deserialize(deserializer)?;
    word.parse().map_err(serde::de::Error::custom)
}

/// A Markdown table cell's text: pipes escaped.
fn cell_text(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The canonical name of a set of faults: sorted, joined by `+`, `none`
/// when empty.
fn fault_set<S: AsRef<str>>(faults: &[S]) -> String {
    if faults.is_empty() {
        return "none".to_owned();
    }
    let mut names: Vec<&str> = faults.iter().map(AsRef::as_ref).collect();
    names.sort_unstable();
    names.dedup();
    names.join("+")
}

/// A request kind from the protocol's words.
fn request_kind(words: &str) -> Option<RequestKind> {
    RequestKind::ALL
        .into_iter()
        .find(|k| k.to_string() == words)
}

/// Where a request lies in the model: per axis, the values its bytes have,
/// and its faults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coordinates {
    /// Per axis, every value the bytes show (a name can show several
    /// classes). The `fault` axis is not here: see `faults`.
    pub values: BTreeMap<&'static str, BTreeSet<String>>,
    /// The faults, by name, sorted.
    pub faults: Vec<String>,
}

impl Coordinates {
    fn set(&mut self, axis: &'static str, value: impl Into<String>) {
        self.values.entry(axis).or_default().insert(value.into());
    }

    /// Whether these coordinates have the cell's value on each of its axes.
    #[must_use]
    pub fn covers(&self, cell: &FaultCell) -> bool {
        cell.values.iter().all(|(axis, value)| {
            if axis == "fault" {
                fault_set(&self.faults) == *value
            } else {
                self.values
                    .get(axis.as_str())
                    .is_some_and(|values| values.contains(value))
            }
        })
    }
}

/// The model's coordinates of `request`, from its bytes alone.
#[must_use]
pub fn coordinates(request: &Request) -> Coordinates {
    let mut c = Coordinates::default();
    match request {
        Request::DecodePacked { bytes } => match bytes.split_first() {
            None => {
                c.set("cut", "empty");
                c.faults.push("truncated".into());
            }
            Some((&mask, rest)) => {
                c.set("mask", format!("{mask:02x}"));
                let need = mask.count_ones() as usize;
                if rest.len() < need {
                    c.set("cut", rest.len().to_string());
                    c.faults.push("truncated".into());
                } else {
                    c.set("trailing", if rest.len() > need { "yes" } else { "no" });
                    let positions = (0..8).filter(|i| mask & (1 << i) != 0);
                    for (position, byte) in positions.zip(rest) {
                        if *byte == 0 {
                            c.set("zero-byte-at", position.to_string());
                        }
                    }
                }
            }
        },
        Request::EncodePacked { guid } => {
            let bytes = guid.to_le_bytes();
            let mask = (0..8)
                .filter(|&i| bytes[i] != 0)
                .fold(0u8, |m, i| m | (1 << i));
            c.set("mask", format!("{mask:02x}"));
        }
        Request::DecodeNamed { bytes } => match bytes.split_first_chunk::<8>() {
            None => {
                c.set("guid-bytes", bytes.len().to_string());
                c.faults.push("truncated_guid".into());
            }
            Some((guid, rest)) => {
                if u64::from_le_bytes(*guid) == 0 {
                    c.set("guid", "zero");
                    c.set("trailing", if rest.is_empty() { "no" } else { "yes" });
                } else {
                    c.set("guid", "non-zero");
                    let name = match rest.iter().position(|&b| b == 0) {
                        Some(end) => {
                            c.set("trailing", if end + 1 < rest.len() { "yes" } else { "no" });
                            &rest[..end]
                        }
                        None => {
                            c.set("trailing", "no");
                            c.faults.push("missing_terminator".into());
                            rest
                        }
                    };
                    name_coordinates(name, &mut c);
                }
            }
        },
        Request::EncodeNamed { guid, name } => {
            c.set("guid", if *guid == 0 { "zero" } else { "non-zero" });
            match name {
                None => c.set("name", "absent"),
                Some(name) => {
                    c.set("name", "given");
                    if *guid == 0 {
                        c.faults.push("name_with_guid_zero".into());
                    }
                    if let Some(at) = name.iter().position(|&b| b == 0) {
                        c.faults.push("interior_nul".into());
                        let place = if at == 0 {
                            "first"
                        } else if at + 1 == name.len() {
                            "last"
                        } else {
                            "middle"
                        };
                        c.set("nul-at", place);
                    }
                    name_coordinates(name, &mut c);
                }
            }
        }
    }
    c.faults.sort();
    c
}

/// The name's length and classes, and `invalid_utf8` when it is not UTF-8.
fn name_coordinates(name: &[u8], c: &mut Coordinates) {
    c.set("length", name.len().to_string());
    let classes = name_classes(name);
    if classes.iter().any(|class| INVALID_KINDS.contains(class)) {
        c.faults.push("invalid_utf8".into());
    }
    for class in classes {
        c.set("class", class);
    }
}

/// The classes that say a name is not UTF-8, each a kind of invalid
/// sequence.
const INVALID_KINDS: [&str; 5] = [
    "stray-continuation",
    "truncated-sequence",
    "overlong",
    "surrogate",
    "above-max",
];

/// Every class a name's bytes show: its characters' lengths, a leading
/// BOM, noncharacters, a multi-byte last character, and each kind of
/// invalid sequence it holds. A decoder's view: after an invalid sequence
/// the scan goes on at the next byte that can start a character.
#[must_use]
pub fn name_classes(name: &[u8]) -> BTreeSet<&'static str> {
    let mut classes = BTreeSet::new();
    if name.is_empty() {
        classes.insert("empty");
        return classes;
    }
    if name.iter().all(|b| b.is_ascii()) {
        classes.insert("ascii");
    }
    if name.starts_with(&[0xef, 0xbb, 0xbf]) {
        classes.insert("bom");
    }
    let mut i = 0;
    let mut last_width = 0;
    while i < name.len() {
        let lead = name[i];
        let (width, low, high): (usize, u8, u8) = match lead {
            0x00..=0x7f => {
                i += 1;
                last_width = 1;
                continue;
            }
            0x80..=0xbf => {
                classes.insert("stray-continuation");
                i += 1;
                last_width = 0;
                continue;
            }
            0xc0 | 0xc1 => {
                classes.insert("overlong");
                (2, 0x80, 0xbf)
            }
            0xc2..=0xdf => (2, 0x80, 0xbf),
            0xe0 => (3, 0xa0, 0xbf),
            0xed => (3, 0x80, 0x9f),
            0xe1..=0xef => (3, 0x80, 0xbf),
            0xf0 => (4, 0x90, 0xbf),
            0xf4 => (4, 0x80, 0x8f),
            0xf1..=0xf3 => (4, 0x80, 0xbf),
            0xf5..=0xff => {
                classes.insert("above-max");
                i += 1;
                last_width = 0;
                continue;
            }
        };
        // The second byte's range tells overlongs, surrogates and values
        // above U+10FFFF from a sequence cut short.
        match name.get(i + 1) {
            Some(&second) if (low..=high).contains(&second) => {}
            Some(&second) if (0x80..=0xbf).contains(&second) => {
                classes.insert(match lead {
                    0xe0 | 0xf0 => "overlong",
                    0xed => "surrogate",
                    _ => "above-max",
                });
                // Skip the sequence's continuation bytes as one error.
                i += 1;
                while name.get(i).is_some_and(|b| (0x80..=0xbf).contains(b)) {
                    i += 1;
                }
                last_width = 0;
                continue;
            }
            _ => {
                if !matches!(lead, 0xc0 | 0xc1) {
                    classes.insert("truncated-sequence");
                }
                i += 1;
                last_width = 0;
                continue;
            }
        }
        if matches!(lead, 0xc0 | 0xc1) {
            i += 2;
            last_width = 0;
            continue;
        }
        let complete =
            (2..width).all(|k| name.get(i + k).is_some_and(|b| (0x80..=0xbf).contains(b)));
        if !complete {
            classes.insert("truncated-sequence");
            i += 1;
            while name.get(i).is_some_and(|b| (0x80..=0xbf).contains(b)) {
                i += 1;
            }
            last_width = 0;
            continue;
        }
        let text = core::str::from_utf8(&name[i..i + width]).unwrap_or_default();
        if let Some(ch) = text.chars().next() {
            let code = u32::from(ch);
            if (0xfdd0..=0xfdef).contains(&code) || code & 0xfffe == 0xfffe {
                classes.insert("noncharacter");
            }
        }
        classes.insert(match width {
            2 => "utf8-2",
            3 => "utf8-3",
            _ => "utf8-4",
        });
        i += width;
        last_width = width;
    }
    if last_width > 1 {
        classes.insert("ends-multibyte");
    }
    if last_width == 0 {
        classes.insert("ends-invalid");
    }
    classes
}

/// The expected code for an input with these faults, by the model: one
/// fault's own code, or the pair's pinned one; `None` for a valid input or
/// a set of faults the model does not pin.
#[must_use]
pub fn code_for(model: &FaultModel, faults: &[String]) -> Option<ErrorCode> {
    match faults {
        [] => None,
        [one] => model.faults.get(one.as_str()).map(|f| f.code),
        _ => model
            .pairs
            .iter()
            .find(|p| fault_set(&p.faults) == fault_set(faults))
            .map(|p| p.code),
    }
}
