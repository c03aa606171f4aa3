//! The command line as clap parses it: words and types only.
//!
//! Values that clap can check on its own (numbers in range, durations,
//! enumerated words, each read by the library's own parser) are checked
//! here; everything that needs the corpus or the file system is checked in
//! [`super::options`], which turns these into the library's validated
//! options.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};
use wow_guid_conformance::duration::{parse_duration, parse_timeout, DurationError};
use wow_guid_conformance::export::{self, ExportFormat};
use wow_guid_conformance::format::Named;
use wow_guid_conformance::fuzzing::session::Plan;
use wow_guid_conformance::history::Limits;
use wow_guid_conformance::list::{self, ListFormat};
use wow_guid_harness::duration::DisplayDuration;
use wow_guid_harness::process::ProcessConfig;
use wow_guid_harness::report::{self, FileFormat};
use wow_guid_vectors::{Flag, GuidType, Op, Version};

/// Conformance runner for PackedGuid/NamedGuid implementations.
///
/// Runs the embedded test-vector corpus against an implementation that
/// speaks the line protocol on stdin/stdout (see conformance/PROTOCOL.md), and exits 0
/// when it conforms, 1 when it does not, 2 on usage or harness errors.
#[derive(Debug, Parser)]
#[command(name = "wow-guid-conformance", version, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the corpus against an implementation (default: the built-in reference codec)
    ///
    /// After the run, up to 3 failures per cause (not timeouts) are sent again, each alone to a
    /// fresh process (after the earlier steps of its sequence). One that passes alone is marked "passes alone:
    /// fails only after earlier requests", with a few earlier requests after which it fails again
    /// (at most about 24 replays to find them); its reproduce line sends them first (`repro ID
    /// --after IDS`).
    ///
    /// Examples:
    ///   wow-guid-conformance run
    ///   wow-guid-conformance run -- python3 conformance/adapters/python/adapter.py
    ///   wow-guid-conformance run --type packed_guid --expect-fail known.txt -- ./my-adapter
    #[command(verbatim_doc_comment)]
    Run(RunArgs),
    /// List the vectors a selection picks (the selection options of `run`), one per line: id,
    /// type, operation, flags; or as JSON
    ///
    /// The JSON layout is described by conformance/list.schema.json in the repository (and in
    /// the crate's package).
    ///
    /// Examples:
    ///   wow-guid-conformance list --type named_guid --op encode
    ///   wow-guid-conformance list --rerun-failed report.json
    ///   wow-guid-conformance list --flag stateful --format json
    #[command(verbatim_doc_comment)]
    List(ListArgs),
    /// Answer protocol requests on stdin/stdout with the reference codec.
    Serve,
    /// Check a corpus in one pass: every load error of every file, then every vector whose
    /// reference response would exceed the protocol's 1 MiB line bound or that the reference
    /// codec disagrees with. Without --vectors: the `vectors/` directory of the checkout around
    /// the current directory, else the embedded copy; the first line says which.
    Lint(CorpusArgs),
    /// Write the generated vector files and REFERENCE.md into the checkout's `vectors/`
    /// directory (or --vectors DIR); with --check, write nothing, print a unified diff of what
    /// would change and fail if anything would.
    Generate(GenerateArgs),
    /// The corpus's releases: check a copy against every release, print a release's canonical
    /// JSON (its sha256 is the digest a specification cites), or cut a new release
    ///
    /// Examples:
    ///   wow-guid-conformance release check --vectors path/to/vectors
    ///   wow-guid-conformance release show 1.1.0 | sha256sum
    ///   cargo run --release -p wow-guid-conformance -- release cut 1.2.0
    #[command(verbatim_doc_comment)]
    Release(ReleaseArgs),
    /// Run one vector and show the exact request and response.
    Repro(ReproArgs),
    /// Check how an adapter handles the protocol, and explain what is wrong.
    Doctor(DoctorArgs),
    /// Write the decode vectors' inputs as a fuzzing seed corpus.
    SeedCorpus(SeedArgs),
    /// Write the corpus as JSON for test runners in any language: every field of every vector,
    /// requests and expected answers as protocol lines and as raw bytes.
    ///
    /// The layout is described by conformance/export.schema.json in the repository (and in the
    /// crate's package).
    ///
    /// Examples:
    ///   wow-guid-conformance export --out vectors.json
    ///   wow-guid-conformance export --format jsonl --out vectors.jsonl
    #[command(verbatim_doc_comment)]
    Export(ExportArgs),
    /// Hunt for requests on which an implementation disagrees with the reference codec, and
    /// print each disagreement, shrunk to a minimal one, as a YAML vector.
    ///
    /// Exits 0 when nothing differed within the budget, 1 when something did, 2 on a harness
    /// or usage error, or when nothing could be judged (every kind answered `unsupported`, or
    /// not one request answered before the budget ran out).
    ///
    /// Examples:
    ///   wow-guid-conformance fuzz -- python3 my_adapter.py
    ///   wow-guid-conformance fuzz --seed 7 --time 60 --out found.yaml -- ./my-adapter
    #[command(verbatim_doc_comment)]
    Fuzz(FuzzArgs),
    /// Run the corpus against every implementation in an implementations file, and write the
    /// results side by side: matrix.json (with its schema), matrix.md and index.html.
    ///
    /// Examples:
    ///   wow-guid-conformance matrix --strict-errors --out target/matrix matrix/implementations.yaml
    #[command(verbatim_doc_comment)]
    Matrix(MatrixArgs),
}

