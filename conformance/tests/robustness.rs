//! The runner against deliberately broken adapters (`tests/broken_adapters/`):
//! each misbehaves on one vector, and the runner must fail exactly that
//! vector with a clear reason, recover, finish the run, leave no process
//! behind and never panic.

use crate::common;

use std::time::Duration;

use common::{
    broken, exists, is_gone_or_killed, is_running, recorded_pids, run_against, scratch, Run,
    BROKEN_ON, SMALL,
};
use wow_guid_harness::implementation::{Fault, Implementation, Query};
use wow_guid_harness::process::{Mode, ProcessConfig, ProcessImplementation};
use wow_guid_vectors::Corpus;

/// Runs the small selection against broken adapter `name`, misbehaving on
/// [`BROKEN_ON`], with a 1s timeout.
fn against(name: &str, extra_env: &[(&str, &str)]) -> Run {
    let mut env = vec![("BROKEN_ON", BROKEN_ON)];
    env.extend_from_slice(extra_env);
    let mut options = SMALL.to_vec();
    options.extend(["--timeout", "1s"]);
    run_against(name, &options, &broken(name), &env)
}

/// The run failed exactly [`BROKEN_ON`] with `outcome` (`fail`, `crashed`,
/// `timed_out`, `malformed`), passed the other 19, and says why in words
/// containing `reason`.
fn fails_only_the_broken_vector(run: &Run, outcome: &str, reason: &str) {
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.ids(outcome), [BROKEN_ON], "{}", run.describe());
    assert_eq!(run.count("pass"), 19, "{}", run.describe());
    let why = run.result(BROKEN_ON)["reason"].as_str().unwrap_or_default();
    assert!(
        why.contains(reason),
        "reason `{why}` lacks `{reason}`\n{}",
        run.describe()
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.describe());
    let label = match outcome {
        "crashed" => "CRASHED",
        "timed_out" => "TIMED OUT",
        "malformed" => "MALFORMED",
        _ => "FAIL",
    };
    assert!(
        run.stdout.contains(&format!("{label} {BROKEN_ON}")),
        "the summary does not list the failure\n{}",
        run.describe()
    );
}

#[test]
fn a_hang_times_out_kills_the_process_group_and_the_run_goes_on() {
    let pids = scratch("hang-pids").join("pids");
    let run = against(
        "hang",
        &[("BROKEN_PIDS", pids.to_str().unwrap_or_default())],
    );
    fails_only_the_broken_vector(&run, "timed_out", "no response within");
    // Pipelined, then re-run alone: two timeouts of about a second, not the
    // whole start-up allowance.
    assert!(run.elapsed < Duration::from_secs(15), "{}", run.describe());
    let recorded = recorded_pids(&pids);
    assert!(recorded.len() >= 4, "the adapter recorded {recorded:?}");
    for pid in recorded {
        assert!(is_gone_or_killed(pid), "process {pid} outlived the run");
    }
}

#[test]
fn a_crash_is_blamed_on_the_request_that_caused_it() {
    let run = against("crash", &[]);
    fails_only_the_broken_vector(&run, "crashed", "exit status: 3");
    let tail = run.result(BROKEN_ON)["stderr_tail"]
        .as_str()
        .unwrap_or_default();
    assert!(tail.contains("crash.py: giving up"), "{}", run.describe());
}

#[test]
fn garbage_is_a_malformed_response() {
    let run = against("garbage", &[]);
    fails_only_the_broken_vector(&run, "malformed", "is not printable ASCII");
    let got = run.result(BROKEN_ON)["got"].as_str().unwrap_or_default();
    assert!(got.starts_with("\\x00\\xff\\xfe garbage"), "got `{got}`");
}

#[test]
fn a_wrong_id_fails_and_resynchronises() {
    let run = against("wrong_id", &[]);
    fails_only_the_broken_vector(&run, "malformed", "starts with id `someone-else`");
}

