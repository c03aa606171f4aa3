//! The conformance matrix: the whole corpus against several implementations,
//! side by side, as JSON, Markdown and one HTML page.
//!
//! [`build`] runs every implementation through [`wow_guid_harness::run::run`],
//! the same judging path as `run`, several at a time, into a
//! [`model::Matrix`]; each output format writes a [`model::Page`] and
//! nothing else, and [`FILES`] lists them.
//!
//! This module starts implementations (through [`wow_guid_harness::process`] and
//! [`wow_guid_harness::reference`]) and writes nothing to disk: the CLI does that.

pub mod causes;
pub mod html;
pub mod implementations;
pub mod json;
pub mod markdown;
pub mod model;

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use wow_guid_vectors::Vector;

use implementations::{Builtin, ImplementationEntry, Launch};
use model::{Header, Matrix, PageFormat};
use wow_guid_harness::implementation::{HarnessError, Implementation};
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::options::{Conditions, CorpusSource, Target};
use wow_guid_harness::process::{Mode, ProcessConfig, ProcessImplementation};
use wow_guid_harness::report::rerun::Rerun;
use wow_guid_harness::run::{self, RunPlan};
use wow_guid_harness::shell;

/// The files of a matrix, by name, in the order they are written: a new
/// format is its file, one line here, and a test.
pub const FILES: &[(&str, &PageFormat)] = &[
    ("matrix.json", &json::Json),
    ("matrix.schema.json", &json::Schema),
    ("matrix.md", &markdown::Markdown),
    ("index.html", &html::Html),
];

/// How to run a matrix.
#[derive(Clone, Debug)]
pub struct MatrixOptions {
    /// How to judge (the same for every implementation).
    pub judge: JudgeOptions,
    /// Implementations run at the same time, and processes each runs in.
    pub jobs: NonZeroUsize,
    /// Per-request timeout for processes.
    pub timeout: std::time::Duration,
    /// Allowance for a process's first response.
    pub startup_timeout: std::time::Duration,
    /// The command that starts the runner's own `serve`: the built-in
    /// reference is reached through it, over the protocol, as `run` and
    /// `repro` reach it ([`wow_guid_harness::options::Target::BuiltIn`]).
    pub serve: Vec<OsString>,
}

impl MatrixOptions {
    /// The command that builds the same matrix again, run as `program`:
    /// every option that changes the results (not `--jobs`), written by the
    /// one writer of rerun commands, then `--out` and the implementations
    /// file as given.
    #[must_use]
    pub fn rerun_line(
        &self,
        program: &str,
        corpus: &CorpusSource,
        out: &Path,
        implementations: &Path,
    ) -> String {
        let mut conditions = Conditions::new(Target::BuiltIn { serve: Vec::new() });
        conditions.corpus = corpus.clone();
        conditions.judge = self.judge;
        conditions.timeout = self.timeout;
        conditions.startup_timeout = self.startup_timeout;
        let rerun = Rerun {
            program,
            conditions: &conditions,
            corpus: None,
        };
        let tail: [OsString; 3] = ["--out".into(), out.into(), implementations.into()];
        format!("{} {}", rerun.line(&["matrix"], false), shell::words(&tail))
    }
}

/// Why a matrix could not be built.
#[derive(Debug, thiserror::Error)]
#[error(
    "implementation `{}`: {error}",
    wow_guid_harness::terminal::escape_bounded(.implementation, 80)
)]
pub struct MatrixError {
    /// The implementation that could not be run.
    pub implementation: String,
    /// Why.
    pub error: HarnessError,
}

/// Starts `entry`'s implementation; `liveness` as in [`ProcessConfig`].
fn launch(
    entry: &ImplementationEntry,
    options: &MatrixOptions,
    liveness: bool,
) -> Box<dyn Implementation> {
    let argv: Vec<OsString> = match &entry.launch {
        Launch::Builtin(Builtin::Reference) => options.serve.clone(),
        Launch::Command { resolved, .. } => resolved.iter().map(OsString::from).collect(),
    };
    let mut config = ProcessConfig::new(argv);
    config.timeout = options.timeout;
    config.startup_timeout = options.startup_timeout;
    config.check_liveness = liveness;
    if let Some(window) = entry.window {
        config.mode = Mode::Persistent { window };
    }
    Box::new(ProcessImplementation::new(config))
}

/// Runs the whole of `vectors` against every implementation in `entries`
/// and builds the matrix.
///
/// Implementations run `options.jobs` at a time, each in `options.jobs`
/// processes; the results do not depend on either (see [`wow_guid_harness::run`]).
///
/// Every command's program is checked first
/// ([`wow_guid_harness::process::check_startable`]); nothing runs when one is missing.
///
/// # Errors
/// The first implementation whose program cannot be started, before any
/// runs; else the first implementation that could not be run at all.
pub fn build(
    header: Header,
    vectors: &[Vector],
    entries: &[ImplementationEntry],
    options: &MatrixOptions,
) -> Result<Matrix, MatrixError> {
    // A command that cannot start is known at once: say so before running
    // anything, rather than after every other implementation has run.
    for entry in entries {
        if let Launch::Command { resolved, .. } = &entry.launch {
            let command: Vec<OsString> = resolved.iter().map(OsString::from).collect();
            wow_guid_harness::process::check_startable(&command).map_err(|error| MatrixError {
                implementation: entry.name.clone(),
                error,
            })?;
        }
    }
    let plan = RunPlan {
        vectors: vectors.iter().collect(),
        judge: options.judge,
        expected_failures: None,
        jobs: options.jobs,
    };
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    let workers = options.jobs.get().min(entries.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = entries.get(index) else {
                    return;
                };
                let outcome =
                    run::run(&plan, || launch(entry, options, true), None).and_then(|results| {
                        let mut again = || launch(entry, options, false);
                        let causes = causes::causes(&results, &mut again, options.judge)?;
                        Ok((results, causes))
                    });
                done.lock()
                    .expect("no worker panics holding it")
                    .push((index, outcome));
            });
        }
    });
    let mut done = done.into_inner().expect("no worker panicked");
    done.sort_by_key(|(index, _)| *index);
    let mut runs = Vec::with_capacity(entries.len());
    for (index, outcome) in done {
        let entry = &entries[index];
        let (results, causes) = outcome.map_err(|error| MatrixError {
            implementation: entry.name.clone(),
            error,
        })?;
        runs.push((entry.clone(), results, causes));
    }
    Ok(Matrix::new(header, runs))
}
