//! The command-line interface: parse ([`args`]), validate ([`options`]),
//! run the library, print. `main.rs` only maps the result of [`main`] to an
//! exit status.

pub mod args;
mod corpus_tools;
mod doctor;
pub mod error;
pub mod options;
mod repro;
mod run;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::Parser;

use args::{Cli, Command};
pub use error::CliError;

/// How a subcommand that ran to the end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything checked out: status 0.
    Success,
    /// A conformance failure (or lint finding, stale file...): status 1.
    Failure,
    /// The run finished but cannot give a verdict (the corpus itself is
    /// wrong): status 2.
    NoVerdict,
}

impl Exit {
    /// The process exit status.
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Failure => 1,
            Self::NoVerdict => 2,
        }
    }
}

/// Runs the command line `args` (program name first).
///
/// # Errors
/// [`CliError`] when the subcommand cannot do its job; see
/// [`CliError::exit_code`].
pub fn main<I, T>(args: I) -> Result<Exit, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let program = args.first().map_or_else(
        || "wow-guid-conformance".to_owned(),
        |p| p.to_string_lossy().into_owned(),
    );
    let cli = Cli::try_parse_from(&args).map_err(CliError::Usage)?;
    if matches!(
        cli.command,
        Command::Run(_) | Command::Repro(_) | Command::Doctor(_) | Command::Fuzz(_)
    ) {
        crate::process::kill_children_on_signal().map_err(CliError::Signals)?;
    }
    match cli.command {
        Command::Run(a) => run::run(&a, &program),
        Command::Serve => serve(),
        Command::Lint(a) => corpus_tools::lint(&a),
        Command::Generate(a) => corpus_tools::generate(&a),
        Command::Repro(a) => repro::repro(&a),
        Command::Doctor(a) => doctor::doctor(&a),
        Command::SeedCorpus(a) => corpus_tools::seed_corpus(&a),
        Command::Fuzz(a) => crate::fuzzing::command::fuzz(&a, &program),
    }
}

fn serve() -> Result<Exit, CliError> {
    crate::serve::serve(io::stdin().lock(), io::stdout().lock()).map_err(CliError::Serve)?;
    Ok(Exit::Success)
}

/// Writes `text` to stdout, mapping failure to [`CliError::Stdout`].
fn print(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}
