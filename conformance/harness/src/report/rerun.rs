//! The one writer of rerun command lines.
//!
//! Every report that gives a verdict ends with a command that gives it
//! again: `run` and `repro` one per vector (`repro ID`), `fuzz` one for the
//! whole session, `matrix` one for the whole matrix ([`Rerun::line`]). Each
//! repeats every condition the verdict depends on
//! ([`Conditions`]: corpus, strictness, process mode and window, both
//! timeouts, the implementation's command), spelled as the command line
//! takes it, so that a pasted command cannot answer differently for want of
//! an option. Options left at their defaults are left out. Pure string work.

use std::collections::HashMap;
use std::ffi::OsString;
use std::time::Duration;

use wow_guid_vectors::Corpus;

use crate::duration::DisplayDuration;
use crate::judge::JudgeOptions;
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

/// What joins the first and the last id of a range in `repro --after`:
/// `FIRST..=LAST` names every vector of the corpus from FIRST through
/// LAST, in corpus order. No id contains it (`=` is not allowed in one).
///
/// The earlier requests a failure needs ([`PassesAlone::after`]) are a
/// stretch of what its process answered with a few left out, so as ranges
/// they fit one argument and one `state` line however many they are:
/// a history of 200 requests is one range, not 200 ids.
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
    let mut start = 0;
    while start < after.len() {
        let mut end = start;
        while end + 1 < after.len()
            && matches!((at(&after[end]), at(&after[end + 1])), (Some(a), Some(b)) if b == a + 1)
        {
            end += 1;
        }
        if end - start >= 2 {
            items.push(format!("{}{AFTER_RANGE}{}", after[start], after[end]));
        } else {
            items.extend_from_slice(&after[start..=end]);
        }
        start = end + 1;
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

    /// `program`, then `words` (the subcommand and its own arguments), then
    /// the options that repeat the conditions, then `-- CMD` for an external
    /// implementation, quoted for a POSIX shell. The expected-failure list
    /// goes along only `with_expected_failures` (where the subcommand takes
    /// one). `fuzz` and `matrix` write theirs this way.
    #[must_use]
    pub fn line(&self, words: &[&str], with_expected_failures: bool) -> String {
        let c = self.conditions;
        let mut out = Words::new(self.program, words);
        out.corpus(&c.corpus);
        out.judge(c.judge);
        if let (true, Some(list)) = (with_expected_failures, &c.expected_failures) {
            out.option("--expect-fail", Some(list.file.clone()));
        }
        match c.mode {
            Mode::OneShot => out.option("--one-shot", None),
            Mode::Persistent { window } if window != ProcessConfig::DEFAULT_WINDOW => {
                out.option("--window", Some(window.to_string()));
            }
            Mode::Persistent { .. } => {}
        }
        out.timeouts(c.timeout, c.startup_timeout);
        if let Some(command) = c.target.command() {
            out.0.push("--".into());
            out.0.extend(command.iter().cloned());
        }
        shell::words(&out.0)
    }
}

/// A command line being written: the program, the subcommand's words, and
/// the options each condition is spelled with, once for every subcommand.
struct Words(Vec<OsString>);

impl Words {
    fn new(program: &str, words: &[&str]) -> Self {
        Self(
            std::iter::once(program)
                .chain(words.iter().copied())
                .map(OsString::from)
                .collect(),
        )
    }

    fn option(&mut self, name: &str, value: Option<String>) {
        self.0.push(name.into());
        self.0.extend(value.map(OsString::from));
    }

    fn corpus(&mut self, corpus: &CorpusSource) {
        if let CorpusSource::Dir(dir) = corpus {
            self.option("--vectors", Some(dir.display().to_string()));
        }
    }

    fn judge(&mut self, judge: JudgeOptions) {
        if judge.strict_errors {
            self.option("--strict-errors", None);
        }
    }

    /// The time limits that differ from the defaults.
    fn timeouts(&mut self, timeout: Duration, startup_timeout: Duration) {
        if timeout != ProcessConfig::DEFAULT_TIMEOUT {
            self.option("--timeout", Some(DisplayDuration(timeout).to_string()));
        }
        if startup_timeout != ProcessConfig::DEFAULT_STARTUP_TIMEOUT {
            self.option(
                "--startup-timeout",
                Some(DisplayDuration(startup_timeout).to_string()),
            );
        }
    }
}
