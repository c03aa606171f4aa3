//! The unit tests of `fuzzing::finding`, through the crate's API.

use std::path::Path;
use std::time::Duration;
use std::{fs, io};
use wow_guid_conformance::disagreement::Disagreement;
use wow_guid_conformance::fuzzing::append::*;
use wow_guid_conformance::fuzzing::finding::*;
use wow_guid_harness::classify::Signature;
use wow_guid_harness::implementation::Fault;
use wow_guid_harness::judge::Mismatch;
use wow_guid_vectors::{Corpus, Expectation, Flag, Request, Vector, MAX_FILE_BYTES};

/// A crash: the implementation's process ended before it answered.
fn crash() -> Mismatch {
    Mismatch::Fault(Fault::Exited {
        status: "exit status: 1".into(),
        partial: wow_guid_harness::implementation::Excerpt::default(),
    })
}

/// A GUID wrong in its high 32 bits, too large.
fn sign_extended() -> Mismatch {
    Mismatch::WrongValue {
        expected: wow_guid_vectors::Value::Packed {
            guid: 0x80,
            consumed: 2,
        },
        got: wow_guid_vectors::Value::Packed {
            guid: 0xffff_ffff_0000_0080,
            consumed: 2,
        },
    }
}

fn finding(prefix: Vec<Request>, request: Request, mismatch: Mismatch) -> Finding {
    let signature = Signature::of(request.kind(), &mismatch);
    Finding {
        signature,
        prefix,
        request: request.clone(),
        disagreement: Disagreement {
            signature,
            mismatch: mismatch.clone(),
            reply: Err(Fault::Exited {
                status: "exit status: 1".into(),
                partial: wow_guid_harness::implementation::Excerpt::default(),
            }),
            read_back: None,
        },
        original: request,
        reproduction: Reproduction::Alone,
        shrink: None,
        occurrences: 3,
        first_index: 7,
        found_after: Duration::from_millis(20),
        seed: 42,
        in_corpus: None,
        novelty: Novelty::Unchecked,
    }
}

fn every_shape() -> Vec<Finding> {
    let mut long = vec![b'a'; 300];
    long[150] = 0xc3;
    long[151] = 0xa9;
    vec![
        finding(vec![], Request::DecodePacked { bytes: vec![] }, crash()),
        finding(
            vec![],
            Request::DecodePacked {
                bytes: vec![0x0a, 0xde, 0xad, 7],
            },
            crash(),
        ),
        finding(vec![], Request::EncodePacked { guid: u64::MAX }, crash()),
        finding(
            vec![],
            Request::DecodeNamed {
                bytes: [&[1u8, 0, 0, 0, 0, 0, 0, 0][..], &long, &[0, 9]].concat(),
            },
            crash(),
        ),
        finding(
            vec![],
            Request::DecodeNamed {
                bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, 0xff],
            },
            crash(),
        ),
        finding(
            vec![],
            Request::EncodeNamed {
                guid: 5,
                name: None,
            },
            crash(),
        ),
        finding(
            vec![],
            Request::EncodeNamed {
                guid: 0,
                name: Some(vec![]),
            },
            crash(),
        ),
        finding(
            vec![],
            Request::EncodeNamed {
                guid: 5,
                name: Some(b"a\0b".to_vec()),
            },
            crash(),
        ),
        finding(
            vec![
                Request::EncodePacked { guid: 1 },
                Request::DecodePacked { bytes: vec![0] },
            ],
            Request::EncodePacked { guid: 0 },
            Mismatch::WrongValue {
                expected: wow_guid_vectors::Value::Encoded { bytes: vec![0] },
                got: wow_guid_vectors::Value::Encoded { bytes: vec![1] },
            },
        ),
    ]
}

#[test]
fn every_shape_of_finding_is_a_vector_file_that_loads() {
    let findings = every_shape();
    let text = file_text("a header\nof two lines", &findings);
    let corpus = Corpus::from_sources(&[("found.yaml".into(), text.clone())])
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let written: Vec<Vector> = findings.iter().flat_map(Finding::vectors).collect();
    assert_eq!(corpus.vectors.len(), written.len());
    for (read, v) in corpus.vectors.iter().zip(&written) {
        assert_eq!(
            (&read.id, &read.request, &read.expect, &read.flags),
            (&v.id, &v.request, &v.expect, &v.flags)
        );
        assert_eq!(
            read.source.as_deref(),
            Some(
                "NOTES.md#summary-of-positions: found by differential fuzzing, seed 42; \
                 expects the reference codec's answer"
            )
        );
    }
    let steps: Vec<&Vector> = corpus
        .vectors
        .iter()
        .filter(|v| v.has_flag(Flag::Stateful))
        .collect();
    assert_eq!(steps.len(), 3);
    assert!(steps[2].description.starts_with("Step 3 of 3"));
    let acceptable = corpus
        .vectors
        .iter()
        .filter(|v| matches!(v.expect, Expectation::Acceptable { .. }))
        .count();
    assert_eq!(acceptable, 2, "no name, and GUID 0 with an empty name");
}

#[test]
fn ids_depend_on_the_requests_only() {
    let a = finding(
        vec![],
        Request::DecodePacked {
            bytes: vec![8, 0x80],
        },
        sign_extended(),
    );
    let mut b = a.clone();
    b.seed = 1;
    b.occurrences = 99;
    assert_eq!(a.id(), b.id());
    assert!(a.id().starts_with("packed.decode.found-"));
    assert_eq!(a.id().len(), "packed.decode.found-".len() + 8);
    let c = finding(
        vec![],
        Request::DecodePacked {
            bytes: vec![8, 0x81],
        },
        sign_extended(),
    );
    assert_ne!(a.id(), c.id());
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wow-guid-fuzz-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir.join("found.yaml")
}

