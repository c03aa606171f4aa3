//! The chaos suite: the real runner binary against a zoo of broken adapters
//! (`tests/chaos_adapters/chaos.py`, one misbehaviour per `CHAOS_MODE`), with
//! `run`, `run --one-shot`, `doctor` and `fuzz --time`.
//!
//! For every case it asserts four things:
//! - the exact outcome of the vector the adapter breaks on, and the exit code;
//! - the runner's peak resident memory (`VmHWM`, sampled while it runs)
//!   under [`MEMORY_BOUND_KIB`], whatever the adapter floods it with;
//! - the wall time under a bound set per case, generous for a loaded CI
//!   machine but far below what a runner that waited out a default timeout
//!   (30 s) or read a flood to its end would take;
//! - no process left behind: every process of the case carries a unique
//!   `CHAOS_TAG` in its environment, and after the run none is alive.
//!
//! Cases whose exact verdict depends on a hole not yet closed are marked
//! `#[ignore]` with the reason.

use crate::common;

use std::time::{Duration, Instant};

use common::{python, runner, scratch, Run, RUNNER, SMALL};

/// The vector the adapters break on (see `common::BROKEN_ON`).
const BROKEN_ON: &str = common::BROKEN_ON;

/// The runner's peak memory must stay below this, in KiB, in every case:
/// it reads at most one bounded line at a time and keeps bounded evidence.
const MEMORY_BOUND_KIB: u64 = 48 * 1024;

fn adapter() -> Vec<String> {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chaos_adapters/chaos.py");
    vec![
        python().to_owned(),
        script.display().to_string(),
        RUNNER.to_owned(),
        "serve".to_owned(),
    ]
}

/// The processes whose environment holds `CHAOS_TAG=tag`.
fn tagged(tag: &str) -> Vec<u32> {
    let needle = format!("CHAOS_TAG={tag}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| common::is_running(pid))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle.as_bytes()))
        })
        .collect()
}

