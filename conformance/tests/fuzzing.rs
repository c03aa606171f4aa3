//! `fuzz`, driven through the real binary: against the deliberately buggy
//! adapters in `tests/buggy_adapters/` it must find each planted bug within
//! seconds at a fixed seed and shrink it to the minimal vector (asserted byte
//! for byte, with the reasoning for each minimum next to the adapter); the
//! YAML it prints must load and pass `lint`; correct implementations must
//! run clean for the whole budget; timeouts and crashes are findings after
//! which fuzzing goes on.
//!
//! The adapters are Python scripts (standard library only). Without
//! `python3` these tests are skipped with a message on a developer's
//! machine, and fail when `CI` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use wow_guid_vectors::{Corpus, ErrorCode, Expectation, Flag, Request, Value, Vector};

const RUNNER: &str = env!("CARGO_BIN_EXE_wow-guid-conformance");

/// The Python interpreter itself (`common::find_python`).
fn python() -> Option<&'static Path> {
    crate::common::find_python().map(Path::new)
}

fn adapter(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn buggy(name: &str) -> PathBuf {
    adapter(&format!("tests/buggy_adapters/{name}.py"))
}

/// One run of `fuzz`.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The findings as vectors: stdout must load as a vector file.
    fn vectors(&self) -> Vec<Vector> {
        if !self.stdout.contains("\nvectors:\n") {
            return Vec::new();
        }
        match Corpus::from_sources(&[("found.yaml".into(), self.stdout.clone())]) {
            Ok(corpus) => corpus.vectors,
            Err(e) => panic!("the output does not load:\n{e}\n---\n{}", self.stdout),
        }
    }

    /// The summary's request count and seconds.
    fn requests_and_seconds(&self) -> (u64, f64) {
        let line = self
            .stdout
            .lines()
            .find(|l| l.starts_with("# fuzz: "))
            .unwrap_or_else(|| panic!("no summary in:\n{}", self.stdout));
        let words: Vec<&str> = line.split_whitespace().collect();
        let requests = words[2].parse().expect("a request count");
        let seconds = words[5].trim_end_matches('s').parse().expect("seconds");
        (requests, seconds)
    }

    /// For each finding, in order: its signature, the request index it was
    /// first seen at, and after how long.
    fn first_seen(&self) -> Vec<(String, u64, String)> {
        self.stdout
            .lines()
            .filter_map(|l| {
                let l = l.trim_start().strip_prefix("# ")?;
                let (signature, rest) = l.split_once(": first seen at request ")?;
                let (index, rest) = rest.split_once(' ')?;
                let after = rest.rsplit_once("after ")?.1;
                Some((signature.to_owned(), index.parse().ok()?, after.to_owned()))
            })
            .collect()
    }
}

fn fuzz(args: &[&str], command: &[&Path]) -> Run {
    let mut cmd = Command::new(RUNNER);
    cmd.arg("fuzz").args(args);
    if !command.is_empty() {
        cmd.arg("--").args(command);
    }
    let started = Instant::now();
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .expect("the runner starts");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    eprintln!(
        "fuzz {} -- {:?}: exit {} in {:.1}s; findings: {:?}",
        args.join(" "),
        command,
        run.code,
        started.elapsed().as_secs_f64(),
        run.first_seen()
    );
    run
}

/// Fuzzes a buggy adapter with the fixed seed and a request budget, and
/// checks what every such run must satisfy.
fn fuzz_buggy(name: &str, count: &str, extra: &[&str]) -> Option<(Run, Vec<Vector>)> {
    let python = python()?;
    let script = buggy(name);
    let mut args = vec!["--seed", "1", "--count", count];
    args.extend_from_slice(extra);
    let run = fuzz(&args, &[python, &script]);
    assert_eq!(
        run.code, 1,
        "a planted bug must fail the run:\n{}\n{}",
        run.stdout, run.stderr
    );
    let vectors = run.vectors();
    assert!(!vectors.is_empty());
    for v in &vectors {
        // The corpus's naming rule: `<type>.<op>.<topic>`.
        let prefix = format!("{}.found-", v.request.kind().id_prefix());
        assert!(v.id.starts_with(&prefix), "{}", v.id);
        assert_eq!(
            v.source.as_deref(),
            Some(
                "NOTES.md#summary-of-positions: found by differential fuzzing, seed 1; expects \
                 the reference codec's answer"
            )
        );
        assert!(
            v.description.contains("differential fuzzing"),
            "{}",
            v.description
        );
    }
    // Every finding is found early, and the whole budget is still spent.
    // The time to the first includes only fuzzing; a later one's includes
    // shrinking the ones before it, so only its request index is bounded.
    for (n, (signature, index, after)) in run.first_seen().into_iter().enumerate() {
        assert!(
            index < 1000,
            "{signature} first seen only at request {index}"
        );
        let seconds = after
            .trim_end_matches("ms")
            .trim_end_matches('s')
            .parse::<f64>()
            .unwrap();
        let seconds = if after.ends_with("ms") {
            seconds / 1000.0
        } else {
            seconds
        };
        assert!(
            n > 0 || seconds < 15.0,
            "{signature} first seen only after {after}"
        );
    }
    assert_eq!(run.requests_and_seconds().0.to_string(), count);
    lint_accepts(&run.stdout);
    Some((run, vectors))
}

