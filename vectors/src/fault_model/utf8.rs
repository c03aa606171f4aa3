//! The UTF-8 cells of the fault model, derived from the table of
//! well-formed UTF-8 byte sequences that `fault-model.yaml` holds (The
//! Unicode Standard, chapter 3, Table 3-7, under definition D92).
//!
//! For every row and every byte position, the cells are the lowest and the
//! highest byte of the position's range and the byte just outside it on
//! each side, each in the row's lowest sequence (`c2 80`, `e0 a0 80`, ...)
//! with only that byte changed; and the lowest sequence cut after each of
//! its bytes, at the end of the name. A first byte just outside its row
//! that starts another row is that row's (counted there) unless the
//! sequence it makes is ill-formed, which is then a cell of its own (`e0
//! 80`). Past the first byte the first byte has chosen the row, so an
//! outside byte is always a cell (`e0 9f 80`, though `9f` is a second byte
//! of `e1..ec`). The model's extra sequences are cells too. Cells whose
//! sequences are the same bytes are asked by one vector.

use core::fmt;

use serde::Deserialize;

/// One position of a table row: a range of bytes, written `80..bf`, or
/// one byte, `e0`.
pub type Span = (u8, u8);

/// A row of the table, or an extra sequence: one span per byte, written
/// as the table writes it (`e0 a0..bf 80..bf`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern(pub Vec<Span>);

/// The table and the extra sequences, as the model file holds them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Utf8Table {
    /// Where the table is from.
    pub source: String,
    /// The rows, in the table's order.
    pub rows: Vec<Pattern>,
    /// Sequences beyond the table's bounds that real code writes or
    /// accepts, each a cell (one per byte of a range in it).
    pub extras: Vec<Extra>,
    /// Which cells one vector asks, and why each stays attributable.
    pub combined: String,
}

/// An extra sequence.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extra {
    /// Its word (with each ranged byte appended: `lead.f5`).
    pub name: String,
    /// Its bytes; a range makes one cell per byte of it.
    pub bytes: Pattern,
    /// What it is and who writes it.
    pub about: String,
}

/// One UTF-8 cell: a sequence the corpus must ask as a name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Utf8Cell {
    /// Its word: `{row}.byte{n}.{low|high|below|above}`, `{row}.cut{n}`,
    /// or an extra's name.
    pub word: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Whether the bytes must end the name (a sequence cut short).
    pub ends_name: bool,
    /// What it is, in words.
    pub about: String,
}

impl Pattern {
    /// The row's name in words: its first span, `c2-df` or `e0`.
    #[must_use]
    pub fn name(&self) -> String {
        match self.0.first() {
            Some(&(lo, hi)) if lo == hi => format!("{lo:02x}"),
            Some(&(lo, hi)) => format!("{lo:02x}-{hi:02x}"),
            None => String::new(),
        }
    }

    fn matches(&self, bytes: &[u8]) -> bool {
        bytes.len() == self.0.len()
            && self
                .0
                .iter()
                .zip(bytes)
                .all(|(&(lo, hi), b)| (lo..=hi).contains(b))
    }

    fn sequences(&self) -> Vec<Vec<u8>> {
        self.0.iter().fold(vec![Vec::new()], |done, &(lo, hi)| {
            done.iter()
                .flat_map(|prefix| (lo..=hi).map(move |b| [prefix.as_slice(), &[b]].concat()))
                .collect()
        })
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(lo, hi)) in self.0.iter().enumerate() {
            let gap = if i == 0 { "" } else { " " };
            if lo == hi {
                write!(f, "{gap}{lo:02x}")?;
            } else {
                write!(f, "{gap}{lo:02x}..{hi:02x}")?;
            }
        }
        Ok(())
    }
}

