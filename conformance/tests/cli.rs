//! The runner's command line, driven as a user would: exit codes, selection,
//! expected failures, reports, and the subcommands other than `run`.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{broken, run_against, runner, scratch, BROKEN_ON, RUNNER, SMALL};
use wow_guid_vectors::Corpus;

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn corpus_size() -> u64 {
    Corpus::embedded().expect("the corpus loads").vectors.len() as u64
}

#[test]
fn the_default_run_passes_the_whole_corpus_quickly_and_quietly() {
    // The default run, read-backs included: no option at all.
    let report = scratch("default").join("report.json");
    let run = runner(
        &args(&["run", "--report-json", &report.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let read_backs = run
        .ids("pass")
        .iter()
        .filter(|id| id.ends_with(".read-back"))
        .count() as u64;
    assert!(read_backs > 300, "{}", run.describe());
    assert_eq!(run.count("total"), corpus_size() + read_backs);
    assert_eq!(run.count("pass"), corpus_size() + read_backs);
    assert!(
        run.stdout.contains(&format!(
            "{n} of {n} vectors and {read_backs} read-back(s)",
            n = corpus_size()
        )),
        "{}",
        run.stdout
    );
    assert_eq!(run.report["format_version"], 3);
    assert_eq!(run.report["command"], serde_json::Value::Null);
    assert!(run.stdout.contains("verdict: PASS"), "{}", run.describe());
    // Progress goes to stderr only on a terminal; here stderr is a pipe.
    assert_eq!(run.stderr, "", "{}", run.describe());
    // Generous for a debug build on a busy machine; release is far faster.
    assert!(run.elapsed < Duration::from_secs(5), "{}", run.describe());
}

#[test]
fn usage_errors_exit_with_2_and_say_what_is_wrong() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--frobnicate"], "--frobnicate"),
        (&["run", "--type", "guid"], "unknown GUID type `guid`"),
        (&["run", "--timeout", "5m"], "is not a duration"),
        (&["run", "--jobs", "0"], "--jobs"),
        (
            &["run", "--id", "nothing.matches.*"],
            "no vector matches the selection",
        ),
        // Repeated options are alternatives; the message must not say
        // that they all have to match.
        (
            &[
                "run",
                "--flag",
                "zero-guid",
                "--flag",
                "max-guid",
                "--type",
                "packed_guid",
                "--flag",
                "name-without-guid",
                "--version",
                "vanilla",
                "--id",
                "named.*",
            ],
            "one given more than once matches any of its values",
        ),
        (&["run", "--id", "["], "bad id pattern `[`"),
        (
            &["run", "--vectors", "/nonexistent/vectors"],
            "not a directory",
        ),
        (&["run", "--", "/nonexistent/adapter"], "program not found"),
        (
            &["repro", "packed.decode.doc-exampel"],
            "did you mean packed.decode.doc-example",
        ),
        (&["doctor"], "CMD"),
    ];
    for (words, message) in cases {
        let run = runner(&args(words), &[]);
        assert_eq!(run.code, Some(2), "{words:?}\n{}", run.describe());
        assert!(
            run.stderr.contains(message),
            "{words:?}: stderr lacks `{message}`\n{}",
            run.describe()
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.describe());
    }
    let help = runner(&args(&["run", "--help"]), &[]);
    assert_eq!(help.code, Some(0));
    assert!(help.stdout.contains("--expect-fail"), "{}", help.describe());
}

#[test]
fn selection_by_id_type_op_flag_and_version() {
    let count = |options: &[&str]| {
        let run = run_against("select", options, &[], &[]);
        assert_eq!(run.code, Some(0), "{options:?}\n{}", run.describe());
        run.count("total")
    };
    let corpus = Corpus::embedded().expect("the corpus loads");
    // What a selection must take: the vectors it matches, and every step of
    // a sequence one of whose steps it matches (a sequence runs whole).
    let selection = |matches: &dyn Fn(&wow_guid_vectors::Vector) -> bool| {
        let sequences: std::collections::BTreeSet<&str> = corpus
            .vectors
            .iter()
            .filter(|v| matches(v))
            .filter_map(|v| v.sequence.as_deref())
            .collect();
        corpus
            .vectors
            .iter()
            .filter(|v| matches(v) || v.sequence.as_deref().is_some_and(|s| sequences.contains(s)))
            .map(|v| v.id.clone())
            .collect::<std::collections::BTreeSet<String>>()
    };
    let named = selection(&|v| v.id.starts_with("named.")).len() as u64;
    assert_eq!(count(&["--id", "named.*"]), named);
    assert_eq!(count(&["--type", "named_guid"]), named);
    // Every encode, and the steps of any sequence an encode is part of (the
    // corpus's own sequences are each of one kind, so none today).
    let encodes = selection(&|v| v.request.op() == wow_guid_vectors::Op::Encode);
    let run = run_against("select-op", &["--op", "encode"], &[], &[]);
    let selected: std::collections::BTreeSet<String> = run.ids("pass").into_iter().collect();
    assert_eq!(selected, encodes, "{}", run.describe());
    // NamedGuid exists only from TBC on, so this selects nothing.
    let none = runner(
        &args(&["run", "--version", "vanilla", "--type", "named_guid"]),
        &[],
    );
    assert_eq!(none.code, Some(2), "{}", none.describe());
    assert_eq!(count(&["--version", "tbc", "--type", "named_guid"]), named);
    assert_eq!(count(SMALL), 20);
    // One step of a sequence brings its whole sequence along, and no other:
    // the packed decode sequence beside it in the same file stays out.
    let member = corpus
        .get("packed.encode.stateful.03-zero")
        .expect("a stateful vector");
    let sequence = corpus
        .vectors
        .iter()
        .filter(|v| v.same_sequence(member))
        .count() as u64;
    assert_eq!(sequence, 8);
    assert_eq!(count(&["--id", "packed.encode.stateful.03-zero"]), sequence);
    // The doc-example flag is on one step of the encode sequence.
    assert_eq!(count(&["--flag", "doc-example"]), 4 + sequence);
}

#[test]
fn expected_failures_allow_known_failures_and_catch_stale_entries() {
    let dir = scratch("xfail-list");
    let env = [("BROKEN_ON", BROKEN_ON)];
    let mut options = SMALL.to_vec();
    let list = dir.join("known.txt");
    fs::write(&list, format!("# garbage on purpose\n{BROKEN_ON}\n")).expect("write the list");
    let list_arg = list.display().to_string();
    options.extend(["--expect-fail", &list_arg]);
    let mut verbose = options.clone();
    verbose.push("--verbose");
    let run = run_against("xfail", &verbose, &broken("garbage"), &env);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.ids("xfail"), [BROKEN_ON]);
    assert!(
        run.stdout.contains("garbage on purpose"),
        "{}",
        run.describe()
    );

    // The same list against an adapter that passes: the entry is stale.
    let stale = run_against("xfail-stale", &options, &broken("crlf"), &[]);
    assert_eq!(stale.code, Some(1), "{}", stale.describe());
    assert_eq!(stale.ids("stale"), [BROKEN_ON]);
    assert!(
        stale.stdout.contains("remove it from the list"),
        "{}",
        stale.describe()
    );

    // Unknown ids are an error naming the line.
    fs::write(&list, "packed.decode.doc-example\nno.such.vector # typo\n").expect("write");
    let bad = run_against("xfail-bad", &options, &[], &[]);
    assert_eq!(bad.code, Some(2), "{}", bad.describe());
    assert!(
        bad.stderr.contains(&format!(
            "{list_arg}:2: no vector has the id `no.such.vector`"
        )),
        "{}",
        bad.describe()
    );
}

