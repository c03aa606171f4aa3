//! Shared helpers for the runner's integration tests: run the real binary,
//! find the broken adapters, read the JSON report.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

/// The runner binary under test.
pub const RUNNER: &str = env!("CARGO_BIN_EXE_wow-guid-conformance");

/// The vector every broken adapter misbehaves on in these tests: the third
/// of the `doc-example` selection, so that several requests are in flight
/// before and after it.
pub const BROKEN_ON: &str = "packed.decode.doc-example.trailing";

/// A small selection of 20 vectors: the four doc-example vectors, then the
/// two packed sequences (encode, then decode), eight steps each.
pub const SMALL: &[&str] = &[
    "--id",
    "packed.*doc-example*",
    "--id",
    "packed.*.stateful.*",
];

/// A scratch directory unique to this test process and `name`, empty.
pub fn scratch(name: &str) -> PathBuf {
    let dir = scratch_root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The folder of this test process's scratch directories,
/// `wow-guid-conformance-tests-PID` in the temporary directory.
///
/// A run's folder stays after it, so that a failed test's files can be
/// read; the next run removes those of runs that have ended. Each run
/// leaves about 200 MB, and before this every run's stayed: CI's temporary
/// directory kept them all.
fn scratch_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let tmp = std::env::temp_dir();
        remove_ended_runs(&tmp);
        tmp.join(format!("{SCRATCH_PREFIX}{}", std::process::id()))
    })
}

/// How every scratch folder's name begins, the test process's pid next.
const SCRATCH_PREFIX: &str = "wow-guid-conformance-tests-";

/// Removes from `tmp` the scratch folders of test processes that have ended.
/// Where there is no `/proc` to ask, nothing tells an ended run from a live
/// one, and nothing goes.
fn remove_ended_runs(tmp: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    for entry in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name();
        // The pid is the name's first word: one folder per run, or, as
        // earlier runs left them, one per test (`PID-NAME`).
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| !exists(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Only the scratch folders of ended runs go: this run's, and anything
/// else in the folder, stay.
#[test]
fn scratch_folders_of_ended_runs_are_removed() {
    let tmp = scratch("sweep");
    let mut ended = Command::new("true").spawn().expect("start `true`");
    let gone = ended.id();
    ended.wait().expect("wait for `true`");
    let own = std::process::id();
    let names = [
        format!("{SCRATCH_PREFIX}{gone}"),
        format!("{SCRATCH_PREFIX}{gone}-chaos-fuzz"),
        format!("{SCRATCH_PREFIX}{own}"),
        format!("{SCRATCH_PREFIX}not-a-pid"),
        format!("other-{gone}"),
    ];
    for name in &names {
        std::fs::create_dir_all(tmp.join(name).join("inside")).unwrap();
    }
    remove_ended_runs(&tmp);
    let left: BTreeSet<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, names[2..].iter().cloned().collect());
}

/// Whether the tests run in CI, where a missing tool fails them rather than
/// skipping them.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The Python the tests start their adapters with: `python3`'s own
/// interpreter in an empty virtual environment of this run (the standard
/// library and nothing else, which is all the adapters use).
///
/// The tests start Python adapters thousands of times (restarts after
/// crashes, replays, shrinking), so each start counts:
/// - the interpreter itself (`sys.executable`), not a version-manager shim
///   in front of it, which took three times the interpreter's own start
///   (90 ms against 30);
/// - none of the machine's site-packages: a `.pth` file there runs at every
///   start (one importing `certifi` took 33 ms of a 56 ms start on CI's
///   machine; 16 ms in the empty environment).
///
/// Where the environment cannot be made, the interpreter itself. `None`,
/// with a message, when `python3` is missing: a developer's machine may
/// skip the tests that need it, CI may not (it fails them).
pub fn find_python() -> Option<&'static str> {
    static PYTHON: OnceLock<Option<String>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let out = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .stderr(Stdio::null())
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            let path = String::from_utf8(out.stdout).ok()?;
            let interpreter = Some(path.trim().to_owned()).filter(|p| !p.is_empty())?;
            Some(empty_environment(&interpreter).unwrap_or(interpreter))
        })
        .as_deref()
        .or_else(|| {
            missing(
                "`python3`",
                "install it (on Debian: apt-get install python3)",
            )
        })
}

