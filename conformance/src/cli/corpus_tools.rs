//! `lint`, `generate`, `seed-corpus` and `export`: the subcommands that work
//! on the corpus itself rather than on an implementation.

use std::fmt::{self, Write as _};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use wow_guid_conformance::export;
use wow_guid_conformance::known_failures;
use wow_guid_conformance::lint::{oversized, vector_bugs};
use wow_guid_conformance::seed::seed_files;
use wow_guid_harness::options::{CorpusError, CorpusSource};
use wow_guid_vectors::{generate, read_bounded, Corpus, Pipes, MAX_FILE_BYTES};

use super::args::{ExportArgs, GenerateArgs, SeedArgs};
use super::error::CliError;
use super::exit::Exit;
use super::options;
use super::stdout::print;

/// Where `lint` and `generate` take the corpus from, said in their first
/// line so nobody lints one copy believing it is another.
pub(super) enum Origin {
    /// `--vectors DIR`.
    Given(PathBuf),
    /// The `vectors/` directory of the checkout around the current directory.
    Checkout(PathBuf),
    /// The copy compiled into this runner (lint only).
    Embedded,
}

impl Origin {
    /// `--vectors DIR` if given, else the checkout's corpus, else the
    /// embedded one.
    pub(super) fn find(given: Option<&PathBuf>) -> Result<Self, CliError> {
        match given {
            Some(dir) if dir.is_dir() => Ok(Self::Given(dir.clone())),
            Some(dir) => Err(CliError::Corpus(CorpusError::NotADirectory(dir.clone()))),
            None => Ok(std::env::current_dir()
                .ok()
                .and_then(|cwd| options::checkout_vectors_dir(&cwd))
                .map_or(Self::Embedded, Self::Checkout)),
        }
    }

    pub(super) fn dir(&self) -> Option<&Path> {
        match self {
            Self::Given(dir) | Self::Checkout(dir) => Some(dir),
            Self::Embedded => None,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Given(dir) => write!(f, "the corpus in {} (--vectors)", dir.display()),
            Self::Checkout(dir) => write!(
                f,
                "the corpus of the checkout around the current directory, {}",
                dir.display()
            ),
            Self::Embedded => f.write_str(
                "the corpus embedded in this runner (no checkout around the current directory; \
                 --vectors DIR names another)",
            ),
        }
    }
}

/// Every problem of the corpus in one pass: each load error of each file,
/// then, among the vectors that did load, those whose reference response
/// would not fit in a protocol line and those the reference codec
/// disagrees with.
pub(super) fn lint(vectors: Option<&PathBuf>) -> Result<Exit, CliError> {
    let origin = Origin::find(vectors)?;
    let (corpus, errors) = match origin.dir() {
        Some(dir) => Corpus::load_dir_with_errors(dir),
        None => Corpus::embedded_with_errors(),
    };
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(text, "lint: {origin}");
    text.extend(errors.iter().map(|e| format!("{e}\n")));
    let too_long = oversized(&corpus.vectors);
    text.extend(too_long.iter().map(|o| format!("{o}\n")));
    let found = vector_bugs(&corpus.vectors);
    text.extend(found.iter().map(|d| format!("{d}\n")));
    let clean = errors.is_empty() && too_long.is_empty() && found.is_empty();
    if clean {
        let _ = writeln!(
            text,
            "lint: {} vectors; all load and agree with the reference codec",
            corpus.vectors.len()
        );
    } else {
        let _ = writeln!(
            text,
            "lint: {} load error(s); of the {} vectors that loaded, {} would need a response \
             line over the protocol's bound and {} disagree with the reference codec",
            errors.len(),
            corpus.vectors.len(),
            too_long.len(),
            found.len()
        );
    }
    print(&text)?;
    Ok(if clean { Exit::Success } else { Exit::Failure })
}