/// Findings as `found.yaml` in a corpus directory beside the corpus's
/// notes: `lint` accepts them, every id follows the corpus's naming rule,
/// every flag is the one the generator's rule derives, and every `source`
/// cites a note that exists, as the corpus tests require of the checked-in
/// files. (Pasted into `vectors/`, a finding whose request and answer a
/// vector there already has is refused as a duplicate: the corpus covers it.)
fn lint_accepts(text: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "fuzz-lint-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("t")
            .replace("::", "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let notes = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/NOTES.md");
    std::fs::copy(notes, dir.join("NOTES.md")).unwrap();
    std::fs::write(dir.join("found.yaml"), text).unwrap();
    let out = Command::new(RUNNER)
        .args(["lint", "--vectors"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "lint rejects the findings:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let corpus = Corpus::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    let found = corpus.vectors;
    assert!(!found.is_empty());
    for v in &found {
        let prefix = format!("{}.", v.request.kind().id_prefix());
        assert!(
            v.id.starts_with(&prefix),
            "{} should start with {prefix}",
            v.id
        );
        let mut derived = wow_guid_vectors::topics::derived_flags(&v.request, &v.expect);
        if v.sequence.is_some() {
            derived.push(Flag::Stateful);
            derived.sort();
        }
        assert_eq!(*v.flags, *derived, "{}", v.id);
    }
    let broken = wow_guid_vectors::citation::check(&found, &dir);
    assert!(broken.is_empty(), "{broken:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn decode_packed(bytes: &[u8]) -> Request {
    Request::DecodePacked {
        bytes: bytes.to_vec(),
    }
}

fn decode_named(bytes: &[u8]) -> Request {
    Request::DecodeNamed {
        bytes: bytes.to_vec(),
    }
}

/// GUID bytes `00 00 00 00 00 00 00 01`: the smallest non-zero GUID as a
/// byte string (the lowest bytes first on the wire, so it is 0100000000000000).
const SMALLEST_GUID_BYTES: [u8; 8] = [0, 0, 0, 0, 0, 0, 0, 1];

fn named_input(name: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut bytes = SMALLEST_GUID_BYTES.to_vec();
    bytes.extend_from_slice(name);
    bytes.extend_from_slice(tail);
    bytes
}

/// The spec's C bug, which is two bugs of one request kind, so two
/// findings (one signature each: the GUID's high half too large, or too
/// small).
/// - Bit 3 sign-extends a byte >= 80 into the high half. Two bytes are
///   needed (a mask with no bit gives GUID 0 everywhere), a one-bit mask
///   below 08 is decoded right, and at bit 3 only a byte >= 80 goes wrong,
///   so the smallest input is `08 80`.
/// - Bits 4 to 7 shift modulo 32, moving a byte from the high half to the
///   low one: the smallest input is `10 01`. (`80 80` shows both: bit 7
///   lands on bit 31 and is sign-extended, a larger GUID.)
#[test]
fn sign_extension_and_shift_modulo_32_are_two_findings() {
    let Some((run, vectors)) = fuzz_buggy("sign_extend", "3000", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 2, "{}", run.stdout);
    let found = |bytes: &[u8]| {
        vectors
            .iter()
            .find(|v| v.request == decode_packed(bytes))
            .unwrap_or_else(|| panic!("no finding {bytes:02x?}:\n{}", run.stdout))
    };
    let v = found(&[0x08, 0x80]);
    assert_eq!(
        v.expect,
        Expectation::Valid(Value::Packed {
            guid: 0x8000_0000,
            consumed: 2
        })
    );
    assert!(v
        .description
        .contains("GUID ffffffff80000000, expected 0000000080000000"));
    assert!(v.flags.contains(&Flag::SignBit));
    let v = found(&[0x10, 0x01]);
    assert!(v
        .description
        .contains("GUID 0000000000000001, expected 0000000100000000"));
    let mut signatures: Vec<String> = run.first_seen().into_iter().map(|f| f.0).collect();
    signatures.sort();
    assert_eq!(
        signatures,
        [
            "decode packed_guid: wrong GUID (high 32 bits, too large)",
            "decode packed_guid: wrong GUID (high 32 bits, too small)",
        ]
    );
}

/// Two bugs of one request kind that both accept invalid input: a GUID
/// with nothing after it taken for an empty name, and no UTF-8 check. The
/// reference's error code keeps them apart.
#[test]
fn an_empty_name_bug_does_not_hide_a_missing_utf8_check() {
    let Some((run, vectors)) = fuzz_buggy("empty_name_no_utf8", "3000", &[]) else {
        return;
    };
    // In the order they were first seen, which depends on the generator;
    // each is shrunk to its own minimum.
    let mut found: Vec<(&Request, &Expectation)> =
        vectors.iter().map(|v| (&v.request, &v.expect)).collect();
    found.sort_by_key(|(request, _)| format!("{request:?}"));
    let bare = decode_named(&SMALLEST_GUID_BYTES);
    let invalid = decode_named(&named_input(&[0x80], &[0]));
    let mut wanted = vec![
        (&bare, &Expectation::Invalid(ErrorCode::Eof)),
        (&invalid, &Expectation::Invalid(ErrorCode::InvalidUtf8)),
    ];
    wanted.sort_by_key(|(request, _)| format!("{request:?}"));
    assert_eq!(found, wanted, "{}", run.stdout);
    assert!(vectors
        .iter()
        .any(|v| v.request == invalid && v.flags.contains(&Flag::InvalidUtf8)));
}

/// The mask read as a count. Two signatures: where the count asks for more
/// bytes than there are, an error instead of a value, smallest `02 00` (mask
/// 01 is read right either way, so 02 is the smallest mask that differs,
/// with the one byte it needs); and where there are enough, a wrong byte
/// count, smallest `02 00 00`.
#[test]
fn mask_as_count_is_found_and_shrunk_to_02_00() {
    let Some((run, vectors)) = fuzz_buggy("mask_as_count", "3000", &[]) else {
        return;
    };
    let inputs: Vec<&Request> = vectors.iter().map(|v| &v.request).collect();
    assert_eq!(
        inputs,
        [
            &decode_packed(&[0x02, 0x00]),
            &decode_packed(&[0x02, 0x00, 0x00])
        ],
        "{}",
        run.stdout
    );
    let zero = Expectation::Valid(Value::Packed {
        guid: 0,
        consumed: 2,
    });
    assert_eq!(vectors[0].expect, zero);
    assert_eq!(vectors[1].expect, zero);
    let signatures: Vec<String> = run.first_seen().into_iter().map(|f| f.0).collect();
    assert_eq!(
        signatures,
        [
            "decode packed_guid: `error eof` instead of a value",
            "decode packed_guid: wrong byte count (too many)"
        ]
    );
}

/// The summary says of each finding whether it was shrunk fully; a shrink
/// limit too small to finish says so too.
#[test]
fn each_finding_says_whether_it_was_shrunk_fully() {
    let Some((run, _)) = fuzz_buggy("mask_as_count", "3000", &[]) else {
        return;
    };
    let findings: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("#   found-") || l.contains(" request(s)) ["))
        .collect();
    assert_eq!(findings.len(), 2, "{}", run.stdout);
    for line in &findings {
        assert!(line.ends_with("; shrunk fully]"), "{line}");
    }
    let Some((cut, _)) = fuzz_buggy("mask_as_count", "3000", &["--shrink-time", "1ms"]) else {
        return;
    };
    assert!(
        cut.stdout
            .lines()
            .any(|l| l.ends_with("; shrunk partly: its share of the time ran out (--shrink-time)]")),
        "{}",
        cut.stdout
    );
}

/// An encoder whose mask byte survives between calls. No request disagrees
/// on its own, so the finding is a sequence: the smallest GUID that sets a
/// mask bit (1), then the smallest GUID of all (0), which must encode as
/// `00` and comes out as `01`.
#[test]
fn stateful_encoder_is_found_as_a_two_step_sequence() {
    let Some((run, vectors)) = fuzz_buggy("stateful_encoder", "3000", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 2, "{}", run.stdout);
    assert_eq!(vectors[0].request, Request::EncodePacked { guid: 1 });
    assert_eq!(
        vectors[0].expect,
        Expectation::Valid(Value::Encoded { bytes: vec![1, 1] })
    );
    assert_eq!(vectors[1].request, Request::EncodePacked { guid: 0 });
    assert_eq!(
        vectors[1].expect,
        Expectation::Valid(Value::Encoded { bytes: vec![0] })
    );
    assert!(vectors.iter().all(|v| v.flags.contains(&Flag::Stateful)));
    assert!(vectors[0].id.ends_with(".1") && vectors[1].id.ends_with(".2"));
    assert!(vectors[1].description.contains(
        "wrong encoding: bytes differ from byte 0 (both 1 bytes): expected [00], got [01]"
    ));
    assert!(run.stdout.contains("keeps state between calls"));
}

/// Names capped at 256 bytes, the next byte swallowed. Every disagreement
/// needs a name of 257 bytes or more after a non-zero GUID; byte strings
/// are smallest with the GUID as `00 .. 00 01` and every name byte `01`.
/// Four signatures, each with its own minimum:
/// - wrong byte count (too few): the 257-byte name and its NUL (266 bytes);
/// - a value instead of an error (`eof`): the same without the NUL (265
///   bytes);
/// - a value instead of an error (`invalid_utf8`): 256 name bytes, then
///   `80`, which the cut leaves out, and the NUL;
/// - an error for a valid name: where the cut splits a character, the
///   decoder answers `invalid_utf8` for a valid name longer than 256 bytes.
///   The name bound allows only `name_too_long` there, with or without
///   `--strict-errors` (`vectors/NOTES.md`, "Names longer than a bound").
#[test]
fn name_cap_is_found_and_shrunk_to_257_byte_names() {
    let Some((run, vectors)) = fuzz_buggy("name_cap", "1000", &[]) else {
        return;
    };
    let found = |what: &str| {
        vectors
            .iter()
            .find(|v| v.description.contains(what))
            .unwrap_or_else(|| panic!("no finding with `{what}`:\n{}", run.stdout))
    };
    let v = found("consumed 265 bytes, expected 266");
    assert_eq!(v.request, decode_named(&named_input(&[1; 257], &[0])));
    let v = found("the reference gives `error eof`");
    assert_eq!(v.request, decode_named(&named_input(&[1; 257], &[])));
    assert_eq!(v.expect, Expectation::Invalid(ErrorCode::Eof));
    let v = found("the reference gives `error invalid_utf8`");
    assert_eq!(v.request, decode_named(&named_input(&[1; 256], &[0x80, 0])));
    let v = found("rejected valid input with `error invalid_utf8`");
    assert!(v.request.may_refuse_as_too_long(), "{:?}", v.request);
    assert_eq!(vectors.len(), 4, "{}", run.stdout);
}

/// The same planted cap under `--strict-errors`: the error it answers for a
/// valid name whose cut splits a character is `invalid_utf8`, where a bound
/// must say `name_too_long`.
#[test]
fn name_cap_under_strict_errors_is_a_wrong_code_for_a_bounded_name() {
    let Some((run, vectors)) = fuzz_buggy("name_cap", "1000", &["--strict-errors"]) else {
        return;
    };
    let v = vectors
        .iter()
        .find(|v| {
            v.description
                .contains("rejected valid input with `error invalid_utf8`")
        })
        .unwrap_or_else(|| panic!("no wrong-code finding:\n{}", run.stdout));
    let Request::DecodeNamed { bytes } = &v.request else {
        panic!("{:?}", v.request)
    };
    assert!(
        bytes.len() - 8 > wow_guid_vectors::NAME_BOUND_FLOOR,
        "a name past the bound floor: {} bytes",
        bytes.len() - 8
    );
}

/// An encoder that writes what its own decoder refuses (names over 256
/// bytes): every request alone agrees with the reference, and only the
/// read-back of an encode shows it. One finding, shrunk to GUID 1 with a
/// 257-byte name of `01`s (one byte past the decoder's bound; the smallest
/// GUID and bytes that keep the name valid UTF-8 without a NUL), its comment
/// with both requests and both answers, known by the corpus's read-back of
/// a 257-byte name.
#[test]
fn bound_mismatch_is_found_as_writes_what_it_cannot_read() {
    let Some((run, vectors)) = fuzz_buggy("bound_mismatch", "1000", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 1, "{}", run.stdout);
    assert_eq!(
        vectors[0].request,
        Request::EncodeNamed {
            guid: 1,
            name: Some(vec![1; 257]),
        }
    );
    assert!(
        vectors[0]
            .description
            .contains("writes what it cannot read"),
        "{}",
        vectors[0].description
    );
    let comment = |prefix: &str| {
        run.stdout
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line:\n{}", run.stdout))
            .to_owned()
    };
    assert!(comment("# writes what it cannot read: decode named_guid: ")
        .starts_with("`error name_too_long` instead of a value: first seen at request "));
    assert!(comment("# request:  ").starts_with("encode named_guid 0000000000000001 0101"));
    assert!(comment("# answer:   ").starts_with("ok 01000000000000000101"));
    assert!(comment("# read back: ").starts_with("decode named_guid 01000000000000000101"));
    assert_eq!(comment("# answered: "), "error name_too_long");
    assert!(comment("# expected: ").starts_with("ok 0000000000000001 266 0101"));
    let summary = comment("# 1 finding(s), ");
    assert_eq!(summary, "0 new (no corpus vector fails this way):");
    let known = comment("# known: the corpus shows it, ");
    assert!(
        known.starts_with("named.encode.") && known.contains(".read-back fails"),
        "{known}"
    );
    assert!(
        run.stdout
            .contains(" read-back(s): its own encodes decoded back"),
        "{}",
        run.stdout
    );
}

/// A name running into the end of the input, accepted. The smallest input
/// a decoder can disagree on: eight GUID bytes, a non-zero GUID, and nothing
/// after it (shorter inputs are eof everywhere, GUID 0 has no name).
#[test]
fn missing_nul_is_found_and_shrunk_to_the_bare_guid() {
    let Some((run, vectors)) = fuzz_buggy("missing_nul", "3000", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 1, "{}", run.stdout);
    assert_eq!(vectors[0].request, decode_named(&SMALLEST_GUID_BYTES));
    assert_eq!(vectors[0].expect, Expectation::Invalid(ErrorCode::Eof));
    assert!(vectors[0].flags.contains(&Flag::MissingNul));
}

/// `run` against the whole corpus: the exit code and stdout.
fn run_corpus(script: &Path, strict: bool) -> (i32, String) {
    let python = python().expect("python3 was found before");
    let mut cmd = Command::new(RUNNER);
    cmd.arg("run");
    if strict {
        cmd.arg("--strict-errors");
    }
    let out = cmd
        .arg("--")
        .arg(python)
        .arg(script)
        .stdin(Stdio::null())
        .output()
        .expect("the runner starts");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];

/// A decoder that drops a leading U+FEFF (Python's `utf-8-sig`, a default
/// JavaScript `TextDecoder`): the corpus's BOM vectors fail it, and the
/// fuzzer, which plants BOMs as the fault model asks, finds it at seed 1
/// and shrinks it to a BOM alone.
#[test]
fn a_bom_dropping_decoder_is_failed_by_run_and_found_by_fuzz() {
    let Some((run, vectors)) = fuzz_buggy("bom_dropping", "3000", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 1, "{}", run.stdout);
    assert_eq!(vectors[0].request, decode_named(&named_input(&BOM, &[0])));
    let (code, stdout) = run_corpus(&buggy("bom_dropping"), false);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("named.decode.utf8.bom"), "{stdout}");
}

/// A reader with a fixed 512-byte buffer that takes a full buffer for the
/// end of the name: it passes every short "missing NUL" vector, but the
/// fault model's buffer lengths without their NUL fail it, and the fuzzer
/// finds it at seed 1.
#[test]
fn a_fixed_buffer_accepting_a_long_unterminated_name_is_failed_and_found() {
    let Some((run, vectors)) = fuzz_buggy("fixed_buffer", "3000", &[]) else {
        return;
    };
    assert!(
        vectors.iter().any(|v| matches!(&v.request,
            Request::DecodeNamed { bytes } if bytes.len() >= 8 + 512 && !bytes[8..].contains(&0))),
        "{}",
        run.stdout
    );
    let (code, stdout) = run_corpus(&buggy("fixed_buffer"), false);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("value instead of an error") && stdout.contains(".missing_terminator"),
        "{stdout}"
    );
}

