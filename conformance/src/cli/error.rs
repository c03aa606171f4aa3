//! Everything that stops a subcommand before it can give a verdict. Each
//! maps to exit status 2 (clap's own usage errors keep clap's status).

use std::io;
use std::path::{Path, PathBuf};

use wow_guid_conformance::report_reader::ReportReadError;
use wow_guid_harness::expect_fail::did_you_mean;
use wow_guid_harness::expect_fail::ListErrors;
use wow_guid_harness::implementation::HarnessError;
use wow_guid_harness::options::CorpusError;
use wow_guid_harness::select::BadPattern;
use wow_guid_harness::serve::ServeError;

/// Why a subcommand could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line is wrong; clap explains.
    #[error("{0}")]
    Usage(#[source] clap::Error),
    /// The corpus cannot be had.
    #[error("{0}")]
    Corpus(#[source] CorpusError),
    /// The implementations file of `matrix` does not load.
    #[error(
        "the implementations file does not load ({} problem(s)):\n{}",
        .0.len(),
        lines(.0)
    )]
    Implementations(Vec<wow_guid_conformance::matrix::implementations::ImplementationsError>),
    /// An implementation of `matrix` could not be run at all.
    #[error("{0}")]
    Matrix(#[source] wow_guid_conformance::matrix::MatrixError),
    /// An `--id` pattern is not a valid glob.
    #[error("{0}")]
    Pattern(BadPattern),
    /// The selection matches no vector.
    #[error(
        "no vector matches the selection (a vector must match each kind of option \
         given: --id, --type, --op, --flag, --version, --id-file, --rerun-failed; \
         one given more than once matches any of its values)"
    )]
    NothingSelected,
    /// The expected-failure list has bad lines.
    #[error("the expected-failure list has problems:\n{0}")]
    ExpectFail(#[source] ListErrors),
    /// The `--id-file` list has bad lines.
    #[error("the --id-file list has problems:\n{0}")]
    IdFile(#[source] ListErrors),
    /// The report given to `--rerun-failed` cannot be read back.
    #[error("--rerun-failed: {0}")]
    Report(#[source] ReportReadError),
    /// The report given to `--rerun-failed` records no failure.
    #[error(
        "--rerun-failed: {} records no failed vector (no fail, crashed, timed_out, \
         malformed, stale or vector_bug result): nothing to rerun",
        .0.display()
    )]
    NothingToRerun(PathBuf),
    /// `repro` was given an id the corpus lacks.
    #[error("no vector has the id `{id}`{}", did_you_mean(.similar))]
    UnknownVector {
        /// The id.
        id: String,
        /// Similar ids in the corpus.
        similar: Vec<String>,
    },
    /// `repro --after` was given a range whose last id comes before its
    /// first in the corpus.
    #[error(
        "the --after range `{range}` runs backwards: its last id comes before its first \
         in the corpus (a range is FIRST..=LAST in corpus order, as `list` prints it)"
    )]
    BackwardsRange {
        /// The range, as given.
        range: String,
    },
    /// The implementation could not be run.
    #[error("{0}")]
    Harness(#[from] HarnessError),
    /// A file could not be read.
    #[error("cannot read {}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: io::Error,
    },
    /// `generate` has no vectors directory to work on.
    #[error(
        "generate writes into a checkout's vectors/ directory, and there is no checkout \
         around the current directory; run it inside one or pass --vectors DIR"
    )]
    NoVectorsDir,
    /// Writing generated files failed.
    #[error("{0}")]
    Generate(#[source] wow_guid_vectors::generate::WriteError),
    /// A `release` subcommand cannot do what it was asked: the message says
    /// why and what to do.
    #[error("release: {0}")]
    Release(String),
    /// An expected-failure list shown in `REFERENCE.md` cannot be read.
    #[error("generate: {0}")]
    KnownFailures(#[source] wow_guid_conformance::known_failures::KnownFailuresError),
    /// `serve` got a request it cannot read, or its streams failed.
    #[error("serve: {0}")]
    Serve(#[source] ServeError),
    /// The path of this executable is unknown, so `serve` cannot be started.
    #[error("cannot find this program's own path to start `serve` ({0}); pass a command after --")]
    CurrentExe(#[source] io::Error),
    /// Writing to stdout failed.
    #[error("cannot write to stdout: {0}")]
    Stdout(#[source] io::Error),
    /// The handler that kills implementations on Ctrl-C could not be set up.
    #[error("cannot set up the Ctrl-C handler: {0}")]
    Signals(#[source] io::Error),
}

/// Each of `errors` on a line of its own, indented by two spaces.
fn lines<T: std::fmt::Display>(errors: &[T]) -> String {
    errors.iter().map(|e| format!("  {e}\n")).collect()
}

impl CliError {
    /// For `map_err`: the [`CliError::Write`] of a failed write to `path`.
    pub(super) fn writing(path: &Path) -> impl FnOnce(io::Error) -> Self + '_ {
        move |error| Self::Write {
            path: path.to_owned(),
            error,
        }
    }

    /// The exit status for this error: clap's for usage errors (0 for
    /// `--help`), 2 for everything else.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(e) => u8::try_from(e.exit_code()).unwrap_or(2),
            _ => 2,
        }
    }
}
