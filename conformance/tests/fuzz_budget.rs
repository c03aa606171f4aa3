//! `fuzz --time` is a bound on the whole command, driven through the real
//! binary against every misbehaving adapter the test suite has. Its four
//! runs at a time keep nearly two cores busy for a minute and a half, so its
//! bounds leave room for a loaded machine.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{python, RUNNER};

/// What a `fuzz` run against a broken adapter may hold at most: the corpus,
/// the history and a batch of shrinking candidates take tens of MiB. (The
/// shrinker once made every candidate of a long name at once: 2.4 GB.)
const MEMORY_BOUND: u64 = 256 << 20;

/// How one run went.
struct Outcome {
    name: String,
    took: Duration,
    /// Resident bytes at most, as last seen (0 where that cannot be read).
    peak: u64,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Waits for `child` to end, reading its output, and meanwhile how much
/// memory it has held at most (Linux's `VmHWM`, read every 20 ms until it
/// ends; elsewhere 0).
fn with_peak_memory(child: Child) -> (Output, u64) {
    let status = format!("/proc/{}/status", child.id());
    let waiting = std::thread::spawn(move || child.wait_with_output().expect("the runner ends"));
    let mut peak = 0;
    while !waiting.is_finished() {
        let seen = std::fs::read_to_string(&status).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        peak = peak.max(seen.unwrap_or(0) << 10);
        std::thread::sleep(Duration::from_millis(20));
    }
    (waiting.join().expect("the waiting thread ends"), peak)
}

/// `--time` bounds the whole command, replaying and shrinking included,
/// whatever the implementation does: `fuzz --time 10` against every adapter
/// of the test suite's broken and buggy sets returns within 15 seconds,
/// holding less than [`MEMORY_BOUND`], and one that never answers anything
/// is diagnosed as such. The adapters run a
/// few at a time in parallel threads; each bound is the wall time of that
/// runner process alone.
#[test]
fn the_time_budget_bounds_the_whole_command_against_every_broken_adapter() {
    let python = python();
    let mut adapters: Vec<(PathBuf, bool)> = Vec::new();
    for (dir, forwards) in [
        ("tests/broken_adapters", true),
        ("tests/buggy_adapters", false),
    ] {
        for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if name.ends_with(".py") && !name.starts_with('_') {
                adapters.push((path, forwards));
            }
        }
    }
    adapters.sort();
    assert!(adapters.len() >= 20, "{adapters:?}");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((script, forwards)) = adapters.get(i) else {
                    break;
                };
                let mut cmd = Command::new(RUNNER);
                cmd.args(["fuzz", "--time", "10", "--"])
                    .arg(python)
                    .arg(script);
                if *forwards {
                    // Broken on the 21st generated request; forwarding the
                    // rest to the reference.
                    cmd.arg(RUNNER).arg("serve").env("BROKEN_ON", "f20");
                }
                let started = Instant::now();
                let child = cmd
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("the runner starts");
                let (out, peak) = with_peak_memory(child);
                let took = started.elapsed();
                results.lock().unwrap().push(Outcome {
                    name: script.file_name().unwrap().to_string_lossy().into_owned(),
                    took,
                    peak,
                    code: out.status.code(),
                    stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                    stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                });
            });
        }
    });
    let results = results.into_inner().unwrap();
    assert_eq!(results.len(), adapters.len());
    for Outcome {
        name,
        took,
        peak,
        code,
        stdout,
        stderr,
    } in &results
    {
        eprintln!(
            "{name}: exit {code:?} in {:.1}s, at most {} MiB resident",
            took.as_secs_f64(),
            peak >> 20
        );
        assert!(
            took.as_secs_f64() < 15.0,
            "{name}: fuzz --time 10 took {:.1}s\n{stdout}\n{stderr}",
            took.as_secs_f64()
        );
        assert!(
            *peak < MEMORY_BOUND,
            "{name}: fuzz --time 10 held {} MiB\n{stdout}\n{stderr}",
            peak >> 20
        );
        if name == "lost_at_exit.py" {
            assert_eq!(*code, Some(2), "{name}:\n{stdout}\n{stderr}");
            assert!(stderr.contains("never answered"), "{stderr}");
        } else if name == "no_flush.py" {
            assert_eq!(*code, Some(2), "{name}:\n{stdout}\n{stderr}");
            assert!(
                stderr.contains("answers only when its input ends"),
                "{stderr}"
            );
            assert!(stderr.contains("flush stdout"), "{stderr}");
        } else if name == "hang_all.py" {
            // It answers only the probes: with the default 5 s timeout,
            // no hang can be judged within 10 s, and nothing else is. On a
            // loaded machine its start-up can take the probes past the
            // budget too; either way it must not pass.
            assert_eq!(*code, Some(2), "{name}:\n{stdout}\n{stderr}");
            assert!(
                stdout.contains("# nothing judged") || stderr.contains("never answered"),
                "{name}:\n{stdout}\n{stderr}"
            );
        } else {
            assert!(
                matches!(code, Some(0 | 1)),
                "{name}: exit {code:?}\n{stdout}\n{stderr}"
            );
            assert!(stdout.contains("# fuzz: "), "{name}: no summary:\n{stdout}");
        }
    }
}