#[test]
fn an_endless_line_stops_at_the_bound_without_eating_memory() {
    let run = against("long_line", &[]);
    fails_only_the_broken_vector(
        &run,
        "malformed",
        "grew past 1048576 bytes without a newline",
    );
    assert!(
        run.peak_rss_kib < 64 * 1024,
        "the runner peaked at {} KiB\n{}",
        run.peak_rss_kib,
        run.describe()
    );
}

#[test]
fn a_line_without_newline_is_not_an_answer() {
    let run = against("no_newline", &[]);
    fails_only_the_broken_vector(&run, "crashed", "had no newline");
}

#[test]
fn a_flood_is_cut_off_with_bounded_memory() {
    let run = against("flood", &[]);
    fails_only_the_broken_vector(&run, "malformed", "starts with id `flood`");
    assert!(
        run.peak_rss_kib < 64 * 1024,
        "the runner peaked at {} KiB\n{}",
        run.peak_rss_kib,
        run.describe()
    );
}

#[test]
fn chatty_stderr_is_drained_and_its_tail_reported() {
    // The whole corpus: 16 KiB of stderr per request, megabytes in all.
    let run = run_against(
        "chatty",
        &["--timeout", "2s"],
        &broken("chatty"),
        &[("BROKEN_ON", BROKEN_ON)],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.ids("fail"), [BROKEN_ON], "{}", run.describe());
    let tail = run.result(BROKEN_ON)["stderr_tail"]
        .as_str()
        .unwrap_or_default();
    assert!(
        tail.lines()
            .any(|l| l == format!("chatty: handling {BROKEN_ON}")),
        "the stderr tail does not show the failing request: {tail}"
    );
    assert!(tail.lines().count() <= 20, "the tail is not cut: {tail}");
    assert!(
        run.stdout.contains("stderr       (last lines)"),
        "{}",
        run.describe()
    );
    // stderr is never parsed: nothing of it leaks into the runner's own.
    assert!(!run.stderr.contains("chatty"), "{}", run.describe());
}

#[test]
fn crlf_and_uppercase_hex_are_accepted() {
    let run = run_against("crlf", &["--strict-errors"], &broken("crlf"), &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.count("pass"), run.count("total"), "{}", run.describe());
}

#[test]
fn a_slow_start_is_tolerated() {
    let mut options = SMALL.to_vec();
    options.extend(["--timeout", "1s"]);
    let run = run_against(
        "slow-start",
        &options,
        &broken("slow_start"),
        &[("SLOW_START", "2")],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.count("pass"), 20, "{}", run.describe());
}

#[test]
fn an_adapter_that_assumes_lock_step_is_told_so() {
    let run = against("lockstep", &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    // Every stretch of pipelined requests fails it (how many there are
    // depends on the window); each failure says that pipelining is the
    // problem, and every vector passes when sent alone.
    let failed: Vec<String> = ["timed_out", "malformed", "fail", "crashed"]
        .iter()
        .flat_map(|o| run.ids(o))
        .collect();
    assert!(!failed.is_empty(), "{}", run.describe());
    for id in &failed {
        let why = run.result(id)["reason"].as_str().unwrap_or_default();
        assert!(
            why.contains("Sent one at a time, each request was answered"),
            "{id}: {why}\n{}",
            run.describe()
        );
    }
    assert_eq!(
        run.count("pass") as usize + failed.len(),
        20,
        "{}",
        run.describe()
    );
}

#[test]
fn an_adapter_that_never_flushes_fails_fast_and_works_one_shot() {
    let mut options = SMALL.to_vec();
    options.extend(["--timeout", "1s", "--startup-timeout", "1s"]);
    let run = run_against("no-flush", &options, &broken("no_flush"), &[]);
    // It never answers in persistent mode: no verdict on any vector, but
    // one harness error (exit 2) that says what to do, after the first
    // request and one probe have each timed out.
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.elapsed < Duration::from_secs(10), "{}", run.describe());
    assert!(
        run.stderr.contains("answers only when its input ends")
            && run.stderr.contains("does not flush stdout"),
        "{}",
        run.describe()
    );
    assert!(!run.stdout.contains("FAIL"), "{}", run.describe());

    options.push("--one-shot");
    let once = run_against("no-flush-one-shot", &options, &broken("no_flush"), &[]);
    assert_eq!(once.code, Some(0), "{}", once.describe());
}

