//! The command that reproduces one vector of a run.
//!
//! Reports end every failure with a command that reproduces just that
//! vector, under the same conditions (corpus, strictness, mode, timeout,
//! implementation); this module builds it.

use std::path::PathBuf;
use std::time::Duration;

use crate::implementation::DisplayDuration;
use crate::shell::quote;

/// What a `repro` command needs to reproduce a run's conditions for one vector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReproCommand {
    /// How the runner was invoked (its `argv[0]`).
    pub program: String,
    /// `--vectors DIR`, when the run used a corpus other than the embedded one.
    pub vectors: Option<PathBuf>,
    /// `--strict-errors`.
    pub strict_errors: bool,
    /// `--one-shot`.
    pub one_shot: bool,
    /// `--timeout`, when not the default.
    pub timeout: Option<Duration>,
    /// The implementation's command; `None` for the built-in reference.
    pub command: Option<Vec<String>>,
}

impl ReproCommand {
    /// The command line that reproduces vector `id`.
    #[must_use]
    pub fn for_id(&self, id: &str) -> String {
        let mut words = vec![quote(&self.program), "repro".to_owned(), quote(id)];
        if let Some(dir) = &self.vectors {
            words.push("--vectors".into());
            words.push(quote(&dir.to_string_lossy()));
        }
        if self.strict_errors {
            words.push("--strict-errors".into());
        }
        if self.one_shot {
            words.push("--one-shot".into());
        }
        if let Some(t) = self.timeout {
            words.push("--timeout".into());
            words.push(DisplayDuration(t).to_string());
        }
        if let Some(command) = &self.command {
            words.push("--".into());
            words.extend(command.iter().map(|w| quote(w)));
        }
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repro_lines_carry_the_run_conditions() {
        let repro = ReproCommand {
            program: "wow-guid-conformance".into(),
            vectors: Some("my vectors".into()),
            strict_errors: true,
            one_shot: false,
            timeout: Some(Duration::from_millis(1500)),
            command: Some(vec!["python3".into(), "adapter.py".into()]),
        };
        assert_eq!(
            repro.for_id("packed.decode.doc-example"),
            "wow-guid-conformance repro packed.decode.doc-example --vectors 'my vectors' \
             --strict-errors --timeout 1.500s -- python3 adapter.py"
        );
        let builtin = ReproCommand {
            program: "wow-guid-conformance".into(),
            ..ReproCommand::default()
        };
        assert_eq!(builtin.for_id("x"), "wow-guid-conformance repro x");
    }
}
