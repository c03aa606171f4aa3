//! The validated options of the subcommands that judge an implementation.
//!
//! Each is built once from what the user said (a command line, another
//! tool's configuration), checked against what it refers to (the corpus
//! loads, the expected-failure list names real vectors, the globs are
//! valid), then passed down unchanged: the run, the reports and the rerun
//! commands read their conditions from it, never from the arguments.
//! [`Conditions`] is everything a verdict depends on, so everything a
//! command reproducing one must repeat ([`crate::report::rerun`]). Parses no
//! command line and prints nothing.

use std::ffi::OsString;
use std::fmt;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use wow_guid_vectors::{Corpus, LoadErrors};

use crate::expect_fail::ExpectedFailures;
use crate::judge::JudgeOptions;
use crate::process::{Mode, ProcessConfig};
use crate::run::RunPlan;
use crate::select::Selection;
use crate::shell;

/// Where the vectors come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorpusSource {
    /// The corpus compiled into the runner.
    #[default]
    Embedded,
    /// Every `*.yaml` file below a directory (a draft corpus).
    Dir(PathBuf),
}

/// Why a corpus could not be had.
#[derive(Debug)]
pub enum CorpusError {
    /// The directory given is not a directory.
    NotADirectory(PathBuf),
    /// The files do not load.
    Load {
        /// Which corpus, as a person reads it.
        source: String,
        /// Every problem the loader found.
        errors: LoadErrors,
    },
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotADirectory(dir) => write!(f, "--vectors {}: not a directory", dir.display()),
            Self::Load { source, errors } => {
                writeln!(f, "{source} does not load ({} problem(s)):", errors.0.len())?;
                write!(f, "{errors}")
            }
        }
    }
}

impl std::error::Error for CorpusError {}

impl CorpusSource {
    /// The source as reports name it: `embedded`, or the directory.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::Embedded => "embedded".to_owned(),
            Self::Dir(dir) => dir.display().to_string(),
        }
    }

    /// Loads the corpus.
    ///
    /// # Errors
    /// [`CorpusError`] when the directory is not one or the files do not load.
    pub fn load(&self) -> Result<Corpus, CorpusError> {
        match self {
            Self::Embedded => Corpus::embedded().map_err(|errors| CorpusError::Load {
                source: "the embedded corpus".into(),
                errors,
            }),
            Self::Dir(dir) => {
                if !dir.is_dir() {
                    return Err(CorpusError::NotADirectory(dir.clone()));
                }
                Corpus::load_dir(dir).map_err(|errors| CorpusError::Load {
                    source: dir.display().to_string(),
                    errors,
                })
            }
        }
    }
}

/// What is being tested.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The reference codec, behind the runner's own `serve` subcommand, so
    /// that it is reached through the same protocol as any implementation.
    BuiltIn {
        /// The command that starts `serve`.
        serve: Vec<OsString>,
    },
    /// An implementation's command: program and arguments.
    Command(Vec<OsString>),
}

impl Target {
    /// The command line that starts the implementation.
    #[must_use]
    pub fn argv(&self) -> &[OsString] {
        match self {
            Self::BuiltIn { serve } => serve,
            Self::Command(command) => command,
        }
    }

    /// The implementation's own command; `None` for the built-in reference.
    #[must_use]
    pub fn command(&self) -> Option<&[OsString]> {
        match self {
            Self::BuiltIn { .. } => None,
            Self::Command(command) => Some(command),
        }
    }
}

/// What was tested, as a person reads it: `the built-in reference codec`,
/// or the command in backquotes.
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BuiltIn { .. } => f.write_str("the built-in reference codec"),
            Self::Command(command) => write!(f, "`{}`", shell::words(command)),
        }
    }
}

/// Everything a verdict depends on: a rerun command repeats each.
#[derive(Clone, Debug)]
pub struct Conditions {
    /// The corpus the vectors come from.
    pub corpus: CorpusSource,
    /// What is tested.
    pub target: Target,
    /// How answers are judged.
    pub judge: JudgeOptions,
    /// The vectors known to fail, when a list was given.
    pub expected_failures: Option<ExpectedFailures>,
    /// Time allowed for each response.
    pub timeout: Duration,
    /// Time allowed for the first response of a fresh process.
    pub startup_timeout: Duration,
    /// Persistent (with its window) or one-shot.
    pub mode: Mode,
}

impl Conditions {
    /// The defaults for testing `target` on the embedded corpus.
    #[must_use]
    pub fn new(target: Target) -> Self {
        Self {
            corpus: CorpusSource::Embedded,
            target,
            judge: JudgeOptions::default(),
            expected_failures: None,
            timeout: ProcessConfig::DEFAULT_TIMEOUT,
            startup_timeout: ProcessConfig::DEFAULT_STARTUP_TIMEOUT,
            mode: Mode::persistent(),
        }
    }

    /// How to run the target as a process under these conditions.
    #[must_use]
    pub fn process_config(&self) -> ProcessConfig {
        let mut config = ProcessConfig::new(self.target.argv().to_vec());
        config.timeout = self.timeout;
        config.startup_timeout = self.startup_timeout;
        config.mode = self.mode;
        config
    }

    /// The mode's name in reports: `persistent` or `one-shot`.
    #[must_use]
    pub(crate) const fn mode_name(&self) -> &'static str {
        match self.mode {
            Mode::Persistent { .. } => "persistent",
            Mode::OneShot => "one-shot",
        }
    }
}

/// `run`: the corpus against an implementation.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The conditions of every verdict.
    pub conditions: Conditions,
    /// The corpus, loaded from `conditions.corpus`.
    pub corpus: Corpus,
    /// Which vectors run.
    pub selection: Selection,
    /// Implementations run side by side; the results do not depend on it.
    pub jobs: NonZeroUsize,
}

impl RunOptions {
    /// The plan for the run: the selected vectors, in corpus order.
    #[must_use]
    pub fn plan(&self) -> RunPlan<'_, '_> {
        RunPlan {
            vectors: self.selection.apply(&self.corpus.vectors),
            judge: self.conditions.judge,
            expected_failures: self.conditions.expected_failures.as_ref(),
            jobs: self.jobs,
        }
    }
}
