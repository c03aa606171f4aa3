//! From parsed arguments to the library's validated options, once per
//! subcommand (as hyperfine's `Options::from_cli_arguments` does): the
//! corpus is loaded, the selection compiled, the expected-failure list read
//! and checked against the whole corpus, the process settings fixed. What
//! comes out is passed to the library and carried into the reports
//! unchanged; nothing downstream looks at the arguments again.

use std::io;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use wow_guid_conformance::doctor::DoctorConfig;
use wow_guid_conformance::fuzzing::session::Plan;
use wow_guid_conformance::fuzzing::FuzzOptions;
use wow_guid_conformance::history::Limits;
use wow_guid_conformance::known_failures::listable_ids;
use wow_guid_conformance::report_reader::failed_ids;
use wow_guid_harness::expect_fail::{similar_ids, ExpectedFailures};
use wow_guid_harness::options::{Conditions, CorpusSource, RunOptions, Target};
use wow_guid_harness::process::Mode;
use wow_guid_harness::report::rerun::AFTER_RANGE;
use wow_guid_harness::select::{IdSet, Selection};
use wow_guid_testkit::round_trip;
use wow_guid_vectors::{read_bounded, Corpus, FileError, Pipes, Vector, MAX_FILE_BYTES};

use super::args::{
    ConditionArgs, CorpusArgs, DoctorArgs, FuzzArgs, ReproArgs, RunArgs, SelectArgs,
};
use super::error::CliError;

/// The corpus `args` name.
pub(super) fn corpus_source(args: &CorpusArgs) -> CorpusSource {
    args.vectors
        .clone()
        .map_or(CorpusSource::Embedded, CorpusSource::Dir)
}

/// `run`'s options.
pub(super) fn run_options(args: &RunArgs) -> Result<RunOptions, CliError> {
    let (conditions, corpus) = conditions(&args.conditions, args.expect_fail.as_deref())?;
    let selection = selection(&args.select, &corpus)?;
    Ok(RunOptions {
        conditions,
        corpus,
        selection,
        jobs: NonZeroUsize::new(usize::from(args.jobs)).unwrap_or(NonZeroUsize::MIN),
    })
}

/// `repro`'s options.
pub(super) fn repro_options(args: &ReproArgs) -> Result<ReproOptions, CliError> {
    let (conditions, corpus) = conditions(&args.conditions, args.expect_fail.as_deref())?;
    let read_backs = round_trip::read_back_ids(&corpus.vectors);
    // The vector may be a read-back; the ones sent before it are vectors.
    if corpus.get(&args.id).is_none() && !read_backs.contains(&args.id) {
        return Err(CliError::UnknownVector {
            id: args.id.clone(),
            similar: similar_ids(&args.id, listable_ids(&corpus, &read_backs)),
        });
    }
    let mut after = Vec::new();
    for item in &args.after {
        match item.split_once(AFTER_RANGE) {
            None => after.push(corpus.vectors[position(&corpus, item)?].id.clone()),
            Some((first, last)) => {
                let (first, last) = (position(&corpus, first)?, position(&corpus, last)?);
                if last < first {
                    return Err(CliError::BackwardsRange {
                        range: item.clone(),
                    });
                }
                after.extend(corpus.vectors[first..=last].iter().map(|v| v.id.clone()));
            }
        }
    }
    Ok(ReproOptions {
        conditions,
        corpus,
        id: args.id.clone(),
        after,
        after_items: args.after.clone(),
    })
}

/// Where vector `id` is in `corpus`'s order, or the error naming it and the
/// ids like it.
fn position(corpus: &Corpus, id: &str) -> Result<usize, CliError> {
    corpus.position(id).ok_or_else(|| CliError::UnknownVector {
        id: id.to_owned(),
        similar: similar_ids(id, corpus.vectors.iter().map(|v| v.id.as_str())),
    })
}

/// `fuzz`'s options, for a command started at `started`. Without `--time`
/// or `--count` a session lasts [`Plan::DEFAULT_TIME`]; the time is one
/// deadline, from `started`, for everything the command does.
pub(super) fn fuzz_options(args: &FuzzArgs, started: Instant) -> Result<FuzzOptions, CliError> {
    let deadline = args
        .time
        .map(|t| t.0)
        .or(args.count.is_none().then_some(Plan::DEFAULT_TIME))
        .map(|t| started + t);
    let (conditions, corpus) = conditions(&args.conditions, None)?;
    let plan = Plan {
        seed: args.seed,
        deadline,
        count: args.count,
        max_findings: args
            .max_findings
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        judge: conditions.judge,
        shrink: Limits {
            max_time: args.shrink_time.0,
            deadline,
            ..Limits::DEFAULT
        },
    };
    Ok(FuzzOptions {
        conditions,
        corpus,
        plan,
        out: args.out.clone(),
        out_all: args.out_all,
    })
}

