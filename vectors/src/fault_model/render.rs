//! The fault model as Markdown, for REFERENCE.md's "The fault model".

use core::fmt::Write as _;

use super::{fault_words, FaultModel, Faults, Utf8Cell, FILE};
use crate::hex_text::format_spaced;

impl FaultModel {
    /// The model as Markdown: the axes, the faults and pairs, the grids
    /// with their cell counts, and what is left out and why.
    #[must_use]
    pub fn render(&self) -> String {
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
             whoever wrote it.\n\n**Buffer lengths** (name bytes): {}.\n",
            cells.len(),
            lengths.join(", ")
        );
        out.push_str("| Axis | What the bytes show |\n|---|---|\n");
        for (axis, about) in &self.axes {
            let _ = writeln!(out, "| `{axis}` | {} |", cell_text(about));
        }
        out.push_str("\n| Class | What the name holds |\n|---|---|\n");
        for (class, about) in &self.classes {
            let _ = writeln!(out, "| `{class}` | {} |", cell_text(about));
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
                fault_words(&Faults::from_iter(pair.faults)),
                pair.code
            );
        }
        self.render_utf8(&mut out);
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
            let cells: Vec<String> = left
                .cells
                .iter()
                .map(|(axis, value)| format!("{axis}={}", value.value))
                .collect();
            let _ = writeln!(
                out,
                "- `{}` [{}]: {}",
                left.grid.value,
                cells.join(", "),
                left.why
            );
        }
        for not in &self.not_crossed {
            let _ = writeln!(out, "- {}: {}", not.what, not.why);
        }
        out
    }

    /// The UTF-8 table: its rows, each sequence the corpus asks with every
    /// cell it stands for, and the bytes counted in another row.
    fn render_utf8(&self, out: &mut String) {
        let table = &self.utf8;
        let rows: Vec<String> = table.rows.iter().map(|r| format!("`{r}`")).collect();
        let _ = writeln!(
            out,
            "\n**UTF-8 cells**, from {}: the rows {}. {}\n",
            table.source,
            rows.join(", "),
            table.combined
        );
        let (cells, elsewhere) = table.cells();
        let mut groups: Vec<(&[u8], Vec<&Utf8Cell>)> = Vec::new();
        for cell in &cells {
            match groups
                .iter_mut()
                .find(|(bytes, _)| *bytes == cell.bytes.as_slice())
            {
                Some((_, group)) => group.push(cell),
                None => groups.push((&cell.bytes, vec![cell])),
            }
        }
        out.push_str("| Name | Cells | What |\n|---|---|---|\n");
        for (bytes, group) in &groups {
            let words: Vec<String> = group.iter().map(|c| format!("`{}`", c.word)).collect();
            let abouts: Vec<&str> = group.iter().map(|c| c.about.as_str()).collect();
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                format_spaced(bytes),
                words.join(", "),
                cell_text(&abouts.join("; "))
            );
        }
        out.push_str("\nCounted in another row (a first byte just outside its row that starts another, with which it is well-formed):");
        for counted in &elsewhere {
            let _ = write!(
                out,
                " `{}` (`{}`, row `{}`);",
                counted.word,
                format_spaced(&counted.bytes),
                counted.about
            );
        }
        out.pop();
        out.push_str(".\n");
    }
}

/// A Markdown table cell's text: pipes escaped.
fn cell_text(text: &str) -> String {
    text.replace('|', "\\|")
}
