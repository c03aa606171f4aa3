//! The checked-in corpus: it loads, the embedded copy is the directory, the
//! generated files are what the generator writes, and the content the issue
//! asks for is there.

use std::collections::BTreeSet;
use std::path::Path;

use wow_guid_vectors::{generate, Corpus, ErrorCode, Expectation, Flag, Op, Version};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> Corpus {
    Corpus::load_dir(root()).unwrap_or_else(|errors| panic!("{errors}"))
}

/// Fails when a generated vector file is stale. To rewrite them during
/// development without the runner:
/// `VECTORS_REGENERATE=1 cargo test -p wow-guid-vectors --test main corpus::generated_files_are_up_to_date`
/// (the runner's `generate` calls the same `generate::write_all`). `REFERENCE.md`
/// shows the expected-failure lists of the runner's adapters, so only the
/// runner's `generate` writes and checks it.
#[test]
fn generated_files_are_up_to_date() {
    if std::env::var_os("VECTORS_REGENERATE").is_some_and(|v| v == "1") {
        let changed = generate::write_all(root(), None).unwrap_or_else(|e| panic!("{e}"));
        for drift in changed {
            eprintln!("regenerated: {drift}");
        }
    }
    if let Err(err) = generate::check(root(), None) {
        panic!(
            "{err}\n(or, without the runner: VECTORS_REGENERATE=1 cargo test -p wow-guid-vectors \
             --test main corpus::generated_files_are_up_to_date)"
        );
    }
}

#[test]
fn embedded_corpus_is_the_directory() {
    let embedded = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    assert_eq!(embedded, corpus());
}

#[test]
fn files_come_in_sorted_order() {
    let corpus = corpus();
    let files: Vec<&str> = corpus.vectors.iter().map(|v| &*v.location.file).collect();
    let mut sorted = files.clone();
    sorted.sort_unstable();
    assert_eq!(files, sorted);
    assert!(files.iter().all(|f| !f.contains('\\')));
}

#[test]
fn hundreds_of_vectors_and_every_flag_in_use() {
    let corpus = corpus();
    assert!(corpus.vectors.len() >= 500, "{}", corpus.vectors.len());
    let used: BTreeSet<Flag> = corpus
        .iter()
        .flat_map(|v| v.flags.iter().copied())
        .collect();
    for flag in Flag::ALL {
        assert!(used.contains(flag), "no vector has flag {flag}");
    }
}

#[test]
fn ids_say_type_and_op() {
    for v in &corpus() {
        let prefix = format!("{}.", v.request.kind().id_prefix());
        assert!(
            v.id.starts_with(&prefix),
            "{}: {} should start with {prefix}",
            v.location,
            v.id
        );
    }
}

#[test]
fn versions_follow_the_type() {
    for v in &corpus() {
        assert_eq!(
            &*v.versions,
            v.request.guid_type().versions(),
            "{}: {}",
            v.location,
            v.id
        );
    }
    assert!(!corpus()
        .get("named.decode.ascii")
        .unwrap()
        .applies_to(Version::Vanilla));
}

#[test]
fn generated_flag_marks_exactly_the_generated_files() {
    for v in &corpus() {
        assert_eq!(
            v.has_flag(Flag::Generated),
            v.location.file.starts_with("generated/"),
            "{}: {}",
            v.location,
            v.id
        );
    }
}

