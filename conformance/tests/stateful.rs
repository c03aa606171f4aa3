//! Failures that depend on earlier requests, and sequences in one-shot mode.
//!
//! An adapter that keeps state between calls fails vectors in `run`'s
//! persistent process that pass when sent alone, as a plain `repro ID`
//! sends them. `run` checks a sample of its failures alone, marks those
//! that pass ("passes alone"), names a few earlier requests after which
//! they fail again, and its reproduce line sends those first: run exactly as
//! printed, it fails the same way. In one-shot mode the steps of a sequence
//! share one process, so a bug that only a sequence shows is not hidden.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value as Json;

use common::{python, run_against, scratch, RUNNER};

/// The command line of buggy adapter `name` (`tests/buggy_adapters/`).
fn buggy(name: &str) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/buggy_adapters")
        .join(format!("{name}.py"));
    assert!(script.is_file(), "no buggy adapter {}", script.display());
    vec![python().to_owned(), script.display().to_string()]
}

/// Runs `line` exactly as printed: split into words as a POSIX shell
/// splits them, then executed without a shell. Its exit status and stdout.
fn execute(line: &str) -> (Option<i32>, String) {
    execute_with(line, &[])
}

/// [`execute`], with `env` added to the environment (the adapter's
/// settings, which a reproduce line does not repeat).
fn execute_with(line: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let words = shlex::split(line).unwrap_or_else(|| panic!("not a shell line: {line}"));
    let (program, args) = words.split_first().expect("an empty line");
    let output = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {line}: {e}"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn str_of<'j>(result: &'j Json, field: &str) -> &'j str {
    result[field]
        .as_str()
        .unwrap_or_else(|| panic!("no string `{field}` in {result}"))
}

