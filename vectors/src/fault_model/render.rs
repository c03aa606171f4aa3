//! The fault model as Markdown, for REFERENCE.md's "The fault model".

use core::fmt::Write as _;

use super::{FaultModel, Faults, FILE};

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
             whoever wrote it.\n",
            cells.len()
        );
        let _ = writeln!(
            out,
            "**Buffer lengths** (name bytes): {}.\n",
            lengths.join(", ")
        );
        out.push_str("| Axis | What the bytes show |\n|---|---|\n");
        for (axis, about) in &self.axes {
            let _ = writeln!(out, "| `{axis}` | {} |", cell_text(about));
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
                Faults::from_iter(pair.faults),
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
}

/// A Markdown table cell's text: pipes escaped.
fn cell_text(text: &str) -> String {
    text.replace('|', "\\|")
}
