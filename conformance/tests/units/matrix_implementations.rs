//! The unit tests of `matrix::implementations`, through the crate's API.

use std::num::NonZeroUsize;
use std::path::Path;
use wow_guid_conformance::matrix::implementations::*;

fn no_env(_: &str) -> Option<String> {
    None
}

fn load(text: &str) -> Result<ImplementationsFile, Vec<ImplementationsError>> {
    parse(Path::new("matrix/impls.yaml"), text, &no_env)
}

fn one_error(text: &str) -> ImplementationsError {
    let errors = load(text).expect_err("the file is invalid");
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.into_iter().next().unwrap()
}

const GOOD: &str = "\
implementations:
  - name: ref
    language: Rust
    version: \"1.0\"
    source: { repository: this repository }
    builtin: reference
  - name: py
    language: Python
    version: \"0.1\"
    source: { package: x }
    command: [python3, ../adapters/a.py, \"${TARGET:-../target}/x\", --flag]
    window: 1
    note: hello
";

#[test]
fn a_good_file_loads_with_paths_resolved() {
    let file = load(GOOD).unwrap();
    assert_eq!(file.implementations.len(), 2);
    let py = &file.implementations[1];
    assert_eq!(py.name, "py");
    assert_eq!(py.line, 7);
    assert_eq!(py.window, NonZeroUsize::new(1));
    assert_eq!(py.note.as_deref(), Some("hello"));
    let Launch::Command { written, resolved } = &py.launch else {
        panic!("a command")
    };
    assert_eq!(written[2], "${TARGET:-../target}/x");
    assert_eq!(
        resolved,
        &[
            "python3",
            "matrix/../adapters/a.py",
            "matrix/../target/x",
            "--flag"
        ]
    );
    assert_eq!(
        file.implementations[0].launch,
        Launch::Builtin(Builtin::Reference)
    );
}

#[test]
fn variables_come_from_the_environment() {
    let env = |name: &str| (name == "TARGET").then(|| "/abs".to_owned());
    let file = parse(Path::new("impls.yaml"), GOOD, &env).unwrap();
    let Launch::Command { resolved, .. } = &file.implementations[1].launch else {
        panic!("a command")
    };
    assert_eq!(resolved[2], "/abs/x");
    assert_eq!(
        expand("${NOPE}", &no_env),
        Err(ImplementationsErrorKind::UnsetVariable("NOPE".into()))
    );
    assert_eq!(
        expand("${OPEN", &no_env),
        Err(ImplementationsErrorKind::BadVariable("${OPEN".into()))
    );
    assert_eq!(expand("a${X:-}b", &no_env), Ok("ab".into()));
}

#[test]
fn unknown_and_missing_fields_are_located() {
    let error = one_error(&GOOD.replace("note: hello", "notes: hello"));
    assert_eq!(
        error.to_string(),
        "matrix/impls.yaml:13:5: unknown field `notes`, expected one of name, language, \
         version, source, command, builtin, window, note"
    );
    let error = one_error(&GOOD.replace("    language: Python\n", ""));
    assert!(error.to_string().contains("language"), "{error}");
}

#[test]
fn duplicate_names_keys_and_bad_launches_are_errors() {
    let error = one_error(&GOOD.replace("name: py", "name: ref"));
    assert_eq!(
        error.kind,
        ImplementationsErrorKind::DuplicateName {
            name: "ref".into(),
            first: 2
        }
    );
    assert_eq!(error.line, 7);
    // The parser's words for a person editing the file, not the ones for a
    // programmer (which suggested setting `DuplicateKeyPolicy`).
    let error = one_error(&GOOD.replace("    note: hello\n", "    note: hello\n    note: again\n"));
    assert_eq!(
        error.to_string(),
        "matrix/impls.yaml:14:5: duplicate mapping key `note` is not allowed here"
    );
    let error = one_error(&GOOD.replace("    builtin: reference\n", ""));
    assert_eq!(
        error.kind,
        ImplementationsErrorKind::CommandOrBuiltin { both: false }
    );
    let error = one_error(&GOOD.replace("builtin: reference", "builtin: other"));
    assert_eq!(
        error.kind,
        ImplementationsErrorKind::UnknownBuiltin("other".into())
    );
    assert_eq!((error.line, error.column), (6, 14));
    let error = one_error(&GOOD.replace("window: 1", "window: 0"));
    assert_eq!(error.kind, ImplementationsErrorKind::ZeroWindow);
    let error = one_error(&GOOD.replace("source: { package: x }", "source: {}"));
    assert_eq!(error.kind, ImplementationsErrorKind::EmptySource);
    let error = one_error("implementations: []\n");
    assert_eq!(error.kind, ImplementationsErrorKind::Empty);
    let errors = load(&GOOD.replace(
        "python3, ../adapters/a.py, \"${TARGET:-../target}/x\", --flag",
        "",
    ))
    .unwrap_err();
    assert_eq!(errors[0].kind, ImplementationsErrorKind::EmptyCommand);
}

#[test]
fn a_pipe_has_no_directory_to_resolve_against() {
    let dir = std::env::temp_dir().join(format!("impls-base-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("impls.yaml");
    std::fs::write(&file, GOOD).unwrap();
    assert_eq!(base_dir(&file), dir.as_path());
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(base_dir(&fifo), Path::new(""));
    let parsed = parse_in(&fifo, base_dir(&fifo), GOOD, &no_env).unwrap();
    let Launch::Command { resolved, .. } = &parsed.implementations[1].launch else {
        panic!("a command")
    };
    assert_eq!(resolved[1], "../adapters/a.py");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nested_defaults_expand_and_too_deep_ones_are_errors() {
    let home = |name: &str| (name == "HOME").then(|| "/home/me".to_owned());
    assert_eq!(expand("${X:-${HOME}}", &home), Ok("/home/me".into()));
    assert_eq!(
        expand("${X:-${HOME}/a}/b", &home),
        Ok("/home/me/a/b".into())
    );
    assert_eq!(expand("${X:-${Y:-../t}}/c", &no_env), Ok("../t/c".into()));
    assert_eq!(
        expand("${X:-${Y}}", &no_env),
        Err(ImplementationsErrorKind::UnsetVariable("Y".into()))
    );
    assert_eq!(
        expand("${X:-${Y:-a}", &no_env),
        Err(ImplementationsErrorKind::BadVariable("${X:-${Y:-a}".into()))
    );
    let deep = format!(
        "{}x{}",
        "${A:-".repeat(MAX_NESTING + 1),
        "}".repeat(MAX_NESTING + 1)
    );
    assert!(matches!(
        expand(&deep, &no_env),
        Err(ImplementationsErrorKind::BadVariable(_))
    ));
    let fine = format!(
        "{}x{}",
        "${A:-".repeat(MAX_NESTING),
        "}".repeat(MAX_NESTING)
    );
    assert_eq!(expand(&fine, &no_env), Ok("x".into()));
}

#[test]
fn relative_paths_from_the_environment_are_relative_to_the_current_directory() {
    let env = |name: &str| (name == "TARGET").then(|| "./target".to_owned());
    let file = parse(Path::new("matrix/impls.yaml"), GOOD, &env).unwrap();
    let Launch::Command { resolved, .. } = &file.implementations[1].launch else {
        panic!("a command")
    };
    // The file's own `../adapters` is relative to its directory; the
    // variable's `./target` is the current directory's, as for cargo.
    assert_eq!(resolved[1], "matrix/../adapters/a.py");
    assert_eq!(resolved[2], "./target/x");
}

#[test]
fn untrusted_names_reach_messages_escaped_and_bounded() {
    // YAML's double-quoted escapes: the name holds real ESC and BEL bytes.
    let evil = r"ref\x1b]0;owned\x07\x1b]52;c;aGk=\x07\x1b[2J";
    let text = GOOD
        .replace("name: py", &format!("name: \"{evil}\""))
        .replace("name: ref", &format!("name: \"{evil}\""));
    let message = one_error(&text).to_string();
    assert!(
        !message.contains('\x1b') && !message.contains('\x07'),
        "{message:?}"
    );
    assert!(message.contains(r"ref\x1b]0;owned\x07"), "{message}");
    let long = "n".repeat(100_000);
    let text = GOOD
        .replace("name: py", &format!("name: {long}"))
        .replace("name: ref", &format!("name: {long}"));
    let message = one_error(&text).to_string();
    assert!(message.len() < 400, "{} bytes", message.len());
    assert!(message.contains("(100000 bytes in all)"), "{message}");
}
