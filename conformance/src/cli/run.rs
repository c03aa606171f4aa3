//! `run`: wiring options, the run core, progress and reports together: the
//! corpus, the check of failures alone, then (unless `--no-read-back`) the
//! read-backs (every encode the implementation passed with bytes, decoded
//! back by a fresh process: `wow_guid_testkit::round_trip`), then the
//! reports. Both checks after the corpus are bounded by the run's own cost.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wow_guid_conformance::history;
use wow_guid_harness::options::RunOptions;
use wow_guid_harness::process::{Mode, ProcessConfig, ProcessImplementation};
use wow_guid_harness::report::human::Human;
use wow_guid_harness::report::{Format as _, RunReport};
use wow_guid_harness::run::{self, Progress};
use wow_guid_testkit::round_trip;

use super::args::{ColorWhen, RunArgs};
use super::error::CliError;
use super::exit::Exit;
use super::output;

/// Runs `options`, prints the summary and writes the report files `args`
/// ask for (their directories made before the run starts).
pub(super) fn run(options: &RunOptions, args: &RunArgs, program: &str) -> Result<Exit, CliError> {
    for (_, path) in &args.files.0 {
        output::prepare(path)?;
    }
    let plan = options.plan();
    let config = options.conditions.process_config();
    let progress = Progress::default();
    let began = Instant::now();
    let mut results = with_progress(&progress, plan.vectors.len(), || {
        run::run(
            &plan,
            || ProcessImplementation::new(config.clone()),
            Some(&progress),
        )
    })?;
    // Failures that pass alone: the replays start processes that have been
    // seen to answer, so a command that stopped working ends the checks,
    // not the run. The whole check is bounded by the run's own cost, its
    // deadline the replays' too.
    let persistent = matches!(options.conditions.mode, Mode::Persistent { .. });
    let spent = began.elapsed();
    if !args.no_alone_check {
        check_alone(&config, &plan, &mut results, persistent, spent);
    }
    // The implementation's own round trip: what it encoded, read back by a
    // fresh process after the corpus, so no verdict depends on the order.
    let read_back = if args.no_read_back {
        Vec::new()
    } else {
        round_trip::read_back_vectors(&results.results)
    };
    add_read_backs(&config, &plan, &mut results, &read_back, spent);
    finish(options, args, program, &results)
}

/// Sends failures of `results` again alone (`history::check`) to
/// processes run as `config` says, bounded by the cost of the run, which
/// took `spent`. (A clone of the run's own `config` shares the start-up
/// time seen in the run.)
fn check_alone<'c>(
    config: &ProcessConfig,
    plan: &run::RunPlan<'c, '_>,
    results: &mut run::RunResults<'c>,
    persistent: bool,
    spent: Duration,
) {
    let budget = history::Budget::for_run(spent, plan.vectors.len());
    let mut replay_config = config.clone();
    replay_config.deadline = budget.deadline;
    let checked = history::check(
        plan,
        results,
        persistent,
        || ProcessImplementation::new(replay_config.clone()),
        budget,
    );
    if checked.spent {
        eprintln!(
            "note: checking failures alone stopped at its budget ({} time(s) the run's time and \
             requests, at least {} s and {} requests): failures it did not get to are marked \
             unchecked (--no-alone-check skips the check)",
            history::Budget::RUN_MULTIPLE,
            history::Budget::MIN_TIME.as_secs(),
            history::Budget::MIN_REQUESTS,
        );
    }
    if let Some(error) = checked.stopped {
        eprintln!("note: checking failures alone stopped early: {error}");
    }
}

/// Read-backs sent to one fresh implementation at a time: the first chunk,
/// doubled for each next one up to the last. When the check's budget runs
/// out, the chunks finished are kept, so a slow implementation keeps some.
const READ_BACK_CHUNKS: (usize, usize) = (16, 512);

/// Adds the `read_back` vectors' results to `results`, a chunk at a time,
/// from processes run as `config` says, bounded as the check of failures
/// alone is by the cost of the run, which took `spent` (the same multiple
/// and floor, in time).
fn add_read_backs<'c>(
    config: &ProcessConfig,
    plan: &run::RunPlan<'c, '_>,
    results: &mut run::RunResults<'c>,
    read_back: &'c [wow_guid_vectors::Vector],
    spent: Duration,
) {
    let mut config = config.clone();
    config.deadline = history::Budget::for_run(spent, plan.vectors.len()).deadline;
    let (mut size, last) = READ_BACK_CHUNKS;
    let mut done = 0;
    while done < read_back.len() {
        let chunk = &read_back[done..read_back.len().min(done + size)];
        let added =
            round_trip::add_read_backs(results, chunk, plan.judge, plan.expected_failures, || {
                ProcessImplementation::new(config.clone())
            });
        let why = match added {
            Ok(_) => {
                done += chunk.len();
                size = (size * 2).min(last);
                continue;
            }
            Err(error) if error.is_out_of_time() => format!(
                "stopped at its budget ({} time(s) the run's time, at least {} s)",
                history::Budget::RUN_MULTIPLE,
                history::Budget::MIN_TIME.as_secs()
            ),
            Err(error) => format!("stopped: {error}"),
        };
        eprintln!(
            "note: reading back the encodes {why}: {done} of {} sent and reported, the rest \
             not (--no-read-back skips the check)",
            read_back.len()
        );
        return;
    }
}

/// Prints the summary of `results` and writes the report files `args` ask
/// for; the exit status.
fn finish(
    options: &RunOptions,
    args: &RunArgs,
    program: &str,
    results: &run::RunResults<'_>,
) -> Result<Exit, CliError> {
    let report = RunReport::new(options, program, results);
    let human = Human {
        max_blocks: args.max_failures,
        quiet: args.quiet,
        verbose: args.verbose,
        ..Human::default()
    };
    let choice = match args.color {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    // Drops the summary's styles unless they should reach a reader.
    let mut stdout = anstream::AutoStream::new(io::stdout().lock(), choice);
    super::stdout::reader_gone_is_fine(
        human
            .write(&report, &mut stdout)
            .and_then(|()| stdout.flush()),
    )
    .map_err(CliError::Stdout)?;
    for (file, path) in &args.files.0 {
        output::write(path, |out| file.format.write(&report, out))?;
        if let Some(note) = file.note {
            // On stderr, so that stdout stays the summary alone.
            let _ = writeln!(io::stderr(), "{}", note(&report, path));
        }
    }
    Ok(if results.counts.get(run::RunOutcome::VectorBug) > 0 {
        Exit::NoVerdict
    } else if results.counts.conforms() {
        Exit::Success
    } else {
        Exit::Failure
    })
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
                let _ = write!(io::stderr(), "\r{}/{total} vectors", progress.done());
                std::thread::park_timeout(Duration::from_millis(100));
            }
            // Clear the progress line.
            let _ = write!(io::stderr(), "\r\x1b[K");
        });
        let result = work();
        finished.store(true, Ordering::Release);
        shower.thread().unpark();
        result
    })
}
