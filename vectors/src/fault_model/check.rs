//! Reading a fault model, and whether it holds together: what serde cannot
//! see when it reads the words (a value its axis does not have, a grid named twice, a
//! pair no grid asks for, a word of the code the model does not describe).

use std::collections::BTreeSet;

use serde_saphyr::Spanned;

use super::{fault_words, Axis, Class, Fault, FaultModel, Faults, Pick, FILE};

/// What is wrong with the model's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The YAML does not read as a model: not YAML, a field that is not the
    /// model's, or a word (axis, fault, class, request) that is not one;
    /// the message names the line.
    #[error("{FILE}: {0}")]
    Syntax(String),
    /// A grid or left-out entry names a value its axis does not have.
    #[error("{FILE}: line {line}: {place}: axis {axis} has no value {value:?}")]
    UnknownValue {
        /// The line it is written on.
        line: u64,
        /// Where: the grid or list.
        place: String,
        /// The axis.
        axis: Axis,
        /// The value as written.
        value: String,
    },
    /// A word the code knows that the model does not describe: every axis,
    /// class and fault needs its `about`.
    #[error("{FILE}: the {what} {word} has no `about` in the model")]
    Undescribed {
        /// What kind of word: axis, class or fault.
        what: &'static str,
        /// The word.
        word: &'static str,
    },
    /// Two grids have one name.
    #[error("{FILE}: two grids are named {0}")]
    DuplicateGrid(String),
    /// A left-out entry names no grid of the model.
    #[error("{FILE}: line {line}: left_out names no grid {name}")]
    UnknownGrid {
        /// The line it is written on.
        line: u64,
        /// The name as written.
        name: String,
    },
    /// A pair of faults no grid asks for.
    #[error("{FILE}: the pair {} is listed but no grid asks for it", fault_words(.0))]
    PairNotInAGrid(Faults),
}

/// The model's text, as checked in.
const TEXT: &str = include_str!("../../fault-model.yaml");

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
    /// When `text` is not a model (an unknown axis, fault, class or request
    /// is refused at its line), or names a value, grid or pair that does
    /// not exist.
    pub fn parse(text: &str) -> Result<FaultModel, ModelError> {
        let mut model: FaultModel = serde_saphyr::from_str(text).map_err(|e| {
            let message = crate::yaml::parser_message(&e);
            ModelError::Syntax(match e.location() {
                Some(at) => format!("line {} column {}: {message}", at.line(), at.column()),
                None => message,
            })
        })?;
        model.utf8_cells = model.utf8.cells().0;
        model.check()?;
        Ok(model)
    }

    fn check(&self) -> Result<(), ModelError> {
        self.check_described()?;
        let mut names = BTreeSet::new();
        for grid in &self.grids {
            if !names.insert(grid.name.as_str()) {
                return Err(ModelError::DuplicateGrid(grid.name.clone()));
            }
            for (&axis, pick) in &grid.axes {
                if let Pick::List(words) = pick {
                    for word in words {
                        self.check_value(&format!("grid {}", grid.name), axis, word)?;
                    }
                }
            }
        }
        for left in &self.left_out {
            let Some(grid) = self.grids.iter().find(|g| g.name == left.grid.value) else {
                return Err(ModelError::UnknownGrid {
                    line: left.grid.referenced.line(),
                    name: left.grid.value.clone(),
                });
            };
            let place = format!("left_out of {}", grid.name);
            for (&axis, word) in &left.cells {
                self.check_value(&place, axis, word)?;
                if !grid.axes.contains_key(&axis) {
                    return Err(unknown(&place, axis, word));
                }
            }
        }
        for pair in &self.pairs {
            let set = Faults::from_iter(pair.faults);
            let asked = self.grids.iter().any(|g| {
                matches!(g.axes.get(&Axis::Fault), Some(Pick::List(words))
                    if words.iter().any(|w| w.value == fault_words(&set)))
            });
            if !asked {
                return Err(ModelError::PairNotInAGrid(set));
            }
        }
        Ok(())
    }

    /// Every axis, class and fault of the code has its `about`.
    fn check_described(&self) -> Result<(), ModelError> {
        let undescribed = |what, word| Err(ModelError::Undescribed { what, word });
        if let Some(axis) = Axis::ALL.iter().find(|a| !self.axes.contains_key(a)) {
            return undescribed("axis", axis.as_str());
        }
        if let Some(class) = Class::ALL.iter().find(|c| !self.classes.contains_key(c)) {
            return undescribed("class", class.as_str());
        }
        if let Some(fault) = Fault::ALL.iter().find(|f| !self.faults.contains_key(f)) {
            return undescribed("fault", fault.as_str());
        }
        Ok(())
    }

    fn check_value(
        &self,
        place: &str,
        axis: Axis,
        word: &Spanned<String>,
    ) -> Result<(), ModelError> {
        self.value(axis, &word.value)
            .map(drop)
            .ok_or_else(|| unknown(place, axis, word))
    }
}

fn unknown(place: &str, axis: Axis, word: &Spanned<String>) -> ModelError {
    ModelError::UnknownValue {
        line: word.referenced.line(),
        place: place.to_owned(),
        axis,
        value: word.value.clone(),
    }
}
