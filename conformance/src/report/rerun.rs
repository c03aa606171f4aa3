//! The one writer of rerun command lines.
//!
//! Every report that gives a verdict ends with a command that gives it
//! again: `run` one per failure (`repro ID`), `fuzz` one for the whole
//! session. Each repeats every condition the verdict depends on
//! ([`Conditions`]: corpus, strictness, process mode and window, both
//! timeouts, the implementation's command), spelled as the command line
//! takes it, so that a pasted command cannot answer differently for want of
//! an option. Options left at their defaults are left out. Pure string work.

use std::ffi::OsString;

use crate::duration::DisplayDuration;
use crate::options::Conditions;
use crate::process::{Mode, ProcessConfig};
use crate::shell;

/// Writes the command lines that repeat a verdict under `conditions`.
#[derive(Clone, Copy, Debug)]
pub struct Rerun<'a> {
    /// How the runner was invoked (its `argv[0]`).
    pub program: &'a str,
    /// The conditions to repeat.
    pub conditions: &'a Conditions,
}

impl Rerun<'_> {
    /// The command that replays vector `id` alone (`repro`), with the steps
    /// before it when it belongs to a sequence.
    #[must_use]
    pub fn repro(&self, id: &str) -> String {
        self.line(&["repro", id], false)
    }

    /// The command that runs the same fuzzing session again: the same seed
    /// and exactly as many requests.
    #[must_use]
    pub fn fuzz(&self, seed: u64, count: u64) -> String {
        let (seed, count) = (seed.to_string(), count.to_string());
        self.line(&["fuzz", "--seed", &seed, "--count", &count], false)
    }

    /// `program`, then `words`, then the options that repeat the
    /// conditions, then `-- CMD` for an external implementation. The
    /// expected-failure list goes along only where the subcommand takes one.
    fn line(&self, words: &[&str], with_expected_failures: bool) -> String {
        let c = self.conditions;
        let mut out: Vec<OsString> = std::iter::once(self.program)
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect();
        let mut option = |name: &str, value: Option<String>| {
            out.push(name.into());
            out.extend(value.map(OsString::from));
        };
        if let crate::options::CorpusSource::Dir(dir) = &c.corpus {
            option("--vectors", Some(dir.display().to_string()));
        }
        if c.judge.strict_errors {
            option("--strict-errors", None);
        }
        if let (true, Some(list)) = (with_expected_failures, &c.expected_failures) {
            option("--expect-fail", Some(list.file.clone()));
        }
        match c.mode {
            Mode::OneShot => option("--one-shot", None),
            Mode::Persistent { window } if window != ProcessConfig::DEFAULT_WINDOW => {
                option("--window", Some(window.to_string()));
            }
            Mode::Persistent { .. } => {}
        }
        if c.timeout != ProcessConfig::DEFAULT_TIMEOUT {
            option("--timeout", Some(DisplayDuration(c.timeout).to_string()));
        }
        if c.startup_timeout != ProcessConfig::DEFAULT_STARTUP_TIMEOUT {
            option(
                "--startup-timeout",
                Some(DisplayDuration(c.startup_timeout).to_string()),
            );
        }
        if let Some(command) = c.target.command() {
            out.push("--".into());
            out.extend(command.iter().cloned());
        }
        shell::words(&out)
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;
    use std::time::Duration;

    use super::*;
    use crate::options::{CorpusSource, Target};

    fn conditions() -> Conditions {
        let mut c = Conditions::new(Target::Command(vec![
            "python3".into(),
            "my adapter.py".into(),
        ]));
        c.corpus = CorpusSource::Dir("my vectors".into());
        c.judge.strict_errors = true;
        c.timeout = Duration::from_millis(1500);
        c
    }

    #[test]
    fn repro_lines_carry_every_condition_of_the_verdict() {
        let c = conditions();
        let rerun = Rerun {
            program: "wow-guid-conformance",
            conditions: &c,
        };
        assert_eq!(
            rerun.repro("packed.decode.doc-example"),
            "wow-guid-conformance repro packed.decode.doc-example --vectors 'my vectors' \
             --strict-errors --timeout 1.500s -- python3 'my adapter.py'"
        );
        let mut c = conditions();
        c.mode = Mode::Persistent {
            window: NonZeroUsize::MIN,
        };
        c.startup_timeout = Duration::from_secs(60);
        c.corpus = CorpusSource::Embedded;
        let rerun = Rerun {
            program: "runner",
            conditions: &c,
        };
        assert_eq!(
            rerun.fuzz(7, 1200),
            "runner fuzz --seed 7 --count 1200 --strict-errors --window 1 --timeout 1.500s \
             --startup-timeout 60s -- python3 'my adapter.py'"
        );
        c.mode = Mode::OneShot;
        assert!(Rerun {
            program: "runner",
            conditions: &c,
        }
        .repro("x")
        .contains(" --one-shot "));
    }

    #[test]
    fn the_built_in_reference_needs_no_command() {
        let c = Conditions::new(Target::BuiltIn {
            serve: vec!["/somewhere/runner".into(), "serve".into()],
        });
        let rerun = Rerun {
            program: "wow-guid-conformance",
            conditions: &c,
        };
        assert_eq!(rerun.repro("x"), "wow-guid-conformance repro x");
    }
}
