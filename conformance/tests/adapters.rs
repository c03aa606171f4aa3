//! The example adapters in `adapters/`, tested for real: each full adapter
//! must pass the whole embedded corpus through the real runner binary, the
//! adapter around the spec's C snippet must fail exactly the vectors its
//! expected-failure list names, and every adapter must answer the protocol's
//! awkward cases (CRLF, no final newline, malformed lines, unknown request
//! kinds) the same way.
//!
//! What needs building is built here: the C adapters with gcc into cargo's
//! per-test scratch directory, the Rust adapter as the package example
//! `adapter-rust`, which `cargo test` builds before running tests. A missing
//! tool (gcc, python3, node) skips that adapter with a message on a
//! developer's machine, but fails the test when `CI` is set: CI must run
//! every adapter, and a green run that skipped one would hide that.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

fn adapters_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters")
}

/// Where the C adapters are built; cargo keeps it per target directory.
fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("adapters");
    std::fs::create_dir_all(&dir).expect("cannot create the scratch directory");
    dir
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Reports that `what` is missing: a skip with a message on a developer's
/// machine, a failure in CI. Returns `None` so callers can `?` out.
fn missing<T>(what: &str, fix: &str) -> Option<T> {
    assert!(
        !in_ci(),
        "{what} is missing, and CI must run every adapter: {fix}"
    );
    eprintln!("SKIPPED: {what} is missing ({fix})");
    None
}

/// Checks that `tool` runs at all (`tool --version`).
fn have_tool(tool: &str) -> Option<()> {
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

/// Compiles C `sources` (relative to `adapters/`) with gcc and `flags` into
/// the scratch directory. gcc's warnings fail the test: the adapters must
/// build cleanly with the flags their comments give.
fn build_c(output: &str, sources: &[&str], flags: &[&str]) -> Option<PathBuf> {
    have_tool("gcc")?;
    let binary = scratch_dir().join(format!("{output}{}", std::env::consts::EXE_SUFFIX));
    let result = Command::new("gcc")
        .args(flags)
        .arg("-o")
        .arg(&binary)
        .args(sources.iter().map(|source| adapters_dir().join(source)))
        .output()
        .expect("gcc ran a moment ago but cannot be started now");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        result.status.success() && stderr.trim().is_empty(),
        "gcc {flags:?} {sources:?} did not build cleanly ({}):\n{stderr}",
        result.status
    );
    Some(binary)
}

/// The Rust adapter: the `adapter-rust` example, which cargo puts in
/// `examples/` beside the `deps/` directory holding this test's executable.
fn rust_adapter() -> Option<PathBuf> {
    let exe = std::env::current_exe().expect("cannot find this test's executable");
    let binary = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test executable is not in <target>/<profile>/deps")
        .join("examples")
        .join(format!("adapter-rust{}", std::env::consts::EXE_SUFFIX));
    if binary.exists() {
        Some(binary)
    } else {
        missing(
            &format!("the Rust adapter {}", binary.display()),
            "plain `cargo test` builds it; with a target filter such as `--test adapters`, \
             run `cargo build -p wow-guid-conformance --example adapter-rust` first",
        )
    }
}

/// One way of starting an adapter: a program and its arguments.
struct Adapter {
    name: &'static str,
    command: Vec<OsString>,
}

impl Adapter {
    fn new(name: &'static str, program: impl Into<OsString>, args: &[PathBuf]) -> Self {
        let mut command = vec![program.into()];
        command.extend(args.iter().map(|a| a.clone().into_os_string()));
        Self { name, command }
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]);
        command
    }
}

fn python() -> Option<Adapter> {
    have_tool("python3")?;
    Some(Adapter::new(
        "python",
        "python3",
        &[adapters_dir().join("python/adapter.py")],
    ))
}

fn javascript() -> Option<Adapter> {
    have_tool("node")?;
    Some(Adapter::new(
        "js",
        "node",
        &[adapters_dir().join("js/adapter.js")],
    ))
}

fn c() -> Option<Adapter> {
    let binary = build_c(
        "adapter-c",
        &["c/adapter.c"],
        &["-std=c99", "-Wall", "-Wextra", "-pedantic", "-O2"],
    )?;
    Some(Adapter::new("c", binary, &[]))
}