#[test]
fn append_creates_extends_and_skips_known_ids() {
    let path = temp_file("append");
    let findings = every_shape();
    let a = append(&path, "header", &findings[..2]).unwrap();
    assert_eq!(
        a,
        Appended {
            written: 2,
            already_there: 0
        }
    );
    let a = append(&path, "header", &findings[1..4]).unwrap();
    assert_eq!(
        a,
        Appended {
            written: 2,
            already_there: 1
        }
    );
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# header\nvectors:\n"));
    let corpus = Corpus::from_sources(&[("found.yaml".into(), text)]).unwrap();
    assert_eq!(corpus.vectors.len(), 4);
    let _ = fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn append_follows_the_file_s_indentation_and_refuses_other_files() {
    let path = temp_file("indent");
    let existing = "vectors:\n- id: mine.one\n  description: Mine.\n  type: packed_guid\n  op: decode\n  \
                    input: { bytes: \"00\" }\n  outcome: valid\n  expect: { guid: \"0000000000000000\", consumed: 1 }\n  \
                    versions: [vanilla]\n";
    fs::write(&path, existing).unwrap();
    let a = append(&path, "header", &every_shape()[..1]).unwrap();
    assert_eq!(a.written, 1);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(existing));
    assert_eq!(
        Corpus::from_sources(&[("found.yaml".into(), text)])
            .unwrap()
            .vectors
            .len(),
        2
    );

    fs::write(&path, "vectors: 3\n").unwrap();
    assert!(matches!(
        append(&path, "header", &every_shape()[..1]),
        Err(AppendError::NotAVectorFile(_))
    ));
    assert_eq!(fs::read_to_string(&path).unwrap(), "vectors: 3\n");
    let _ = fs::remove_dir_all(path.parent().unwrap());
}

/// A findings file named through a symbolic link: its target gets the
/// findings and the link stays (a rename over the link replaced it with a
/// file, and the target never saw them).
#[cfg(unix)]
#[test]
fn append_writes_through_a_symbolic_link() {
    let path = temp_file("link");
    let link = path.with_file_name("link.yaml");
    std::os::unix::fs::symlink("found.yaml", &link).unwrap();
    assert_eq!(
        append(&link, "header", &every_shape()[..2])
            .unwrap()
            .written,
        2
    );
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(
        Corpus::from_sources(&[("found.yaml".into(), text)])
            .unwrap()
            .vectors
            .len(),
        2
    );
    let _ = fs::remove_dir_all(path.parent().unwrap());
}

/// The findings file is held to a vector file's rules before it is read:
/// a device or a directory is refused at once (`/dev/zero` would never
/// end), and so is a file over the size limit.
#[test]
fn append_refuses_what_is_not_a_vector_file_before_reading_it() {
    for path in ["/dev/zero", "/"] {
        match append(Path::new(path), "header", &every_shape()[..1]) {
            Err(AppendError::Io(e)) => {
                assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{path}: {e}");
                assert!(e.to_string().contains("not a regular file"), "{path}: {e}");
            }
            other => panic!("{path}: {other:?}"),
        }
    }
    let path = temp_file("too-large");
    let file = fs::File::create(&path).unwrap();
    file.set_len(MAX_FILE_BYTES + 1).unwrap();
    match append(&path, "header", &every_shape()[..1]) {
        Err(AppendError::Io(e)) => {
            assert_eq!(e.kind(), io::ErrorKind::FileTooLarge, "{e}");
            assert!(
                e.to_string().contains("more than a vector file's limit"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    let _ = fs::remove_dir_all(path.parent().unwrap());
}

/// The comment above a finding quotes the answer as UTF-8: a fault's
/// words keep their `…` (once written as `\xe2\x80\xa6`), while the
/// implementation's own bytes stay escaped and control characters cannot
/// break the comment's line.
#[test]
fn comments_write_utf8_and_escape_control_characters() {
    let mut f = finding(vec![], Request::EncodePacked { guid: 1 }, crash());
    let line = [&b"x ok \xff"[..], &[b'z'; 300]].concat();
    f.disagreement.reply = Err(Fault::Malformed {
        line: wow_guid_harness::implementation::Excerpt::of(&line),
        error: wow_guid_harness::protocol::parse_response(
            &line,
            "x",
            &Request::EncodePacked { guid: 1 },
        )
        .expect_err("not ASCII"),
    });
    let comment = f.comment("  ");
    let answer = comment
        .lines()
        .find(|l| l.starts_with("  # answer:"))
        .expect("an answer line");
    assert!(answer.contains("… ("), "{answer}");
    assert!(!answer.contains("\\xe2"), "{answer}");
    assert!(answer.contains("x ok \\xff"), "{answer}");
    assert_eq!(comment_text("a\nb\u{7}…", 10), "a\\nb\\u{7}…");
    assert_eq!(comment_text("abcdef", 3), "abc…");
}

#[test]
fn concurrent_appends_to_one_file_keep_every_finding() {
    let findings = every_shape();
    for round in 0..10 {
        let path = temp_file(&format!("concurrent-{round}"));
        std::thread::scope(|scope| {
            for f in &findings {
                let path = &path;
                scope.spawn(move || append(path, "header", std::slice::from_ref(f)).unwrap());
            }
        });
        let text = fs::read_to_string(&path).unwrap();
        let corpus = Corpus::from_sources(&[("found.yaml".into(), text)]).unwrap();
        let expected: usize = findings.iter().map(|f| f.vectors().len()).sum();
        assert_eq!(corpus.vectors.len(), expected, "round {round}");
        // Nothing is left beside the file: the temporary one was renamed.
        let entries = fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1);
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }
}
