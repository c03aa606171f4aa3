//! Standard output for the subcommands that print their result whole.

use std::io::{self, Write};

use super::error::CliError;

/// Writes `text` to stdout, mapping failure to [`CliError::Stdout`]. Styles
/// in it (a block's label) reach a terminal, and are dropped when stdout is
/// not one or `NO_COLOR` is set.
pub(super) fn print(text: &str) -> Result<(), CliError> {
    let mut out = anstream::AutoStream::auto(io::stdout().lock());
    reader_gone_is_fine(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
        .map_err(CliError::Stdout)
}

/// A write to stdout that failed because its reader went away (`run | head
/// -1`) is not an error: the reader has all it wanted. The command goes on
/// (report files are still written) and exits with its own status, quietly,
/// as `serve` does.
pub(super) fn reader_gone_is_fine(result: io::Result<()>) -> io::Result<()> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