#[test]
fn an_adapter_that_never_flushes_is_diagnosed_in_seconds_naming_the_right_option() {
    // A start-up allowance of 3 s: the diagnosis takes the allowance once,
    // then a start-up time and a timeout, not a second allowance.
    let mut options = SMALL.to_vec();
    options.extend(["--timeout", "1s", "--startup-timeout", "3s"]);
    let run = run_against("no-flush-default", &options, &broken("no_flush"), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.elapsed < Duration::from_secs(6), "{}", run.describe());
    for words in [
        "answers only when its input ends",
        "no response came within",
        "flush after each response",
        "A longer --timeout or --startup-timeout does not help",
        "only --one-shot works",
    ] {
        assert!(
            run.stderr.contains(words),
            "no `{words}`: {}",
            run.describe()
        );
    }
    assert!(
        !run.stderr.contains("raise --timeout"),
        "{}",
        run.describe()
    );
}

/// At the default timeouts (5 s, and 30 s to start), the diagnosis does
/// not wait out the start-up allowance: after two silent seconds a probe
/// checks, beside the first process, whether the command answers only at
/// end of input.
#[test]
fn an_adapter_that_never_flushes_is_diagnosed_in_seconds_at_the_defaults() {
    let run = run_against("no-flush-defaults", SMALL, &broken("no_flush"), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.elapsed < Duration::from_secs(15), "{}", run.describe());
    assert!(
        run.stderr.contains("answers only when its input ends")
            && run.stderr.contains("flush after each response"),
        "{}",
        run.describe()
    );
}

