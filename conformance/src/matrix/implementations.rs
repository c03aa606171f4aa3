//! The implementations file: which implementations a matrix compares, where
//! each comes from, and how to start it. Its format, every field and the
//! rules for `${NAME}` and relative paths are in `docs/matrix.md`, the one
//! home of that reference; this module is the code that holds to it.
//!
//! Loading is strict, as the corpus's is: an unknown field, a missing one, a
//! value of the wrong type, a duplicate key or a duplicate name is an error
//! naming the file, line and column. Parsing is pure; the caller reads the
//! file and supplies the environment.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_saphyr::Spanned;

use wow_guid_harness::terminal::escape_bounded;

/// How many characters of a name or a word from the file an error message
/// quotes; a longer one is cut, with its length.
const SHOWN_CHARS: usize = 80;

/// A parsed implementations file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImplementationsFile {
    /// The implementations, in the file's order.
    pub implementations: Vec<ImplementationEntry>,
}

/// One implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImplementationEntry {
    /// Unique name.
    pub name: String,
    /// Language.
    pub language: String,
    /// Version tested.
    pub version: String,
    /// Where it comes from.
    pub source: Source,
    /// How to start it.
    pub launch: Launch,
    /// Requests in flight at once, if not the default.
    pub window: Option<NonZeroUsize>,
    /// A line for the reader.
    pub note: Option<String>,
    /// 1-based line of the entry in the file.
    pub line: usize,
}

/// Where an implementation comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// A registry package.
    #[serde(default)]
    pub package: Option<String>,
    /// A repository (a URL, or `this repository`).
    #[serde(default)]
    pub repository: Option<String>,
    /// A path within that repository.
    #[serde(default)]
    pub path: Option<String>,
}

/// How to start an implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A command line, as written in the file and as it will run.
    Command {
        /// The words as written.
        written: Vec<String>,
        /// The words with variables expanded and relative paths resolved.
        resolved: Vec<String>,
    },
    /// An implementation inside the runner.
    Builtin(Builtin),
}

/// Implementations inside the runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// The reference codec.
    Reference,
}

impl Builtin {
    /// The word for it in the file.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Reference => "reference",
        }
    }
}

/// A problem with an implementations file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct ImplementationsError {
    /// The file's name as given.
    pub file: String,
    /// 1-based line, when known.
    pub line: usize,
    /// 1-based column, when known.
    pub column: usize,
    /// What is wrong.
    pub kind: ImplementationsErrorKind,
}

/// What is wrong with an implementations file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImplementationsErrorKind {
    /// The YAML does not parse, or does not have the file's shape (an
    /// unknown or missing field, a wrong type, a duplicate key): the
    /// parser's own description.
    #[error("{}", escape_bounded(.0, SHOWN_CHARS * 4))]
    Shape(String),
    /// The file lists no implementation.
    #[error("`implementations` lists no implementation")]
    Empty,
    /// A required text field is empty.
    #[error("`{0}` must not be empty")]
    EmptyField(&'static str),
    /// Two implementations have the same name.
    #[error("the name `{}` is already used on line {first}", escape_bounded(.name, SHOWN_CHARS))]
    DuplicateName {
        /// The name.
        name: String,
        /// Line of the first one.
        first: usize,
    },
    /// `source` names neither a package, a repository nor a path.
    #[error("`source` must give at least one of `package`, `repository` and `path`")]
    EmptySource,
    /// Both `command` and `builtin`, or neither.
    #[error("{}", if *.both {
        "give either `command` or `builtin`, not both"
    } else {
        "give `command` (the program and its arguments) or `builtin: reference`"
    })]
    CommandOrBuiltin {
        /// Whether both were given (else neither).
        both: bool,
    },
    /// `command` is an empty list, or its program is empty.
    #[error("`command` must start with a program name")]
    EmptyCommand,
    /// `builtin` is not a known implementation.
    #[error(
        "there is no built-in implementation `{}` (the one there is: `reference`)",
        escape_bounded(.0, SHOWN_CHARS)
    )]
    UnknownBuiltin(String),
    /// `window` is 0.
    #[error("`window` must be at least 1")]
    ZeroWindow,
    /// A command word uses a variable that is not set and has no default.
    #[error(
        "the environment variable `{name}` is not set; set it, or write `${{{name}:-default}}`",
        name = escape_bounded(.0, SHOWN_CHARS)
    )]
    UnsetVariable(String),
    /// A command word has `${` without a closing `}`, or an empty name.
    #[error(
        "`{}`: a variable is written `${{NAME}}` or `${{NAME:-default}}` (a default may use \
         variables too, nested at most {MAX_NESTING} deep)",
        escape_bounded(.0, SHOWN_CHARS)
    )]
    BadVariable(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    implementations: Spanned<Vec<Spanned<RawEntry>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: Spanned<String>,
    language: Spanned<String>,
    version: Spanned<String>,
    source: Spanned<Source>,
    #[serde(default)]
    command: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    builtin: Option<Spanned<String>>,
    #[serde(default)]
    window: Option<Spanned<usize>>,
    #[serde(default)]
    note: Option<String>,
}

