//! Everything that stops a subcommand before it can give a verdict. Each
//! maps to exit status 2 (clap's own usage errors keep clap's status).

use std::fmt;
use std::io;
use std::path::PathBuf;

use wow_guid_conformance::report_reader::ReportReadError;
use wow_guid_harness::expect_fail::ListErrors;
use wow_guid_harness::implementation::HarnessError;
use wow_guid_harness::options::CorpusError;
use wow_guid_harness::select::BadPattern;
use wow_guid_harness::serve::ServeError;

/// Why a subcommand could not do its job.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong; clap explains.
    Usage(clap::Error),
    /// The corpus cannot be had.
    Corpus(CorpusError),
    /// The implementations file of `matrix` does not load.
    Implementations(Vec<wow_guid_conformance::matrix::implementations::ImplementationsError>),
    /// An implementation of `matrix` could not be run at all.
    Matrix(wow_guid_conformance::matrix::MatrixError),
    /// An `--id` pattern is not a valid glob.
    Pattern(BadPattern),
    /// The selection matches no vector.
    NothingSelected,
    /// The expected-failure list has bad lines.
    ExpectFail(ListErrors),
    /// The `--id-file` list has bad lines.
    IdFile(ListErrors),
    /// The report given to `--rerun-failed` cannot be read back.
    Report(ReportReadError),
    /// The report given to `--rerun-failed` records no failure.
    NothingToRerun(PathBuf),
    /// `repro` was given an id the corpus lacks.
    UnknownVector {
        /// The id.
        id: String,
        /// Similar ids in the corpus.
        similar: Vec<String>,
    },
    /// `repro --after` was given a range whose last id comes before its
    /// first in the corpus.
    BackwardsRange {
        /// The range, as given.
        range: String,
    },
    /// The implementation could not be run.
    Harness(HarnessError),
    /// A file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// `generate` has no vectors directory to work on.
    NoVectorsDir,
    /// Writing generated files failed.
    Generate(wow_guid_vectors::generate::WriteError),
    /// A `release` subcommand cannot do what it was asked: the message says
    /// why and what to do.
    Release(String),
    /// An expected-failure list shown in `REFERENCE.md` cannot be read.
    KnownFailures(wow_guid_conformance::known_failures::KnownFailuresError),
    /// `serve` got a request it cannot read, or its streams failed.
    Serve(ServeError),
    /// The path of this executable is unknown, so `serve` cannot be started.
    CurrentExe(io::Error),
    /// Writing to stdout failed.
    Stdout(io::Error),
    /// The handler that kills implementations on Ctrl-C could not be set up.
    Signals(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(e) => e.fmt(f),
            Self::Corpus(e) => e.fmt(f),
            Self::Implementations(errors) => {
                writeln!(f, "the implementations file does not load ({} problem(s)):", errors.len())?;
                for e in errors {
                    writeln!(f, "  {e}")?;
                }
                Ok(())
            }
            Self::Matrix(e) => e.fmt(f),
            Self::Pattern(e) => e.fmt(f),
            Self::NothingSelected => f.write_str(
                "no vector matches the selection (a vector must match each kind of option \
                 given: --id, --type, --op, --flag, --version, --id-file, --rerun-failed; \
                 one given more than once matches any of its values)",
            ),
            Self::ExpectFail(errors) => {
                writeln!(f, "the expected-failure list has problems:")?;
                write!(f, "{errors}")
            }
            Self::IdFile(errors) => {
                writeln!(f, "the --id-file list has problems:")?;
                write!(f, "{errors}")
            }
            Self::Report(e) => write!(f, "--rerun-failed: {e}"),
            Self::NothingToRerun(path) => write!(
                f,
                "--rerun-failed: {} records no failed vector (no fail, crashed, timed_out, \
                 malformed, stale or vector_bug result): nothing to rerun",
                path.display()
            ),
            Self::UnknownVector { id, similar } => {
                write!(f, "no vector has the id `{id}`")?;
                if !similar.is_empty() {
                    write!(f, "; did you mean {}?", similar.join(", "))?;
                }
                Ok(())
            }
            Self::BackwardsRange { range } => write!(
                f,
                "the --after range `{range}` runs backwards: its last id comes before its first \
                 in the corpus (a range is FIRST..=LAST in corpus order, as `list` prints it)"
            ),
            Self::Harness(e) => e.fmt(f),
            Self::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            Self::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            Self::NoVectorsDir => f.write_str(
                "generate writes into a checkout's vectors/ directory, and there is no checkout \
                 around the current directory; run it inside one or pass --vectors DIR",
            ),
            Self::Generate(e) => e.fmt(f),
            Self::Release(message) => write!(f, "release: {message}"),
            Self::KnownFailures(e) => write!(f, "generate: {e}"),
            Self::Serve(e) => write!(f, "serve: {e}"),
            Self::CurrentExe(e) => write!(
                f,
                "cannot find this program's own path to start `serve` ({e}); pass a command after --"
            ),
            Self::Stdout(e) => write!(f, "cannot write to stdout: {e}"),
            Self::Signals(e) => write!(f, "cannot set up the Ctrl-C handler: {e}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Usage(e) => Some(e),
            Self::Harness(e) => Some(e),
            Self::Matrix(e) => Some(e),
            Self::Read { error, .. } | Self::Write { error, .. } => Some(error),
            Self::Corpus(e) => Some(e),
            Self::Report(e) => Some(e),
            Self::IdFile(e) | Self::ExpectFail(e) => Some(e),
            Self::Generate(e) => Some(e),
            Self::KnownFailures(e) => Some(e),
            Self::Serve(e) => Some(e),
            Self::CurrentExe(e) | Self::Stdout(e) | Self::Signals(e) => Some(e),
            _ => None,
        }
    }
}

impl From<HarnessError> for CliError {
    fn from(e: HarnessError) -> Self {
        Self::Harness(e)
    }
}

impl CliError {
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