/// Waits up to `grace` for every process tagged `tag` to be gone; returns
/// the ones still there.
fn leftovers(tag: &str, grace: Duration) -> Vec<u32> {
    let deadline = Instant::now() + grace;
    loop {
        let left = tagged(tag);
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One case: a subcommand with its options, against the chaos adapter in
/// `mode`, breaking on [`BROKEN_ON`] when `broken_on` is set.
struct Case {
    name: &'static str,
    mode: &'static str,
    args: Vec<String>,
    broken_on: bool,
    time_bound: Duration,
    /// How long an escaped descendant may outlive the run by design.
    leftover_grace: Duration,
    /// Whether the adapter leaves `sleep` processes behind in sessions of
    /// their own by design (`setsid_holder`): they are killed by their tag
    /// after the run, and only the others count as left behind.
    escaped_holders: bool,
}

impl Case {
    fn run(name: &'static str, mode: &'static str, options: &[&str]) -> Self {
        let report = scratch(&format!("chaos-{name}")).join("report.json");
        // The corpus's vectors alone: the read-backs are tested on their own.
        let mut args: Vec<String> = vec!["run".into(), "--no-read-back".into()];
        // One-shot mode starts two processes (the adapter and `serve`) per
        // request: three vectors around the broken one keep that short.
        if options.contains(&"--one-shot") {
            args.extend(["--id", "packed.decode.doc-example*"].map(String::from));
        } else {
            args.extend(SMALL.iter().map(|s| (*s).to_owned()));
        }
        // Every restart starts Python and `serve`, which a loaded machine
        // may take seconds to do: fresh processes get 10 s, except in the
        // modes that never answer, where each start waits that long.
        let never_answers = ["hang_all", "never_read", "crash_at_once"].contains(&mode);
        let startup = if never_answers { "2s" } else { "10s" };
        args.extend(["--startup-timeout".to_owned(), startup.to_owned()]);
        if !options.contains(&"--timeout") {
            args.extend(["--timeout".to_owned(), "2s".to_owned()]);
        }
        args.extend(options.iter().map(|s| (*s).to_owned()));
        args.push("--report-json".into());
        args.push(report.display().to_string());
        Self::new(name, mode, args)
    }

    fn new(name: &'static str, mode: &'static str, args: Vec<String>) -> Self {
        Case {
            name,
            mode,
            args,
            broken_on: true,
            time_bound: Duration::from_secs(30),
            leftover_grace: Duration::from_secs(2),
            escaped_holders: false,
        }
    }

    fn healthy(mut self) -> Self {
        self.broken_on = false;
        self
    }

    fn within(mut self, bound: Duration) -> Self {
        self.time_bound = bound;
        self
    }

    /// Runs the case and checks memory, time and leftovers; the caller
    /// checks the verdict.
    fn go(self) -> Run {
        let tag = format!("{}-{}-{}", self.name, std::process::id(), unique());
        let mut args = self.args;
        args.push("--".into());
        args.extend(adapter());
        let mut env = vec![("CHAOS_MODE", self.mode), ("CHAOS_TAG", tag.as_str())];
        if self.broken_on {
            env.push(("BROKEN_ON", BROKEN_ON));
        }
        let run = runner(&args, &env);
        if self.escaped_holders {
            kill_escaped_holders(&tag);
        }
        let left = leftovers(&tag, self.leftover_grace);
        assert!(
            left.is_empty(),
            "{}: processes {left:?} outlived the run\n{}",
            self.name,
            run.describe()
        );
        // A run that ends within milliseconds (a usage error) may end
        // before the first sample.
        let sampled = run.peak_rss_kib > 0 || run.elapsed < Duration::from_millis(200);
        assert!(
            sampled && run.peak_rss_kib < MEMORY_BOUND_KIB,
            "{}: the runner's peak memory was {} KiB (bound {MEMORY_BOUND_KIB})\n{}",
            self.name,
            run.peak_rss_kib,
            run.describe()
        );
        assert!(
            run.elapsed < self.time_bound,
            "{}: took {:?} (bound {:?})\n{}",
            self.name,
            run.elapsed,
            self.time_bound,
            run.describe()
        );
        assert!(
            !run.stderr.contains("panicked"),
            "{}: the runner panicked\n{}",
            self.name,
            run.describe()
        );
        run
    }
}

/// Kills the `sleep` processes tagged `tag`: the descendants a
/// `setsid_holder` adapter leaves behind on purpose, out of the runner's
/// reach.
fn kill_escaped_holders(tag: &str) {
    for pid in tagged(tag) {
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if comm.trim_end() == "sleep" {
            if let Some(pid) = i32::try_from(pid)
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The run failed exactly [`BROKEN_ON`], with `outcome`, passed every other
/// vector, and exited 1.
fn only_the_broken_vector(run: &Run, outcome: &str) {
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.ids(outcome), [BROKEN_ON], "{}", run.describe());
    let others = run.results().len() - 1;
    assert!(others > 0, "{}", run.describe());
    assert_eq!(run.count("pass"), others as u64, "{}", run.describe());
}

fn reason(run: &Run) -> String {
    run.result(BROKEN_ON)["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

// Hangs.

#[test]
fn a_hang_on_one_request_times_out() {
    let run = Case::run("hang-one", "hang_one", &[]).go();
    only_the_broken_vector(&run, "timed_out");
}

#[test]
fn a_hang_on_every_request_is_a_harness_error() {
    let run = Case::run("hang-all", "hang_all", &[]).healthy().go();
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("never answered") || run.stderr.contains("no process"),
        "{}",
        run.describe()
    );
}

#[test]
fn an_adapter_that_never_reads_is_a_harness_error() {
    let run = Case::run("never-read", "never_read", &[]).healthy().go();
    assert_eq!(run.code, Some(2), "{}", run.describe());
}

#[test]
fn sigterm_is_not_needed_to_end_an_adapter() {
    let run = Case::run("ignore-sigterm", "ignore_sigterm", &[]).go();
    only_the_broken_vector(&run, "timed_out");
}

// Crashes.

#[test]
fn a_crash_at_start_is_a_harness_error_at_once() {
    let run = Case::run("crash-at-once", "crash_at_once", &[])
        .healthy()
        .within(Duration::from_secs(10))
        .go();
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.stderr.contains("exit status: 3"), "{}", run.describe());
}

#[test]
fn a_crash_in_the_middle_of_a_line_is_a_crash() {
    let run = Case::run("crash-mid-line", "crash_mid_line", &[]).go();
    only_the_broken_vector(&run, "crashed");
    assert!(
        reason(&run).contains("had no newline"),
        "{}",
        run.describe()
    );
}

/// Each process answers five requests, then exits on reading the sixth:
/// the run failed every sixth of its 20 vectors as crashed, and only
/// those, each for its exit; their reasons.
fn fails_every_sixth(run: &Run) -> Vec<String> {
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let results = run.results();
    assert_eq!(results.len(), 20, "{}", run.describe());
    let every_sixth: Vec<&str> = [5, 11, 17]
        .iter()
        .map(|&i| results[i]["id"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(run.ids("crashed"), every_sixth, "{}", run.describe());
    assert_eq!(run.count("pass"), 17, "{}", run.describe());
    let reasons: Vec<String> = every_sixth
        .iter()
        .map(|id| {
            run.result(id)["reason"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    for why in &reasons {
        assert!(why.contains("exit status: 3"), "{why}\n{}", run.describe());
    }
    reasons
}

/// One request at a time, each sixth request is the one that crashed,
/// alone, and the run goes on with a fresh process.
#[test]
fn a_crash_after_every_five_requests_fails_every_sixth() {
    let run = Case::run("crash-after-n", "crash_after_n", &["--window", "1"])
        .healthy()
        .go();
    fails_every_sixth(&run);
}

/// The same with requests in flight. Each request sent on its own to a
/// fresh process is answered, but sent one at a time after the five before
/// it, the sixth crashes again: the crash is not put down to pipelining.
/// The verdicts are those of one request at a time, each crash its
/// request's own, after the requests before it in its process.
#[test]
fn a_crash_after_five_pipelined_requests_is_blamed_on_the_sixth() {
    let run = Case::run("crash-after-n-pipelined", "crash_after_n", &[])
        .healthy()
        .within(Duration::from_secs(60))
        .go();
    for why in fails_every_sixth(&run) {
        assert!(!why.contains("in flight"), "{why}\n{}", run.describe());
    }
    assert!(
        run.stdout
            .contains("passes alone: fails only after earlier requests"),
        "{}",
        run.describe()
    );
}

/// The adapter exits while a descendant in its process group still holds
/// its stdout: the exit is noticed through the process's status within a
/// fraction of a second, not after the timeout, and the descendant dies
/// with the group.
#[test]
fn an_exit_is_noticed_while_a_descendant_holds_the_output() {
    let mut case = Case::run("grandchild", "grandchild", &["--timeout", "20s"]);
    case.time_bound = Duration::from_secs(15);
    let run = case.go();
    only_the_broken_vector(&run, "crashed");
    assert!(
        reason(&run).contains("exit status: 4"),
        "{}",
        run.describe()
    );
}

/// The same with a descendant that left the process group (setsid): it
/// cannot be killed with the group, and ends by itself after 3 s.
#[test]
fn an_exit_is_noticed_while_an_escaped_descendant_holds_the_output() {
    let mut case = Case::run("setsid", "setsid_grandchild", &["--timeout", "20s"]);
    case.time_bound = Duration::from_secs(15);
    case.leftover_grace = Duration::from_secs(10);
    let run = case.go();
    only_the_broken_vector(&run, "crashed");
}

/// A long one-shot run where every process leaves behind a descendant in a
/// session of its own (out of reach of the group kill) that holds all three
/// pipes open: the runner closes its ends after each process is killed, so
/// its open file descriptors stay few however many processes it starts,
/// and each start costs no wait for a pipe that never closes.
#[test]
fn escaped_descendants_holding_the_pipes_leak_no_file_descriptors() {
    let report = scratch("chaos-setsid-holders").join("report.json");
    let mut args: Vec<String> = vec!["run".into(), "--no-read-back".into(), "--one-shot".into()];
    args.extend(SMALL.iter().map(|s| (*s).to_owned()));
    args.extend(["--timeout", "5s", "--startup-timeout", "10s"].map(String::from));
    args.extend(["--report-json".to_owned(), report.display().to_string()]);
    // Waiting out each start's pipes took about 1.5 s a start (36 s here).
    let mut case = Case::new("setsid-holders", "setsid_holder", args)
        .healthy()
        .within(Duration::from_secs(30));
    case.escaped_holders = true;
    let run = case.go();
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let starts = run.results().len();
    assert_eq!(starts, 20, "{}", run.describe());
    // Two leaked descriptors a start would be 40 more by the end.
    assert!(
        run.peak_fds <= FD_BOUND,
        "the runner held {} file descriptors at once over {starts} starts (bound {FD_BOUND})\n{}",
        run.peak_fds,
        run.describe()
    );
}

/// The most file descriptors the runner may hold at once while it runs one
/// implementation process: its standard streams, a report file, the
/// process's three pipes and their stop signal, and a few to spare.
const FD_BOUND: usize = 24;

// Floods.

#[test]
fn a_gibibyte_without_a_newline_stops_at_the_line_bound() {
    let run = Case::run("flood-no-newline", "flood_no_newline", &[]).go();
    only_the_broken_vector(&run, "malformed");
    assert!(
        reason(&run).contains("without a newline"),
        "{}",
        run.describe()
    );
}

#[test]
fn endless_lines_are_cut_off() {
    let run = Case::run("endless-lines", "endless_lines", &[]).go();
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let failed: usize = ["fail", "crashed", "timed_out", "malformed"]
        .iter()
        .map(|o| run.count(o) as usize)
        .sum();
    assert!(failed >= 1, "{}", run.describe());
}

#[test]
fn two_hundred_megabytes_of_stderr_are_drained_not_kept() {
    let run = Case::run("stderr-flood", "stderr_flood", &["--timeout", "10s"])
        .within(Duration::from_secs(40))
        .go();
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.count("pass"), 20, "{}", run.describe());
}

// Garbage.

#[test]
fn nul_bytes_are_malformed() {
    let run = Case::run("nul", "nul", &[]).go();
    only_the_broken_vector(&run, "malformed");
}

#[test]
fn invalid_utf8_is_malformed() {
    let run = Case::run("invalid-utf8", "invalid_utf8", &[]).go();
    only_the_broken_vector(&run, "malformed");
}

/// Escape sequences are malformed, and never reach the terminal raw.
#[test]
fn escape_sequences_are_malformed_and_shown_escaped() {
    let run = Case::run("escapes", "escapes", &[]).go();
    only_the_broken_vector(&run, "malformed");
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.describe());
    assert!(!run.stderr.contains('\u{1b}'), "{}", run.describe());
}

#[test]
fn a_huge_id_is_malformed_with_bounded_evidence() {
    let run = Case::run("huge-id", "huge_id", &[]).go();
    only_the_broken_vector(&run, "malformed");
    let got = run.result(BROKEN_ON)["got"].as_str().unwrap_or_default();
    assert!(got.len() < 1000, "the evidence is {} bytes", got.len());
    assert!(got.contains("bytes in all"), "{got}");
}

// Protocol faults.

#[test]
fn a_wrong_id_is_malformed() {
    let run = Case::run("wrong-id", "wrong_id", &[]).go();
    only_the_broken_vector(&run, "malformed");
}

/// The broken vector is answered twice: the second answer arrives where
/// the next vector's belongs, and carries the broken vector's id. The fault
/// is the broken vector's (malformed, the repeated line as evidence); the
/// next vector goes to a fresh process and passes, like every other vector.
#[test]
fn a_duplicated_answer_fails_the_vector_answered_twice() {
    let run = Case::run("duplicate", "duplicate", &[]).go();
    assert_eq!(run.code, Some(1), "{}", run.describe());
    only_the_broken_vector(&run, "malformed");
    let why = reason(&run);
    assert!(
        why.contains(&format!("a second response to request `{BROKEN_ON}`")),
        "{why}\n{}",
        run.describe()
    );
}

#[test]
fn answers_out_of_order_report_the_wrong_id_first() {
    let run = Case::run("out-of-order", "out_of_order", &[]).go();
    only_the_broken_vector(&run, "malformed");
    let why = reason(&run);
    assert!(
        why.contains("responses must echo each request's id"),
        "{why}\n{}",
        run.describe()
    );
    assert!(
        !why.contains("no response within"),
        "{why}\n{}",
        run.describe()
    );
}

/// A line after the last answer fails the run, naming the line, in
/// persistent and one-shot mode; `doctor` says so too.
#[test]
fn an_unsolicited_line_after_the_last_answer_fails_the_run() {
    for options in [&[][..], &["--one-shot"][..]] {
        let run = Case::run("extra-line", "extra_line", options)
            .healthy()
            .within(Duration::from_secs(40))
            .go();
        assert_eq!(run.code, Some(1), "{}", run.describe());
        let last = run.results().last().expect("a result");
        assert_eq!(last["outcome"], "malformed", "{}", run.describe());
        assert!(
            run.stdout
                .contains("unsolicited line after the last answer"),
            "{}",
            run.describe()
        );
    }
    let args: Vec<String> = ["doctor", "--timeout", "2s", "--startup-timeout", "10s"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let run = Case::new("extra-line-doctor", "extra_line", args)
        .healthy()
        .go();
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("FAIL") && l.contains("nothing unasked")),
        "{}",
        run.describe()
    );
}

// Slow or chatty, but correct.

#[test]
fn a_slow_adapter_passes() {
    let run = Case::run("slow", "slow", &[]).healthy().go();
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.count("pass"), 20, "{}", run.describe());
}

/// An adapter that writes a line to stderr just before each answer, all of
/// them wrong: every failure's stderr tail ends with the line written for
/// it, though the runner reads stderr and stdout in different threads and
/// an answer can arrive first (it waits, briefly, for what is already in
/// the stderr pipe before it takes the tail).
#[test]
fn a_failures_stderr_tail_holds_what_was_written_just_before_its_answer() {
    // One request in flight, so that each answer comes alone and its tail
    // ends with its own line.
    let mut case =
        Case::run("stderr-then-wrong", "stderr_then_wrong", &["--window", "1"]).healthy();
    // Every packed decode whose bytes are valid: a few hundred failures.
    let small = case
        .args
        .iter()
        .position(|a| a == "--id")
        .expect("SMALL's --id");
    case.args.splice(
        small..small + SMALL.len(),
        ["--id", "packed.decode.*"].map(String::from),
    );
    let run = case.go();
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let failures: Vec<&serde_json::Value> = run
        .results()
        .iter()
        .filter(|r| r["outcome"] == "fail")
        .collect();
    assert!(
        failures.len() > 100,
        "{} failures\n{}",
        failures.len(),
        run.describe()
    );
    let missed: Vec<&str> = failures
        .iter()
        .filter_map(|r| {
            let id = r["id"].as_str()?;
            let tail = r["stderr_tail"].as_str().unwrap_or_default();
            (!tail.ends_with(&format!("about to answer {id}"))).then_some(id)
        })
        .collect();
    assert!(
        missed.is_empty(),
        "{} of {} failures lack the stderr line written just before their answer: {:?}",
        missed.len(),
        failures.len(),
        &missed[..missed.len().min(10)]
    );
}

#[test]
fn a_chatty_adapter_passes() {
    let run = Case::run("chatty", "chatty", &[]).healthy().go();
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.count("pass"), 20, "{}", run.describe());
}

// The same zoo through one-shot mode, doctor and fuzz.

#[test]
fn one_shot_mode_fails_only_the_broken_vector() {
    for (mode, outcome) in [
        ("crash_mid_line", "crashed"),
        ("hang_one", "timed_out"),
        ("flood_no_newline", "malformed"),
        ("huge_id", "malformed"),
    ] {
        let run = Case::run("one-shot", mode, &["--one-shot", "--timeout", "3s"])
            .within(Duration::from_secs(40))
            .go();
        only_the_broken_vector(&run, outcome);
    }
}

/// `doctor` checks its own requests, so these modes misbehave on all of
/// them: it must say so (exit 1) or find nothing to examine (exit 2),
/// within bounds, never pass.
#[test]
fn doctor_names_what_is_wrong_within_bounds() {
    for mode in [
        "crash_at_once",
        "crash_after_n",
        "hang_all",
        "never_read",
        "flood_no_newline_all",
    ] {
        let args: Vec<String> = ["doctor", "--timeout", "1s", "--startup-timeout", "2s"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let run = Case::new("doctor", mode, args)
            .healthy()
            .within(Duration::from_secs(30))
            .go();
        assert!(
            matches!(run.code, Some(1 | 2)),
            "doctor passed an adapter in mode {mode}\n{}",
            run.describe()
        );
    }
}

#[test]
fn fuzzing_a_slow_adapter_stays_within_its_budget() {
    // A slow but correct adapter: the budget of 3 s must bound the run
    // (request generation, shrinking and reporting included).
    let out = scratch("chaos-fuzz").join("found.yaml");
    let args: Vec<String> = [
        "fuzz",
        "--time",
        "3",
        "--timeout",
        "5s",
        "--out",
        out.to_str().unwrap_or_default(),
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let case = Case::new("fuzz", "slow", args)
        .healthy()
        .within(Duration::from_secs(30));
    let run = case.go();
    assert_eq!(run.code, Some(0), "{}", run.describe());
}

/// `fuzz --time` against adapters that break on every process or every
/// request: the budget bounds the command whatever the adapter does, a
/// fault is a finding (exit 1), an adapter that never answers is no
/// verdict (exit 2), and one that only leaves escaped descendants behind
/// passes with its file descriptors bounded.
#[test]
fn fuzzing_broken_adapters_stays_within_its_budget() {
    for (mode, code) in [
        ("crash_after_n", 1),
        ("flood_no_newline_all", 1),
        ("hang_all", 2),
        ("setsid_holder", 0),
    ] {
        let out = scratch(&format!("chaos-fuzz-{mode}")).join("found.yaml");
        // A loaded machine may take seconds to start Python and `serve`;
        // only the adapter that never answers gets a short start-up.
        let startup = if mode == "hang_all" { "2s" } else { "10s" };
        let args: Vec<String> = [
            "fuzz",
            "--time",
            "3",
            "--timeout",
            "2s",
            "--startup-timeout",
            startup,
            "--out",
            out.to_str().unwrap_or_default(),
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let mut case = Case::new("fuzz-broken", mode, args)
            .healthy()
            .within(Duration::from_secs(30));
        case.escaped_holders = mode == "setsid_holder";
        let run = case.go();
        assert_eq!(run.code, Some(code), "{mode}\n{}", run.describe());
        assert!(
            run.peak_fds <= FD_BOUND,
            "{mode}: {} file descriptors\n{}",
            run.peak_fds,
            run.describe()
        );
        if code == 1 {
            assert!(
                out.is_file(),
                "{mode}: no findings file\n{}",
                run.describe()
            );
        }
    }
}

/// Many failures do not add up: each over-long line is evidence of a few
/// hundred bytes, not the megabyte buffer it was read into, so the peak
/// memory of a run where 20 vectors each get a line of more than 1 MiB stays
/// where a run of one such failure is.
#[test]
fn many_over_long_lines_do_not_grow_the_runners_memory() {
    let run = Case::run("long-lines-everywhere", "flood_no_newline_all", &[])
        .healthy()
        .within(Duration::from_secs(60))
        .go();
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.count("malformed"), 20, "{}", run.describe());
    assert!(
        run.peak_rss_kib < 24 * 1024,
        "peak {} KiB for 20 over-long lines\n{}",
        run.peak_rss_kib,
        run.describe()
    );
}

#[test]
fn a_timeout_below_the_floor_is_a_usage_error() {
    let args: Vec<String> = ["run", "--timeout", "5ms"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let run = Case::new("timeout-floor", "slow", args)
        .healthy()
        .within(Duration::from_secs(10))
        .go();
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("below the floor of 10ms"),
        "{}",
        run.describe()
    );
}
