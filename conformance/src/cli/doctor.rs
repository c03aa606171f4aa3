//! `doctor -- CMD`: prints the findings of the library's `doctor::examine`.

use std::fmt::Write as _;

use wow_guid_conformance::doctor::{examine, DoctorConfig, Level};
use wow_guid_harness::shell;

use super::error::CliError;
use super::exit::Exit;
use super::stdout::print;

pub(super) fn doctor(config: &DoctorConfig) -> Result<Exit, CliError> {
    let findings = examine(config)?;
    let mut text = format!("doctor: examining `{}`\n\n", shell::words(&config.command));
    for f in &findings {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "  {:<5} {:<22} {}", f.level, f.check, f.message);
    }
    let fails = findings.iter().filter(|f| f.level == Level::Fail).count();
    let warns = findings.iter().filter(|f| f.level == Level::Warn).count();
    let _ = writeln!(
        text,
        "\n{}",
        match (fails, warns) {
            (0, 0) =>
                "The adapter speaks the protocol. Next: `run -- CMD` for the verdict.".to_owned(),
            (0, w) => format!("{w} warning(s); the adapter works with the runner."),
            (f, _) => format!("{f} problem(s) to fix before `run` can give a clean verdict."),
        }
    );
    print(&text)?;
    Ok(if fails == 0 {
        Exit::Success
    } else {
        Exit::Failure
    })
}