#[test]
fn the_cases_the_issue_asks_for_are_present() {
    let corpus = corpus();
    let has = |id: &str| assert!(corpus.get(id).is_some(), "missing {id}");
    for mask in 0..=255u8 {
        has(&format!("packed.decode.mask-{mask:02x}"));
        has(&format!("packed.encode.mask-{mask:02x}"));
    }
    for len in 1..9 {
        has(&format!("packed.decode.truncated.ff.len-{len}"));
    }
    for position in 0..8 {
        for byte in ["00", "7f", "80", "ff"] {
            has(&format!("packed.decode.single.byte{position}-{byte}"));
        }
        has(&format!("packed.decode.sign-bit.byte{position}-80"));
        has(&format!("packed.encode.byte{position}-01"));
    }
    for len in ["255", "256", "257", "300", "4096"] {
        has(&format!("named.decode.long-name.{len}"));
        has(&format!("named.encode.long-name.{len}"));
    }
    for class in [
        "lone-continuation",
        "overlong-2",
        "surrogate-high",
        "above-max",
        "cut-3",
    ] {
        has(&format!("named.decode.invalid-utf8.{class}"));
        has(&format!("named.encode.invalid-utf8.{class}"));
    }
    for id in [
        "packed.decode.doc-example",
        "packed.encode.doc-example",
        "packed.decode.empty",
        "packed.decode.non-canonical.all-zero",
        "packed.decode.mask-as-count.02",
        "packed.encode.max",
        "named.decode.zero",
        "named.decode.zero.trailing",
        "named.decode.empty-name",
        "named.decode.utf8-2",
        "named.decode.utf8-3",
        "named.decode.utf8-4",
        "named.decode.missing-nul",
        "named.decode.truncated.len-7",
        "named.encode.interior-nul",
        "named.encode.name-without-guid",
        "named.encode.name-without-guid.empty",
        "named.encode.no-name",
    ] {
        has(id);
    }
    assert_eq!(
        corpus.get("named.encode.interior-nul").unwrap().expect,
        Expectation::Invalid(ErrorCode::InteriorNul)
    );
}

/// Every request kind has a stateful sequence of its own, all of whose steps
/// are of that kind, so that selecting by type or op takes it whole; and a
/// vector is a step of a sequence exactly when it has the `stateful` flag.
/// A sequence may also mix kinds (a fuzz finding where an encoder and a
/// decoder share state is one): selecting any of its steps runs it whole.
#[test]
fn every_request_kind_has_a_stateful_sequence_of_its_own() {
    let corpus = corpus();
    let mut kinds = std::collections::BTreeMap::new();
    for v in &corpus {
        assert_eq!(v.sequence.is_some(), v.has_flag(Flag::Stateful), "{}", v.id);
        if let Some(name) = &v.sequence {
            let kind = Some((v.request.guid_type(), v.request.op()));
            let first = kinds.entry(name.clone()).or_insert(kind);
            if *first != kind {
                *first = None; // a sequence of mixed kinds
            }
        }
    }
    let covered: std::collections::BTreeSet<_> = kinds.values().flatten().collect();
    assert_eq!(covered.len(), 4, "{kinds:?}");
    let steps = corpus
        .steps_through("packed.encode.stateful.08-one-again")
        .unwrap();
    assert_eq!(steps.len(), 8);
    assert!(steps.iter().all(|v| v.request.op() == Op::Encode));
}

/// A family the generator wrote once and writes no more.
const OLD_FAMILY: &str = "# GENERATED FILE: do not edit.\nvectors: []\n";