fn rust() -> Option<Adapter> {
    Some(Adapter::new("rust", rust_adapter()?, &[]))
}

/// The adapter around the spec's snippet, built exactly as
/// `adapters/README.md` and `spec-c/adapter.c` say: the undefined behaviour
/// it contains is what the expected-failure list records, so the flags are
/// part of the list.
fn spec_c() -> Option<Adapter> {
    let binary = build_c(
        "spec-c-adapter",
        &["spec-c/adapter.c", "spec-c/spec_snippet.c"],
        &["-std=c99", "-O0"],
    )?;
    Some(Adapter::new("spec-c", binary, &[]))
}

/// The adapters that implement everything, each must pass the whole corpus.
fn full_adapters() -> Vec<Adapter> {
    [python(), c(), javascript(), rust()]
        .into_iter()
        .flatten()
        .collect()
}

/// How long any one adapter process may take in these tests before it is
/// taken to hang; generous, as CI machines are small and shared.
const PROCESS_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `command` with `input` on stdin to completion, reading stdout and
/// stderr as it goes (so a large answer cannot deadlock it), and kills it if
/// it outlives [`PROCESS_TIMEOUT`].
fn run_with_input(mut command: Command, input: Vec<u8>, what: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let writer = thread::spawn(move || {
        // An adapter that exits early closes the pipe: not this test's concern.
        let _ = stdin.write_all(&input);
    });
    let stdout = drain(child.stdout.take().expect("stdout was piped"));
    let stderr = drain(child.stderr.take().expect("stderr was piped"));
    let deadline = Instant::now() + PROCESS_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("cannot wait for the child") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {PROCESS_TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    writer.join().expect("the stdin writer panicked");
    Output {
        status,
        stdout: stdout.join().expect("the stdout reader panicked"),
        stderr: stderr.join().expect("the stderr reader panicked"),
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Requests that every full adapter must answer exactly so, byte for byte:
/// the protocol's awkward corners rather than the codec's (the corpus, run
/// through the runner below, covers the codec).
const PROTOCOL_CASES: &[(&str, &str)] = &[
    ("p1 decode packed_guid 0adead", "p1 ok 00000000ad00de00 3"),
    // CRLF from a hand-written script.
    ("p2 decode packed_guid 0adead\r", "p2 ok 00000000ad00de00 3"),
    // Either case of hex is accepted.
    ("p3 decode packed_guid 0ADEAD", "p3 ok 00000000ad00de00 3"),
    ("p4 encode packed_guid 00000000AD00DE00", "p4 ok 0adead"),
    ("p5 decode packed_guid -", "p5 error eof"),
    ("p6 decode named_guid -", "p6 error eof"),
    (
        "p7 encode named_guid 000000000000002a -",
        "p7 ok 2a0000000000000000",
    ),
    (
        "p8 decode named_guid 2a0000000000000000",
        "p8 ok 000000000000002a 9 -",
    ),
    (
        "p9 encode named_guid 0000000000000000",
        "p9 ok 0000000000000000",
    ),
    // Unknown request kinds are skipped, not failures.
    ("u1 frobnicate packed_guid 00", "u1 unsupported"),
    ("u2 decode wide_guid 00", "u2 unsupported"),
    // Malformed requests: an answer that keeps the conversation in step.
    ("m1", "m1 error other"),
    ("m2 decode", "m2 error other"),
    ("m3 decode packed_guid", "m3 error other"),
    ("m4 decode packed_guid 0", "m4 error other"),
    ("m5 decode packed_guid 0g", "m5 error other"),
    ("m6 decode packed_guid 00 00", "m6 error other"),
    ("m7 encode packed_guid 123", "m7 error other"),
    ("m8 encode packed_guid 00000000000000000", "m8 error other"),
    (
        "m9 encode named_guid 0000000000000001 41 41",
        "m9 error other",
    ),
    (
        "m10 encode named_guid 0000000000000001 4",
        "m10 error other",
    ),
    ("m11 decode named_guid ", "m11 error other"),
];

/// The malformed requests' ids: each must also be explained on stderr.
const MALFORMED: &[&str] = &[
    "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11",
];

#[test]
fn adapters_answer_the_protocol_corner_cases_alike() {
    // A long name, to exercise growing line buffers: 200 000 hex digits.
    let long_name = "41".repeat(100_000);
    let long_request = format!("l1 decode named_guid 0100000000000000{long_name}00ff");
    let long_answer = format!("l1 ok 0000000000000001 100009 {long_name}");
    let mut input = String::new();
    let mut expected = String::new();
    for (request, answer) in PROTOCOL_CASES {
        input += &format!("{request}\n");
        expected += &format!("{answer}\n");
    }
    input += &format!("{long_request}\n");
    expected += &format!("{long_answer}\n");
    // The last line has no newline: end of input ends it (one-shot mode).
    input += "z1 encode packed_guid 0000000000000000";
    expected += "z1 ok 00\n";

    for adapter in full_adapters() {
        let output = run_with_input(adapter.command(), input.clone().into_bytes(), adapter.name);
        assert!(
            output.status.success(),
            "{} adapter exited with {}",
            adapter.name,
            output.status
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        for (got, want) in stdout.lines().zip(expected.lines()) {
            assert_eq!(got, want, "{} adapter answered wrongly", adapter.name);
        }
        assert_eq!(
            stdout.lines().count(),
            expected.lines().count(),
            "{} adapter gave the wrong number of answers",
            adapter.name
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        for id in MALFORMED {
            assert!(
                stderr
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|word| word == *id),
                "{} adapter did not explain malformed request {id} on stderr; stderr:\n{stderr}",
                adapter.name
            );
        }
    }
}

/// Persistent mode: each answer must arrive while the adapter still waits
/// for the next request, i.e. it flushes without being asked to exit.
#[test]
fn adapters_answer_each_request_before_the_next_arrives() {
    let mut adapters = full_adapters();
    adapters.extend(spec_c());
    for adapter in adapters {
        let mut child = adapter
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the {} adapter: {e}", adapter.name));
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (lines_tx, lines) = mpsc::channel();
        let reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        for i in 0..5 {
            writeln!(stdin, "k{i} decode packed_guid 0{i}dead0000").expect("cannot write");
            stdin.flush().expect("cannot flush");
            let answer = match lines.recv_timeout(Duration::from_secs(30)) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => panic!("{} adapter: cannot read its answer: {e}", adapter.name),
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "{} adapter did not answer request k{i} while its stdin stayed open: \
                         it does not flush stdout after each answer",
                        adapter.name
                    );
                }
            };
            assert!(
                answer.starts_with(&format!("k{i} ok ")),
                "{} adapter answered k{i} with {answer:?}",
                adapter.name
            );
        }
        drop(stdin);
        let status = child.wait().expect("cannot wait for the adapter");
        reader.join().expect("the reader panicked");
        assert!(
            status.success(),
            "{} adapter exited with {status}",
            adapter.name
        );
    }
}

/// The spec-C adapter is only a worked example if the snippet is really the
/// spec's: its `parse_packed_guid` must appear in the spec text byte for byte.
#[test]
fn spec_snippet_is_the_spec_text_unchanged() {
    // CI and every checkout have the shared spec beside the repository.
    let spec_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/spec/packed-guid-and-named-guid.md");
    let Ok(spec) = std::fs::read_to_string(&spec_path) else {
        eprintln!(
            "SKIPPED: the spec is not at {}; cannot compare the snippet with it",
            spec_path.display()
        );
        return;
    };
    let snippet = std::fs::read_to_string(adapters_dir().join("spec-c/spec_snippet.c"))
        .expect("cannot read spec-c/spec_snippet.c");
    let function = |text: &str| -> String {
        let start = text
            .find("uint64_t parse_packed_guid(")
            .expect("no parse_packed_guid in the text");
        let end = start
            + text[start..]
                .find("\n}\n")
                .expect("the function never ends")
            + 3;
        text[start..end].to_owned()
    };
    assert_eq!(
        function(&snippet),
        function(&spec),
        "spec-c/spec_snippet.c no longer holds the spec's parse_packed_guid unchanged"
    );
}
