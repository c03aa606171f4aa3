//! The `fuzz` subcommand: its options, and its output.
//!
//! Standard output is itself a vector file: the findings as a `vectors:`
//! list, printed as each is made, with `#` comments saying what each is, and
//! a `#` summary at the end, so `fuzz ... > found.yaml` keeps everything.
//! Progress goes to standard error, only when it is a terminal. `--out FILE`
//! appends the findings to a vector file ([`super::finding::append`]).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use wow_guid_vectors::yaml;

use super::finding::{self, AppendError, Finding};
use super::session::{self, Observer, Outcome, Plan, Role, Status, Stop};
use super::shrink::Limits;
use super::{Kind, Signature};
use crate::cli::args::{CorpusArgs, ProcessArgs};
use crate::cli::options::{self, parse_duration};
use crate::cli::{CliError, Exit};
use crate::judge::JudgeOptions;
use crate::process::ProcessImplementation;
use crate::shell;

/// The seed when `--seed` is not given: fixed, so that a CI job is
/// reproducible unless it asks for variety.
pub const DEFAULT_SEED: u64 = 1;

/// The time budget when neither `--time` nor `--count` is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);

/// `fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// Seed of the request generators: the same seed sends the same requests.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Stop generating after this long (e.g. 60, 60s, 500ms); the default is 10s unless --count
    /// is given.
    #[arg(long, value_name = "SECS", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Stop after N requests.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Stop after N distinct findings.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_findings: Option<u64>,
    /// Also append the findings to this vector file (created if missing; ids already in it are
    /// left out).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Time allowed for shrinking each finding.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub shrink_time: Duration,
    /// Require the reference's exact error code, not just `error`.
    #[arg(long)]
    pub strict_errors: bool,
    /// The corpus whose requests are mutated.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// How to run the implementation.
    #[command(flatten)]
    pub process: ProcessArgs,
    /// The implementation's command; without it, the built-in reference codec.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

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
            eprint!("\r\x1b[K");
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
        eprint!(
            "\r\x1b[Kfuzz: {} requests, {rate:.0}/s, {} finding(s), {}s",
            s.done,
            s.findings,
            s.elapsed.as_secs()
        );
        self.shown = Some(Instant::now());
    }

    fn investigating(&mut self, signature: &Signature) {
        if self.progress {
            eprint!("\r\x1b[Kfuzz: reproducing and shrinking a new finding ({signature})");
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

fn file_header(seed: u64) -> String {
    format!(
        "Found by `wow-guid-conformance fuzz --seed {seed}`: requests on which the implementation\n\
         disagreed with the reference codec, each shrunk to a minimal one. Every vector expects\n\
         what the reference codec answers. Review each before committing it to vectors/."
    )
}

/// What to print after the run.
fn summary(outcome: &Outcome, args: &FuzzArgs, program: &str, implementation: &str) -> String {
    let mut s = String::new();
    let secs = outcome.elapsed.as_secs_f64().max(1e-3);
    let _ = writeln!(
        s,
        "# fuzz: {} requests in {:.1}s ({:.0}/s) against {implementation}, seed {}",
        outcome.done,
        outcome.elapsed.as_secs_f64(),
        outcome.done as f64 / secs,
        args.seed
    );
    let by_kind: Vec<String> = Kind::ALL
        .iter()
        .zip(outcome.done_by_kind)
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    let _ = writeln!(s, "#   {}", by_kind.join(", "));
    if !outcome.unsupported_kinds.is_empty() {
        let kinds: Vec<&str> = outcome
            .unsupported_kinds
            .iter()
            .map(|k| k.as_str())
            .collect();
        let _ = writeln!(
            s,
            "#   answered `unsupported` (not generated afterwards): {}",
            kinds.join(", ")
        );
    }
    match outcome.stop {
        Stop::Budget => {}
        Stop::MaxFindings => {
            let _ = writeln!(
                s,
                "#   stopped after {} finding(s) (--max-findings)",
                outcome.findings.len()
            );
        }
        Stop::NothingSupported => {
            let _ = writeln!(
                s,
                "#   every request kind was answered `unsupported`: nothing left to fuzz"
            );
        }
        Stop::NoAnswers => {
            let _ = writeln!(
                s,
                "#   stopped: the implementation has failed every request without answering one"
            );
        }
    }
    if outcome.findings.is_empty() {
        let _ = writeln!(s, "# no disagreement with the reference codec");
    } else {
        let _ = writeln!(s, "# {} finding(s):", outcome.findings.len());
        for f in &outcome.findings {
            let _ = writeln!(
                s,
                "#   {}  {} ({} request(s))",
                f.id(),
                f.signature,
                f.occurrences
            );
        }
    }
    let mut repro = vec![
        program.to_owned(),
        "fuzz".into(),
        "--seed".into(),
        args.seed.to_string(),
    ];
    repro.extend(["--count".into(), outcome.done.to_string()]);
    if let Some(dir) = &args.corpus.vectors {
        repro.extend(["--vectors".into(), dir.display().to_string()]);
    }
    if args.strict_errors {
        repro.push("--strict-errors".into());
    }
    if args.process.one_shot {
        repro.push("--one-shot".into());
    }
    if !args.command.is_empty() {
        repro.push("--".into());
        repro.extend(
            args.command
                .iter()
                .map(|w| w.to_string_lossy().into_owned()),
        );
    }
    let words: Vec<OsString> = repro.into_iter().map(OsString::from).collect();
    let _ = writeln!(s, "# rerun: {}", shell::words(&words));
    s
}

/// Runs `fuzz`.
///
/// # Errors
/// [`CliError`] when the corpus does not load, the implementation cannot be
/// started, or `--out` cannot be written.
pub fn fuzz(args: &FuzzArgs, program: &str) -> Result<Exit, CliError> {
    let corpus = options::load_corpus(&args.corpus)?;
    let (command, builtin) = options::command_or_builtin(&args.command)?;
    let config = options::process_config(&args.process, command);
    let plan = Plan {
        seed: args.seed,
        time: args.time.or(if args.count.is_none() {
            Some(DEFAULT_TIME)
        } else {
            None
        }),
        count: args.count,
        max_findings: args
            .max_findings
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        judge: JudgeOptions {
            strict_errors: args.strict_errors,
        },
        shrink: Limits {
            max_time: args.shrink_time,
            ..Limits::default()
        },
    };
    let mut launch = |role: Role| {
        let mut c = config.clone();
        if role == Role::Shrink {
            // Shrinking sends the requests that make it fail, over and over:
            // a crash there is the point, and the command is known to answer.
            c.check_liveness = false;
        }
        ProcessImplementation::new(c)
    };
    let mut printer = Printer {
        progress: io::stderr().is_terminal(),
        shown: None,
        header: file_header(args.seed),
        printed: 0,
        failed: None,
    };
    let outcome = session::fuzz(&plan, &corpus.vectors, &mut launch, &mut printer)?;
    printer.clear_progress();
    let implementation = if builtin {
        "the built-in reference codec".to_owned()
    } else {
        format!("`{}`", shell::words(&args.command))
    };
    let mut tail = String::new();
    if printer.printed > 0 {
        tail.push('\n');
    }
    tail.push_str(&summary(&outcome, args, program, &implementation));
    if let Some(path) = &args.out {
        match finding::append(path, &file_header(args.seed), &outcome.findings) {
            Ok(a) => {
                let _ = writeln!(
                    tail,
                    "# --out {}: {} finding(s) appended{}",
                    path.display(),
                    a.written,
                    if a.already_there > 0 {
                        format!(", {} already there", a.already_there)
                    } else {
                        String::new()
                    }
                );
            }
            Err(AppendError::Io(error)) => {
                return Err(CliError::Write {
                    path: path.clone(),
                    error,
                })
            }
            Err(AppendError::NotAVectorFile(errors)) => {
                return Err(CliError::Corpus {
                    source: format!("--out {} (nothing was appended)", path.display()),
                    errors,
                })
            }
            Err(AppendError::WouldNotLoad(errors)) => {
                return Err(CliError::Corpus {
                    source: format!(
                        "--out {} with the findings appended (left unchanged)",
                        path.display()
                    ),
                    errors,
                })
            }
        }
    }
    printer.print(&tail);
    if let Some(e) = printer.failed {
        return Err(CliError::Stdout(e));
    }
    Ok(if !outcome.findings.is_empty() {
        Exit::Failure
    } else if outcome.stop == Stop::NothingSupported {
        Exit::NoVerdict
    } else {
        Exit::Success
    })
}
