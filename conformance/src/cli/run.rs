//! `run`: wiring options, the run core, progress and reports together.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::args::RunArgs;
use super::options;
use super::{CliError, Exit};
use crate::judge::JudgeOptions;
use crate::process::{ProcessConfig, ProcessImplementation};
use crate::report::command_line::ReproCommand;
use crate::report::human::Human;
use crate::report::json::Json;
use crate::report::junit::Junit;
use crate::report::{ReportFormat, RunReport};
use crate::run::{self, Progress, RunPlan};
use crate::shell;

pub(super) fn run(args: &RunArgs, program: &str) -> Result<Exit, CliError> {
    let corpus = options::load_corpus(&args.corpus)?;
    let selection = options::selection(&args.select)?;
    let vectors = selection.apply(&corpus.vectors);
    if vectors.is_empty() {
        return Err(CliError::NothingSelected);
    }
    let expected = args
        .expect_fail
        .as_deref()
        .map(|path| options::expected_failures(path, &corpus))
        .transpose()?;
    let (command, builtin) = options::command_or_builtin(&args.command)?;
    let config = options::process_config(&args.process, command);
    let total = vectors.len();
    let plan = RunPlan {
        vectors,
        judge: JudgeOptions {
            strict_errors: args.strict_errors,
        },
        expected_failures: expected.as_ref(),
        jobs: NonZeroUsize::new(usize::from(args.jobs)).unwrap_or(NonZeroUsize::MIN),
    };
    let progress = Progress::default();
    let results = with_progress(&progress, total, || {
        run::run(
            &plan,
            || ProcessImplementation::new(config.clone()),
            Some(&progress),
        )
    })?;
    let command_words: Vec<String> = args
        .command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let report = RunReport {
        implementation: if builtin {
            "the built-in reference codec".to_owned()
        } else {
            format!("`{}`", shell::words(&args.command))
        },
        command: (!builtin).then(|| command_words.clone()),
        corpus: options::corpus_name(&args.corpus),
        corpus_size: corpus.vectors.len(),
        mode: if args.process.one_shot {
            "one-shot"
        } else {
            "persistent"
        },
        strict_errors: args.strict_errors,
        jobs: usize::from(args.jobs),
        expect_fail_file: args.expect_fail.as_ref().map(|p| p.display().to_string()),
        run: &results,
        repro: ReproCommand {
            program: program.to_owned(),
            vectors: args.corpus.vectors.clone(),
            strict_errors: args.strict_errors,
            one_shot: args.process.one_shot,
            timeout: (args.process.timeout != ProcessConfig::DEFAULT_TIMEOUT)
                .then_some(args.process.timeout),
            command: (!builtin).then_some(command_words),
        },
    };
    let mut stdout = io::stdout().lock();
    Human
        .write(&report, &mut stdout)
        .and_then(|()| stdout.flush())
        .map_err(CliError::Stdout)?;
    if let Some(path) = &args.report_json {
        write_file(path, &Json, &report)?;
    }
    if let Some(path) = &args.junit {
        write_file(path, &Junit, &report)?;
    }
    Ok(if results.counts.vector_bugs > 0 {
        Exit::NoVerdict
    } else if results.counts.conforms() {
        Exit::Success
    } else {
        Exit::Failure
    })
}

fn write_file(
    path: &Path,
    format: &dyn ReportFormat,
    report: &RunReport<'_, '_>,
) -> Result<(), CliError> {
    let write_error = |error| CliError::Write {
        path: path.to_owned(),
        error,
    };
    let mut out = BufWriter::new(File::create(path).map_err(write_error)?);
    format
        .write(report, &mut out)
        .and_then(|()| out.flush())
        .map_err(write_error)
}

/// Runs `work` while a line on stderr shows how far it got, when stderr is
/// a terminal (and never otherwise, so logs stay clean).
fn with_progress<T>(progress: &Progress, total: usize, work: impl FnOnce() -> T) -> T {
    if !io::stderr().is_terminal() {
        return work();
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let shower = scope.spawn(|| {
            while !finished.load(Ordering::Acquire) {
                eprint!("\r{}/{total} vectors", progress.done());
                std::thread::park_timeout(Duration::from_millis(100));
            }
            // Clear the progress line.
            eprint!("\r\x1b[K");
        });
        let result = work();
        finished.store(true, Ordering::Release);
        shower.thread().unpark();
        result
    })
}
