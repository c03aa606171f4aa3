//! A crash fails the one vector that caused it, never the rest of a run.
//!
//! The adapter here is the commonest real bug shape: a codec that throws
//! (a Python `IndexError`) on truncated input, so its process dies on every
//! truncated packed GUID, several hundred of them spread through the corpus.
//! The runner must pin each crash on its vector, restart, and judge every
//! other vector as usual, with the same verdicts whatever `--jobs` and
//! `--window` say. A command that cannot answer anything is the one case
//! that ends a run early: a harness error, exit 2, said once.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::{python, run_against, scratch, Run};
use wow_guid_vectors::{Corpus, ErrorCode, Expectation, Request};

/// The spec's Python snippet behind the example adapter: it indexes past
/// the end of truncated input.
fn throws_on_truncation() -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/index_error.py");
    vec![python().to_owned(), script.display().to_string()]
}

/// The vectors that adapter crashes on: every packed GUID decode whose
/// input ends too early.
fn truncated_packed_decodes() -> BTreeSet<String> {
    Corpus::embedded()
        .expect("the embedded corpus loads")
        .vectors
        .iter()
        .filter(|v| {
            matches!(v.request, Request::DecodePacked { .. })
                && v.expect == Expectation::Invalid(ErrorCode::Eof)
        })
        .map(|v| v.id.clone())
        .collect()
}

