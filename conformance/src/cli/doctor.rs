//! `doctor -- CMD`: prints the findings of [`crate::doctor::examine`].

use std::fmt::Write as _;

use super::args::DoctorArgs;
use super::{print, CliError, Exit};
use crate::doctor::{examine, DoctorConfig, Level};
use crate::shell;

pub(super) fn doctor(args: &DoctorArgs) -> Result<Exit, CliError> {
    let findings = examine(&DoctorConfig {
        command: args.command.clone(),
        timeout: args.timeout,
        startup_timeout: args.startup_timeout,
    })?;
    let mut text = format!("doctor: examining `{}`\n\n", shell::words(&args.command));
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