impl core::str::FromStr for Pattern {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let byte = |hex: &str| {
            u8::from_str_radix(hex, 16)
                .ok()
                .filter(|_| hex.len() == 2)
                .ok_or_else(|| format!("{hex:?} in {text:?} is not a byte (two hex digits)"))
        };
        let spans = text
            .split_whitespace()
            .map(|span| {
                let (lo, hi) = span.split_once("..").unwrap_or((span, span));
                let (lo, hi) = (byte(lo)?, byte(hi)?);
                if lo > hi {
                    return Err(format!("{span:?} in {text:?} runs backwards"));
                }
                Ok((lo, hi))
            })
            .collect::<Result<Vec<Span>, String>>()?;
        if spans.is_empty() {
            return Err("a sequence needs at least one byte".to_owned());
        }
        Ok(Pattern(spans))
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Utf8Table {
    /// The row whose first byte's range holds `lead`.
    fn row_of(&self, lead: u8) -> Option<&Pattern> {
        self.rows.iter().find(|row| {
            row.0
                .first()
                .is_some_and(|&(lo, hi)| (lo..=hi).contains(&lead))
        })
    }

    /// Whether `bytes` is well-formed UTF-8 by the table: a run of its
    /// rows' sequences.
    #[must_use]
    pub fn well_formed(&self, mut bytes: &[u8]) -> bool {
        while let Some(&lead) = bytes.first() {
            let Some(row) = self.row_of(lead) else {
                return false;
            };
            let width = row.0.len();
            if bytes.len() < width || !row.matches(&bytes[..width]) {
                return false;
            }
            bytes = &bytes[width..];
        }
        true
    }

    /// Every cell, in the table's order, then the extras; and the outside
    /// first bytes counted in another row, with which they make a
    /// well-formed sequence (each with the word it would have had, and the
    /// row it is counted in for its `about`).
    #[must_use]
    pub fn cells(&self) -> (Vec<Utf8Cell>, Vec<Utf8Cell>) {
        let (mut cells, mut elsewhere) = (Vec::new(), Vec::new());
        for row in &self.rows {
            self.row_cells(row, &mut cells, &mut elsewhere);
        }
        for extra in &self.extras {
            let ranged: Vec<usize> = (0..extra.bytes.0.len())
                .filter(|&i| extra.bytes.0[i].0 != extra.bytes.0[i].1)
                .collect();
            for bytes in extra.bytes.sequences() {
                let mut word = extra.name.clone();
                if !ranged.is_empty() {
                    word.push('.');
                    word.extend(ranged.iter().map(|&i| format!("{:02x}", bytes[i])));
                }
                cells.push(Utf8Cell {
                    word,
                    bytes,
                    ends_name: false,
                    about: extra.about.clone(),
                });
            }
        }
        (cells, elsewhere)
    }

    /// One row's cells: each position's bounds, then the cuts.
    fn row_cells(&self, row: &Pattern, cells: &mut Vec<Utf8Cell>, elsewhere: &mut Vec<Utf8Cell>) {
        let name = row.name();
        let lowest: Vec<u8> = row.0.iter().map(|&(lo, _)| lo).collect();
        for (at, &(lo, hi)) in row.0.iter().enumerate() {
            let sides = [
                ("low", "at its lowest", Some(lo)),
                ("high", "at its highest", Some(hi)),
                ("below", "one below its range", lo.checked_sub(1)),
                ("above", "one above its range", hi.checked_add(1)),
            ];
            for (side, words, byte) in sides {
                let Some(byte) = byte else {
                    continue;
                };
                let mut bytes = lowest.clone();
                bytes[at] = byte;
                let word = format!("{name}.byte{}.{side}", at + 1);
                let mut about = format!("row {row}, byte {} {words} ({byte:02x})", at + 1);
                let outside = !(lo..=hi).contains(&byte);
                if let Some(other) = self.row_of(byte).filter(|_| outside && at == 0) {
                    if self.well_formed(&bytes) {
                        let (about, ends_name) = (other.to_string(), false);
                        elsewhere.push(Utf8Cell {
                            word,
                            bytes,
                            ends_name,
                            about,
                        });
                        continue;
                    }
                    about = format!(
                        "{about}, which starts row {other}: ill-formed with this row's other bytes"
                    );
                }
                let ends_name = false;
                cells.push(Utf8Cell {
                    word,
                    bytes,
                    ends_name,
                    about,
                });
            }
        }
        for cut in 1..lowest.len() {
            cells.push(Utf8Cell {
                word: format!("{name}.cut{cut}"),
                bytes: lowest[..cut].to_vec(),
                ends_name: true,
                about: format!(
                    "row {row} cut after byte {cut} of {}, at the end of the name",
                    lowest.len()
                ),
            });
        }
    }
}

/// The cells of `cells` that `name` shows: each sequence where it starts
/// a character after only well-formed bytes (so a validator reaches it),
/// a cut one only at the end of the name.
pub fn shown<'c>(cells: &'c [Utf8Cell], name: &[u8]) -> Vec<&'c Utf8Cell> {
    let valid = core::str::from_utf8(name).map_or_else(|e| e.valid_up_to(), |_| name.len());
    let starts: Vec<usize> = (0..name.len().min(valid + 1))
        .filter(|&i| i == valid || !(0x80..=0xbf).contains(&name[i]))
        .collect();
    let mut first = [false; 256];
    for &i in &starts {
        first[usize::from(name[i])] = true;
    }
    cells
        .iter()
        .filter(|cell| first[usize::from(cell.bytes[0])])
        .filter(|cell| {
            starts.iter().any(|&i| {
                name[i..].starts_with(&cell.bytes)
                    && (!cell.ends_name || name.len() == i + cell.bytes.len())
            })
        })
        .collect()
}