/// `doctor`'s configuration.
pub(super) fn doctor_config(args: &DoctorArgs) -> DoctorConfig {
    DoctorConfig {
        command: args.command.clone(),
        timeout: args.timeouts.timeout.0,
        startup_timeout: args.timeouts.startup_timeout.0,
    }
}

/// The conditions `args` describe, with the expected-failure list at
/// `expect_fail` if given, and the corpus they name.
fn conditions(
    args: &ConditionArgs,
    expect_fail: Option<&Path>,
) -> Result<(Conditions, Corpus), CliError> {
    let source = corpus_source(&args.corpus);
    let corpus = source.load().map_err(CliError::Corpus)?;
    let mut conditions = Conditions::new(target(&args.command)?);
    conditions.corpus = source;
    conditions.judge.strict_errors = args.strict_errors;
    conditions.expected_failures = expect_fail
        .map(|path| expected_failures(path, &corpus))
        .transpose()?;
    let process = &args.process;
    conditions.timeout = process.timeouts.timeout.0;
    conditions.startup_timeout = process.timeouts.startup_timeout.0;
    conditions.mode = if process.one_shot {
        Mode::OneShot
    } else {
        Mode::Persistent {
            window: NonZeroUsize::new(process.window as usize).unwrap_or(NonZeroUsize::MIN),
        }
    };
    Ok((conditions, corpus))
}

/// The command to test, or this executable's `serve` when none is given.
pub(super) fn target(command: &[std::ffi::OsString]) -> Result<Target, CliError> {
    if command.is_empty() {
        let exe = std::env::current_exe().map_err(CliError::CurrentExe)?;
        Ok(Target::BuiltIn {
            serve: vec![exe.into_os_string(), "serve".into()],
        })
    } else {
        Ok(Target::Command(command.to_vec()))
    }
}

/// The selection `args` describe, its id lists read and checked against
/// `corpus`; an error if it selects nothing.
pub(super) fn selection(args: &SelectArgs, corpus: &Corpus) -> Result<Selection, CliError> {
    let mut selection = Selection::all()
        .with_id_patterns(&args.ids)
        .map_err(CliError::Pattern)?;
    selection.types.clone_from(&args.types);
    selection.ops.clone_from(&args.ops);
    selection.flags.clone_from(&args.flags);
    selection.versions.clone_from(&args.versions);
    let read_backs = round_trip::read_back_ids(&corpus.vectors);
    let corpus_ids = || listable_ids(corpus, &read_backs);
    // A read-back is selected by selecting the encode it reads back.
    let selected = |id: String| match round_trip::encode_id(&id) {
        Some(encode) => encode.to_owned(),
        None => id,
    };
    if let Some(path) = &args.id_file {
        let list = ExpectedFailures::parse(&path.display().to_string(), &read(path)?, corpus_ids())
            .map_err(CliError::IdFile)?;
        selection.id_sets.push(IdSet {
            origin: format!("--id-file {}", path.display()),
            ids: list.entries.into_keys().map(selected).collect(),
        });
    }
    if let Some(path) = &args.rerun_failed {
        let ids = failed_ids(&path.display().to_string(), &read(path)?, corpus_ids())
            .map_err(CliError::Report)?;
        if ids.is_empty() {
            return Err(CliError::NothingToRerun(path.clone()));
        }
        selection.id_sets.push(IdSet {
            origin: format!("--rerun-failed {}", path.display()),
            ids: ids.into_iter().map(selected).collect(),
        });
    }
    if !corpus.vectors.iter().any(|v| selection.matches(v)) {
        return Err(CliError::NothingSelected);
    }
    Ok(selection)
}