/// A fresh folder under the system's temporary one.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wow-guid-vectors-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn generate_writes_nothing_outside_the_corpus_and_removes_only_its_own_files() {
    use std::os::unix::fs::symlink;
    let base = scratch("refusals");
    let corpus = base.join("corpus");
    let outside = base.join("outside");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("precious.yaml"), "mine\n").unwrap();

    // Not a corpus root: nothing is written, not even generated/.
    let err = generate::write_all(&corpus, None).unwrap_err();
    assert!(err.message.contains("is not a corpus root"), "{err}");
    assert!(!corpus.join("generated").exists());
    for marker in generate::CORPUS_MARKERS {
        std::fs::write(corpus.join(marker), "").unwrap();
    }

    // generated/ as a link out of the corpus: refused, the target untouched.
    symlink(&outside, corpus.join("generated")).unwrap();
    let err = generate::write_all(&corpus, None).unwrap_err();
    // One sentence, spaced as written (a lost line continuation once put
    // 26 spaces in it).
    assert!(
        err.message.ends_with(
            " is a symbolic link; generate writes no file through a link (replace it with a \
             plain file or folder)"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("precious.yaml")).unwrap(),
        "mine\n"
    );
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    std::fs::remove_file(corpus.join("generated")).unwrap();

    // A generated file as a link: refused, nothing written through it.
    std::fs::create_dir_all(corpus.join("generated")).unwrap();
    let (first, _) = &generate::files()[0];
    symlink(outside.join("precious.yaml"), corpus.join(first)).unwrap();
    let err = generate::write_all(&corpus, None).unwrap_err();
    assert_eq!(&err.path, first);
    assert_eq!(
        std::fs::read_to_string(outside.join("precious.yaml")).unwrap(),
        "mine\n"
    );
    // ... and no other file was written before the refusal.
    assert_eq!(
        std::fs::read_dir(corpus.join("generated")).unwrap().count(),
        1
    );
    std::fs::remove_file(corpus.join(first)).unwrap();

    // A YAML file in generated/ that generate did not write is kept.
    std::fs::write(corpus.join("generated/by-hand.yaml"), "vectors: []\n").unwrap();
    let err = generate::write_all(&corpus, None).unwrap_err();
    assert_eq!(err.path, "generated/by-hand.yaml");
    assert!(err.message.contains("did not write it"), "{err}");
    assert!(corpus.join("generated/by-hand.yaml").exists());

    // One it did write, and writes no more, goes.
    std::fs::remove_file(corpus.join("generated/by-hand.yaml")).unwrap();
    std::fs::write(corpus.join("generated/old-family.yaml"), OLD_FAMILY).unwrap();
    generate::write_all(&corpus, None).unwrap();
    assert!(!corpus.join("generated/old-family.yaml").exists());
    generate::check(&corpus, None).unwrap();
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn check_names_stale_missing_and_extra_files_and_write_all_repairs_them() {
    let dir = std::env::temp_dir().join(format!("wow-guid-vectors-drift-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let files = generate::files();

    // An empty corpus root (its notes and format, nothing else): every
    // generated file and the reference page are missing.
    std::fs::create_dir_all(&dir).unwrap();
    for marker in generate::CORPUS_MARKERS {
        std::fs::write(dir.join(marker), "").unwrap();
    }
    let err = generate::check(&dir, Some(&[])).unwrap_err();
    assert_eq!(err.0.len(), files.len() + 1);
    assert!(err
        .0
        .iter()
        .all(|d| matches!(d, generate::Drift::Missing(_))));
    assert!(err
        .0
        .contains(&generate::Drift::Missing("REFERENCE.md".to_owned())));

    generate::write_all(&dir, Some(&[])).unwrap();
    generate::check(&dir, Some(&[])).unwrap();
    assert_eq!(generate::write_all(&dir, Some(&[])).unwrap(), Vec::new());

    let (stale, _) = &files[0];
    let (missing, _) = &files[1];
    std::fs::write(dir.join(stale), "vectors: []\n").unwrap();
    std::fs::remove_file(dir.join(missing)).unwrap();
    std::fs::write(dir.join("generated/old-family.yaml"), OLD_FAMILY).unwrap();
    let err = generate::check(&dir, Some(&[])).unwrap_err();
    assert_eq!(
        err.0,
        [
            generate::Drift::Stale(stale.clone()),
            generate::Drift::Missing(missing.clone()),
            generate::Drift::Extra("generated/old-family.yaml".to_owned()),
        ]
    );
    let message = err.to_string();
    assert!(
        message.contains(&format!("{stale}: out of date")),
        "{message}"
    );
    assert!(
        message.ends_with(&format!(
            "run `{}` and commit the result",
            generate::COMMAND
        )),
        "{message}"
    );

    // The same three changes as a unified diff: the spoilt file's line
    // replaced by the generator's, the missing file from /dev/null, the
    // extra one to it.
    let diff = generate::diff(&dir, Some(&[]));
    let stale_contents = &files[0].1;
    for expected in [
        format!("--- a/{stale}\n+++ b/{stale}\n@@ -1 +1,"),
        "-vectors: []\n".to_owned(),
        format!("+{}\n", stale_contents.lines().next().unwrap_or_default()),
        format!("--- /dev/null\n+++ b/{missing}\n@@ -0,0 +1,"),
        "--- a/generated/old-family.yaml\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-# GENERATED FILE: do not edit.\n-vectors: []\n".to_owned(),
    ] {
        assert!(diff.contains(&expected), "no `{expected}` in\n{diff}");
    }

    assert_eq!(generate::write_all(&dir, Some(&[])).unwrap(), err.0);
    generate::check(&dir, Some(&[])).unwrap();
    assert_eq!(generate::diff(&dir, Some(&[])), "");
    assert!(!dir.join("generated/old-family.yaml").exists());

    // A hand-written vector added: the reference page is stale until
    // regenerated, and then lists it under its id.
    std::fs::create_dir_all(dir.join("packed_guid")).unwrap();
    std::fs::write(
        dir.join("packed_guid/extra.yaml"),
        "vectors:\n  - id: packed.decode.reference-test\n    description: A hand-written case.\n    \
         type: packed_guid\n    op: decode\n    input: { bytes: \"01 05 ff\" }\n    outcome: valid\n    \
         expect: { guid: \"0000000000000005\", consumed: 2 }\n    versions: [vanilla]\n",
    )
    .unwrap();
    let err = generate::check(&dir, Some(&[])).unwrap_err();
    assert_eq!(err.0, [generate::Drift::Stale("REFERENCE.md".to_owned())]);
    generate::write_all(&dir, Some(&[])).unwrap();
    let page = std::fs::read_to_string(dir.join("REFERENCE.md")).unwrap();
    assert!(page.contains("<a id=\"packed.decode.reference-test\"></a>"));

    // A broken hand-written file: the page cannot be rendered, and says why.
    std::fs::write(dir.join("packed_guid/extra.yaml"), "vectors: [").unwrap();
    let err = generate::check(&dir, Some(&[])).unwrap_err();
    assert!(
        matches!(&err.0[..], [generate::Drift::Unreadable { path, message }]
            if path == "REFERENCE.md" && message.contains("does not load")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every flag a vector's bytes imply is written on it, and no flag that
/// follows from bytes is written on a vector whose bytes do not imply it:
/// one meaning for each topic, in generated and hand-written files alike.
#[test]
fn flags_agree_with_what_the_bytes_imply() {
    use wow_guid_vectors::topics::derived_flags;
    let purpose = [
        Flag::DocExample,
        Flag::MaskSweep,
        Flag::FaultCell,
        Flag::MaskAsCount,
        Flag::Stateful,
        Flag::Generated,
    ];
    let mut wrong = Vec::new();
    for v in &corpus() {
        let derived = derived_flags(&v.request, &v.expect);
        let written: Vec<Flag> = v
            .flags
            .iter()
            .copied()
            .filter(|f| !purpose.contains(f))
            .collect();
        let missing: Vec<String> = derived
            .iter()
            .filter(|f| !written.contains(f))
            .map(ToString::to_string)
            .collect();
        let extra: Vec<String> = written
            .iter()
            .filter(|f| !derived.contains(f))
            .map(ToString::to_string)
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            wrong.push(format!(
                "{} ({}): missing [{}], not implied [{}]",
                v.id,
                v.location,
                missing.join(", "),
                extra.join(", ")
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} vectors:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_vector_file_linked_from_outside_the_corpus_is_not_read() {
    use std::os::unix::fs::symlink;
    let base = scratch("symlink-out");
    let corpus = base.join("corpus");
    std::fs::create_dir_all(corpus.join("sub")).unwrap();
    let secret = base.join("token.yaml");
    std::fs::write(&secret, "ghp_SECRETTOKEN0123456789abcdefghijklmnop\n").unwrap();
    symlink(&secret, corpus.join("sub/stolen.yaml")).unwrap();
    // A link to a file inside the corpus is read like the file.
    std::fs::write(
        corpus.join("sub/vectors.txt"),
        "vectors:\n  - id: linked.decode.example\n    description: Linked.\n    type: packed_guid\n    \
         op: decode\n    input: { bytes: \"00\" }\n    outcome: valid\n    \
         expect: { guid: \"0000000000000000\", consumed: 1 }\n    versions: [vanilla, tbc, wrath]\n",
    )
    .unwrap();
    symlink(corpus.join("sub/vectors.txt"), corpus.join("alias.yaml")).unwrap();

    let errors = Corpus::load_dir(&corpus).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors}");
    let message = errors.to_string();
    assert!(message.contains("sub/stolen.yaml"), "{message}");
    assert!(message.contains("outside the corpus"), "{message}");
    assert!(
        !message.contains("SECRET") && !message.contains("ghp_"),
        "{message}"
    );
    std::fs::remove_file(corpus.join("sub/stolen.yaml")).unwrap();
    let loaded = Corpus::load_dir(&corpus).unwrap();
    assert_eq!(loaded.vectors[0].id, "linked.decode.example");
    let _ = std::fs::remove_dir_all(&base);
}