/// Every vector's id with its outcome, in report order.
fn outcomes(run: &Run) -> Vec<(String, String)> {
    run.results()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap_or_default().to_owned(),
                r["outcome"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// Exactly the truncated packed decodes crash, every other vector passes,
/// and the outcome of every vector is the same with one job and a full
/// window as with eight jobs and a small one, where the crashing vectors
/// are listed as expected failures and the run conforms.
#[test]
fn a_crashing_codec_fails_exactly_its_crashing_vectors_whatever_the_jobs() {
    let crashing = truncated_packed_decodes();
    assert!(
        crashing.len() > 100,
        "the corpus has {} truncations",
        crashing.len()
    );
    let adapter = throws_on_truncation();

    let one = run_against("crash-jobs-1", &["--jobs", "1"], &adapter, &[]);
    assert_eq!(one.code, Some(1), "{}", one.describe());
    let crashed: BTreeSet<String> = one.ids("crashed").into_iter().collect();
    assert_eq!(crashed, crashing, "{}", one.describe());
    assert_eq!(
        one.count("pass") + one.count("crashed"),
        one.count("total"),
        "{}",
        one.describe()
    );
    let why = one.result(crashing.first().map_or("", String::as_str))["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(why.contains("ended before answering"), "{why}");
    assert!(
        one.stdout.contains("CRASHED packed.decode."),
        "{}",
        one.describe()
    );

    // Eight jobs, a small window, and the crashing vectors listed as
    // expected failures: the same vectors crash, and the run conforms.
    let list = scratch("crash-expect-fail").join("expected-failures.txt");
    let text: String = crashing
        .iter()
        .map(|id| format!("{id} # IndexError on truncated input\n"))
        .collect();
    std::fs::write(&list, text).expect("write the expected-failure list");
    let list = list.display().to_string();
    let eight = run_against(
        "crash-jobs-8",
        &["--jobs", "8", "--window", "4", "--expect-fail", &list],
        &adapter,
        &[],
    );
    assert_eq!(eight.code, Some(0), "{}", eight.describe());
    let listed: BTreeSet<String> = eight.ids("xfail").into_iter().collect();
    assert_eq!(listed, crashing, "{}", eight.describe());
    let as_listed: Vec<(String, String)> = outcomes(&one)
        .into_iter()
        .map(|(id, outcome)| {
            let outcome = if outcome == "crashed" {
                "xfail".to_owned()
            } else {
                outcome
            };
            (id, outcome)
        })
        .collect();
    assert_eq!(as_listed, outcomes(&eight));
}

/// A command that starts but exits before answering anything is a harness
/// error: exit 2, one message naming the command, its exit status and its
/// stderr, and no per-vector failure blocks.
#[test]
fn a_command_that_never_answers_is_one_harness_error() {
    let script = "import sys; sys.stderr.write('cannot load my codec\\n'); sys.exit(3)";
    let command = vec![python().to_owned(), "-c".to_owned(), script.to_owned()];
    let run = run_against("never-answers", &[], &command, &[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("never answered a request")
            && run.stderr.contains("exit status: 3")
            && run.stderr.contains("cannot load my codec"),
        "{}",
        run.describe()
    );
    assert!(!run.stdout.contains("CRASHED"), "{}", run.describe());
    assert_eq!(
        run.stderr.matches("never answered").count(),
        1,
        "{}",
        run.describe()
    );
}

/// A command that does not exist, or is not executable, is exit 2 at once.
#[test]
fn a_missing_or_unexecutable_command_is_exit_2_at_once() {
    let missing = run_against("missing", &[], &["/nonexistent/adapter".to_owned()], &[]);
    assert_eq!(missing.code, Some(2), "{}", missing.describe());
    assert!(
        missing.stderr.contains("program not found"),
        "{}",
        missing.describe()
    );

    let dir = scratch("not-executable");
    let file = dir.join("adapter.py");
    std::fs::write(&file, "print('hi')\n").expect("write a script");
    let not_executable = run_against("not-executable", &[], &[file.display().to_string()], &[]);
    assert_eq!(
        not_executable.code,
        Some(2),
        "{}",
        not_executable.describe()
    );
    assert!(
        not_executable.stderr.contains("cannot start"),
        "{}",
        not_executable.describe()
    );
    assert!(
        missing.elapsed.as_secs() < 5 && not_executable.elapsed.as_secs() < 5,
        "{}\n{}",
        missing.describe(),
        not_executable.describe()
    );
}

/// After a fault with several requests in flight, the requests of the
/// process that faulted are sent again to one fresh process, one at a time,
/// each once the one before is answered: with nothing in flight, the request
/// it fails is the one that caused the fault, after the same requests as
/// before. The adapter here loses the answers of a whole read when it
/// crashes, so the requests read with the crashing one, before it, were in
/// flight too and are not to blame: the replay must have read the crashed
/// process's requests up to the crashing one, one per read, and then none.
#[test]
fn requests_in_flight_at_a_crash_are_replayed_one_at_a_time() {
    let log = scratch("in-flight").join("log");
    let env = [
        ("BROKEN_ON", common::BROKEN_ON),
        ("READ_LOG", log.to_str().unwrap_or_default()),
    ];
    let run = run_against("in-flight", common::SMALL, &common::broken("crash"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(
        run.ids("crashed"),
        [common::BROKEN_ON],
        "{}",
        run.describe()
    );
    assert_eq!(run.count("pass"), 19, "{}", run.describe());
    let text = std::fs::read_to_string(&log).expect("the adapter wrote its log");
    // "pid batch id" for every line read: per process, its reads in order.
    let mut by_process: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split(' ');
        if let (Some(pid), Some(batch), Some(id)) = (words.next(), words.next(), words.next()) {
            by_process.entry(pid).or_default().push((batch, id));
        }
    }
    fn ids<'a>(reads: &[(&str, &'a str)]) -> Vec<&'a str> {
        reads.iter().map(|r| r.1).collect()
    }
    let crashed = by_process
        .values()
        .find(|reads| {
            reads.iter().any(|&(batch, id)| {
                id == common::BROKEN_ON && reads.iter().filter(|r| r.0 == batch).count() > 1
            })
        })
        .unwrap_or_else(|| panic!("nothing was in flight with the crash: {by_process:?}"));
    let mut before: Vec<&str> = ids(crashed);
    let end = before.iter().position(|id| *id == common::BROKEN_ON);
    before.truncate(end.map_or(0, |i| i + 1));
    let one_at_a_time = |reads: &[(&str, &str)]| {
        let mut batches: Vec<&str> = reads.iter().map(|r| r.0).collect();
        batches.dedup();
        batches.len() == reads.len()
    };
    assert!(
        by_process
            .values()
            .any(|reads| one_at_a_time(reads) && ids(reads) == before),
        "no process read {before:?} one request at a time: {by_process:?}"
    );
}

/// What an adapter writes to stderr reaches the terminal spelled out, so it
/// cannot clear the screen, overwrite a line or reorder text; and the note
/// that the runner killed the process group and went on with a fresh one
/// is there only when it did (a persistent process), not in one-shot mode,
/// where every request has a process of its own.
#[test]
fn adapter_stderr_cannot_act_on_the_terminal_and_the_restart_note_is_true() {
    let env = [
        ("BROKEN_ON", common::BROKEN_ON),
        ("CRASH_STDERR", "\x1b[2J\rgone\x08\u{202e}evil\n"),
    ];
    let run = run_against(
        "escaped-stderr",
        common::SMALL,
        &common::broken("crash"),
        &env,
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    for raw in ['\x1b', '\r', '\x08', '\u{202e}'] {
        assert!(
            !run.stdout.contains(raw),
            "{raw:?} reached the terminal\n{}",
            run.describe()
        );
    }
    assert!(
        run.stdout.contains("\\x1b[2J\\rgone\\x08\\u{202e}evil"),
        "{}",
        run.describe()
    );
    assert!(
        run.stdout.contains("killed the process group"),
        "{}",
        run.describe()
    );

    let mut one_shot = common::SMALL.to_vec();
    one_shot.push("--one-shot");
    let run = run_against(
        "escaped-stderr-one-shot",
        &one_shot,
        &common::broken("crash"),
        &env,
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(
        run.ids("crashed"),
        [common::BROKEN_ON],
        "{}",
        run.describe()
    );
    assert!(
        !run.stdout.contains("killed the process group"),
        "{}",
        run.describe()
    );
}

/// `--write-expect-fail FILE` writes every failing vector with a one-line
/// reason, in the format `--expect-fail` reads: the next run with that list
/// conforms, with those vectors as expected failures.
#[test]
fn a_written_expected_failure_list_turns_the_next_run_green() {
    let list = scratch("write-expect-fail").join("known.txt");
    let list_arg = list.display().to_string();
    let env = [("BROKEN_ON", common::BROKEN_ON)];
    let mut options = common::SMALL.to_vec();
    options.extend(["--write-expect-fail", &list_arg]);
    let first = run_against(
        "write-expect-fail-1",
        &options,
        &common::broken("crash"),
        &env,
    );
    assert_eq!(first.code, Some(1), "{}", first.describe());
    let text = std::fs::read_to_string(&list).expect("the list was written");
    let entries: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(entries.len(), 1, "{text}");
    assert!(
        entries[0].starts_with(&format!(
            "{}  # the process ended before answering",
            common::BROKEN_ON
        )),
        "{text}"
    );

    let mut options = common::SMALL.to_vec();
    options.extend(["--expect-fail", &list_arg]);
    let second = run_against(
        "write-expect-fail-2",
        &options,
        &common::broken("crash"),
        &env,
    );
    assert_eq!(second.code, Some(0), "{}", second.describe());
    assert_eq!(
        second.ids("xfail"),
        [common::BROKEN_ON],
        "{}",
        second.describe()
    );
}