/// Both stateful adapters: every failure `run` marks as passing alone
/// names its earlier requests, and its reproduce line, run as printed,
/// fails with the same reason; the same line without them passes. At most
/// 3 failures per cause are checked, and each adapter has one cause.
#[test]
fn a_failure_that_passes_alone_is_reproduced_after_the_earlier_requests_it_names() {
    const PASSES_ALONE: &str =
        "passes alone: fails only after earlier requests — state carried between requests";
    for name in ["stateful_encoder", "decoder_leaks_mask"] {
        let junit = scratch(&format!("{name}-junit")).join("junit.xml");
        let junit_arg = junit.display().to_string();
        let run = run_against(name, &["--junit", &junit_arg], &buggy(name), &[]);
        assert_eq!(run.code, Some(1), "{}", run.describe());
        let marked: Vec<&Json> = run
            .results()
            .iter()
            .filter(|r| r["passes_alone"] == true)
            .collect();
        assert!(
            (1..=3).contains(&marked.len()),
            "{name}: {} failures marked as passing alone, expected 1 to 3\n{}",
            marked.len(),
            run.describe()
        );
        assert!(
            run.stdout
                .contains(&format!("  state        {PASSES_ALONE}")),
            "{}",
            run.describe()
        );
        let xml = std::fs::read_to_string(&junit).expect("the JUnit report");
        assert!(xml.contains(PASSES_ALONE), "{name}: JUnit lacks it:\n{xml}");
        for result in marked {
            let id = str_of(result, "id");
            let after: Vec<&str> = result["after"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: {id} has no `after`: {result}"))
                .iter()
                .filter_map(Json::as_str)
                .collect();
            assert!(!after.is_empty(), "{name}: {id}: {result}");
            assert!(str_of(result, "state").starts_with(PASSES_ALONE));
            let repro = str_of(result, "repro");
            assert!(
                repro.contains(&format!("repro {id} --after {}", after.join(","))),
                "{repro}"
            );
            if name == "decoder_leaks_mask" {
                // The state is left by a request of another kind.
                for earlier in &after {
                    let request = str_of(run.result(earlier), "request");
                    assert!(request.contains(" decode packed_guid "), "{request}");
                }
            }
            let (code, stdout) = execute(repro);
            assert_eq!(code, Some(1), "{repro}\n{stdout}");
            let why = format!("  why          {}", str_of(result, "reason"));
            for line in [
                format!("after {} earlier request(s) (--after)", after.len()),
                format!("FAIL {id}  ("),
                why,
                format!("  reproduce    {repro}"),
                "verdict: FAIL".to_owned(),
            ] {
                assert!(stdout.contains(&line), "no `{line}` in\n{stdout}");
            }
            // Alone, as a reproduce line without them would send it, it passes.
            let mut alone = vec![
                RUNNER.to_owned(),
                "repro".into(),
                id.to_owned(),
                "--".into(),
            ];
            alone.extend(buggy(name));
            let alone = shlex::try_join(alone.iter().map(String::as_str)).expect("plain words");
            let (code, stdout) = execute(&alone);
            assert_eq!(code, Some(0), "{alone}\n{stdout}");
            assert!(stdout.contains("verdict: PASS"), "{stdout}");
        }
    }
}

/// A crash that state kept between requests causes shows up with many
/// requests in flight, and each of them passes alone; it is not taken for
/// a fault of pipelining: sent one at a time after the same earlier
/// requests, the culprit crashes again. It is a crash of its own, and its
/// reproduce line names exactly the eight earlier decodes that fill the
/// adapter's cache (`buggy_adapters/cache_overflow.py`).
#[test]
fn a_crash_after_earlier_requests_is_blamed_on_the_state_not_pipelining() {
    // 19 named decodes: the 9th and the 18th of a process crash.
    let options = [
        "--id",
        "named.decode.cell.utf8-c*",
        "--id",
        "named.decode.cell.utf8-lead*",
    ];
    let run = run_against("cache-overflow", &options, &buggy("cache_overflow"), &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let crashed = run.ids("crashed");
    assert_eq!(
        (crashed.len(), run.count("pass")),
        (2, 17),
        "{}",
        run.describe()
    );
    for id in &crashed {
        let why = str_of(run.result(id), "reason");
        assert!(
            why.starts_with("the process ended before answering"),
            "{id}: {why}"
        );
        assert!(!why.contains("pipelined"), "{id}: {why}");
    }
    // Checked alone within the check's time budget: on a loaded machine,
    // perhaps only the first.
    let marked: Vec<&String> = crashed
        .iter()
        .filter(|id| run.result(id)["passes_alone"] == true)
        .collect();
    assert!(!marked.is_empty(), "{}", run.describe());
    for id in marked {
        let result = run.result(id);
        let after = result["after"].as_array().map_or(0, Vec::len);
        assert_eq!(after, 8, "{result}");
        let repro = str_of(result, "repro");
        let (code, stdout) = execute(repro);
        assert_eq!(code, Some(1), "{repro}\n{stdout}");
        assert!(stdout.contains(&format!("CRASHED {id}  (")), "{stdout}");
    }
}

/// An adapter whose failures do not depend on earlier requests gets no
/// such mark, and its reproduce lines name no earlier requests.
#[test]
fn a_failure_that_fails_alone_is_not_marked() {
    let run = run_against("stateless", &[], &buggy("mask_as_count"), &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(run.count("fail") > 0, "{}", run.describe());
    for result in run.results() {
        assert_eq!(result["passes_alone"], false, "{result}");
        assert_eq!(result["after"], Json::Null, "{result}");
        assert!(!str_of(result, "repro").contains("--after"), "{result}");
    }
    assert!(!run.stdout.contains("passes alone"), "{}", run.describe());
}

/// `--one-shot` runs each sequence's steps in one process, so the bug only a
/// sequence shows fails there as it does in persistent mode, instead of
/// passing one process per step.
#[test]
fn one_shot_runs_each_sequence_in_one_process() {
    const FAILED: [&str; 2] = [
        "packed.encode.stateful.03-zero",
        "packed.encode.stateful.06-zero-again",
    ];
    let options = ["--id", "packed.encode.stateful.*"];
    let persistent = run_against("zero-persistent", &options, &buggy("zero_keeps_mask"), &[]);
    assert_eq!(persistent.ids("fail"), FAILED, "{}", persistent.describe());
    let mut one_shot = options.to_vec();
    one_shot.push("--one-shot");
    let run = run_against("zero-one-shot", &one_shot, &buggy("zero_keeps_mask"), &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.ids("fail"), FAILED, "{}", run.describe());
    // The repro line of a step replays the steps before it, in one process.
    let (code, stdout) = execute(str_of(run.result(FAILED[0]), "repro"));
    assert_eq!(code, Some(1), "{stdout}");
}

/// The exit status and stderr of `repro packed.encode.mask-02 --after
/// AFTER` against the stateful encoder.
fn repro_after(after: &str) -> (Option<i32>, String) {
    let mut line = vec![
        RUNNER.to_owned(),
        "repro".into(),
        "packed.encode.mask-02".into(),
        "--after".into(),
        after.into(),
        "--".into(),
    ];
    line.extend(buggy("stateful_encoder"));
    let output = Command::new(&line[0])
        .args(&line[1..])
        .stdin(Stdio::null())
        .output()
        .expect("run repro");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

/// `repro --after` with an id the corpus lacks is a usage error naming it.
#[test]
fn repro_after_an_unknown_id_names_it() {
    let (code, stderr) = repro_after("packed.encode.mask-01,no.such.vector");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("no vector has the id `no.such.vector`"),
        "{stderr}"
    );
}

/// The check of failures alone is bounded as a whole: an adapter wrong on
/// every request after its 200th in a process (each failure passes alone,
/// and needs up to 200 earlier requests to show again) makes the check
/// stop at its budget (twice the run's time and requests, at least 5 s and
/// 2000 requests) with a note, where it replayed tens of thousands of
/// requests before; the failures it did not get to are marked unchecked,
/// in the JSON report and the JUnit text, and the ones it checked are not.
#[test]
fn the_check_of_failures_alone_stops_at_its_budget() {
    let dir = scratch("wrong-after");
    let junit = dir.join("junit.xml");
    let junit_arg = junit.display().to_string();
    let env = [("WRONG_AFTER", "200")];
    let options = ["--junit", &junit_arg];
    let run = run_against(
        "wrong-after",
        &options,
        &common::broken("wrong_after"),
        &env,
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stderr
            .contains("checking failures alone stopped at its budget"),
        "{}",
        run.describe()
    );
    let failures: Vec<&Json> = run
        .results()
        .iter()
        .filter(|r| r["outcome"] == "fail")
        .collect();
    assert!(failures.len() > 500, "{}", run.describe());
    let unchecked = failures.iter().filter(|r| r["unchecked"] == true).count();
    assert!(
        unchecked > failures.len() / 2,
        "{unchecked} of {}",
        failures.len()
    );
    for result in &failures {
        if result["passes_alone"] == true {
            assert_eq!(result["unchecked"], false, "{result}");
        }
    }
    for result in run.results().iter().filter(|r| r["outcome"] == "pass") {
        assert_eq!(result["unchecked"], false, "{result}");
    }
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    assert!(xml.contains("state:     not checked alone"), "{xml}");
}

/// An adapter wrong on every request after its 20th in a process: the
/// failures that passed alone need their 20 earlier requests, and the
/// reproduce line and the `state` line name them as one range of the
/// corpus (`FIRST..=LAST`), not 20 ids (with 200, the ids made an argument
/// of about 10 KB, 155 KB with long ids: too long to run); the line, run as
/// printed, sends all of them and fails the same way.
#[test]
fn a_long_history_is_named_as_a_range() {
    let dir = scratch("wrong-after-20");
    let junit = dir.join("junit.xml");
    let junit_arg = junit.display().to_string();
    let run = run_against(
        "wrong-after-20",
        &["--junit", &junit_arg],
        &common::broken("wrong_after"),
        &[("WRONG_AFTER", "20")],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    let failures: Vec<&Json> = run
        .results()
        .iter()
        .filter(|r| r["outcome"] == "fail")
        .collect();
    a_long_history_is_named_as_ranges(&failures, &xml, &[("WRONG_AFTER", "20")]);
}

/// Checks the failures of a run that passed alone, as the test above says;
/// `env` is the adapter's environment, for running their reproduce lines.
fn a_long_history_is_named_as_ranges(failures: &[&Json], junit: &str, env: &[(&str, &str)]) {
    let marked: Vec<&&Json> = failures
        .iter()
        .filter(|r| r["passes_alone"] == true)
        .collect();
    assert!(!marked.is_empty(), "no failure passed alone");
    for result in marked {
        let after: Vec<&str> = result["after"]
            .as_array()
            .unwrap_or_else(|| panic!("no `after`: {result}"))
            .iter()
            .filter_map(Json::as_str)
            .collect();
        assert!(
            after.len() >= 20,
            "{} earlier requests: {result}",
            after.len()
        );
        let range = format!("{}..={}", after[0], after[after.len() - 1]);
        let repro = str_of(result, "repro");
        assert!(repro.contains(&format!(" --after {range} ")), "{repro}");
        let state = str_of(result, "state");
        assert!(
            state.ends_with(&format!(
                "fails again after {} earlier request(s), sent first to the same process: {range}",
                after.len()
            )),
            "{state}"
        );
        assert!(junit.contains(&range), "JUnit lacks {range}");
        let (code, stdout) = execute_with(repro, env);
        assert_eq!(code, Some(1), "{repro}\n{stdout}");
        let why = format!("  why          {}", str_of(result, "reason"));
        for line in [
            format!("after {} earlier request(s) (--after)", after.len()),
            why,
            format!("  reproduce    {repro}"),
        ] {
            assert!(stdout.contains(&line), "no `{line}` in\n{stdout}");
        }
    }
}

/// `repro --after` with a range whose last id comes before its first is a
/// usage error that says so.
#[test]
fn repro_after_a_backwards_range_says_so() {
    let (code, stderr) =
        repro_after("packed.encode.mask-01,packed.decode.empty..=packed.encode.mask-03");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "the --after range `packed.decode.empty..=packed.encode.mask-03` runs backwards"
        ),
        "{stderr}"
    );
}
