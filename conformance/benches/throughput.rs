//! How fast the runner can talk to an implementation, in three ways, on the
//! same requests: persistent with a window of requests in flight (what `run`
//! does), persistent request-then-wait (window 1), and one-shot (a process
//! per request). The implementation is `wow-guid-conformance serve`, so the
//! figures measure the protocol machinery, not a slow adapter.
//!
//! ```text
//! cargo bench -p wow-guid-conformance --bench throughput
//! ```
//!
//! The request list is the embedded corpus (every kind, names up to 1 KiB),
//! repeated. One-shot mode starts a process per request, so it gets a prefix
//! of the same list; every group reports requests per second, which is what
//! the ratios compare.

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use wow_guid_harness::implementation::{Implementation, Query};
use wow_guid_harness::process::{Mode, ProcessConfig, ProcessImplementation};
use wow_guid_vectors::{Corpus, Request};

const SERVE: &str = env!("CARGO_BIN_EXE_wow-guid-conformance");

/// Requests per persistent-mode iteration.
const PERSISTENT_REQUESTS: usize = 20_000;
/// Requests per one-shot iteration.
const ONE_SHOT_REQUESTS: usize = 200;

fn requests() -> Vec<(String, Request)> {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    corpus
        .vectors
        .iter()
        .cycle()
        .take(PERSISTENT_REQUESTS)
        .map(|v| (v.id.clone(), v.request.clone()))
        .collect()
}

fn implementation(mode: Mode) -> ProcessImplementation {
    let mut config = ProcessConfig::new(vec![OsString::from(SERVE), OsString::from("serve")]);
    config.mode = mode;
    ProcessImplementation::new(config)
}

fn answer_all(implementation: &mut ProcessImplementation, queries: &[Query<'_>]) {
    let answers = implementation.answer_all(queries).expect("serve starts");
    assert!(
        answers.iter().all(|a| a.reply.is_ok()),
        "serve failed a request"
    );
}

fn throughput(c: &mut Criterion) {
    let requests = requests();
    let queries: Vec<Query<'_>> = requests
        .iter()
        .map(|(id, request)| Query { id, request })
        .collect();
    let mut group = c.benchmark_group("runner-throughput");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));

    group.throughput(Throughput::Elements(queries.len() as u64));
    for window in [ProcessConfig::DEFAULT_WINDOW.get(), 1] {
        let name = if window == 1 {
            "request-then-wait"
        } else {
            "persistent-windowed"
        };
        let window = NonZeroUsize::new(window).expect("non-zero");
        let mut serve = implementation(Mode::Persistent { window });
        // Start the process outside the measurement.
        answer_all(&mut serve, &queries[..1]);
        group.bench_function(BenchmarkId::new(name, queries.len()), |b| {
            b.iter(|| answer_all(&mut serve, &queries));
        });
    }

    let prefix = &queries[..ONE_SHOT_REQUESTS];
    group.throughput(Throughput::Elements(prefix.len() as u64));
    let mut one_shot = implementation(Mode::OneShot);
    group.bench_function(BenchmarkId::new("one-shot", prefix.len()), |b| {
        b.iter(|| answer_all(&mut one_shot, prefix));
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