/// An encoder with another precedence (UTF-8 checked before the NUL): only
/// `--strict-errors` tells it apart, and then `run` and `fuzz` agree: both
/// fail it, on a name with both faults; without it both pass it.
#[test]
fn run_and_fuzz_agree_on_an_encoder_with_another_precedence() {
    let Some(python) = python() else {
        return;
    };
    let script = buggy("utf8_first");
    let (code, stdout) = run_corpus(&script, true);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("two-faults"), "{stdout}");
    let Some((run, vectors)) = fuzz_buggy("utf8_first", "3000", &["--strict-errors"]) else {
        return;
    };
    assert!(!vectors.is_empty());
    // The adapter's size refuses what its encoder refuses, so the same
    // precedence shows on a `size` of the same value.
    for v in &vectors {
        let (Request::EncodeNamed {
            name: Some(name), ..
        }
        | Request::SizeNamed {
            name: Some(name), ..
        }) = &v.request
        else {
            panic!("not a named encode or size: {}", run.stdout);
        };
        assert!(
            name.contains(&0) && std::str::from_utf8(name).is_err(),
            "{}",
            run.stdout
        );
        assert_eq!(v.expect, Expectation::Invalid(ErrorCode::InteriorNul));
    }
    let (code, stdout) = run_corpus(&script, false);
    assert_eq!(code, 0, "{stdout}");
    let lax = fuzz(&["--seed", "1", "--count", "3000"], &[python, &script]);
    assert_eq!(lax.code, 0, "{}", lax.stdout);
}