/// `matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// The implementations file (YAML; its format is in docs/matrix.md).
    #[arg(value_name = "FILE")]
    pub implementations: PathBuf,
    /// Where to write matrix.json, matrix.schema.json, matrix.md and index.html (created if
    /// missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The corpus.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Require the exact error code of invalid vectors, not just `error`.
    #[arg(long)]
    pub strict_errors: bool,
    /// Run N implementations at a time, each in N processes (the results do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// The time limits.
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

/// A duration on the command line, read by the library's parser and shown
/// (as a default in `--help`) the way rerun commands write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DurationArg(pub Duration);

impl fmt::Display for DurationArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DisplayDuration(self.0).fmt(f)
    }
}

fn duration(text: &str) -> Result<DurationArg, DurationError> {
    parse_duration(text).map(DurationArg)
}

fn timeout(text: &str) -> Result<DurationArg, DurationError> {
    parse_timeout(text).map(DurationArg)
}

/// The default `--window`, as the process module sets it.
const DEFAULT_WINDOW: u32 = ProcessConfig::DEFAULT_WINDOW.get() as u32;

/// Which corpus to use.
#[derive(Debug, Args)]
pub struct CorpusArgs {
    /// Load the corpus from every *.yaml file below DIR instead of using the embedded one.
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
}

/// How long to wait for an implementation.
#[derive(Debug, Args)]
pub struct TimeoutArgs {
    /// Time allowed for each response (e.g. 5s, 500ms, 2.5; at least 10ms). A process that takes
    /// longer is killed with its process group; the next request goes to a fresh process.
    #[arg(long, value_name = "DURATION", value_parser = timeout,
          default_value_t = DurationArg(ProcessConfig::DEFAULT_TIMEOUT))]
    pub timeout: DurationArg,
    /// Time allowed for the first response of each freshly started process.
    #[arg(long, value_name = "DURATION", value_parser = timeout,
          default_value_t = DurationArg(ProcessConfig::DEFAULT_STARTUP_TIMEOUT))]
    pub startup_timeout: DurationArg,
}

/// How to run an external implementation.
#[derive(Debug, Args)]
pub struct ProcessArgs {
    /// The time limits.
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
    /// Start a fresh process for every request (one line, then end of input); the steps of a
    /// stateful sequence share one fresh process (their lines, then end of input).
    #[arg(long)]
    pub one_shot: bool,
    /// Requests in flight at most in persistent mode; 1 waits for each response.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub window: u32,
}

/// Everything a verdict depends on but the expected-failure list: the
/// corpus, the process, the judging, and the implementation's command.
#[derive(Debug, Args)]
pub struct ConditionArgs {
    /// The corpus.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// How to run the implementation.
    #[command(flatten)]
    pub process: ProcessArgs,
    /// Require the exact error code of invalid vectors, not just `error`.
    #[arg(long)]
    pub strict_errors: bool,
    /// The implementation's command; without it, the built-in reference codec.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// Which vectors to run. Within one option any value matches; across options all must.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Only vectors whose id matches GLOB (`*`, `?`, `[...]`, `{a,b}`); repeatable.
    #[arg(long = "id", value_name = "GLOB")]
    pub ids: Vec<String>,
    /// Only vectors of this type: packed_guid or named_guid; repeatable.
    #[arg(long = "type", value_name = "TYPE", value_parser = GuidType::from_str)]
    pub types: Vec<GuidType>,
    /// Only vectors of this operation: decode or encode; repeatable.
    #[arg(long = "op", value_name = "OP", value_parser = Op::from_str)]
    pub ops: Vec<Op>,
    /// Only vectors carrying this flag; repeatable.
    #[arg(long = "flag", value_name = "FLAG", value_parser = Flag::from_str)]
    pub flags: Vec<Flag>,
    /// Only vectors valid for this version: vanilla, tbc or wrath; repeatable.
    #[arg(long = "version", value_name = "VERSION", value_parser = Version::from_str)]
    pub versions: Vec<Version>,
    /// Only vectors listed in FILE: one id per line, `#` comments (the format of --expect-fail
    /// lists, so a --write-expect-fail list works too). Every id must be in the corpus.
    #[arg(long, value_name = "FILE")]
    pub id_file: Option<PathBuf>,
    /// Only the vectors that failed in REPORT, a JSON report of an earlier run (--report-json):
    /// outcomes fail, crashed, timed_out, malformed, stale and vector_bug. A stateful sequence
    /// runs whole.
    #[arg(long, value_name = "REPORT")]
    pub rerun_failed: Option<PathBuf>,
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// When stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always, `NO_COLOR` or not.
    Always,
    /// Never.
    Never,
}

