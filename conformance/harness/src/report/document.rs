//! What every output format of a run writes from: the finished run with the
//! options it ran under ([`RunReport`]), and the one shape of a format
//! ([`Format`]).

use std::io;

use crate::options::{Conditions, RunOptions};
use crate::run::RunResults;

use super::rerun::Rerun;

/// A finished run and the options it ran under, exactly as the run got
/// them.
#[derive(Clone, Copy, Debug)]
pub struct RunReport<'r, 'c> {
    /// The options of the run.
    pub options: &'r RunOptions,
    /// The results.
    pub run: &'r RunResults<'c>,
    /// Writes the command that reproduces one vector of this run.
    pub rerun: Rerun<'r>,
}

impl<'r, 'c> RunReport<'r, 'c> {
    /// The report of `run`, made under `options` by the runner invoked as
    /// `program`.
    #[must_use]
    pub fn new(options: &'r RunOptions, program: &'r str, run: &'r RunResults<'c>) -> Self {
        Self {
            options,
            run,
            rerun: Rerun {
                program,
                conditions: &options.conditions,
                corpus: Some(&options.corpus),
            },
        }
    }

    /// The conditions of every verdict in the run.
    #[must_use]
    pub(crate) fn conditions(&self) -> &'r Conditions {
        &self.options.conditions
    }

    /// The expected-failure list's file name, if one was given.
    #[must_use]
    pub(crate) fn expect_fail_file(&self) -> Option<&'r str> {
        self.options
            .conditions
            .expected_failures
            .as_ref()
            .map(|list| list.file.as_str())
    }
}

/// One output format of a document of type `D`, the shape of every format
/// the harness and the runner write: a type in a file of its own, listed
/// in its command's table ([`FILES`](super::FILES) for `run`), so a new
/// format is its file, one line there, and a test.
pub trait Format<D: ?Sized> {
    /// Writes the whole document.
    ///
    /// # Errors
    /// Whatever `out` returns.
    fn write(&self, document: &D, out: &mut dyn io::Write) -> io::Result<()>;
}

/// A format of a run's report, whatever the run's lifetimes.
pub type RunFormat = dyn for<'r, 'c> Format<RunReport<'r, 'c>> + Sync;

/// A file a run writes when asked, and the option that asks for it.
pub struct FileFormat {
    /// The long option, without its `--`: `report-json`.
    pub option: &'static str,
    /// What the file holds: the option's help.
    pub help: &'static str,
    /// The format.
    pub format: &'static RunFormat,
    /// A line for the reader once the file is written to `path`, if the
    /// format has something to say (what to do with the file next).
    pub note: Option<fn(report: &RunReport<'_, '_>, path: &std::path::Path) -> String>,
}

impl std::fmt::Debug for FileFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileFormat")
            .field("option", &self.option)
            .finish_non_exhaustive()
    }
}