/// A crash is a finding; the process is restarted and the budget spent.
#[test]
fn a_crash_is_a_finding_and_fuzzing_goes_on() {
    let Some((run, vectors)) = fuzz_buggy("index_error", "500", &[]) else {
        return;
    };
    assert_eq!(vectors.len(), 1, "{}", run.stdout);
    assert_eq!(vectors[0].request, decode_packed(&[]));
    assert!(vectors[0].description.contains("ended before answering"));
    assert!(run.stdout.contains("decode packed_guid: crash"));
}

/// A hang is a finding; the process is killed, restarted, and fuzzing goes on.
#[test]
fn a_hang_is_a_finding_and_fuzzing_goes_on() {
    let Some((run, vectors)) = fuzz_buggy(
        "hang",
        "400",
        &["--timeout", "200ms", "--startup-timeout", "1s"],
    ) else {
        return;
    };
    // The planted hang, shrunk. With a timeout this short, a loaded machine
    // can make a slow answer look like another hang (one test run found a
    // `size` of a long name so): a timeout too, never anything else.
    assert!(
        vectors.iter().any(|v| v.request == decode_packed(&[0xff])),
        "{}",
        run.stdout
    );
    assert!(
        vectors
            .iter()
            .all(|v| v.description.contains("no response within")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("# fuzz: 400 requests"),
        "{}",
        run.stdout
    );
}

fn assert_clean(run: &Run, budget: f64) {
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.vectors().is_empty());
    assert!(run
        .stdout
        .contains("# no disagreement with the reference codec"));
    let (requests, seconds) = run.requests_and_seconds();
    assert!(seconds >= budget, "stopped after {seconds}s");
    assert!(requests > 1000, "only {requests} requests");
}

