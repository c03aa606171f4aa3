//! Replays every committed fuzz finding in `fuzz/regressions/<target>/`
//! through the same property the cargo-fuzz target runs, on stable.
//!
//! Each file is the raw input libFuzzer saved (or `cargo fuzz tmin` left),
//! so the structured targets decode it with `arbitrary` exactly as
//! `libfuzzer_sys::fuzz_target!` does. A missing or empty directory is a
//! failure, never a silent pass. All failures are collected and reported
//! together, one line per file with its path.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};
use wow_guid_codec::properties;
use wow_guid_codec::NamedGuid;

/// The property a target runs on one raw libFuzzer input.
type Check = fn(&[u8]);

/// Every cargo-fuzz target and how its input is checked. A target added to
/// `fuzz/Cargo.toml` without an entry here fails `every_target_is_replayed`.
const TARGETS: &[(&str, Check)] = &[
    ("decode_packed_guid", properties::packed_decode),
    ("decode_named_guid", properties::named_decode),
    ("decode_named_guid_limit", properties::named_decode_limits),
    ("differential", properties::differential),
    (
        "differential_decode_many",
        properties::differential_decode_many,
    ),
    (
        "differential_encode_many",
        properties::differential_encode_many,
    ),
    ("roundtrip_packed_guid", |bytes| {
        structured(bytes, properties::packed_roundtrip);
    }),
    ("roundtrip_named_guid", |bytes| {
        structured(bytes, |value: NamedGuid| {
            properties::named_roundtrip(&value)
        });
    }),
    ("stream", |bytes| {
        properties::stream_input(bytes, &mut properties::StreamScratch::default())
    }),
];

/// The conformance runner's targets (its parsers of untrusted input and its
/// pipeline), which check the runner, not the codec: the codec cannot
/// replay them. Their findings become unit tests of the runner, and their
/// seeds are in `fuzz/seeds/TARGET/` (see `fuzz/README.md`).
const RUNNER_TARGETS: &[&str] = &[
    "response_line",
    "duration",
    "expect_fail_list",
    "id_file",
    "report_reader",
    "corpus_yaml",
    "implementations_file",
    "pipeline",
];

/// The test kit's targets, which hold the reference to the checks any codec
/// can be held to through `wow-guid-testkit` (a crate built on this one):
/// they check the kit's generic properties and generators, so their
/// findings become tests of the kit, which this crate's tests cannot build.
const TESTKIT_TARGETS: &[&str] = &["testkit_properties"];

/// As `fuzz_target!(|value: T| ...)`: inputs that do not make a `T` are
/// skipped, the rest are checked.
fn structured<T: for<'a> Arbitrary<'a>>(bytes: &[u8], check: impl FnOnce(T)) {
    if let Ok(value) = T::arbitrary_take_rest(Unstructured::new(bytes)) {
        check(value);
    }
}

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read regression directory {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "panic with a non-string payload".to_owned())
}

#[test]
fn regressions_pass() {
    let root = regressions_dir();
    assert!(
        root.is_dir(),
        "{} is missing: the committed fuzz regressions must be replayed",
        root.display()
    );
    let mut replayed = 0;
    let mut failures = Vec::new();
    for &(target, check) in TARGETS {
        let dir = root.join(target);
        if !dir.is_dir() {
            failures.push(format!("{}: directory missing", dir.display()));
            continue;
        }
        let files = files_in(&dir);
        if files.is_empty() {
            failures.push(format!("{}: no regression inputs", dir.display()));
        }
        for file in files {
            let bytes = std::fs::read(&file)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
            replayed += 1;
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| check(&bytes))) {
                failures.push(format!(
                    "{}: {}\n  reproduce: cd fuzz && cargo +nightly fuzz run {target} {}",
                    file.display(),
                    panic_message(payload.as_ref()),
                    file.strip_prefix(root.parent().unwrap_or(&root))
                        .unwrap_or(&file)
                        .display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {replayed} fuzz regressions failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(replayed > 0, "no fuzz regression was replayed");
}

/// Every directory under `fuzz/regressions/` belongs to a known target and
/// every target in `fuzz/Cargo.toml` is known here, so no finding sits in a
/// directory nobody replays.
#[test]
fn every_target_is_replayed() {
    let root = regressions_dir();
    let known: Vec<&str> = TARGETS.iter().map(|&(name, _)| name).collect();
    for entry in
        std::fs::read_dir(&root).unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
    {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            assert!(
                known.contains(&name),
                "{} is not a fuzz target this test replays; add it to TARGETS",
                path.display()
            );
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/Cargo.toml");
    let manifest = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(value) = line.strip_prefix("name =").filter(|_| in_bin) {
            let name = value.trim().trim_matches('"');
            assert!(
                known.contains(&name)
                    || RUNNER_TARGETS.contains(&name)
                    || TESTKIT_TARGETS.contains(&name),
                "fuzz target `{name}` in fuzz/Cargo.toml has no entry in TARGETS"
            );
        }
    }
}