/// An empty virtual environment of `interpreter` in this run's scratch
/// folder (`python-venv`, no pip): its Python's path, or `None` when it
/// cannot be made or does not run.
fn empty_environment(interpreter: &str) -> Option<String> {
    let dir = scratch_root().join("python-venv");
    let made = Command::new(interpreter)
        .args(["-m", "venv", "--without-pip"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let python = dir.join("bin/python");
    let runs = made
        && Command::new(&python)
            .args(["-c", "pass"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    runs.then(|| python.display().to_string())
}

/// Reports that `what` is missing: a skip with a message on a developer's
/// machine, a failure in CI. Returns `None` so callers can `?` out.
pub fn missing<T>(what: &str, fix: &str) -> Option<T> {
    assert!(
        !in_ci(),
        "{what} is missing, and CI must run every test: {fix}"
    );
    eprintln!("SKIPPED: {what} is missing ({fix})");
    None
}

/// Checks that `tool` runs at all (`tool --version`); [`missing`] when not.
pub fn have_tool(tool: &str) -> Option<()> {
    match Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(status) if status.success() => Some(()),
        _ => missing(
            &format!("`{tool}`"),
            &format!(
                "install it (on Debian: apt-get install {})",
                debian_package(tool)
            ),
        ),
    }
}

fn debian_package(tool: &str) -> &str {
    match tool {
        "node" => "nodejs",
        other => other,
    }
}

/// [`find_python`], required: the broken adapters are Python scripts.
pub fn python() -> &'static str {
    find_python()
        .expect("these tests need python3 on PATH (the broken adapters are Python scripts)")
}

/// The command line of broken adapter `name` (a file in
/// `tests/broken_adapters/`), proxying to the runner's own `serve`.
pub fn broken(name: &str) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/broken_adapters")
        .join(format!("{name}.py"));
    assert!(script.is_file(), "no broken adapter {}", script.display());
    vec![
        python().to_owned(),
        script.display().to_string(),
        RUNNER.to_owned(),
        "serve".to_owned(),
    ]
}

/// What one run of the binary did.
pub struct Run {
    /// Exit status code.
    pub code: Option<i32>,
    /// stdout.
    pub stdout: String,
    /// stderr.
    pub stderr: String,
    /// The `--report-json` document, when one was asked for and written.
    pub report: Json,
    /// Wall time.
    pub elapsed: Duration,
    /// Peak resident memory of the runner seen while it ran, in KiB.
    pub peak_rss_kib: u64,
    /// The most file descriptors the runner was seen to hold open at once.
    pub peak_fds: usize,
}

impl Run {
    /// The count of one outcome from the JSON report.
    pub fn count(&self, outcome: &str) -> u64 {
        self.report["counts"][outcome]
            .as_u64()
            .unwrap_or_else(|| panic!("no count `{outcome}` in the report\n{}", self.describe()))
    }

    /// The result object of vector `id`.
    pub fn result(&self, id: &str) -> &Json {
        self.results()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no result for {id}\n{}", self.describe()))
    }

    /// All result objects.
    pub fn results(&self) -> &Vec<Json> {
        self.report["results"]
            .as_array()
            .unwrap_or_else(|| panic!("no results in the report\n{}", self.describe()))
    }

    /// Ids with outcome `outcome`.
    pub fn ids(&self, outcome: &str) -> Vec<String> {
        self.results()
            .iter()
            .filter(|r| r["outcome"] == outcome)
            .map(|r| r["id"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Everything, for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "exit {:?} after {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.elapsed, self.stdout, self.stderr
        )
    }
}

/// Runs the binary with `args` and `env`, stdin closed. When `args` holds
/// `--report-json` the caller gives the path; otherwise nothing is parsed.
pub fn runner(args: &[String], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(RUNNER);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let began = Instant::now();
    let child = command.spawn().expect("start the runner");
    let pid = child.id();
    // Sample the runner's peak memory (VmHWM only grows) and its open file
    // descriptors while it runs.
    let sampler = std::thread::spawn(move || {
        let (mut peak, mut fds) = (0, 0);
        while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            if let Some(kib) = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
            if status.contains("State:\tZ") {
                break;
            }
            if let Ok(open) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
                fds = fds.max(open.count());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (peak, fds)
    });
    let output: Output = child.wait_with_output().expect("wait for the runner");
    let (peak_rss_kib, peak_fds) = sampler.join().unwrap_or_default();
    let elapsed = began.elapsed();
    let report = args
        .iter()
        .position(|a| a == "--report-json")
        .and_then(|i| args.get(i + 1))
        .and_then(|path| std::fs::read(path).ok())
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(Json::Null);
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        report,
        elapsed,
        peak_rss_kib,
        peak_fds,
    }
}

/// `run OPTIONS --report-json FILE -- COMMAND`, with `env`.
///
/// Without `--read-back` in `options`, the run reads back nothing
/// (`--no-read-back`): a test of anything else counts the corpus's vectors
/// alone. The read-back's own tests, and those of the default run, ask.
pub fn run_against(label: &str, options: &[&str], command: &[String], env: &[(&str, &str)]) -> Run {
    let report = scratch(label).join("report.json");
    let mut args: Vec<String> = vec!["run".into()];
    if !options.contains(&"--read-back") && !options.contains(&"--no-read-back") {
        args.push("--no-read-back".into());
    }
    args.extend(options.iter().map(|s| (*s).to_owned()));
    args.push("--report-json".into());
    args.push(report.display().to_string());
    if !command.is_empty() {
        args.push("--".into());
        args.extend(command.iter().cloned());
    }
    runner(&args, env)
}

/// Whether process `pid` is still running (a zombie or no process counts as gone).
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state is the field after the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

/// Whether process `pid` is gone or on its way: not running, or with a
/// `SIGKILL` pending. A signal to a process group reaches each member when
/// it next runs, so on a loaded machine a killed adapter's own child can
/// still be running when the adapter has been reaped; its pending `SIGKILL`
/// shows that the kill reached it (waiting for it to end would not: that
/// child also ends by itself once its parent's pipe closes).
pub fn is_gone_or_killed(pid: u32) -> bool {
    const SIGKILL_BIT: u64 = 1 << (9 - 1);
    let sigkill_pending = || {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                l.strip_prefix("SigPnd:")
                    .or_else(|| l.strip_prefix("ShdPnd:"))
            })
            .filter_map(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .any(|mask| mask & SIGKILL_BIT != 0)
    };
    !is_running(pid) || sigkill_pending()
}

/// Whether process `pid` exists at all, zombie included.
pub fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The pids a broken adapter recorded in `file`, one "adapter child" pair per line.
pub fn recorded_pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// The keys of the JSON object `object`, sorted.
pub fn keys(object: &Json) -> BTreeSet<String> {
    object
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {object}"))
        .keys()
        .cloned()
        .collect()
}

/// The JSON Schema `schema` lists exactly the fields of `written`, all of
/// them required, and no others allowed; `what` names the document in a
/// failure.
pub fn same_fields(schema: &Json, written: &Json, what: &str) {
    let properties = keys(&schema["properties"]);
    let required: BTreeSet<String> = schema["required"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no `required`"))
        .iter()
        .filter_map(|k| k.as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        properties,
        keys(written),
        "{what}: the schema and the written document differ"
    );
    assert_eq!(required, properties, "{what}: not every field is required");
    assert_eq!(schema["additionalProperties"], false, "{what}");
}