#[test]
fn the_built_in_reference_runs_clean_for_the_whole_budget() {
    let run = fuzz(&["--seed", "1", "--time", "3"], &[]);
    assert_clean(&run, 3.0);
}

#[test]
fn the_python_adapter_runs_clean_for_the_whole_budget() {
    let Some(python) = python() else {
        return;
    };
    let script = adapter("adapters/python/adapter.py");
    let run = fuzz(&["--seed", "1", "--time", "3"], &[python, &script]);
    assert_clean(&run, 3.0);
}

/// Kinds answered `unsupported` are generated once (in the probe) and never
/// again, and are no finding.
#[test]
fn unsupported_kinds_are_not_generated_after_the_first() {
    let Some(python) = python() else {
        return;
    };
    let script = buggy("packed_only");
    let run = fuzz(&["--count", "2000"], &[python, &script]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("decode named_guid 1, encode named_guid 1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(
        "answered `unsupported` (not generated afterwards): decode named_guid, encode named_guid"
    ));
}

/// The same seed sends the same requests, so it finds the same findings at
/// the same request and shrinks them to the same vectors.
#[test]
fn a_seed_reproduces_its_findings() {
    let Some(python) = python() else {
        return;
    };
    let script = buggy("mask_as_count");
    let a = fuzz(&["--seed", "9", "--count", "1500"], &[python, &script]);
    let b = fuzz(&["--seed", "9", "--count", "1500"], &[python, &script]);
    let c = fuzz(&["--seed", "10", "--count", "1500"], &[python, &script]);
    let seen = |r: &Run| {
        r.first_seen()
            .into_iter()
            .map(|f| (f.0, f.1))
            .collect::<Vec<_>>()
    };
    assert_eq!(seen(&a), seen(&b));
    assert_eq!(a.vectors(), b.vectors());
    assert_ne!(seen(&a), seen(&c), "another seed sends other requests");
}

