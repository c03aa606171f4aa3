//! The command-line interface, private to the binary: parse ([`args`]),
//! validate into the library's options ([`options`]), run the library,
//! print. Nothing here is part of the library, so clap is not either.

mod args;
mod corpus_tools;
mod doctor;
mod error;
mod exit;
mod fuzz;
mod list;
mod matrix;
mod options;
mod release;
mod repro;
mod run;
mod stdout;

use std::ffi::OsString;
use std::io;

use clap::Parser;

use args::{Cli, Command};
pub use error::CliError;
pub use exit::Exit;

/// The subcommands that run an implementation given after `--`.
const TAKE_A_COMMAND: [&str; 4] = ["run", "repro", "doctor", "fuzz"];

/// Replaces clap's tip where it would mislead: for an unknown `--format`
/// on a subcommand that runs an implementation, clap suggests
/// `-- --format`, which hands the flag to the implementation, so the tip
/// names the report options instead; an unexpected word there is most
/// likely the implementation's command without the `--` before it.
fn advise(mut error: clap::Error, args: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};

    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let subcommand = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| !a.starts_with('-'));
    let Some(subcommand) = subcommand.filter(|s| TAKE_A_COMMAND.contains(s)) else {
        return error;
    };
    let Some(ContextValue::String(found)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    let tip = if found == "--format" || found.starts_with("--format=") {
        if subcommand == "run" {
            "a report as JSON goes to a file: --report-json FILE (JUnit XML: --junit FILE); \
             `--format` is an option of `list` and `export`"
                .to_owned()
        } else {
            format!(
                "`{subcommand}` has no --format (a JSON report comes from `run --report-json \
                 FILE`); anything after `--` goes to the implementation"
            )
        }
    } else if found.starts_with('-') {
        return error;
    } else {
        format!(
            "the implementation's command goes after `--`: wow-guid-conformance {subcommand} \
             [OPTIONS] -- {found} ..."
        )
    };
    let _ = error.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
    error
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
    let cli = Cli::try_parse_from(&args).map_err(|e| CliError::Usage(advise(e, &args)))?;
    if matches!(
        cli.command,
        Command::Run(_)
            | Command::Repro(_)
            | Command::Doctor(_)
            | Command::Fuzz(_)
            | Command::Matrix(_)
    ) {
        wow_guid_harness::process::kill_children_on_signal().map_err(CliError::Signals)?;
    }
    match cli.command {
        Command::Run(a) => run::run(&options::run_options(&a)?, &a, &program),
        Command::List(a) => list::list(&a),
        Command::Serve => serve(),
        Command::Lint(a) => corpus_tools::lint(a.vectors.as_ref()),
        Command::Generate(a) => corpus_tools::generate(&a),
        Command::Release(a) => release::release(&a.action),
        Command::Repro(a) => repro::repro(&options::repro_options(&a)?, &program),
        Command::Doctor(a) => doctor::doctor(&options::doctor_config(&a)),
        Command::SeedCorpus(a) => corpus_tools::seed_corpus(&options::corpus_source(&a.corpus), &a),
        Command::Export(a) => corpus_tools::export(&options::corpus_source(&a.corpus), &a),
        Command::Fuzz(a) => {
            // The time budget counts from here, loading the corpus included.
            let started = std::time::Instant::now();
            fuzz::fuzz(&options::fuzz_options(&a, started)?, &program, started)
        }
        Command::Matrix(a) => matrix::matrix(&a),
    }
}

fn serve() -> Result<Exit, CliError> {
    wow_guid_harness::serve::serve(io::stdin().lock(), io::stdout().lock())
        .map_err(CliError::Serve)?;
    Ok(Exit::Success)
}
