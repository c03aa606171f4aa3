//! The terminal summary of a run with many failures: grouped by cause with
//! a count and the first few of each in full, `--max-failures N` bounding
//! the blocks shown, `--quiet` for the counts alone, the totals exact in
//! every case; and colour only when asked for or on a terminal, never with
//! `NO_COLOR` unless forced.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

/// The buggy adapter that reads the mask as a byte count: hundreds of packed
/// decodes fail, for two causes.
fn mask_as_count() -> Vec<String> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/buggy_adapters/mask_as_count.py");
    vec![common::python().to_owned(), script.display().to_string()]
}

/// Runs `run --type packed_guid --op decode EXTRA -- mask_as_count` with
/// stdout a pipe and the colour variables as given (all others removed).
fn run(extra: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(common::RUNNER);
    command
        .args(["run", "--type", "packed_guid", "--op", "decode"])
        .args(extra)
        .arg("--")
        .args(mask_as_count())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("run the runner");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Lines that head a failure block.
fn blocks(stdout: &str) -> usize {
    stdout.lines().filter(|l| l.starts_with("FAIL ")).count()
}

/// The line of counts, which must not change with what is shown.
fn counts(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no counts line\n{stdout}"))
}

#[test]
fn failures_come_grouped_by_cause_with_the_first_few_in_full() {
    let (code, stdout) = run(&[], &[]);
    assert_eq!(code, Some(1), "{stdout}");
    let mut lines = stdout.lines();
    let head = lines.next().unwrap_or_default();
    assert!(head.ends_with("failing vector(s), 2 cause(s):"), "{stdout}");
    let failing: usize = head.split(' ').next().unwrap().parse().unwrap();
    assert!(failing > 100, "{stdout}");
    let overview: Vec<(usize, &str)> = lines
        .take(2)
        .map(|l| {
            let (n, cause) = l.trim().split_once("  ").unwrap();
            (n.parse().unwrap(), cause)
        })
        .collect();
    assert_eq!(
        overview[0].1,
        "decode packed_guid: `error eof` instead of a value"
    );
    assert_eq!(
        overview[1].1,
        "decode packed_guid: wrong byte count (too many)"
    );
    assert_eq!(overview[0].0 + overview[1].0, failing);
    assert!(overview[0].0 > overview[1].0);
    for (n, cause) in &overview {
        assert!(stdout.contains(&format!("== {n} x {cause}")), "{stdout}");
    }
    // Three in full for each cause, the rest by id.
    assert_eq!(blocks(&stdout), 6, "{stdout}");
    assert!(
        stdout.contains(&format!("... and {} more like these: ", overview[0].0 - 3)),
        "{stdout}"
    );
    assert!(
        counts(&stdout).contains(&format!(" {failing} failed,")),
        "{stdout}"
    );
    assert!(!stdout.contains("--max-failures"), "{stdout}");

    let (code, few) = run(&["--max-failures", "2"], &[]);
    assert_eq!(code, Some(1), "{few}");
    assert_eq!(blocks(&few), 2, "{few}");
    assert!(
        few.contains("(--max-failures 2: 2 of 6 block(s) shown in full; the counts below"),
        "{few}"
    );
    assert!(
        few.contains(&format!(
            "  {} vectors, none shown in full: ",
            overview[1].0
        )),
        "{few}"
    );
    assert_eq!(counts(&few), counts(&stdout));

    let (code, none) = run(&["--max-failures", "0"], &[]);
    assert_eq!(code, Some(1), "{none}");
    assert_eq!(blocks(&none), 0, "{none}");
    // Nothing was shown, so nothing is "more".
    assert!(!none.contains("more"), "{none}");
    assert_eq!(counts(&none), counts(&stdout));

    let (code, quiet) = run(&["--quiet"], &[]);
    assert_eq!(code, Some(1), "{quiet}");
    assert_eq!(quiet.lines().count(), 3, "{quiet}");
    assert_eq!(counts(&quiet), counts(&stdout));
    assert_eq!(quiet.lines().last(), Some("verdict: FAIL"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_and_not_with_no_color() {
    let escape = |s: &str| s.contains("\x1b[");
    let (_, piped) = run(&["--max-failures", "1"], &[]);
    assert!(!escape(&piped), "colour in a pipe:\n{piped}");
    let (_, forced) = run(&["--max-failures", "1", "--color", "always"], &[]);
    assert!(escape(&forced), "no colour with --color always:\n{forced}");
    assert!(forced.contains("verdict: \x1b["), "{forced:?}");
    // The same text once the styles are taken out.
    let plain: String = {
        let mut out = String::new();
        let mut rest = forced.as_str();
        while let Some(at) = rest.find("\x1b[") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let end = after.find('m').expect("an SGR sequence ends in m");
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out
    };
    let timeless = |s: &str| {
        s.lines()
            .filter(|l| !l.contains(" vectors against "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(timeless(&plain), timeless(&piped));
    let (_, no_color) = run(
        &["--max-failures", "1", "--color", "auto"],
        &[("NO_COLOR", "1")],
    );
    assert!(!escape(&no_color), "{no_color}");
    let (_, never) = run(&["--max-failures", "1", "--color", "never"], &[]);
    assert!(!escape(&never), "{never}");
    let (_, forced_anyway) = run(
        &["--max-failures", "1", "--color", "always"],
        &[("NO_COLOR", "1")],
    );
    assert!(escape(&forced_anyway), "--color always loses to NO_COLOR");
}
