//! The one writer of rerun command lines.
//!
//! Every report that gives a verdict ends with a command that gives it
//! again: `run` and `repro` one per vector (`repro ID`), `fuzz` and
//! `matrix` one in all ([`Rerun::line`]). Each repeats every condition the
//! verdict depends on ([`Conditions`]) that is not at its default, as the
//! command line takes it, so a pasted command cannot answer differently.

use std::collections::HashMap;
use std::ffi::OsString;

use wow_guid_vectors::Corpus;

use crate::duration::DisplayDuration;
use crate::options::{Conditions, CorpusSource};
use crate::process::{Mode, ProcessConfig};
use crate::run::VectorResult;
use crate::shell;

/// Writes the command lines that repeat a verdict under `conditions`.
#[derive(Clone, Copy, Debug)]
pub struct Rerun<'a> {
    /// How the runner was invoked (its `argv[0]`).
    pub program: &'a str,
    /// The conditions to repeat.
    pub conditions: &'a Conditions,
    /// The corpus the verdicts were given on, when at hand: its order
    /// lets earlier requests be named as ranges ([`AFTER_RANGE`]).
    pub corpus: Option<&'a Corpus>,
}

/// What joins a range in `repro --after`: `FIRST..=LAST` names every
/// vector from FIRST through LAST in corpus order (no id holds `=`). The
/// earlier requests a failure needs ([`PassesAlone::after`]) are a stretch
/// of what its process answered with a few left out, so 200 of them are
/// one range, not 200 ids.
///
/// [`PassesAlone::after`]: crate::run::PassesAlone::after
pub const AFTER_RANGE: &str = "..=";

/// `after` (vector ids, in order) as `repro --after` takes them: every run
/// of three or more ids consecutive in `corpus`'s order written as a range
/// ([`AFTER_RANGE`]), every other id as it is. Without a corpus, the ids.
pub(crate) fn after_items(after: &[String], corpus: Option<&Corpus>) -> Vec<String> {
    let Some(corpus) = corpus else {
        return after.to_vec();
    };
    let order: HashMap<&str, usize> = corpus
        .vectors
        .iter()
        .enumerate()
        .map(|(i, v)| (v.id.as_str(), i))
        .collect();
    let at = |id: &String| order.get(id.as_str()).copied();
    let mut items = Vec::new();
    for run in after.chunk_by(|a, b| matches!((at(a), at(b)), (Some(a), Some(b)) if b == a + 1)) {
        match run {
            [first, _, .., last] => items.push(format!("{first}{AFTER_RANGE}{last}")),
            _ => items.extend_from_slice(run),
        }
    }
    items
}

impl Rerun<'_> {
    /// The command that replays vector `id` alone (`repro`), with the steps
    /// before it when it belongs to a sequence, judged against the same
    /// expected-failure list.
    #[must_use]
    pub fn repro(&self, id: &str) -> String {
        self.line(&["repro", id], true)
    }

    /// The command that replays `result`'s vector as it failed: as
    /// [`Rerun::repro`], and for a failure that shows only after earlier
    /// requests ([`PassesAlone`](crate::run::PassesAlone)), with `--after`
    /// naming them (runs of the corpus as ranges, [`AFTER_RANGE`]), so
    /// that they are sent first to the same process.
    #[must_use]
    pub fn repro_result(&self, result: &VectorResult<'_>) -> String {
        let id = &result.vector.id;
        match result
            .passes_alone
            .as_deref()
            .and_then(|passes| passes.after.as_ref())
            .filter(|after| !after.is_empty())
        {
            None => self.repro(id),
            Some(after) => {
                let items = after_items(after, self.corpus).join(",");
                self.line(&["repro", id, "--after", &items], true)
            }
        }
    }

    /// `program`, `words` (the subcommand and its arguments), the options
    /// that repeat the conditions (the expected-failure list only
    /// `with_expected_failures`), and `-- CMD` for an external
    /// implementation, quoted for a POSIX shell.
    #[must_use]
    pub fn line(&self, words: &[&str], with_expected_failures: bool) -> String {
        let c = self.conditions;
        let mut out: Vec<OsString> = std::iter::once(self.program)
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect();
        let mut option = |name: &str, value: Option<String>| {
            out.push(name.into());
            out.extend(value.map(OsString::from));
        };
        if let CorpusSource::Dir(dir) = &c.corpus {
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
        // The time limits that differ from the defaults.
        if c.timeout != ProcessConfig::DEFAULT_TIMEOUT {
            option("--timeout", Some(DisplayDuration(c.timeout).to_string()));
        }
        if c.startup_timeout != ProcessConfig::DEFAULT_STARTUP_TIMEOUT {
            let startup = DisplayDuration(c.startup_timeout).to_string();
            option("--startup-timeout", Some(startup));
        }
        if let Some(command) = c.target.command() {
            option("--", None);
            out.extend(command.iter().cloned());
        }
        shell::words(&out)
    }
}