pub(super) fn generate(args: &GenerateArgs) -> Result<Exit, CliError> {
    let origin = Origin::find(args.vectors.as_ref())?;
    let Some(dir) = origin.dir().map(Path::to_owned) else {
        return Err(CliError::NoVectorsDir);
    };
    let mut text = String::new();
    let _ = writeln!(text, "generate: {origin}");
    // REFERENCE.md shows which known real implementations fail each vector:
    // their expected-failure lists, in the repository around the corpus.
    let known = match Corpus::load_dir(&dir) {
        Ok(corpus) => known_failures::read(dir.parent().unwrap_or(&dir), &corpus)
            .map_err(CliError::KnownFailures)?,
        // A corpus that does not load: `check` and `write_all` report it.
        Err(_) => Vec::new(),
    };
    if args.check {
        let mut exit = match generate::check(&dir, Some(&known)) {
            Ok(()) => {
                let _ = writeln!(text, "generate: the generated files are up to date");
                Exit::Success
            }
            Err(stale) => {
                // What would change, then the list and the command.
                text.push_str(&generate::diff(&dir, Some(&known)));
                let _ = writeln!(text, "{stale}");
                Exit::Failure
            }
        };
        if let Some(export) = exported_corpus(&dir) {
            if read_committed(&dir.join(export::COMMITTED_PATH)) != Some(export) {
                let _ = writeln!(
                    text,
                    "generate: {} is out of date (the corpus exported as JSON); run: {}",
                    export::COMMITTED_PATH,
                    generate::COMMAND
                );
                exit = Exit::Failure;
            }
        }
        print(&text)?;
        return Ok(exit);
    }
    let mut changed: Vec<String> = generate::write_all(&dir, Some(&known))
        .map_err(CliError::Generate)?
        .iter()
        .map(ToString::to_string)
        .collect();
    // The export comes from the corpus as just written.
    if let Some(export) = exported_corpus(&dir) {
        let path = dir.join(export::COMMITTED_PATH);
        if read_committed(&path).as_ref() != Some(&export) {
            generate::writable(&dir, export::COMMITTED_PATH).map_err(CliError::Generate)?;
            fs::write(&path, export).map_err(|error| CliError::Write { path, error })?;
            changed.push(format!("{}: out of date", export::COMMITTED_PATH));
        }
    }
    text.extend(changed.iter().map(|change| format!("updated {change}\n")));
    let _ = writeln!(
        text,
        "generate: {} file(s) changed under {}",
        changed.len(),
        dir.display()
    );
    print(&text)?;
    Ok(Exit::Success)
}

/// The corpus below `dir` exported as one JSON document, or `None` when it
/// does not load (`generate` reports the load errors by itself).
fn exported_corpus(dir: &Path) -> Option<String> {
    let corpus = Corpus::load_dir(dir).ok()?;
    Some(export::render(&corpus.vectors, &export::Json))
}

pub(super) fn seed_corpus(source: &CorpusSource, args: &SeedArgs) -> Result<Exit, CliError> {
    let corpus = source.load().map_err(CliError::Corpus)?;
    let files = seed_files(&corpus.vectors);
    for (relative, bytes) in &files {
        let path = args.out.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(CliError::writing(parent))?;
        }
        fs::write(&path, bytes).map_err(|error| CliError::Write { path, error })?;
    }
    print(&format!(
        "seed-corpus: wrote {} file(s) under {}\n",
        files.len(),
        args.out.display()
    ))?;
    Ok(Exit::Success)
}

pub(super) fn export(source: &CorpusSource, args: &ExportArgs) -> Result<Exit, CliError> {
    let corpus = source.load().map_err(CliError::Corpus)?;
    let text = export::render(&corpus.vectors, args.format.format);
    match &args.out {
        None => print(&text)?,
        Some(path) => {
            super::output::write(path, |out| out.write_all(text.as_bytes()))?;
            // A note on stderr, so stdout stays clean for a pipe either way;
            // a closed stderr is no reason to fail an export that succeeded.
            let _ = writeln!(
                std::io::stderr(),
                "export: {} vectors of the {} corpus written to {} ({})",
                corpus.vectors.len(),
                source.name(),
                path.display(),
                args.format.name
            );
        }
    }
    Ok(Exit::Success)
}

/// The committed export's text, if it can be read (within the limit of a
/// vector file, a regular file only); `None` makes it out of date.
fn read_committed(path: &Path) -> Option<String> {
    let bytes = read_bounded(path, MAX_FILE_BYTES, Pipes::Refuse).ok()?;
    String::from_utf8(bytes).ok()
}
