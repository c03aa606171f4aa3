//! `list`: the selected vectors, as text or JSON, without running anything.

use std::io::{self, Write};

use wow_guid_conformance::list::Listing;

use super::args::ListArgs;
use super::error::CliError;
use super::exit::Exit;
use super::options;
use super::stdout::reader_gone_is_fine;

/// Prints the vectors `args` select.
pub(super) fn list(args: &ListArgs) -> Result<Exit, CliError> {
    let source = options::corpus_source(&args.corpus);
    let corpus = source.load().map_err(CliError::Corpus)?;
    let selection = options::selection(&args.select, &corpus)?;
    let vectors = selection.apply(&corpus.vectors);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let listing = Listing {
        corpus: &source.name(),
        vectors: &vectors,
    };
    let written = args.format.format.write(&listing, &mut out);
    reader_gone_is_fine(written.and_then(|()| out.flush())).map_err(CliError::Stdout)?;
    Ok(Exit::Success)
}
