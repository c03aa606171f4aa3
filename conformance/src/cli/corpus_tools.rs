//! `lint`, `generate`, `seed-corpus` and `export`: the subcommands that work
//! on the corpus itself rather than on an implementation.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;

use wow_guid_conformance::export;
use wow_guid_conformance::lint::disagreements;
use wow_guid_conformance::options::{CorpusError, CorpusSource};
use wow_guid_conformance::seed::seed_files;
use wow_guid_vectors::generate;

use super::args::{ExportArgs, GenerateArgs, SeedArgs};
use super::error::CliError;
use super::exit::Exit;
use super::options;
use super::stdout::print;

pub(super) fn lint(source: &CorpusSource) -> Result<Exit, CliError> {
    let name = source.name();
    let corpus = match source.load() {
        Ok(corpus) => corpus,
        // Structural problems are lint findings, not a harness failure.
        Err(CorpusError::Load { errors, .. }) => {
            let mut text = String::new();
            for e in &errors.0 {
                // Writing to a String cannot fail.
                let _ = writeln!(text, "{e}");
            }
            let _ = writeln!(
                text,
                "lint: {} problem(s) in the {name} corpus",
                errors.0.len()
            );
            print(&text)?;
            return Ok(Exit::Failure);
        }
        Err(other) => return Err(CliError::Corpus(other)),
    };
    let found = disagreements(&corpus.vectors);
    let mut text = String::new();
    for d in &found {
        let _ = writeln!(text, "{d}");
    }
    if found.is_empty() {
        let _ = writeln!(
            text,
            "lint: {} vectors in the {name} corpus; all load and agree with the reference codec",
            corpus.vectors.len()
        );
    } else {
        let _ = writeln!(
            text,
            "lint: {} of {} vectors disagree with the reference codec",
            found.len(),
            corpus.vectors.len()
        );
    }
    print(&text)?;
    Ok(if found.is_empty() {
        Exit::Success
    } else {
        Exit::Failure
    })
}

pub(super) fn generate(args: &GenerateArgs) -> Result<Exit, CliError> {
    let dir = match &args.vectors {
        Some(dir) if dir.is_dir() => dir.clone(),
        Some(dir) => return Err(CliError::Corpus(CorpusError::NotADirectory(dir.clone()))),
        None => options::default_vectors_dir().ok_or(CliError::NoVectorsDir)?,
    };
    let mut text = String::new();
    if args.check {
        let exit = match generate::check(&dir) {
            Ok(()) => {
                let _ = writeln!(
                    text,
                    "generate: the generated files under {} are up to date",
                    dir.display()
                );
                Exit::Success
            }
            Err(stale) => {
                // Writing to a String cannot fail.
                let _ = writeln!(text, "{stale}");
                Exit::Failure
            }
        };
        print(&text)?;
        return Ok(exit);
    }
    let changed = generate::write_all(&dir).map_err(CliError::Generate)?;
    for change in &changed {
        let _ = writeln!(text, "updated {change}");
    }
    let _ = writeln!(
        text,
        "generate: {} file(s) changed under {}",
        changed.len(),
        dir.display()
    );
    print(&text)?;
    Ok(Exit::Success)
}

pub(super) fn seed_corpus(source: &CorpusSource, args: &SeedArgs) -> Result<Exit, CliError> {
    let corpus = source.load().map_err(CliError::Corpus)?;
    let files = seed_files(&corpus.vectors);
    for (relative, bytes) in &files {
        let path = args.out.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|error| CliError::Write {
                path: parent.to_owned(),
                error,
            })?;
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
    let text = export::render(&corpus.vectors, args.format);
    match &args.out {
        None => print(&text)?,
        Some(path) => {
            fs::write(path, &text).map_err(|error| CliError::Write {
                path: path.clone(),
                error,
            })?;
            // A note on stderr, so stdout stays clean for a pipe either way;
            // a closed stderr is no reason to fail an export that succeeded.
            let _ = writeln!(
                std::io::stderr(),
                "export: {} vectors of the {} corpus written to {} ({})",
                corpus.vectors.len(),
                source.name(),
                path.display(),
                args.format
            );
        }
    }
    Ok(Exit::Success)
}
