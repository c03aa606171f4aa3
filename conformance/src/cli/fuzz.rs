//! `fuzz`: a differential fuzzing session, printed as it goes.
//!
//! Standard output is itself a vector file: the findings as a `vectors:`
//! list, printed as each is made, with `#` comments saying what each is, and
//! a `#` summary at the end, so `fuzz ... > found.yaml` keeps everything.
//! Progress goes to standard error, only when it is a terminal. `--out FILE`
//! appends the findings to a vector file (the library's `append::append`).
//!
//! `--time` bounds the whole command: it is one deadline, from the start,
//! for generating, every wait on the implementation (per-request timeout,
//! start-up allowance, liveness probes) and every replay and shrinking step
//! (`ProcessConfig::deadline`, `Plan::deadline`); the summary says what it
//! cut short.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use wow_guid_conformance::fuzzing::append::{self, AppendError};
use wow_guid_conformance::fuzzing::finding::Finding;
use wow_guid_conformance::fuzzing::session::{self, Observer, Role, Status, Stop};
use wow_guid_conformance::fuzzing::summary::{file_header, summary};
use wow_guid_conformance::fuzzing::FuzzOptions;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::options::CorpusError;
use wow_guid_harness::process::ProcessImplementation;
use wow_guid_harness::report::rerun::Rerun;
use wow_guid_vectors::yaml;

use super::error::CliError;
use super::exit::Exit;

/// Prints findings as they come and progress on a terminal.
struct Printer {
    progress: bool,
    shown: Option<Instant>,
    header: String,
    printed: usize,
    failed: Option<io::Error>,
}

impl Printer {
    fn clear_progress(&mut self) {
        if self.shown.take().is_some() {
            let _ = write!(io::stderr(), "\r\x1b[K");
        }
    }

    fn print(&mut self, text: &str) {
        let mut out = io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            self.failed.get_or_insert(e);
        }
    }
}

impl Observer for Printer {
    fn progress(&mut self, s: &Status) {
        if !self.progress
            || self
                .shown
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        let rate = s.done as f64 / s.elapsed.as_secs_f64().max(1e-3);
        let _ = write!(
            io::stderr(),
            "\r\x1b[Kfuzz: {} requests, {rate:.0}/s, {} finding(s), {}s",
            s.done,
            s.findings,
            s.elapsed.as_secs()
        );
        self.shown = Some(Instant::now());
    }

    fn investigating(&mut self, signature: &Signature) {
        if self.progress {
            let _ = write!(
                io::stderr(),
                "\r\x1b[Kfuzz: reproducing and shrinking a new finding ({signature})"
            );
            self.shown = Some(Instant::now());
        }
    }

    fn finding(&mut self, f: &Finding) {
        self.clear_progress();
        let mut text = String::new();
        if self.printed == 0 {
            yaml::write_comment(&mut text, &self.header, 0);
            text.push_str("vectors:\n");
        } else {
            text.push('\n');
        }
        text.push_str(&f.yaml(2));
        self.printed += 1;
        self.print(&text);
    }
}

/// Runs the session `options` describe, for a command started at `started`.
pub(super) fn fuzz(
    options: &FuzzOptions,
    program: &str,
    started: Instant,
) -> Result<Exit, CliError> {
    let mut config = options.conditions.process_config();
    config.deadline = options.plan.deadline;
    let seed = options.plan.seed;
    let mut launch = |role: Role| {
        let mut c = config.clone();
        if role != Role::Fuzz {
            // Replaying and shrinking send the requests that make it fail,
            // over and over: a crash there is the point, and the command is
            // known to answer (the fuzzing process's liveness check has
            // passed before any finding is investigated).
            c.check_liveness = false;
        }
        ProcessImplementation::new(c)
    };
    let mut printer = Printer {
        progress: io::stderr().is_terminal(),
        shown: None,
        header: file_header(seed),
        printed: 0,
        failed: None,
    };
    let mut results = session::fuzz(
        &options.plan,
        &options.corpus.vectors,
        &mut launch,
        &mut printer,
    )?;
    results.elapsed = started.elapsed();
    printer.clear_progress();
    let mut tail = String::new();
    if printer.printed > 0 {
        tail.push('\n');
    }
    let rerun = Rerun {
        program,
        conditions: &options.conditions,
        corpus: None,
    };
    tail.push_str(&summary(&results, seed, &rerun));
    if let Some(path) = &options.out {
        tail.push_str(&write_out(path, options, &results.findings)?);
    }
    printer.print(&tail);
    if let Some(e) = printer.failed {
        return Err(CliError::Stdout(e));
    }
    Ok(if !results.findings.is_empty() {
        Exit::Failure
    } else if results.stop == Stop::NothingSupported || results.judged_nothing() {
        Exit::NoVerdict
    } else {
        Exit::Success
    })
}

/// Appends `findings` to `path` (`--out`): the new ones, or every one with
/// `--out-all`. Returns the summary line that says what was appended.
fn write_out(
    path: &std::path::Path,
    options: &FuzzOptions,
    findings: &[Finding],
) -> Result<String, CliError> {
    let cannot = |source: String, errors| CliError::Corpus(CorpusError::Load { source, errors });
    // The corpus maintainer's list: what the corpus does not show yet,
    // unless every finding is asked for.
    let chosen: Vec<Finding> = findings
        .iter()
        .filter(|f| options.out_all || f.novelty.is_news())
        .cloned()
        .collect();
    let left_out = findings.len() - chosen.len();
    match append::append(path, &file_header(options.plan.seed), &chosen) {
        Ok(a) => Ok(format!(
            "# --out {}: {} finding(s) appended{}{}\n",
            path.display(),
            a.written,
            if a.already_there > 0 {
                format!(", {} already there", a.already_there)
            } else {
                String::new()
            },
            if left_out > 0 {
                format!(
                    "; {left_out} known one(s) left out (the corpus shows them; --out-all \
                     appends them too)"
                )
            } else {
                String::new()
            }
        )),
        Err(AppendError::Io(error)) => Err(CliError::writing(path)(error)),
        Err(AppendError::NotAVectorFile(errors)) => Err(cannot(
            format!("--out {} (nothing was appended)", path.display()),
            errors,
        )),
        Err(AppendError::WouldNotLoad(errors)) => Err(cannot(
            format!(
                "--out {} with the findings appended (left unchanged)",
                path.display()
            ),
            errors,
        )),
    }
}
