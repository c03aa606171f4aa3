//! `matrix`: load the implementations file and the corpus, build the matrix,
//! write its four files, print where they are.

use std::fmt::Write as _;
use std::fs;
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::Duration;

use wow_guid_conformance::matrix::model::{Header, Matrix, Page, CELL_OUTCOMES};
use wow_guid_conformance::matrix::{self, implementations, MatrixOptions};
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::terminal::escape_bounded;

use super::args::MatrixArgs;
use super::options;
use super::stdout::print;
use super::{CliError, Exit};

/// Runs `matrix`: builds the matrix `args` describe, writes its files and
/// prints a summary.
pub(super) fn matrix(args: &MatrixArgs) -> Result<Exit, CliError> {
    let text = options::read(&args.implementations)?;
    let base = implementations::base_dir(&args.implementations);
    let file = implementations::parse_in(&args.implementations, base, &text, &|name| {
        std::env::var(name).ok()
    })
    .map_err(CliError::Implementations)?;
    let source = options::corpus_source(&args.corpus);
    let corpus = source.load().map_err(CliError::Corpus)?;
    let header = Header {
        corpus: source.name(),
        corpus_size: corpus.vectors.len(),
        strict_errors: args.strict_errors,
        implementations_file: args.implementations.display().to_string(),
    };
    let options = MatrixOptions {
        judge: JudgeOptions {
            strict_errors: args.strict_errors,
        },
        jobs: NonZeroUsize::new(usize::from(args.jobs)).unwrap_or(NonZeroUsize::MIN),
        timeout: args.timeouts.timeout.0,
        startup_timeout: args.timeouts.startup_timeout.0,
        serve: options::target(&[])?.argv().to_vec(),
    };
    let started = std::time::Instant::now();
    let built = matrix::build(header, &corpus.vectors, &file.implementations, &options)
        .map_err(CliError::Matrix)?;
    let command = options.rerun_line(
        "wow-guid-conformance",
        &source,
        &args.out,
        &args.implementations,
    );

    let page = Page {
        matrix: &built,
        command: &command,
    };
    let files: Vec<(&str, Vec<u8>)> = matrix::FILES
        .iter()
        .map(|(name, format)| {
            let mut bytes = Vec::new();
            format
                .write(&page, &mut bytes)
                .expect("writing to a Vec cannot fail");
            (*name, bytes)
        })
        .collect();
    write_set(&args.out, &files)?;

    print(&summary(&built, started.elapsed(), &args.out))?;
    Ok(Exit::Success)
}

/// What `matrix` prints when done: the totals, a line for each
/// implementation with its counts and causes, and the files written into
/// `out`; `elapsed` is how long building the matrix took.
fn summary(built: &Matrix, elapsed: Duration, out: &Path) -> String {
    // Writing to a String cannot fail.
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "{} vectors against {} implementations in {:.1} s; they disagree on {} vectors.",
        built.rows.len(),
        built.columns.len(),
        elapsed.as_secs_f64(),
        built.disagreements()
    );
    // Each column as wide as its widest cell, so that a long name or
    // version moves the whole column rather than one row out of line.
    let names: Vec<String> = built
        .columns
        .iter()
        .map(|c| escape_bounded(&c.entry.name, 60))
        .collect();
    let versions: Vec<String> = built
        .columns
        .iter()
        .map(|c| escape_bounded(&c.entry.version, 30))
        .collect();
    let width = |cells: &[String]| cells.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let (name_width, version_width) = (width(&names), width(&versions));
    for ((c, name), version) in built.columns.iter().zip(&names).zip(&versions) {
        let parts: Vec<String> = CELL_OUTCOMES
            .iter()
            .filter(|o| c.counts.get(**o) > 0)
            .map(|o| format!("{} {}", c.counts.get(*o), o.as_str()))
            .collect();
        let _ = writeln!(
            summary,
            "  {name:<name_width$} {version:<version_width$} {}; {} cause(s)",
            parts.join(", "),
            c.causes.len()
        );
    }
    let names: Vec<&str> = matrix::FILES.iter().map(|(name, _)| *name).collect();
    let _ = writeln!(summary, "wrote {}: {}", out.display(), names.join(", "));
    summary
}

/// Writes the matrix's files into `out` as one set: each into a temporary
/// directory inside `out`, then each renamed into place, all under a lock on
/// `out`. Two runs into one directory leave one run's whole set, never a mix,
/// and a run that fails or is killed before the renames leaves the previous
/// set as it was (its temporary directory is removed by the next run).
fn write_set(out: &Path, files: &[(&str, Vec<u8>)]) -> Result<(), CliError> {
    fs::create_dir_all(out).map_err(CliError::writing(out))?;
    let lock = fs::File::open(out).map_err(CliError::writing(out))?;
    lock.lock().map_err(CliError::writing(out))?;
    // Under the lock no other run is writing: any temporary directory here
    // is what a killed run left.
    for entry in fs::read_dir(out).map_err(CliError::writing(out))?.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".matrix-tmp-")
        {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
    // A name that cannot be replaced (a directory in the way) is found
    // before any file of the set is.
    for (name, _) in files {
        let path = out.join(name);
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            return Err(CliError::writing(&path)(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "a directory is in the way; nothing of the matrix was written",
            )));
        }
    }
    let temp = out.join(format!(".matrix-tmp-{}", std::process::id()));
    let written = (|| {
        fs::create_dir(&temp).map_err(CliError::writing(&temp))?;
        for (name, bytes) in files {
            let path = temp.join(name);
            fs::write(&path, bytes).map_err(CliError::writing(&path))?;
        }
        for (name, _) in files {
            let path = out.join(name);
            fs::rename(temp.join(name), &path).map_err(CliError::writing(&path))?;
        }
        Ok(())
    })();
    let _ = fs::remove_dir_all(&temp);
    written
}
