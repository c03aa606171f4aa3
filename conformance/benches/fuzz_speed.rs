//! How fast `fuzz` goes against an implementation, as a share of how fast
//! that implementation answers on its own: the ratio issue 37 asks to be at
//! least 0.4 against the C adapter.
//!
//! ```text
//! cargo bench -p wow-guid-conformance --bench fuzz_speed
//! FUZZ_BENCH_ADAPTER="python3 $PWD/conformance/adapters/python/adapter.py" cargo bench -p wow-guid-conformance --bench fuzz_speed
//! ```
//!
//! Both sides get the same requests: the first [`REQUESTS`] that `fuzz
//! --seed 1` generates, as protocol lines. The baseline, `adapter-alone`,
//! is the adapter reading them from a file and writing its answers to a
//! pipe the benchmark drains, start-up included. `fuzz` is the library's
//! fuzzing loop (`fuzzing::session::fuzz`, what the command runs) with
//! `--count` [`REQUESTS`] against the same adapter, which also answers the
//! loop's read-backs (the decodes of its own encodes, about a fifth more
//! requests, not counted: the rate is of generated requests, as the
//! command's summary gives it). The adapter is the C one, built here with
//! `cc -O2`, unless `FUZZ_BENCH_ADAPTER` names another command (split at
//! spaces; cargo runs benchmarks in the package's directory, so give paths
//! in it absolute). Before criterion's samples, one run of each prints the ratio.

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wow_guid_conformance::fuzzing::ahead::generate;
use wow_guid_conformance::fuzzing::requests::Generator;
use wow_guid_conformance::fuzzing::session::{self, Plan, Quiet, Role};
use wow_guid_conformance::history::Limits;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::process::{ProcessConfig, ProcessImplementation};
use wow_guid_harness::protocol::request_line;
use wow_guid_vectors::{Corpus, RequestKind};

/// Generated requests per measurement.
const REQUESTS: u64 = 200_000;

/// The adapter's command: `FUZZ_BENCH_ADAPTER`, or the C adapter built
/// into the benchmark's scratch directory.
fn adapter() -> Vec<OsString> {
    if let Ok(command) = std::env::var("FUZZ_BENCH_ADAPTER") {
        return command.split_whitespace().map(OsString::from).collect();
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/c/adapter.c");
    let binary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-speed-adapter-c");
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("cc runs (or set FUZZ_BENCH_ADAPTER)");
    assert!(built.success(), "cc could not build {}", source.display());
    vec![binary.into_os_string()]
}

/// The requests `fuzz --seed 1` generates first, as protocol lines, in a
/// file.
fn request_file(corpus: &Corpus) -> PathBuf {
    let mut generator = Generator::new(1, &corpus.vectors);
    let mut text = String::new();
    let requests = generate(&mut generator, 0, REQUESTS as usize, &RequestKind::ALL);
    for (i, request) in requests.iter().enumerate() {
        text.push_str(&request_line(&format!("f{i}"), request));
        text.push('\n');
    }
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-speed-requests.txt");
    fs::write(&path, text).expect("write the requests");
    path
}

/// The adapter answering the file on its own: the time from its start to
/// its last answer read.
fn adapter_alone(command: &[OsString], requests: &Path) -> Duration {
    let started = Instant::now();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(fs::File::open(requests).expect("open the requests"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("the adapter starts");
    let mut answers = Vec::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_end(&mut answers)
        .expect("read the answers");
    child.wait().expect("the adapter ends");
    let elapsed = started.elapsed();
    let lines = answers.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!(lines, REQUESTS, "the adapter answered every request");
    elapsed
}

/// The fuzzing loop against the adapter, `REQUESTS` generated requests.
fn fuzz(command: &[OsString], corpus: &Corpus) -> Duration {
    let plan = Plan {
        seed: 1,
        deadline: None,
        count: Some(REQUESTS),
        max_findings: None,
        judge: JudgeOptions::default(),
        shrink: Limits::default(),
    };
    let config = ProcessConfig::new(command.to_vec());
    let mut launch = |_: Role| ProcessImplementation::new(config.clone());
    let started = Instant::now();
    let results =
        session::fuzz(&plan, &corpus.vectors, &mut launch, &mut Quiet).expect("fuzz runs");
    let elapsed = started.elapsed();
    assert_eq!(results.done, REQUESTS);
    assert!(
        results.findings.is_empty(),
        "a correct adapter: {:?}",
        results.findings[0].signature
    );
    elapsed
}

fn rate(elapsed: Duration) -> f64 {
    REQUESTS as f64 / elapsed.as_secs_f64()
}

fn fuzz_speed(c: &mut Criterion) {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let command = adapter();
    let requests = request_file(&corpus);
    // One of each first (the better of three), for the ratio.
    let alone = (0..3)
        .map(|_| adapter_alone(&command, &requests))
        .min()
        .expect("three runs");
    let fuzzed = (0..3)
        .map(|_| fuzz(&command, &corpus))
        .min()
        .expect("three runs");
    let _ = writeln!(
        std::io::stderr(),
        "fuzz_speed: adapter alone {:.0} requests/s, fuzz {:.0} requests/s: ratio {:.3} ({:?})",
        rate(alone),
        rate(fuzzed),
        rate(fuzzed) / rate(alone),
        command,
    );
    let mut group = c.benchmark_group("fuzz-vs-adapter");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(REQUESTS));
    group.bench_function("adapter-alone", |b| {
        b.iter(|| adapter_alone(&command, &requests));
    });
    group.bench_function("fuzz", |b| b.iter(|| fuzz(&command, &corpus)));
    group.finish();
    let _ = fs::remove_file(requests);
}

criterion_group!(benches, fuzz_speed);
criterion_main!(benches);