/// Parses a `--format` from a command's table of formats: the table's names
/// are the possible values, shown in the help with what each writes.
fn format_choice<F: ?Sized + Sync + 'static>(
    table: &'static [Named<F>],
) -> impl clap::builder::TypedValueParser<Value = &'static Named<F>> {
    let names = table
        .iter()
        .map(|named| clap::builder::PossibleValue::new(named.name).help(named.about));
    clap::builder::PossibleValuesParser::new(names).map(move |name: String| {
        // The parser above let only the table's names through.
        Named::find(table, &name).unwrap_or(&table[0])
    })
}

/// `list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// The selection.
    #[command(flatten)]
    pub select: SelectArgs,
    /// The corpus.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The layout.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = format_choice(list::FORMATS))]
    pub format: &'static Named<ListFormat>,
}

/// `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The selection.
    #[command(flatten)]
    pub select: SelectArgs,
    /// Vectors expected to fail: one id per line, `# reason` comments. A listed vector that
    /// passes fails the run as stale.
    #[arg(long, value_name = "FILE")]
    pub expect_fail: Option<PathBuf>,
    /// Run N implementation processes side by side (same results, same order).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The report files to write: one option each, from the harness's table of them.
    #[command(flatten)]
    pub files: ReportFiles,
    /// Show at most N failure blocks in full (the first few of each cause, biggest cause first);
    /// the rest are listed by id. The counts stay exact.
    #[arg(long, value_name = "N")]
    pub max_failures: Option<usize>,
    /// Print only the counts and the verdict.
    #[arg(long, short)]
    pub quiet: bool,
    /// List every expected failure with its reason, even on a green run (which otherwise
    /// counts them in one line).
    #[arg(long, short, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Colour the summary: `auto` when stdout is a terminal and NO_COLOR is not set, `always`,
    /// or `never`.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// After the run, do not send failures again alone to find those that need earlier
    /// requests (a check bounded by twice the run's time and requests, at least 5 s and 2000
    /// requests); every failure from a process that answered before is then unchecked.
    #[arg(long)]
    pub no_alone_check: bool,
    /// Do not read back the encodes. By default, after the corpus, every encode the
    /// implementation passed with bytes is sent back to a fresh process as the decode request of
    /// its answer (vector ID.read-back), which must give the value encoded and no error (not
    /// even name_too_long: a bound on decoding needs the same bound on encoding); a check
    /// bounded by twice the run's time, at least 5 s.
    #[arg(long, overrides_with = "read_back")]
    pub no_read_back: bool,
    /// Read back the encodes (the default; overrides an earlier --no-read-back).
    #[arg(long, overrides_with = "no_read_back")]
    pub read_back: bool,
    /// Corpus, process, judging and command.
    #[command(flatten)]
    pub conditions: ConditionArgs,
}