/// Parses the implementations file `text`, read from `file` (whose directory
/// relative command paths are resolved against), with `env` looking up
/// environment variables. Returns every problem found, each located.
pub fn parse(
    file: &Path,
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ImplementationsFile, Vec<ImplementationsError>> {
    parse_in(file, file.parent().unwrap_or(Path::new("")), text, env)
}

/// The directory relative command paths of the implementations file at
/// `file` are resolved against: the file's own directory, or, for a file
/// that is not a regular file (a pipe, as `<(...)` gives, whose name is
/// `/dev/fd/63`), the current directory, written as the empty path.
#[must_use]
pub fn base_dir(file: &Path) -> &Path {
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => file.parent().unwrap_or(Path::new("")),
        _ => Path::new(""),
    }
}

/// [`parse`] with relative command paths resolved against `base` (see
/// [`base_dir`]) rather than the directory of `file`.
///
/// # Errors
/// Every problem found, each located, as for [`parse`].
pub fn parse_in(
    file: &Path,
    base: &Path,
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ImplementationsFile, Vec<ImplementationsError>> {
    let name = file.display().to_string();
    let at = |line: u64, column: u64, kind| ImplementationsError {
        file: name.clone(),
        line: usize::try_from(line).unwrap_or(usize::MAX),
        column: usize::try_from(column).unwrap_or(usize::MAX),
        kind,
    };
    let raw: RawFile = serde_saphyr::from_str(text).map_err(|error| {
        let (line, column) = error.location().map_or((0, 0), |l| (l.line(), l.column()));
        vec![at(
            line,
            column,
            ImplementationsErrorKind::Shape(wow_guid_vectors::yaml::parser_message(&error)),
        )]
    })?;
    let mut errors = Vec::new();
    let mut implementations = Vec::new();
    if raw.implementations.value.is_empty() {
        let l = &raw.implementations.referenced;
        errors.push(at(l.line(), l.column(), ImplementationsErrorKind::Empty));
    }
    for entry in raw.implementations.value {
        let here = entry.referenced;
        let entry = entry.value;
        let mut fail =
            |l: &serde_saphyr::Location, kind| errors.push(at(l.line(), l.column(), kind));
        check_fields(&entry, &implementations, &mut fail);
        let window = window(&entry, &mut fail);
        if let Some(launch) = launch(&entry, &here, base, env, &mut fail) {
            implementations.push(ImplementationEntry {
                name: entry.name.value,
                language: entry.language.value,
                version: entry.version.value,
                source: entry.source.value,
                launch,
                window,
                note: entry.note,
                line: usize::try_from(here.line()).unwrap_or(usize::MAX),
            });
        }
    }
    if errors.is_empty() {
        Ok(ImplementationsFile { implementations })
    } else {
        Err(errors)
    }
}

/// Reports a problem at a place in the file, as [`parse_in`] collects them.
type Fail<'a> = dyn FnMut(&serde_saphyr::Location, ImplementationsErrorKind) + 'a;

/// Checks the fields of `entry` that do not decide how it is started: the
/// texts are not empty, `source` names something, and no implementation
/// before it (`earlier`) has its name.
fn check_fields(entry: &RawEntry, earlier: &[ImplementationEntry], fail: &mut Fail<'_>) {
    for (field, value) in [
        ("name", &entry.name),
        ("language", &entry.language),
        ("version", &entry.version),
    ] {
        if value.value.trim().is_empty() {
            fail(
                &value.referenced,
                ImplementationsErrorKind::EmptyField(field),
            );
        }
    }
    let source = &entry.source.value;
    if source.package.is_none() && source.repository.is_none() && source.path.is_none() {
        fail(
            &entry.source.referenced,
            ImplementationsErrorKind::EmptySource,
        );
    }
    if let Some(prior) = earlier.iter().find(|e| e.name == entry.name.value) {
        fail(
            &entry.name.referenced,
            ImplementationsErrorKind::DuplicateName {
                name: entry.name.value.clone(),
                first: prior.line,
            },
        );
    }
}

/// The entry's `window`, if it gives one of at least 1.
fn window(entry: &RawEntry, fail: &mut Fail<'_>) -> Option<NonZeroUsize> {
    let w = entry.window.as_ref()?;
    let window = NonZeroUsize::new(w.value);
    if window.is_none() {
        fail(&w.referenced, ImplementationsErrorKind::ZeroWindow);
    }
    window
}

/// How to start the implementation of `entry` (which starts at `here`):
/// its `builtin`, or its `command` with variables expanded and paths made
/// relative to `base`; `None` after reporting why neither works.
fn launch(
    entry: &RawEntry,
    here: &serde_saphyr::Location,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    fail: &mut Fail<'_>,
) -> Option<Launch> {
    match (&entry.command, &entry.builtin) {
        (Some(_), Some(builtin)) => {
            fail(
                &builtin.referenced,
                ImplementationsErrorKind::CommandOrBuiltin { both: true },
            );
            None
        }
        (None, None) => {
            fail(
                here,
                ImplementationsErrorKind::CommandOrBuiltin { both: false },
            );
            None
        }
        (None, Some(builtin)) => match builtin.value.as_str() {
            "reference" => Some(Launch::Builtin(Builtin::Reference)),
            other => {
                fail(
                    &builtin.referenced,
                    ImplementationsErrorKind::UnknownBuiltin(other.to_owned()),
                );
                None
            }
        },
        (Some(command), None) => command_launch(command, base, env, fail),
    }
}

/// A `command` launch: the words as written and as resolved (variables
/// expanded, paths made relative to `base`); `None` after reporting an
/// empty program or a word that does not expand.
fn command_launch(
    command: &Spanned<Vec<Spanned<String>>>,
    base: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    fail: &mut Fail<'_>,
) -> Option<Launch> {
    if command
        .value
        .first()
        .is_none_or(|program| program.value.is_empty())
    {
        fail(&command.referenced, ImplementationsErrorKind::EmptyCommand);
        return None;
    }
    let mut resolved = Vec::new();
    for word in &command.value {
        match expand_word(&word.value, env, 0) {
            Ok((expanded, true)) => resolved.push(relative_to(base, expanded)),
            // A relative path from the environment means what it means to
            // the shell and to cargo: relative to the directory the runner
            // runs in.
            Ok((expanded, false)) => resolved.push(expanded),
            Err(kind) => fail(&word.referenced, kind),
        }
    }
    (resolved.len() == command.value.len()).then(|| Launch::Command {
        written: command.value.iter().map(|w| w.value.clone()).collect(),
        resolved,
    })
}

/// How deep `${A:-${B:-...}}` defaults may nest: more is surely a slip,
/// and a bound keeps a hostile file from recursing without end.
pub const MAX_NESTING: usize = 8;

/// Expands `${NAME}` and `${NAME:-default}` in `word`; a default may itself
/// use variables (`${X:-${HOME}/x}`).
pub fn expand(
    word: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ImplementationsErrorKind> {
    expand_word(word, env, 0).map(|(expanded, _)| expanded)
}

/// [`expand`], at `depth` defaults deep, also saying whether the expansion
/// starts with text of the file (written or a default) rather than with a
/// variable's value: only the file's own `./` and `../` are relative to
/// its directory.
fn expand_word(
    word: &str,
    env: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> Result<(String, bool), ImplementationsErrorKind> {
    let bad = || ImplementationsErrorKind::BadVariable(word.to_owned());
    let mut out = String::new();
    let mut starts_in_file = None;
    let mut push = |out: &mut String, text: &str, in_file: bool| {
        if out.is_empty() && !text.is_empty() {
            starts_in_file = Some(in_file);
        }
        out.push_str(text);
    };
    let mut rest = word;
    while let Some(start) = rest.find("${") {
        push(&mut out, &rest[..start], true);
        let after = &rest[start + 2..];
        let end = closing_brace(after).ok_or_else(bad)?;
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad());
        }
        match (env(name).filter(|v| !v.is_empty()), default) {
            (Some(value), _) => push(&mut out, &value, false),
            (None, Some(default)) => {
                if depth >= MAX_NESTING {
                    return Err(bad());
                }
                let (value, in_file) = expand_word(default, env, depth + 1)?;
                push(&mut out, &value, in_file);
            }
            (None, None) => return Err(ImplementationsErrorKind::UnsetVariable(name.to_owned())),
        }
        rest = &after[end + 1..];
    }
    push(&mut out, rest, true);
    Ok((out, starts_in_file.unwrap_or(true)))
}

/// The index of the `}` that closes a `${` whose text starts `text`,
/// stepping over the `${...}` nested in a default.
fn closing_brace(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"${") {
            depth += 1;
            i += 2;
            continue;
        }
        if bytes[i] == b'}' {
            if depth == 0 {
                return Some(i);
            }
            depth -= 1;
        }
        i += 1;
    }
    None
}

/// `word` joined to `base` if it begins with `./` or `../`.
fn relative_to(base: &Path, word: String) -> String {
    if word.starts_with("./") || word.starts_with("../") {
        let joined: PathBuf = base.join(&word);
        joined.display().to_string()
    } else {
        word
    }
}