#[test]
fn a_green_run_counts_its_expected_failures_in_one_line() {
    let dir = scratch("xfail-green-list");
    let env = [("BROKEN_ON", BROKEN_ON)];
    let list = dir.join("known.txt");
    let list_arg = list.display().to_string();
    let mut write = SMALL.to_vec();
    write.extend(["--write-expect-fail", &list_arg]);
    let first = run_against("xfail-green-write", &write, &broken("garbage"), &env);
    assert_eq!(first.code, Some(1), "{}", first.describe());
    assert!(
        first
            .stderr
            .contains(&format!("wrote 1 id(s) to {list_arg}")),
        "{}",
        first.describe()
    );

    let mut options = SMALL.to_vec();
    options.extend(["--expect-fail", &list_arg]);
    let green = run_against("xfail-green", &options, &broken("garbage"), &env);
    assert_eq!(green.code, Some(0), "{}", green.describe());
    assert!(
        green.stdout.contains(&format!(
            "1 expected failure(s) held, as listed in {list_arg} (each one: --verbose)"
        )),
        "{}",
        green.describe()
    );
    assert!(!green.stdout.contains("XFAIL"), "{}", green.describe());

    options.push("--verbose");
    let listed = run_against("xfail-green-verbose", &options, &broken("garbage"), &env);
    assert_eq!(listed.code, Some(0), "{}", listed.describe());
    let lines: Vec<&str> = listed
        .stdout
        .lines()
        .filter(|l| l.contains("XFAIL"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", listed.describe());
    // The list's reason is the failure's own words: said once, not twice.
    assert_eq!(
        lines[0].matches("response lines are ASCII").count(),
        1,
        "{}",
        listed.describe()
    );
}

#[test]
fn long_fields_are_cut_around_the_difference_in_text_and_whole_in_json() {
    let run = run_against(
        "long-fields",
        &["--flag", "long-name"],
        &buggy("name_cap"),
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let fields: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| {
            ["  request ", "  expected ", "  got "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    assert!(!fields.is_empty(), "{}", run.describe());
    for line in &fields {
        assert!(line.chars().count() < 320, "{line}");
    }
    // The window names where the two lines part and both lengths.
    assert!(
        fields
            .iter()
            .any(|l| l.contains("; first difference from expected at ")
                && l.contains(", which has ")),
        "{}",
        run.describe()
    );
    // JSON keeps every field whole.
    let longest = run
        .results()
        .iter()
        .filter_map(|r| r["got"].as_str())
        .map(str::len)
        .max()
        .unwrap_or_default();
    assert!(longest > 1000, "{longest}");
}

#[test]
fn usage_tips_point_at_the_right_option() {
    let format = runner(&args(&["run", "--format", "json"]), &[]);
    assert_eq!(format.code, Some(2), "{}", format.describe());
    assert!(
        format.stderr.contains("--report-json FILE") && !format.stderr.contains("-- --format"),
        "{}",
        format.describe()
    );
    let no_dashes = runner(
        &args(&["run", "--timeout", "2s", "java", "-jar", "a.jar"]),
        &[],
    );
    assert_eq!(no_dashes.code, Some(2), "{}", no_dashes.describe());
    assert!(
        no_dashes.stderr.contains(
            "the implementation's command goes after `--`: wow-guid-conformance run [OPTIONS] -- java"
        ),
        "{}",
        no_dashes.describe()
    );
    let doctor = runner(&args(&["doctor", "python3", "x.py"]), &[]);
    assert!(
        doctor
            .stderr
            .contains("wow-guid-conformance doctor [OPTIONS] -- python3"),
        "{}",
        doctor.describe()
    );
}

#[test]
fn strict_errors_require_the_exact_code() {
    // chatty answers `error other` to its broken vector; pick one that
    // expects another error code.
    let invalid = "packed.decode.doc-example.truncated";
    let env = [("BROKEN_ON", invalid)];
    let lax = run_against("lax", SMALL, &broken("chatty"), &env);
    assert_eq!(lax.code, Some(0), "{}", lax.describe());
    let mut strict_options = SMALL.to_vec();
    strict_options.push("--strict-errors");
    let strict = run_against("strict", &strict_options, &broken("chatty"), &env);
    assert_eq!(strict.code, Some(1), "{}", strict.describe());
    assert_eq!(strict.ids("fail"), [invalid]);
    let why = strict.result(invalid)["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains("wrong error code `other`, expected `eof`"),
        "{why}"
    );
}

#[test]
fn a_failure_report_has_everything_and_its_repro_command_works() {
    let env = [("BROKEN_ON", BROKEN_ON)];
    let dir = scratch("report");
    let junit = dir.join("junit.xml");
    let junit_arg = junit.display().to_string();
    let mut options = SMALL.to_vec();
    options.extend(["--junit", &junit_arg]);
    let run = run_against("report", &options, &broken("wrong_id"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let block: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with(&format!("MALFORMED {BROKEN_ON}")))
        .take(8)
        .collect();
    let text = block.join("\n");
    for label in [
        "description",
        "request",
        "expected",
        "got",
        "why",
        "reproduce",
    ] {
        assert!(
            text.contains(&format!("  {label} ")),
            "no `{label}` in\n{text}"
        );
    }
    assert!(text.contains(&format!(
        "request      {BROKEN_ON} decode packed_guid 0adead"
    )));
    assert!(
        text.contains("got          someone-else ok 00000000ad00de00 3"),
        "{text}"
    );

    let result = run.result(BROKEN_ON);
    assert_eq!(result["outcome"], "malformed");
    assert_eq!(result["location"], "packed_guid/doc-example.yaml:31:5");
    let repro = result["repro"]
        .as_str()
        .expect("a repro command")
        .to_owned();
    assert!(
        repro.contains(&format!(" repro {BROKEN_ON} -- "))
            && repro.contains("broken_adapters/wrong_id.py"),
        "{repro}"
    );

    // Run the reproduction command through a shell, as a person would.
    let output = Command::new("sh")
        .arg("-c")
        .arg(&repro)
        .env("BROKEN_ON", BROKEN_ON)
        .stdin(Stdio::null())
        .output()
        .expect("run the repro command");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{repro}\n{stdout}");
    assert!(
        stdout.contains("got          someone-else ok 00000000ad00de00 3"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("MALFORMED {BROKEN_ON}")),
        "{stdout}"
    );
    assert!(stdout.contains("verdict: FAIL"), "{stdout}");

    let xml = fs::read_to_string(&junit).expect("the JUnit file is written");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 20, "{xml}");
    // A wrong id is a malformed answer: an error, not a failure.
    assert_eq!(xml.matches("<error ").count(), 1, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 0, "{xml}");
    assert!(xml.contains(&format!("name=\"{BROKEN_ON}\"")), "{xml}");
}

#[test]
fn repro_shows_the_exact_request_and_response() {
    let run = runner(&args(&["repro", "packed.decode.doc-example"]), &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(run
        .stdout
        .contains("request      packed.decode.doc-example decode packed_guid 0adead"));
    assert!(run
        .stdout
        .contains("got          packed.decode.doc-example ok 00000000ad00de00 3"));
    assert!(run.stdout.contains("verdict: PASS"), "{}", run.describe());
    // The raw line is shown as received: uppercase and all.
    let mut words = args(&["repro", "packed.decode.doc-example", "--"]);
    words.extend(broken("crlf"));
    let raw = runner(&words, &[]);
    assert_eq!(raw.code, Some(0), "{}", raw.describe());
    assert!(
        raw.stdout.contains("ok 00000000AD00DE00 3\\r"),
        "{}",
        raw.describe()
    );
}

/// The buggy adapter `name` (a file in `tests/buggy_adapters/`).
fn buggy(name: &str) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/buggy_adapters")
        .join(format!("{name}.py"));
    vec![common::python().to_owned(), script.display().to_string()]
}

/// `doctor` names a differing sample answer by its request and by the
/// corpus vector that asks the same (which `repro` takes), never by its
/// own internal id alone.
#[test]
fn doctor_names_a_differing_sample_by_its_request_and_corpus_id() {
    let mut words = args(&["doctor", "--"]);
    words.extend(buggy("mask_as_count"));
    let doctor = runner(&words, &[]);
    let line = doctor
        .stdout
        .lines()
        .find(|l| l.contains("sample answers differ"))
        .unwrap_or_else(|| panic!("no sample answers note\n{}", doctor.describe()));
    assert!(line.contains("decode packed_guid 0a"), "{line}");
    assert!(
        line.contains("(the corpus's `packed.decode.doc-example` asks the same; `repro packed.decode.doc-example` replays it)"),
        "{line}"
    );
    assert!(line.contains("the reference codec answers `"), "{line}");
}

/// A stateful vector fails `run` only after the steps before it; `repro`
/// replays them first, so it fails there too, and says what it sent
/// before. With the expected-failure list `run` took, it is an expected
/// failure (exit 0) in both, and a listed vector that passes is stale in
/// both.
#[test]
fn repro_replays_a_sequence_and_honours_the_expected_failures() {
    const ID: &str = "packed.encode.stateful.03-zero";
    let adapter = buggy("zero_keeps_mask");
    let mut run_options = SMALL.to_vec();
    run_options.extend(["--id", "packed.encode.stateful.*"]);
    let run = run_against("stateful-run", &run_options, &adapter, &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert_eq!(run.result(ID)["outcome"], "fail", "{}", run.describe());
    let repro_line = run.result(ID)["repro"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let output = Command::new("sh")
        .arg("-c")
        .arg(&repro_line)
        .stdin(Stdio::null())
        .output()
        .expect("run the repro command");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{repro_line}\n{stdout}");
    for line in [
        "after the 2 step(s) of sequence `packed.encode.stateful` before it",
        "  PASS       packed.encode.stateful.01-max",
        &format!("FAIL {ID}  (packed_guid/stateful.yaml:"),
        &format!("  got          {ID} ok 01"),
        "  why          ",
        "verdict: FAIL",
    ] {
        assert!(stdout.contains(line), "no `{line}` in\n{stdout}");
    }

    let list = scratch("stateful-xfail").join("expected.txt");
    fs::write(
        &list,
        format!("{ID} # the mask byte is kept\npacked.encode.stateful.02-one\n"),
    )
    .expect("write the list");
    let list = list.display().to_string();
    let mut words = args(&["repro", ID, "--expect-fail", &list, "--"]);
    words.extend(adapter.iter().cloned());
    let xfail = runner(&words, &[]);
    assert_eq!(xfail.code, Some(0), "{}", xfail.describe());
    assert!(
        xfail.stdout.contains(&format!("XFAIL {ID}")),
        "{}",
        xfail.describe()
    );
    assert!(
        xfail.stdout.contains("(expected: listed in"),
        "{}",
        xfail.describe()
    );
    // The reproduce line repeats the list, so pasting it answers the same.
    assert!(
        xfail.stdout.contains(&format!("--expect-fail {list}")),
        "{}",
        xfail.describe()
    );
    let mut words = args(&[
        "repro",
        "packed.encode.stateful.02-one",
        "--expect-fail",
        &list,
        "--",
    ]);
    words.extend(adapter.iter().cloned());
    let stale = runner(&words, &[]);
    assert_eq!(stale.code, Some(1), "{}", stale.describe());
    assert!(
        stale.stdout.contains("STALE packed.encode.stateful.02-one"),
        "{}",
        stale.describe()
    );
}

/// Writes a one-file corpus to a new directory and returns it.
fn corpus_dir(name: &str, yaml: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    fs::write(dir.join("draft.yaml"), yaml).expect("write the draft corpus");
    dir
}

const GOOD: &str = "vectors:
  - id: draft.decode.example
    description: The spec's example.
    type: packed_guid
    op: decode
    input: { bytes: \"0a de ad\" }
    outcome: valid
    expect: { guid: \"00000000ad00de00\", consumed: 3 }
    versions: [vanilla, tbc, wrath]
";

const WRONG: &str = "vectors:
  - id: draft.decode.example
    description: The spec's example, with the C snippet's answer.
    type: packed_guid
    op: decode
    input: { bytes: \"0a de ad\" }
    outcome: valid
    expect: { guid: \"ffffffffad00de00\", consumed: 3 }
    versions: [vanilla, tbc, wrath]
";

#[test]
fn lint_accepts_the_corpus_and_rejects_a_wrong_or_broken_one() {
    let ok = runner(&args(&["lint"]), &[]);
    assert_eq!(ok.code, Some(0), "{}", ok.describe());
    assert!(
        ok.stdout.contains("agree with the reference codec"),
        "{}",
        ok.describe()
    );

    let good = corpus_dir("lint-good", GOOD);
    let run = runner(
        &args(&["lint", "--vectors", &good.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());

    let wrong = corpus_dir("lint-wrong", WRONG);
    let run = runner(
        &args(&["lint", "--vectors", &wrong.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stdout
            .contains("draft.yaml:2:5: vector `draft.decode.example` expects"),
        "{}",
        run.describe()
    );
    assert!(
        run.stdout.contains("the reference codec answers"),
        "{}",
        run.describe()
    );

    let broken_yaml = corpus_dir(
        "lint-broken",
        &GOOD.replace("outcome: valid", "outcome: valid\n    colour: red"),
    );
    let run = runner(
        &args(&["lint", "--vectors", &broken_yaml.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(run.stdout.contains("draft.yaml:"), "{}", run.describe());
    assert!(run.stdout.contains("colour"), "{}", run.describe());
}

/// One pass finds everything: an unknown field in one vector does not hide
/// a wrong expected value in the next vector of the same file, nor an
/// unknown flag (with its near miss suggested) in another file, nor a
/// vector whose reference response would not fit in a protocol line.
#[test]
fn lint_reports_every_problem_of_every_file_in_one_pass() {
    let dir = corpus_dir(
        "lint-one-pass",
        &format!(
            "{}{}",
            GOOD.replace("outcome: valid", "outcome: valid\n    colour: red"),
            WRONG
                .trim_start_matches("vectors:\n")
                .replace("draft.decode.example", "draft.decode.wrong")
                .replace("0a de ad", "0a de ae")
        ),
    );
    fs::write(
        dir.join("flags.yaml"),
        GOOD.replace("draft.decode.example", "draft.decode.flagged")
            .replace("0a de ad", "0a de 01")
            .replace("00000000ad00de00", "000000000100de00")
            .replace("    versions:", "    flags: [nul-in-gud]\n    versions:"),
    )
    .expect("write a second file");
    // A name long enough that its hex alone passes 1 MiB.
    let name_len = 600_000;
    let mut input = "01 00 00 00 00 00 00 00 ".to_owned();
    input.push_str(&"61 ".repeat(name_len));
    input.push_str("00");
    fs::write(
        dir.join("long.yaml"),
        format!(
            "vectors:\n  - id: draft.decode.long-name\n    description: A name too long for a \
             response line.\n    type: named_guid\n    op: decode\n    input: {{ bytes: \"{input}\" }}\n    \
             outcome: valid\n    expect: {{ guid: \"0000000000000001\", consumed: {}, name: \"{}\" }}\n    \
             versions: [tbc, wrath]\n",
            9 + name_len,
            "61 ".repeat(name_len).trim_end()
        ),
    )
    .expect("write a third file");
    let run = runner(
        &args(&["lint", "--vectors", &dir.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("lint: the corpus in ") && first.ends_with("(--vectors)"),
        "{}",
        run.describe()
    );
    for expected in [
        "draft.yaml:",
        "colour",
        "vector `draft.decode.wrong` expects",
        "unknown flag `nul-in-gud`; did you mean `nul-in-guid`?",
        "vector `draft.decode.long-name`: the reference codec's response line would be",
        "lint: 2 load error(s); of the 2 vectors that loaded, 1 would need a response line over \
         the protocol's bound and 1 disagree with the reference codec",
    ] {
        assert!(
            run.stdout.contains(expected),
            "no `{expected}`\n{}",
            run.describe()
        );
    }
}

/// Without --vectors, lint and generate work on the checkout around the
/// current directory, and outside any checkout lint takes the embedded copy
/// and generate refuses; each says which in its first line.
#[test]
fn lint_and_generate_take_the_checkouts_corpus_else_the_embedded_one_and_say_so() {
    let in_dir = |dir: &Path, words: &[&str]| {
        let output = Command::new(RUNNER)
            .args(words)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .expect("start the runner");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .join("vectors");
    let (code, out, err) = in_dir(&checkout, &["lint"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out.lines().next(),
        Some(
            format!(
                "lint: the corpus of the checkout around the current directory, {}",
                vectors.display()
            )
            .as_str()
        ),
        "{out}"
    );
    let (code, out, err) = in_dir(&checkout, &["generate", "--check"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("generate: the corpus of the checkout"),
        "{out}"
    );

    let elsewhere = scratch("no-checkout");
    let (code, out, err) = in_dir(&elsewhere, &["lint"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("lint: the corpus embedded in this runner (no checkout"),
        "{out}"
    );
    let (code, _, err) = in_dir(&elsewhere, &["generate"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no checkout around the current directory"),
        "{err}"
    );
}

#[test]
fn a_vector_bug_is_reported_apart_and_gives_no_verdict() {
    let wrong = corpus_dir("vector-bug-corpus", WRONG);
    let run = run_against(
        "vector-bug",
        &["--vectors", &wrong.display().to_string()],
        &[],
        &[],
    );
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert_eq!(run.count("vector_bug"), 1);
    assert_eq!(run.count("fail"), 0);
    assert!(run.stdout.contains("Vector bugs:"), "{}", run.describe());
    assert!(
        run.stdout.contains("VECTOR BUG draft.decode.example"),
        "{}",
        run.describe()
    );
    assert!(
        run.stdout.contains("verdict: NO VERDICT"),
        "{}",
        run.describe()
    );
}

#[test]
fn generate_check_passes_on_the_tree_and_names_stale_files() {
    let ok = runner(&args(&["generate", "--check"]), &[]);
    assert_eq!(ok.code, Some(0), "{}", ok.describe());

    let dir = scratch("generate");
    // A corpus root: generate refuses any other directory.
    for marker in wow_guid_vectors::generate::CORPUS_MARKERS {
        fs::write(dir.join(marker), "").unwrap();
    }
    let write = runner(
        &args(&["generate", "--vectors", &dir.display().to_string()]),
        &[],
    );
    assert_eq!(write.code, Some(0), "{}", write.describe());
    let files = wow_guid_vectors::generate::files();
    for (path, contents) in &files {
        assert_eq!(
            &fs::read_to_string(dir.join(path)).expect("written"),
            contents
        );
    }
    let check = |dir: &Path| {
        runner(
            &args(&[
                "generate",
                "--check",
                "--vectors",
                &dir.display().to_string(),
            ]),
            &[],
        )
    };
    assert_eq!(check(&dir).code, Some(0));
    let (first, _) = &files[0];
    fs::write(dir.join(first), "vectors: []\n").expect("spoil a file");
    let stale = check(&dir);
    assert_eq!(stale.code, Some(1), "{}", stale.describe());
    assert!(
        stale
            .stdout
            .contains(&format!("--- a/{first}\n+++ b/{first}\n@@ ")),
        "no unified diff\n{}",
        stale.describe()
    );
    assert!(
        stale.stdout.contains("\n-vectors: []\n"),
        "{}",
        stale.describe()
    );
    assert!(
        stale.stdout.contains(&format!("{first}: out of date")),
        "{}",
        stale.describe()
    );
}

#[test]
fn generate_refuses_a_directory_that_is_not_a_corpus_and_writes_nothing() {
    let dir = scratch("generate-refused");
    fs::create_dir_all(dir.join("generated")).unwrap();
    fs::write(dir.join("generated/mine.yaml"), "vectors: []\n").unwrap();
    let run = runner(
        &args(&["generate", "--vectors", &dir.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("is not a corpus root"),
        "{}",
        run.describe()
    );
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["generated"], "nothing written beside it");
    assert_eq!(
        fs::read_to_string(dir.join("generated/mine.yaml")).unwrap(),
        "vectors: []\n",
        "nothing removed or written in it"
    );
}

#[test]
fn seed_corpus_writes_every_decode_input() {
    let dir = scratch("seeds");
    let run = runner(
        &args(&["seed-corpus", "--out", &dir.display().to_string()]),
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let example = fs::read(dir.join("decode_packed_guid/packed.decode.doc-example")).expect("seed");
    assert_eq!(example, [0x0a, 0xde, 0xad]);
    assert_eq!(
        fs::read(dir.join("differential/packed.decode.doc-example")).expect("seed"),
        example
    );
    let corpus = Corpus::embedded().expect("the corpus loads");
    let decodes = corpus
        .vectors
        .iter()
        .filter(|v| v.request.op() == wow_guid_vectors::Op::Decode)
        .count();
    let count = |sub: &str| fs::read_dir(dir.join(sub)).map_or(0, Iterator::count);
    assert_eq!(count("differential"), decodes);
    assert_eq!(
        count("decode_packed_guid") + count("decode_named_guid"),
        decodes
    );
}

#[test]
fn export_writes_the_corpus_as_json_or_json_lines() {
    let corpus = Corpus::embedded().expect("the corpus loads");
    let stdout = runner(&args(&["export"]), &[]);
    assert_eq!(stdout.code, Some(0), "{}", stdout.describe());
    let document: serde_json::Value = serde_json::from_str(&stdout.stdout).expect("JSON");
    assert_eq!(document["vector_count"], corpus.vectors.len());
    assert_eq!(document["vectors"][0]["id"], corpus.vectors[0].id.as_str());

    let file = scratch("export").join("vectors.jsonl");
    let lines = runner(
        &args(&[
            "export",
            "--format",
            "jsonl",
            "--out",
            &file.display().to_string(),
        ]),
        &[],
    );
    assert_eq!(lines.code, Some(0), "{}", lines.describe());
    assert!(lines.stdout.is_empty(), "{}", lines.describe());
    assert!(
        lines.stderr.contains(&format!(
            "{} vectors of the embedded corpus",
            corpus.vectors.len()
        )),
        "{}",
        lines.describe()
    );
    let text = fs::read_to_string(&file).expect("written");
    assert_eq!(text.lines().count(), corpus.vectors.len());
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap()).expect("JSON");
    assert_eq!(first, document["vectors"][0]);

    let bad = runner(&args(&["export", "--format", "yaml"]), &[]);
    assert_eq!(bad.code, Some(2), "{}", bad.describe());
    assert!(
        bad.stderr.contains("[possible values: json, jsonl]"),
        "{}",
        bad.describe()
    );
    // A missing directory is made; a file where a directory must be is
    // named.
    let dir = scratch("export-dirs");
    let made = runner(
        &args(&[
            "export",
            "--out",
            &dir.join("new/dir/x.json").display().to_string(),
        ]),
        &[],
    );
    assert_eq!(made.code, Some(0), "{}", made.describe());
    assert!(dir.join("new/dir/x.json").is_file());
    fs::write(dir.join("a-file"), "").unwrap();
    let unwritable = runner(
        &args(&[
            "export",
            "--out",
            &dir.join("a-file/x.json").display().to_string(),
        ]),
        &[],
    );
    assert_eq!(unwritable.code, Some(2), "{}", unwritable.describe());
    assert!(
        unwritable.stderr.contains("cannot write"),
        "{}",
        unwritable.describe()
    );
}

/// The copied GitHub workflow writes `reports/...` in a fresh checkout:
/// every report file's directory is made, before the run starts, and a
/// path that cannot be a file stops the run before any request is sent.
#[test]
fn report_files_go_into_directories_the_run_makes_first() {
    let dir = scratch("report-dirs");
    let path = |p: &str| dir.join(p).display().to_string();
    let mut words = vec!["run".to_owned()];
    words.extend(args(SMALL));
    words.extend(args(&[
        "--report-json",
        &path("reports/wow-guid.json"),
        "--junit",
        &path("reports/junit/wow-guid.junit.xml"),
        "--write-expect-fail",
        &path("lists/known.txt"),
    ]));
    let run = runner(&words, &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.report["format_version"], 3, "{}", run.describe());
    assert!(dir.join("reports/junit/wow-guid.junit.xml").is_file());
    assert!(dir.join("lists/known.txt").is_file());
    // No temporary file is left beside the reports.
    let left: Vec<_> = fs::read_dir(dir.join("reports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");

    fs::create_dir_all(dir.join("a-directory")).unwrap();
    let mut words = vec!["run".to_owned()];
    words.extend(args(SMALL));
    words.extend(args(&["--junit", &path("a-directory")]));
    let refused = runner(&words, &[]);
    assert_eq!(refused.code, Some(2), "{}", refused.describe());
    assert!(
        refused.stderr.contains("a directory is in the way"),
        "{}",
        refused.describe()
    );
    assert!(
        !refused.stdout.contains("verdict"),
        "refused before the run: {}",
        refused.describe()
    );
}

/// A report path that is a symbolic link, a device or a pipe is written
/// through, not replaced by a renamed file: `--junit /dev/stdout` or a
/// process substitution's `/dev/fd/63` keeps working, and `/dev/full`
/// stays a device when the runner runs as root (it once became a file).
#[cfg(unix)]
#[test]
fn report_paths_through_links_and_pipes_are_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = scratch("report-through");
    fs::write(dir.join("real.json"), "old").unwrap();
    std::os::unix::fs::symlink("real.json", dir.join("link.json")).unwrap();
    let out = dir.join("link.json").display().to_string();
    let export = runner(&args(&["export", "--out", &out]), &[]);
    assert_eq!(export.code, Some(0), "{}", export.describe());
    let link = fs::symlink_metadata(dir.join("link.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    let written = fs::read_to_string(dir.join("real.json")).unwrap();
    assert!(
        written.starts_with("{\"format\":\"wow-guid-vectors\""),
        "{written:.80}"
    );

    let pipe = dir.join("pipe");
    let made = Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // The pipe's reader: it ends when the runner closes the pipe.
    let mut reader = Command::new("cat")
        .arg(&pipe)
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat starts");
    let mut words = vec!["run".to_owned()];
    words.extend(args(SMALL));
    words.extend(args(&["--junit", &pipe.display().to_string()]));
    let run = runner(&words, &[]);
    let began = std::time::Instant::now();
    while reader.try_wait().unwrap().is_none() && began.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    if reader.try_wait().unwrap().is_none() {
        let _ = reader.kill();
        panic!("nothing was written into the pipe: {}", run.describe());
    }
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let junit = reader.wait_with_output().unwrap().stdout;
    assert!(
        String::from_utf8_lossy(&junit).contains("<testsuites"),
        "{}",
        run.describe()
    );
    assert!(
        fs::metadata(&pipe).unwrap().file_type().is_fifo(),
        "the pipe stays a pipe"
    );
}

#[test]
fn serve_answers_on_stdin_and_reports_bad_requests() {
    use std::io::Write;
    let mut child = Command::new(RUNNER)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start serve");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"a decode packed_guid 0ADEAD\r\nb encode named_guid 0000000000000000 78\nc decode packed_guid xyz\n")
        .expect("write");
    let output = child.wait_with_output().expect("serve ends");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "a ok 00000000ad00de00 3\nb error name_without_guid\nc error other\n"
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stderr).contains("request line 3 (id `c`), column 22"));
}

#[test]
fn doctor_explains_a_broken_adapter_and_approves_a_good_one() {
    let mut words = args(&["doctor", "--timeout", "1s", "--"]);
    words.extend(broken("no_flush"));
    let run = runner(&words, &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stdout.contains("does not flush stdout"),
        "{}",
        run.describe()
    );
    assert!(run.elapsed < Duration::from_secs(10), "{}", run.describe());

    let mut words = args(&["doctor", "--timeout", "1s", "--"]);
    words.extend(broken("crlf"));
    let run = runner(&words, &[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stdout.contains("end in \\r\\n; accepted"),
        "{}",
        run.describe()
    );
    assert!(
        run.stdout.contains("uppercase hex; accepted"),
        "{}",
        run.describe()
    );

    let mut words = args(&["doctor", "--timeout", "1s", "--"]);
    words.extend(broken("lockstep"));
    let run = runner(&words, &[]);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stdout.contains("mishandles pipelined requests"),
        "{}",
        run.describe()
    );
}

/// Runs the binary with `words` and nobody reading its stdout: the only
/// reader is closed before the runner writes anything.
fn with_stdout_closed(words: &[&str]) -> std::process::Output {
    let mut child = Command::new(RUNNER)
        .args(words)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the runner");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for the runner")
}

/// `run | head -1`: when the reader of stdout goes away, the runner still
/// writes its report files and exits with its verdict, saying nothing about
/// a broken pipe.
#[test]
fn a_closed_stdout_ends_a_run_quietly_with_its_verdict() {
    let report = scratch("closed-stdout").join("report.json");
    let report_arg = report.display().to_string();
    let output =
        with_stdout_closed(&["run", "--flag", "doc-example", "--report-json", &report_arg]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "the runner complained");
    assert!(report.is_file(), "the JSON report was not written");
}

/// A file named on the command line (an id file, an expected-failure list,
/// a report to rerun, the matrix's implementations) is read up to a bound:
/// a device such as `/dev/zero` or a directory is refused at once, a file
/// that is not UTF-8 is refused with the byte offset, and a pipe is read
/// (`--id-file <(...)`).
#[test]
fn files_named_on_the_command_line_are_read_within_bounds() {
    let dir = scratch("named-files");
    let not_utf8 = dir.join("latin1.txt");
    fs::write(&not_utf8, b"packed.decode.empty\ncaf\xe9\n").expect("write the file");
    let not_utf8 = not_utf8.display().to_string();
    let cases: [(&[&str], &str); 5] = [
        (
            &["run", "--id-file", "/dev/zero"],
            "/dev/zero: not a file or a pipe",
        ),
        (
            &["run", "--expect-fail", "/dev/zero"],
            "/dev/zero: not a file or a pipe",
        ),
        (&["run", "--rerun-failed", "/"], "/: not a file or a pipe"),
        (
            &["matrix", "--out", "/nonexistent/out", "/dev/zero"],
            "/dev/zero: not a file or a pipe",
        ),
        (
            &["list", "--id-file", &not_utf8],
            "not UTF-8: byte offset 23",
        ),
    ];
    for (words, says) in cases {
        let run = runner(&args(words), &[]);
        assert_eq!(run.code, Some(2), "{words:?}\n{}", run.describe());
        assert!(run.stderr.contains(says), "{words:?}\n{}", run.describe());
        assert!(run.elapsed < Duration::from_secs(5), "{}", run.describe());
        assert!(run.peak_rss_kib < 200 * 1024, "{}", run.describe());
    }

    #[cfg(unix)]
    {
        let fifo = dir.join("ids.fifo");
        let made = Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("run mkfifo");
        assert!(made.success());
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::write(fifo, "packed.decode.doc-example\n"))
        };
        let run = runner(
            &args(&["list", "--id-file", &fifo.display().to_string()]),
            &[],
        );
        writer.join().expect("the writer").expect("write the pipe");
        assert_eq!(run.code, Some(0), "{}", run.describe());
        assert!(
            run.stdout.starts_with("packed.decode.doc-example "),
            "{}",
            run.describe()
        );
    }
}

/// Every command that prints its result ends quietly, with the status it
/// would have had, when nobody reads its output (`list --format json |
/// head` once failed with "Broken pipe" and exit 2); and a failure that
/// cannot even be told, because stderr is gone too, is still a plain exit
/// status, never a panic.
#[test]
fn every_command_ends_quietly_when_its_reader_goes_away() {
    let commands: [&[&str]; 10] = [
        &["list"],
        &["list", "--format", "json"],
        &["lint"],
        &["generate", "--check"],
        &["export", "--format", "json"],
        &["export", "--format", "jsonl"],
        &["repro", "packed.decode.doc-example"],
        &["doctor", "--", RUNNER, "serve"],
        &["--help"],
        &["run", "--help"],
    ];
    for words in commands {
        let output = with_stdout_closed(words);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{words:?}: {stderr}");
        assert_eq!(stderr, "", "{words:?} complained");
    }

    let mut child = Command::new(RUNNER)
        .args(["lint", "--vectors", "/nonexistent/wow-guid-vectors"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the runner");
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().expect("wait for the runner");
    assert_eq!(status.code(), Some(2), "a missing corpus, told to nobody");
}

#[test]
fn untrusted_descriptions_and_reasons_reach_the_terminal_escaped() {
    // A window title, a clipboard write and a cleared screen in a corpus
    // description (YAML escapes) and in a list's comment (raw bytes).
    let evil = GOOD.replace(
        "description: The spec's example.",
        r#"description: "Example \e]0;pwned\a\e]52;c;aGk=\a\e[2J""#,
    );
    let dir = corpus_dir("escapes-corpus", &evil);
    let corpus = dir.display().to_string();
    let env = [
        ("BROKEN_ON", "draft.decode.example"),
        // Styles forced on, as on a terminal: nothing strips what got through.
        ("CLICOLOR_FORCE", "1"),
    ];
    let run = run_against(
        "escapes-fail",
        &["--vectors", &corpus],
        &broken("garbage"),
        &env,
    );
    assert_eq!(run.code, Some(1), "{}", run.describe());
    assert!(
        run.stdout.contains(r"Example \x1b]0;pwned\x07"),
        "{}",
        run.describe()
    );
    assert!(
        !run.stdout.contains('\x07') && !run.stdout.contains("\x1b]"),
        "{:?}",
        run.stdout
    );

    let list = dir.join("known.txt");
    fs::write(
        &list,
        "draft.decode.example # title \x1b]0;pwned\x07 clear \x1b[2J\n",
    )
    .expect("write");
    let list = list.display().to_string();
    let run = run_against(
        "escapes-xfail",
        &["--vectors", &corpus, "--expect-fail", &list, "--verbose"],
        &broken("garbage"),
        &env,
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stdout
            .contains(r"[title \x1b]0;pwned\x07 clear \x1b[2J]"),
        "{}",
        run.describe()
    );
    assert!(
        !run.stdout.contains('\x07') && !run.stdout.contains("\x1b]"),
        "{:?}",
        run.stdout
    );
}
