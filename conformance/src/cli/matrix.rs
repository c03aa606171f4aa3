//! `matrix`: load the implementations file and the corpus, build the matrix,
//! write its four files, print where they are.

use std::fs;
use std::io::Write as _;
use std::num::NonZeroUsize;

use wow_guid_conformance::internal::matrix::model::{Header, CELL_OUTCOMES};
use wow_guid_conformance::internal::matrix::{self, implementations, MatrixOptions};
use wow_guid_conformance::internal::report::rerun::MatrixCommand;
use wow_guid_conformance::judge::JudgeOptions;

use super::args::MatrixArgs;
use super::options;
use super::stdout::print;
use super::{CliError, Exit};

pub(super) fn matrix(args: &MatrixArgs) -> Result<Exit, CliError> {
    let text = options::read(&args.implementations)?;
    let file = implementations::parse(&args.implementations, &text, &|name| {
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
    let command = MatrixCommand {
        corpus: &source,
        judge: options.judge,
        timeout: options.timeout,
        startup_timeout: options.startup_timeout,
        out: &args.out,
        implementations: &args.implementations,
    }
    .line("wow-guid-conformance");

    fs::create_dir_all(&args.out).map_err(|error| CliError::Write {
        path: args.out.clone(),
        error,
    })?;
    let write = |name: &str, bytes: &[u8]| -> Result<(), CliError> {
        let path = args.out.join(name);
        fs::write(&path, bytes).map_err(|error| CliError::Write { path, error })
    };
    let mut json = Vec::new();
    matrix::json::write(&built, &mut json).expect("writing to a Vec cannot fail");
    write("matrix.json", &json)?;
    write("matrix.schema.json", matrix::json::SCHEMA.as_bytes())?;
    write(
        "matrix.md",
        matrix::markdown::render(&built, &command).as_bytes(),
    )?;
    write(
        "index.html",
        matrix::html::render(&built, &command).as_bytes(),
    )?;

    let mut summary = Vec::new();
    let _ = writeln!(
        summary,
        "{} vectors against {} implementations in {:.1} s; they disagree on {} vectors.",
        built.rows.len(),
        built.columns.len(),
        started.elapsed().as_secs_f64(),
        built.disagreements()
    );
    for c in &built.columns {
        let parts: Vec<String> = CELL_OUTCOMES
            .iter()
            .filter(|o| c.counts.get(**o) > 0)
            .map(|o| format!("{} {}", c.counts.get(*o), o.as_str()))
            .collect();
        let _ = writeln!(
            summary,
            "  {:<28} {:<10} {}; {} cause(s)",
            c.entry.name,
            c.entry.version,
            parts.join(", "),
            c.causes.len()
        );
    }
    let _ = writeln!(
        summary,
        "wrote {}: matrix.json, matrix.schema.json, matrix.md, index.html",
        args.out.display()
    );
    print(&String::from_utf8_lossy(&summary))?;
    Ok(Exit::Success)
}
