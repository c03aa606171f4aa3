//! Standard output for the subcommands that print their result whole.

use std::io::{self, Write};

use super::error::CliError;

/// Writes `text` to stdout, mapping failure to [`CliError::Stdout`].
pub(super) fn print(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}