/// The report files of `run`: for each format in the harness's table
/// ([`report::FILES`]), its option and the file it names, if given. The
/// options come from the table, so a new format needs no line here.
#[derive(Debug, Default)]
pub struct ReportFiles(pub Vec<(&'static FileFormat, PathBuf)>);

impl clap::FromArgMatches for ReportFiles {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut files = Self::default();
        files.update_from_arg_matches(matches)?;
        Ok(files)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0 = report::FILES
            .iter()
            .filter_map(|file| Some((file, matches.get_one::<PathBuf>(file.option)?.clone())))
            .collect();
        Ok(())
    }
}

impl Args for ReportFiles {
    fn augment_args(mut command: clap::Command) -> clap::Command {
        for file in report::FILES {
            command = command.arg(
                clap::Arg::new(file.option)
                    .long(file.option)
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(file.help),
            );
        }
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The vectors directory (default: the `vectors/` directory of the checkout around the
    /// current directory).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
    /// Write nothing; print a unified diff of what would change, and fail, naming the files,
    /// if any generated file is missing or out of date.
    #[arg(long)]
    pub check: bool,
}

/// `release`.
#[derive(Debug, Args)]
pub struct ReleaseArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: ReleaseAction,
}

/// `release`'s subcommands.
#[derive(Debug, Subcommand)]
pub enum ReleaseAction {
    /// Check the corpus against every release this runner knows, and say what it is: a
    /// release only when it holds exactly that release's vectors, else unreleased after the
    /// newest. Without --vectors: the checkout's `vectors/`, else the embedded copy.
    Check(CorpusArgs),
    /// Print a release's canonical JSON from the corpus's vectors: piped into sha256sum, it
    /// prints the release's digest exactly when the corpus holds the release unchanged.
    Show(ReleaseShowArgs),
    /// Cut a release from the checkout's corpus: write vectors/releases/VERSION.txt, turn
    /// CHANGELOG.md's `## Unreleased` into the release's section with its digest, then
    /// regenerate REFERENCE.md and vectors.json with a rebuilt runner (cargo run ... generate).
    Cut(ReleaseCutArgs),
}

/// `release show`.
#[derive(Debug, Args)]
pub struct ReleaseShowArgs {
    /// The release, such as 1.1.0.
    #[arg(value_name = "VERSION")]
    pub version: String,
    /// The corpus directory (default: the checkout's `vectors/`, else the embedded copy).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
}

/// `release cut`.
#[derive(Debug, Args)]
pub struct ReleaseCutArgs {
    /// The new release's version, above the newest: 1.2.0.
    #[arg(value_name = "VERSION")]
    pub version: String,
    /// The corpus directory (default: the `vectors/` directory of the checkout around the
    /// current directory).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
    /// Write the list and the changelog only; regenerate later with `generate` (from a
    /// rebuilt runner).
    #[arg(long)]
    pub no_generate: bool,
}

/// `repro`.
#[derive(Debug, Args)]
pub struct ReproArgs {
    /// The vector's id.
    #[arg(value_name = "ID")]
    pub id: String,
    /// Vectors to send first, in this order, to the same fresh process (ids, comma-separated;
    /// FIRST..=LAST names every vector from FIRST through LAST in corpus order): the earlier
    /// requests after which a failure that passes alone shows, as `run` names them.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub after: Vec<String>,
    /// Vectors expected to fail, as `run --expect-fail` reads them: a listed vector that fails
    /// is an expected failure, one that passes is stale.
    #[arg(long, value_name = "FILE")]
    pub expect_fail: Option<PathBuf>,
    /// Corpus, process, judging and command.
    #[command(flatten)]
    pub conditions: ConditionArgs,
}

/// `doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The time limits.
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
    /// The adapter's command.
    #[arg(last = true, value_name = "CMD", required = true)]
    pub command: Vec<OsString>,
}

/// `seed-corpus`.
#[derive(Debug, Args)]
pub struct SeedArgs {
    /// The corpus.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Where to write: DIR/decode_packed_guid/, DIR/decode_named_guid/, DIR/differential/ (decode
    /// inputs), DIR/roundtrip_packed_guid/, DIR/roundtrip_named_guid/ (encode values).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The corpus.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The layout.
    #[arg(long, value_name = "FORMAT", default_value = "json",
          value_parser = format_choice(export::FORMATS))]
    pub format: &'static Named<ExportFormat>,
    /// Write to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// Seed of the request generators: the same seed sends the same requests.
    #[arg(long, value_name = "N", default_value_t = Plan::DEFAULT_SEED)]
    pub seed: u64,
    /// Stop generating after this long (e.g. 60, 60s, 500ms); the default is 10s unless --count
    /// is given.
    #[arg(long, value_name = "SECS", value_parser = duration)]
    pub time: Option<DurationArg>,
    /// Stop after N requests.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Stop after N distinct findings.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_findings: Option<u64>,
    /// Also append the new findings (those no corpus vector fails the same way) to this vector
    /// file (created if missing; ids already in it are left out).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// With --out, append every finding, the ones the corpus already shows too.
    #[arg(long, requires = "out")]
    pub out_all: bool,
    /// Time allowed for replaying and shrinking each finding; with --time, at most half the time
    /// left when the finding is made, so that hunting keeps the other half.
    #[arg(long, value_name = "DURATION", value_parser = duration,
          default_value_t = DurationArg(Limits::DEFAULT.max_time))]
    pub shrink_time: DurationArg,
    /// Corpus (whose requests are mutated), process, judging and command.
    #[command(flatten)]
    pub conditions: ConditionArgs,
}
