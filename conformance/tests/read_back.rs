//! `run` reads back every encode it passed (unless `--no-read-back`): an implementation's own round
//! trip, through the protocol, in any language. The planted bug
//! `buggy_adapters/bound_mismatch.py` (a decoder bounded at 256 bytes, an
//! encoder that is not) passes every vector alone and writes what it cannot
//! read; the shipped Python adapter reads back everything it writes.

use std::path::Path;

use crate::common::{python, run_against, runner, scratch, Run};

/// The planted bug's command line.
fn bound_mismatch() -> Vec<String> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/bound_mismatch.py");
    vec![python().to_owned(), script.display().to_string()]
}

/// The shipped Python adapter's command line.
fn python_adapter() -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python/adapter.py");
    vec![python().to_owned(), script.display().to_string()]
}

/// `args`, then `-- command`.
fn with_command(args: &[&str], command: &[String]) -> Vec<String> {
    let mut all: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    all.push("--".into());
    all.extend(command.iter().cloned());
    all
}

/// The ids of the read-backs in `run`'s JSON report with outcome `outcome`.
fn read_backs(run: &Run, outcome: &str) -> Vec<String> {
    run.ids(outcome)
        .into_iter()
        .filter(|id| id.ends_with(".read-back"))
        .collect()
}

/// How many vectors the embedded corpus holds: the summary's "of N".
fn corpus_size() -> usize {
    wow_guid_vectors::Corpus::embedded()
        .expect("the embedded corpus loads")
        .vectors
        .len()
}

#[test]
fn an_encoder_that_writes_what_its_decoder_refuses_is_failed_by_run_under_its_own_cause() {
    let run = run_against(
        "read-back-mismatch",
        &["--read-back", "--id", "named.*"],
        &bound_mismatch(),
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let out = &run.stdout;
    // Only read-backs fail: every vector of the corpus passes on its own.
    let failed = run.ids("fail");
    assert!(!failed.is_empty(), "{}", run.describe());
    assert_eq!(failed, read_backs(&run, "fail"), "{}", run.describe());
    assert!(failed.contains(&"named.encode.long-name.300.read-back".to_owned()));
    // One cause of its own, with both requests and both answers.
    assert!(
        out.contains("x writes what it cannot read: decode named_guid: `error name_too_long` instead of a value"),
        "{out}"
    );
    assert!(
        out.contains("reads back the answer to vector named.encode."),
        "{out}"
    );
    assert!(out.contains("`encode named_guid "), "{out}");
    assert!(out.contains("answered `ok "), "{out}");
    assert!(out.contains("got          named.encode."), "{out}");
    assert!(out.contains(".read-back error name_too_long"), "{out}");
    assert!(out.contains("repro named.encode."), "{out}");
    // Counted apart from the vectors, honestly.
    let passed = run.ids("pass").len();
    let vectors = run.results().len() - read_backs(&run, "pass").len() - failed.len();
    assert!(
        out.contains(&format!(
            "{vectors} of {} vectors and {} read-back(s) against",
            corpus_size(),
            read_backs(&run, "pass").len() + failed.len()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("  {passed} passed, {} failed", failed.len())),
        "{out}"
    );
}

#[test]
fn a_read_back_is_reproduced_listed_and_turned_off_on_request() {
    let command = bound_mismatch();
    let id = "named.encode.long-name.300.read-back";
    let repro = runner(&with_command(&["repro", id], &command), &[]);
    assert_eq!(repro.code, Some(1), "{}", repro.describe());
    assert!(
        repro
            .stdout
            .contains("PASS       named.encode.long-name.300\n"),
        "{}",
        repro.describe()
    );
    assert!(
        repro.stdout.contains(&format!("FAIL {id}")),
        "{}",
        repro.describe()
    );
    assert!(
        repro.stdout.contains(&format!("{id} error name_too_long")),
        "{}",
        repro.describe()
    );
    assert!(
        repro.stdout.contains("verdict: FAIL"),
        "{}",
        repro.describe()
    );
    // The expected-failure list run writes names the read-backs, and run
    // takes it back: every failure expected, the run green.
    let list = scratch("read-back-list").join("xfail.txt");
    let list = list.display().to_string();
    let first = run_against(
        "read-back-write-list",
        &[
            "--read-back",
            "--id",
            "named.encode.long-name.*",
            "--write-expect-fail",
            &list,
        ],
        &command,
        &[],
    );
    assert_eq!(first.code, Some(1), "{}", first.describe());
    let written = std::fs::read_to_string(&list).expect("the list is written");
    assert!(written.contains(id), "{written}");
    let again = run_against(
        "read-back-read-list",
        &[
            "--read-back",
            "--id",
            "named.encode.long-name.*",
            "--expect-fail",
            &list,
        ],
        &command,
        &[],
    );
    assert_eq!(again.code, Some(0), "{}", again.describe());
    assert!(
        again.ids("xfail").contains(&id.to_owned()),
        "{}",
        again.describe()
    );
    // With --no-read-back: the vectors alone, which pass.
    let off = run_against(
        "read-back-off",
        &["--no-read-back", "--id", "named.encode.long-name.*"],
        &command,
        &[],
    );
    assert_eq!(off.code, Some(0), "{}", off.describe());
    assert!(read_backs(&off, "pass").is_empty(), "{}", off.describe());
    assert!(!off.stdout.contains("read-back"), "{}", off.stdout);
}

#[test]
fn an_adapter_that_reads_back_what_it_writes_passes_with_every_read_back_counted() {
    let run = run_against(
        "read-back-python",
        &["--read-back", "--strict-errors"],
        &python_adapter(),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let read = read_backs(&run, "pass");
    // One per encode answered with bytes: far fewer than the encodes, since
    // the ones expecting an error have none.
    assert!(read.len() > 300, "{}", read.len());
    let vectors = run.results().len() - read.len();
    assert!(
        run.stdout.contains(&format!(
            "{vectors} of {} vectors and {} read-back(s) against",
            corpus_size(),
            read.len()
        )),
        "{}",
        run.stdout
    );
    // A read-back of an encode answered with an error is not one.
    let repro = runner(
        &with_command(
            &["repro", "named.encode.interior-nul.read-back"],
            &python_adapter(),
        ),
        &[],
    );
    assert_eq!(repro.code, Some(2), "{}", repro.describe());
    assert!(
        repro.stdout.contains("nothing to read back"),
        "{}",
        repro.describe()
    );
}

/// The read-back is bounded as the check of failures alone is, by the
/// run's own cost: an adapter slow only to decode, run on encodes alone (a
/// run of a fraction of a second), is read back for about the floor of
/// 5 s, then the run ends with a note, keeping the read-backs it got.
#[test]
fn the_read_back_stops_at_its_budget_and_keeps_what_it_read() {
    let run = run_against(
        "read-back-budget",
        &["--read-back", "--id", "named.encode.*"],
        &crate::common::broken("slow_decode"),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stderr
            .contains("reading back the encodes stopped at its budget"),
        "{}",
        run.describe()
    );
    let read = read_backs(&run, "pass");
    assert!(!read.is_empty(), "{}", run.describe());
    // At 0.2 s a decode, the floor's 5 s reads back a few dozen of the
    // hundreds there are: the first chunk (16) is kept, the one running at
    // the deadline is not.
    assert!(read.len() < 200, "{} read back", read.len());
    assert!(
        run.elapsed < std::time::Duration::from_secs(60),
        "{:?}",
        run.elapsed
    );
}