#[test]
fn out_appends_each_finding_once_and_refuses_other_files() {
    let Some(python) = python() else {
        return;
    };
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A directory that does not exist yet: `--out` makes it.
    let out = dir.join("new/found.yaml");
    let out_arg = out.to_str().unwrap();
    let script = buggy("missing_nul");
    let first = fuzz(
        &["--count", "300", "--out", out_arg, "--out-all"],
        &[python, &script],
    );
    assert_eq!(first.code, 1);
    assert!(
        first.stdout.contains("1 finding(s) appended"),
        "{}",
        first.stdout
    );
    let after_first = std::fs::read_to_string(&out).unwrap();
    let script2 = buggy("sign_extend");
    let second = fuzz(
        &["--count", "300", "--out", out_arg, "--out-all"],
        &[python, &script2],
    );
    assert!(
        second.stdout.contains("2 finding(s) appended"),
        "{}",
        second.stdout
    );
    let third = fuzz(
        &["--count", "300", "--out", out_arg, "--out-all"],
        &[python, &script2],
    );
    assert!(
        third
            .stdout
            .contains("0 finding(s) appended, 2 already there"),
        "{}",
        third.stdout
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with(&after_first));
    let corpus = Corpus::from_sources(&[("found.yaml".into(), text.clone())]).unwrap();
    assert_eq!(corpus.vectors.len(), 3);
    lint_accepts(&text);

    let not_vectors = dir.join("new/notes.yaml");
    std::fs::write(&not_vectors, "just: some yaml\n").unwrap();
    let refused = fuzz(
        &["--count", "300", "--out", not_vectors.to_str().unwrap()],
        &[python, &script2],
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("nothing was appended"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&not_vectors).unwrap(),
        "just: some yaml\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finding is known when a corpus vector fails the implementation with
/// its signature, and `--out` appends only the new ones: against the whole
/// corpus a missing NUL check is known (its vectors fail the same way);
/// against a corpus without named GUIDs it is new, and appended.
#[test]
fn findings_are_marked_new_or_known_and_out_takes_the_new_ones() {
    let Some(python) = python() else {
        return;
    };
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-novelty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    let out = dir.join("found.yaml");
    let out_arg = out.to_str().unwrap();
    let script = buggy("missing_nul");
    let known = fuzz(&["--count", "300", "--out", out_arg], &[python, &script]);
    assert_eq!(known.code, 1);
    assert!(
        known.stdout.contains("1 finding(s), 0 new"),
        "{}",
        known.stdout
    );
    assert!(
        known
            .stdout
            .contains("# known: the corpus shows it, named.decode."),
        "{}",
        known.stdout
    );
    assert!(
        known
            .stdout
            .contains("0 finding(s) appended; 1 known one(s) left out"),
        "{}",
        known.stdout
    );
    let packed_only = dir.join("corpus/decode.yaml");
    std::fs::copy(adapter("../vectors/packed_guid/decode.yaml"), &packed_only).unwrap();
    let corpus_arg = dir.join("corpus");
    let new = fuzz(
        &[
            "--count",
            "300",
            "--vectors",
            corpus_arg.to_str().unwrap(),
            "--out",
            out_arg,
        ],
        &[python, &script],
    );
    assert!(new.stdout.contains("1 finding(s), 1 new"), "{}", new.stdout);
    assert!(
        new.stdout.contains("# new: no corpus vector fails"),
        "{}",
        new.stdout
    );
    assert!(
        new.stdout.contains("1 finding(s) appended"),
        "{}",
        new.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_command_that_cannot_start_is_a_harness_error() {
    let run = fuzz(&["--count", "10"], &[Path::new("/nonexistent/adapter")]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cannot start"), "{}", run.stderr);
}

#[test]
fn budgets_are_checked_before_anything_runs() {
    let run = fuzz(&["--count", "0"], &[]);
    assert_eq!(run.code, 2);
    let run = fuzz(&["--time", "soon"], &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not a duration"), "{}", run.stderr);
}

/// What a fixed seed and a fixed request count find, pinned: for each of
/// four planted bugs, the requests generated by kind, the read-backs, and
/// every finding in order with the request it was first seen at, its id
/// (a hash of the shrunk request, so the shrunk request is pinned too), its
/// occurrences, its known/new mark and how far it was shrunk. Work on the
/// loop's speed must leave all of it as it is.
#[test]
fn a_fixed_seed_finds_the_same_findings_in_the_same_order() {
    let Some(python) = python() else {
        return;
    };
    const BY_KIND: &str = "#   decode packed_guid 343, encode packed_guid 326, decode named_guid \
         336, encode named_guid 346, size packed_guid 342, size named_guid 307";
    let pinned: [(&str, &[&str]); 4] = [
        (
            "sign_extend",
            &[
                "decode packed_guid: wrong GUID (high 32 bits, too small): first seen at request 6",
                "decode packed_guid: wrong GUID (high 32 bits, too large): first seen at request 13",
                "#   and 451 read-back(s): its own encodes decoded back (round trips)",
                "#   packed.decode.found-8d1a5382  decode packed_guid: wrong GUID (high 32 bits, \
                 too small) (122 request(s)) [known: packed.decode.mask-10; shrunk fully]",
                "#   packed.decode.found-c6beca15  decode packed_guid: wrong GUID (high 32 bits, \
                 too large) (67 request(s)) [known: packed.decode.mask-80; shrunk fully]",
            ],
        ),
        (
            "name_cap",
            &[
                "decode named_guid: wrong byte count (too few): first seen at request 2",
                "decode named_guid: a value instead of an error (`invalid_utf8`): first seen at \
                 request 7",
                "decode named_guid: a value instead of an error (`eof`): first seen at request 108",
                "decode named_guid: `error invalid_utf8` instead of a value: first seen at \
                 request 518",
                "#   and 451 read-back(s): its own encodes decoded back (round trips)",
                "#   named.decode.found-65db1241  decode named_guid: wrong byte count (too few) \
                 (20 request(s)) [known: named.decode.cell.class-ends-multibyte.length-511.valid; \
                 shrunk fully]",
                "#   named.decode.found-419e2282  decode named_guid: a value instead of an error \
                 (`invalid_utf8`) (10 request(s)) [known: \
                 named.decode.cell.class-ends-invalid.length-257.invalid_utf8; shrunk fully]",
                "#   named.decode.found-8f5810a7  decode named_guid: a value instead of an error \
                 (`eof`) (13 request(s)) [known: \
                 named.decode.cell.class-ends-multibyte.length-511.missing_terminator; shrunk \
                 fully]",
                "#   named.decode.found-799de591  decode named_guid: `error invalid_utf8` instead \
                 of a value (4 request(s)) [known: \
                 named.decode.cell.class-ends-multibyte.length-257.valid; shrunk fully]",
            ],
        ),
        (
            "stateful_encoder",
            &[
                "encode packed_guid: wrong encoding (from its first part): first seen at request 10",
                "#   and 197 read-back(s): its own encodes decoded back (round trips)",
                "#   packed.encode.found-6abdf004  encode packed_guid: wrong encoding (from its \
                 first part) (254 request(s)) [known: packed.encode.mask-02; shrunk fully]",
            ],
        ),
        (
            "bound_mismatch",
            &[
                "writes what it cannot read: decode named_guid: `error name_too_long` instead of \
                 a value: first seen at request 150",
                "#   and 451 read-back(s): its own encodes decoded back (round trips)",
                "#   named.encode.found-c69981b9  writes what it cannot read: decode named_guid: \
                 `error name_too_long` instead of a value (28 request(s)) [known: \
                 named.encode.cell.class-ends-multibyte.length-257.valid.read-back; shrunk fully]",
            ],
        ),
    ];
    for (name, expected) in pinned {
        // A generous shrink time: on a loaded machine the default 30 s may
        // cut a shrink short, which would change its mark, not the loop.
        let args = ["--seed", "1", "--count", "2000", "--shrink-time", "600s"];
        let run = fuzz(&args, &[python, &buggy(name)]);
        assert_eq!(run.code, 1, "{name}:\n{}\n{}", run.stdout, run.stderr);
        let mut got: Vec<String> = run
            .first_seen()
            .into_iter()
            .map(|(signature, index, _)| format!("{signature}: first seen at request {index}"))
            .collect();
        got.extend(
            run.stdout
                .lines()
                .filter(|l| l.starts_with("#   and ") || l.contains(".found-"))
                .filter(|l| l.starts_with("#   "))
                .map(str::to_owned),
        );
        assert_eq!(got, expected, "{name}:\n{}", run.stdout);
        assert!(
            run.stdout.lines().any(|l| l == BY_KIND),
            "{name}:\n{}",
            run.stdout
        );
    }
}
