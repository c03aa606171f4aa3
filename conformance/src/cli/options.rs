//! Turning parsed arguments into validated options: durations and words
//! (for clap), and the corpus, selection, expected-failure list and process
//! configuration, each checked against what it refers to.

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use wow_guid_vectors::Corpus;

use super::args::{CorpusArgs, ProcessArgs, SelectArgs};
use super::error::CliError;
use crate::expect_fail::ExpectedFailures;
use crate::process::{Mode, ProcessConfig};
use crate::select::Selection;

/// A duration argument that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DurationError {
    /// Not a number with an optional `ms` or `s` unit.
    Syntax(String),
    /// Zero: every wait would fail at once.
    Zero,
    /// Longer than a day: surely a slip.
    TooLong,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(s) => write!(
                f,
                "`{s}` is not a duration; write a number of seconds (5, 2.5, 5s) or milliseconds (500ms)"
            ),
            Self::Zero => f.write_str("a timeout of zero would fail every request"),
            Self::TooLong => f.write_str("durations are limited to one day"),
        }
    }
}

impl std::error::Error for DurationError {}

/// Reads `5`, `5s`, `2.5`, `2.5s` or `500ms`.
///
/// # Errors
/// [`DurationError`] for anything else, zero, or more than a day.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        (text, 1.0)
    };
    let syntax = || DurationError::Syntax(text.to_owned());
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(syntax());
    }
    let value: f64 = number.parse().map_err(|_| syntax())?;
    let seconds = value * scale;
    if seconds > 86_400.0 {
        return Err(DurationError::TooLong);
    }
    let duration = Duration::from_secs_f64(seconds);
    if duration.is_zero() {
        return Err(DurationError::Zero);
    }
    Ok(duration)
}

/// A word argument (type, op, flag, version) that is not one of the allowed ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordError {
    /// The vectors crate's explanation, which lists the allowed words.
    pub message: String,
}

impl fmt::Display for WordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WordError {}

/// Reads a word with the vectors crate's own parser, so the CLI accepts
/// exactly the spellings the YAML format does.
///
/// # Errors
/// [`WordError`] with the parser's message.
pub fn parse_word<T: FromStr>(text: &str) -> Result<T, WordError>
where
    T::Err: fmt::Display,
{
    text.parse().map_err(|e: T::Err| WordError {
        message: e.to_string(),
    })
}

/// Where a corpus came from, for reports.
pub(crate) fn corpus_name(args: &CorpusArgs) -> String {
    args.vectors
        .as_ref()
        .map_or_else(|| "embedded".to_owned(), |d| d.display().to_string())
}

/// Loads the corpus `args` names: the embedded one, or every file below `--vectors DIR`.
pub(crate) fn load_corpus(args: &CorpusArgs) -> Result<Corpus, CliError> {
    match &args.vectors {
        None => Corpus::embedded().map_err(|errors| CliError::Corpus {
            source: "the embedded corpus".into(),
            errors,
        }),
        Some(dir) => {
            if !dir.is_dir() {
                return Err(CliError::NotADirectory(dir.clone()));
            }
            Corpus::load_dir(dir).map_err(|errors| CliError::Corpus {
                source: dir.display().to_string(),
                errors,
            })
        }
    }
}

/// The selection `args` describe.
pub(crate) fn selection(args: &SelectArgs) -> Result<Selection, CliError> {
    let mut selection = Selection::all()
        .with_id_patterns(&args.ids)
        .map_err(CliError::Pattern)?;
    selection.types.clone_from(&args.types);
    selection.ops.clone_from(&args.ops);
    selection.flags.clone_from(&args.flags);
    selection.versions.clone_from(&args.versions);
    Ok(selection)
}

/// Reads and checks an expected-failure list against the whole corpus.
pub(crate) fn expected_failures(
    path: &Path,
    corpus: &Corpus,
) -> Result<ExpectedFailures, CliError> {
    let text = fs::read_to_string(path).map_err(|error| CliError::Read {
        path: path.to_owned(),
        error,
    })?;
    ExpectedFailures::parse(
        &path.display().to_string(),
        &text,
        corpus.vectors.iter().map(|v| v.id.as_str()),
    )
    .map_err(CliError::ExpectFail)
}

/// The command to run: the one given, or this executable's `serve`.
pub(crate) fn command_or_builtin(command: &[OsString]) -> Result<(Vec<OsString>, bool), CliError> {
    if command.is_empty() {
        let exe = std::env::current_exe().map_err(CliError::CurrentExe)?;
        Ok((vec![exe.into_os_string(), "serve".into()], true))
    } else {
        Ok((command.to_vec(), false))
    }
}

/// The process configuration `args` describe, for `command`.
pub(crate) fn process_config(args: &ProcessArgs, command: Vec<OsString>) -> ProcessConfig {
    let mut config = ProcessConfig::new(command);
    config.timeout = args.timeout;
    config.startup_timeout = args.startup_timeout;
    config.mode = if args.one_shot {
        Mode::OneShot
    } else {
        Mode::Persistent {
            window: NonZeroUsize::new(args.window as usize).unwrap_or(NonZeroUsize::MIN),
        }
    };
    config
}

/// The default vectors directory for `generate`: the source tree's, when
/// this binary was built from one that still exists.
pub(crate) fn default_vectors_dir() -> Option<PathBuf> {
    let dir = Path::new(wow_guid_vectors::SOURCE_DIR);
    dir.is_dir().then(|| dir.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_seconds_and_milliseconds() {
        assert_eq!(parse_duration("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("0"), Err(DurationError::Zero));
        assert_eq!(
            parse_duration("1e3"),
            Err(DurationError::Syntax("1e3".into()))
        );
        assert_eq!(
            parse_duration("-1s"),
            Err(DurationError::Syntax("-1s".into()))
        );
        assert_eq!(
            parse_duration("5m"),
            Err(DurationError::Syntax("5m".into()))
        );
        assert_eq!(parse_duration("100000"), Err(DurationError::TooLong));
        assert!(parse_duration("x")
            .unwrap_err()
            .to_string()
            .contains("500ms"));
    }
}
