//! How a property says it is broken: the message every check panics with,
//! naming the property, what happened and the input as hex.

use core::fmt;

/// Bytes shown as lowercase hex pairs separated by spaces, `-` when empty:
/// the way the vector files and the conformance protocol write byte strings.
pub(super) struct Hex<'a>(pub(super) &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, byte) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// Stops the harness with a message that names the property and the input.
#[cold]
#[track_caller]
pub(super) fn violated(property: &str, input: &[u8], detail: fmt::Arguments<'_>) -> ! {
    panic!(
        "property `{property}` violated: {detail}\n  input ({} bytes): \"{}\"",
        input.len(),
        Hex(input)
    )
}
