//! `wow-guid-conformance`, the command line over the library of the same
//! name. The command-line interface is this binary's own module
//! ([`cli`]): the library never sees clap. This file only maps the outcome
//! to a message and an exit status.

mod cli;

use std::io::Write as _;
use std::process::ExitCode;

use cli::CliError;

fn main() -> ExitCode {
    match cli::main(std::env::args_os()) {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(CliError::Usage(e)) => {
            // clap formats help, version and usage errors itself.
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
        Err(e) => {
            // Not `eprintln!`, which panics when stderr is gone: the exit
            // status is the message then.
            let _ = writeln!(std::io::stderr(), "wow-guid-conformance: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