#[test]
fn an_adapter_that_never_answers_is_told_about_the_startup_timeout() {
    let mut options = SMALL.to_vec();
    options.extend(["--startup-timeout", "1s"]);
    let silent = ["sleep".to_owned(), "600".to_owned()];
    let run = run_against("hang-startup", &options, &silent, &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("never answered a request")
            && run.stderr.contains("raise --startup-timeout")
            && !run.stderr.contains("raise --timeout"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_first_request_that_hangs_is_not_taken_for_buffered_output() {
    // The first request of the run hangs the adapter before any process
    // has answered: the probes show that the adapter answers with its
    // input open, so that request times out and the run goes on.
    let first = "packed.decode.doc-example";
    let mut options = SMALL.to_vec();
    options.extend(["--timeout", "1s", "--startup-timeout", "1s"]);
    let run = run_against(
        "hang-first",
        &options,
        &broken("hang"),
        &[("BROKEN_ON", first)],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.ids("timed_out"), [first], "{}", run.describe());
}

#[test]
fn debug_output_on_stdout_is_named_as_such() {
    let run = run_against("debug-stdout", SMALL, &broken("debug_stdout"), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    for words in [
        "writes something other than responses to stdout",
        "a line that is not a response, `DEBUG: handling liveness-probe`, came before the response",
        "write debug and log output to stderr",
    ] {
        assert!(
            run.stderr.contains(words),
            "no `{words}`: {}",
            run.describe()
        );
    }
    assert!(!run.stderr.contains("never answered"), "{}", run.describe());

    // Once, on one vector: that vector fails with the same advice; the
    // rest pass.
    let once = run_against(
        "debug-stdout-once",
        SMALL,
        &broken("debug_stdout"),
        &[("BROKEN_ON", BROKEN_ON)],
    );
    assert_eq!(once.code, Some(1), "{}", once.describe());
    assert_eq!(once.ids("malformed"), [BROKEN_ON], "{}", once.describe());
    let why = once.result(BROKEN_ON)["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains("came before the response") && why.contains("to stderr"),
        "{why}"
    );
}

#[test]
fn jobs_give_the_same_results_in_the_same_order() {
    let outcomes = |run: &Run| -> Vec<(String, String)> {
        run.results()
            .iter()
            .map(|r| {
                (
                    r["id"].as_str().unwrap_or_default().to_owned(),
                    r["outcome"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect()
    };
    let env = [("BROKEN_ON", BROKEN_ON)];
    let one = run_against("jobs-1", &["--timeout", "2s"], &broken("crash"), &env);
    let three = run_against(
        "jobs-3",
        &["--timeout", "2s", "--jobs", "3"],
        &broken("crash"),
        &env,
    );
    assert_eq!(one.code, Some(1), "{}", one.describe());
    assert_eq!(three.code, Some(1), "{}", three.describe());
    assert_eq!(outcomes(&one), outcomes(&three));
    assert_eq!(one.ids("crashed"), [BROKEN_ON]);
}

/// The library, used directly: after a timeout the killed adapter has been
/// reaped (it would linger as a zombie child of this test process
/// otherwise), and its own child, in the same process group, is dead too.
#[test]
fn killed_processes_are_reaped_and_their_group_is_gone() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    let vectors: Vec<_> = corpus
        .vectors
        .iter()
        .filter(|v| v.has_flag(wow_guid_vectors::Flag::DocExample))
        .collect();
    let queries: Vec<Query<'_>> = vectors
        .iter()
        .map(|v| Query {
            id: &v.id,
            request: &v.request,
        })
        .collect();
    let pids = scratch("reap").join("pids");
    let mut config = ProcessConfig::new(broken("hang").into_iter().map(Into::into).collect());
    config.env = vec![
        ("BROKEN_ON".into(), BROKEN_ON.into()),
        ("BROKEN_PIDS".into(), pids.clone().into_os_string()),
    ];
    config.timeout = Duration::from_millis(800);
    config.mode = Mode::persistent();
    let mut implementation = ProcessImplementation::new(config);
    let answers = implementation
        .answer_all(&queries)
        .expect("the adapter starts");
    let broken_at = vectors
        .iter()
        .position(|v| v.id == BROKEN_ON)
        .expect("the broken vector is selected");
    assert!(matches!(
        answers[broken_at].reply,
        Err(Fault::Timeout { .. })
    ));
    assert_eq!(
        answers.iter().filter(|a| a.reply.is_err()).count(),
        1,
        "{answers:?}"
    );
    let stats = implementation.stats();
    assert!(stats.starts >= 3 && stats.faults == 2, "{stats:?}");
    // The running adapter, if any, is alive; every other one is fully
    // gone. (When the requests in flight at the hang were the last ones,
    // each went to a fresh process that was closed after its answer.)
    let live = implementation.pid();
    let recorded = recorded_pids(&pids);
    for pair in recorded.chunks(2) {
        if Some(pair[0]) == live {
            assert!(is_running(pair[0]));
            continue;
        }
        assert!(!exists(pair[0]), "adapter {} was not reaped", pair[0]);
        assert!(
            is_gone_or_killed(pair[1]),
            "its child {} survived the group kill",
            pair[1]
        );
    }
    implementation.close();
    if let Some(live) = live {
        assert!(!exists(live), "the last adapter was not reaped on close");
    }
}

/// Adapters run in process groups of their own, out of reach of a
/// terminal's Ctrl-C: an interrupted runner must kill them itself.
#[test]
fn an_interrupted_runner_leaves_no_adapter_behind() {
    let pids = scratch("interrupt").join("pids");
    let mut command = std::process::Command::new(common::RUNNER);
    command
        .args(["run", "--timeout", "60s", "--"])
        .args(broken("hang"))
        .env("BROKEN_ON", "packed.decode.doc-example")
        .env("BROKEN_PIDS", &pids)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut runner = command.spawn().expect("start the runner");
    // Wait until the adapter and its child are up and hanging.
    let began = std::time::Instant::now();
    while recorded_pids(&pids).len() < 2 {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the adapter never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let signalled = std::process::Command::new("kill")
        .args(["-TERM", &runner.id().to_string()])
        .status()
        .expect("run kill");
    assert!(signalled.success());
    let status = runner.wait().expect("the runner exits");
    assert_eq!(status.code(), Some(128 + 15));
    for pid in recorded_pids(&pids) {
        assert!(
            is_gone_or_killed(pid),
            "process {pid} outlived the interrupted runner"
        );
    }
}

/// An adapter that loses its answers at exit (a 4 MB buffer never flushed,
/// `os._exit`) is diagnosed within 15 s at the default timeouts, with
/// flushing named first: its first process stays silent, and a probe given
/// end of input exits without a word.
#[test]
fn an_adapter_that_loses_its_output_at_exit_is_diagnosed_naming_flushing() {
    let run = run_against("lost-at-exit", SMALL, &broken("lost_at_exit"), &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(run.elapsed < Duration::from_secs(15), "{}", run.describe());
    let flush = run.stderr.find("Flush stdout");
    let startup = run.stderr.find("--startup-timeout");
    assert!(
        run.stderr.contains("loses its output unflushed") && flush < startup && flush.is_some(),
        "{}",
        run.describe()
    );
}

/// An adapter that allows one instance at a time (a lock) and takes 3 s to
/// start is run in about its start-up time at the default allowance: the
/// probe for unflushed output, blocked on the lock, is watched beside the
/// first process and stopped as soon as the first answers, rather than
/// waited for until `--startup-timeout` (30 s).
#[test]
fn a_locked_slow_starter_is_not_held_up_by_its_probe() {
    let lock = scratch("locked-slow").join("lock");
    let lock = lock.display().to_string();
    let env = [("LOCK_FILE", lock.as_str()), ("START_SECONDS", "3")];
    let run = run_against("locked-slow", SMALL, &broken("locked_slow"), &env);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(run.elapsed < Duration::from_secs(15), "{}", run.describe());
}

/// When an adapter never answers, its stderr is shown as it wrote it,
/// escaped once: a control character as `\x01`, bytes that are not UTF-8
/// as `\xff\xfe` (not `\\x01`, nor the replacement character's bytes).
#[test]
fn a_silent_adapters_stderr_is_shown_escaped_once() {
    let command = [
        "sh".to_owned(),
        "-c".to_owned(),
        r"printf 'odd \001 \377\376 end\n' >&2; exit 3".to_owned(),
    ];
    let run = run_against("stderr-once", SMALL, &command, &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains(r"| odd \x01 \xff\xfe end"),
        "{}",
        run.describe()
    );
}

/// Past the deadline, requests are refused as out of time without starting
/// a process only to kill it (on a loaded machine a start alone took longer
/// than the rest of a `fuzz --time` run), in both modes, sequences too.
#[test]
fn past_the_deadline_no_process_is_started() {
    let corpus = Corpus::embedded().expect("corpus loads");
    let queries: Vec<Query<'_>> = corpus.vectors[..3]
        .iter()
        .map(|v| Query {
            id: &v.id,
            request: &v.request,
        })
        .collect();
    for mode in [Mode::persistent(), Mode::OneShot] {
        let mut config = ProcessConfig::new(vec![common::RUNNER.into(), "serve".into()]);
        config.mode = mode;
        config.deadline = Some(std::time::Instant::now());
        let mut late = ProcessImplementation::new(config);
        let error = late.answer_all(&queries).expect_err("out of time");
        assert!(error.is_out_of_time(), "{mode:?}: {error}");
        let error = late
            .answer_sequences(&queries, &[0..2, 2..3])
            .expect_err("out of time");
        assert!(error.is_out_of_time(), "{mode:?}: {error}");
        assert_eq!(late.stats().starts, 0, "{mode:?}");
    }
}