/// The most a file named on the command line (an id file, an expected-failure
/// list, a report to rerun, the matrix's implementations) may hold: 1 GiB,
/// above any real one (a JSON report of a million vectors is about 730 MB),
/// so that naming `/dev/zero` or an endless pipe is an error rather than a
/// run out of memory. Pipes stay welcome (`--id-file <(grep ...)`): the limit
/// is on what is read, not on the kind of file.
pub(super) const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a UTF-8 text file (or pipe) named on the command line, at most
/// [`MAX_INPUT_BYTES`] of it.
pub(super) fn read(path: &Path) -> Result<String, CliError> {
    let error = |error| CliError::Read {
        path: path.to_owned(),
        error,
    };
    // A device (`/dev/zero`), a directory or a socket is refused before
    // anything is read; a file or a pipe is read up to the limit.
    let bytes = read_bounded(path, MAX_INPUT_BYTES, Pipes::Allow).map_err(|e| {
        error(match e {
            FileError::Io(e) => e,
            FileError::NotRegular(_) => {
                io::Error::new(io::ErrorKind::InvalidInput, "not a file or a pipe")
            }
            FileError::TooLarge { limit, .. } => io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("more than {limit} bytes, the limit for a file named on the command line"),
            ),
        })
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        error(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8: byte offset {offset} starts an invalid sequence"),
        ))
    })
}

/// Reads and checks an expected-failure list against the whole corpus and
/// its read-backs.
fn expected_failures(path: &Path, corpus: &Corpus) -> Result<ExpectedFailures, CliError> {
    let read_backs = round_trip::read_back_ids(&corpus.vectors);
    ExpectedFailures::parse(
        &path.display().to_string(),
        &read(path)?,
        listable_ids(corpus, &read_backs),
    )
    .map_err(CliError::ExpectFail)
}

/// The corpus directory of the checkout around `start` (the current
/// directory, for `lint` and `generate` without `--vectors`): the first of
/// `start` and its ancestors that is the vectors crate, or holds it as
/// `vectors/`, told by its `Cargo.toml` naming the package
/// `wow-guid-vectors`. `None` outside a checkout, as for an installed runner
/// run anywhere else.
pub(crate) fn checkout_vectors_dir(start: &Path) -> Option<PathBuf> {
    let is_vectors_crate = |dir: &Path| {
        read_bounded(&dir.join("Cargo.toml"), MAX_FILE_BYTES, Pipes::Refuse).is_ok_and(|manifest| {
            let manifest = String::from_utf8_lossy(&manifest);
            manifest
                .lines()
                .any(|line| line.replace(' ', "") == "name=\"wow-guid-vectors\"")
        })
    };
    start.ancestors().find_map(|dir| {
        if is_vectors_crate(dir) {
            Some(dir.to_owned())
        } else {
            let nested = dir.join("vectors");
            is_vectors_crate(&nested).then_some(nested)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checkout_corpus_is_found_from_anywhere_inside_it_and_nowhere_else() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        let vectors = root.join("vectors");
        for start in [
            root.to_owned(),
            root.join("conformance/src"),
            vectors.clone(),
            vectors.join("packed_guid"),
        ] {
            assert_eq!(
                checkout_vectors_dir(&start),
                Some(vectors.clone()),
                "{start:?}"
            );
        }
        assert_eq!(checkout_vectors_dir(Path::new("/")), None);
    }
}

/// `repro`: one vector, replayed in a fresh process after the steps of its
/// sequence before it.
#[derive(Clone, Debug)]
pub(super) struct ReproOptions {
    /// The conditions of the verdict.
    pub(super) conditions: Conditions,
    /// The corpus, loaded from `conditions.corpus`.
    pub(super) corpus: Corpus,
    /// The vector, known to be in `corpus`, or the read-back of an encode
    /// vector of it (`<id>.read-back`, [`round_trip::READ_BACK`]).
    pub(super) id: String,
    /// Vectors to send first, in this order, to the same process (each
    /// known to be in `corpus`, ranges spelled out): the earlier requests
    /// after which a failure shows (`PassesAlone`).
    pub(super) after: Vec<String>,
    /// The same, as `--after` was given them (ids and ranges), for the
    /// reproduce line.
    pub(super) after_items: Vec<String>,
}

impl ReproOptions {
    /// What `repro` sends, in order: the vector, after the steps of its
    /// sequence before it ([`Corpus::steps_through`]); for a read-back,
    /// the encode vector it reads back.
    #[must_use]
    pub(super) fn steps(&self) -> &[Vector] {
        self.corpus
            .steps_through(self.encode_id().unwrap_or(&self.id))
            .unwrap_or_default()
    }

    /// The encode vector's id, if the vector is a read-back.
    #[must_use]
    pub(super) fn encode_id(&self) -> Option<&str> {
        round_trip::encode_id(&self.id).filter(|id| self.corpus.get(id).is_some())
    }

    /// The vectors of [`ReproOptions::after`], in order (ids the corpus
    /// lacks left out).
    #[must_use]
    pub(super) fn after_vectors(&self) -> Vec<&Vector> {
        self.after
            .iter()
            .filter_map(|id| self.corpus.get(id))
            .collect()
    }
}
