//! `release check`, `release show` and `release cut`: what a copy of the
//! corpus is, a release's canonical JSON (whose sha256 is the digest a
//! specification cites), and cutting a new release. The rules are the
//! vectors crate's (`wow_guid_vectors::release`); this module reads and
//! writes the files and prints.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use wow_guid_harness::options::CorpusError;
use wow_guid_vectors::release::{self, Label, Release, CHANGELOG_PATH, RELEASES_DIR, RETIRED_PATH};
use wow_guid_vectors::{read_bounded, Corpus, Pipes, Vector, MAX_FILE_BYTES};

use super::args::{ReleaseAction, ReleaseCutArgs, ReleaseShowArgs};
use super::corpus_tools::Origin;
use super::error::CliError;
use super::exit::Exit;
use super::stdout::print;

pub(super) fn release(action: &ReleaseAction) -> Result<Exit, CliError> {
    match action {
        ReleaseAction::Check(args) => check(args.vectors.as_ref()),
        ReleaseAction::Show(args) => show(args),
        ReleaseAction::Cut(args) => cut(args),
    }
}

/// The corpus of `origin`, or every load error.
fn load(origin: &Origin) -> Result<Corpus, CliError> {
    let (loaded, source) = match origin.dir() {
        Some(dir) => (Corpus::load_dir(dir), dir.display().to_string()),
        None => (Corpus::embedded(), "the embedded corpus".into()),
    };
    loaded.map_err(|errors| CliError::Corpus(CorpusError::Load { source, errors }))
}

/// The releases this runner was built with.
fn embedded() -> Result<Vec<Release>, CliError> {
    release::embedded().map_err(|e| CliError::Release(e.to_string()))
}

/// A text file below the corpus root, read as the loader reads files;
/// `None` when it does not exist.
fn read_text(dir: &Path, relative: &str) -> Result<Option<String>, CliError> {
    let path = dir.join(relative);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read_bounded(&path, MAX_FILE_BYTES, Pipes::Refuse)
        .map_err(|e| CliError::Release(format!("{relative}: {e}")))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| CliError::Release(format!("{relative}: not UTF-8")))
}

/// The retired ids of a corpus directory (none for the embedded corpus,
/// which has none).
fn retired(origin: &Origin) -> Result<Vec<String>, CliError> {
    Ok(match origin.dir() {
        Some(dir) => read_text(dir, RETIRED_PATH)?
            .map(|text| release::retired_ids(&text))
            .unwrap_or_default(),
        None => Vec::new(),
    })
}

/// Every release against the corpus, and what the corpus is.
fn check(vectors: Option<&std::path::PathBuf>) -> Result<Exit, CliError> {
    let origin = Origin::find(vectors)?;
    let corpus = load(&origin)?;
    let releases = embedded()?;
    let retired = retired(&origin)?;
    let mut text = format!("release check: {origin}\n");
    let mut kept = true;
    for r in &releases {
        let problems = release::broken_promises(r, &retired, &corpus.vectors);
        if problems.is_empty() {
            let _ = writeln!(
                text,
                "corpus {}: kept ({} vectors, sha256 {})",
                r.version,
                r.entries.len(),
                r.sha256
            );
        } else {
            kept = false;
            let _ = writeln!(
                text,
                "corpus {}: broken ({} problem(s)):",
                r.version,
                problems.len()
            );
            text.extend(problems.iter().map(|p| format!("  {p}\n")));
        }
    }
    let _ = writeln!(
        text,
        "release check: {} vectors; this corpus is {}",
        corpus.vectors.len(),
        Label::of(&corpus.vectors, &releases)
    );
    print(&text)?;
    Ok(if kept { Exit::Success } else { Exit::Failure })
}

/// The release's canonical JSON, from the corpus's vectors.
fn show(args: &ReleaseShowArgs) -> Result<Exit, CliError> {
    let origin = Origin::find(args.vectors.as_ref())?;
    let corpus = load(&origin)?;
    let releases = embedded()?;
    let Some(r) = releases.iter().find(|r| r.version == args.version) else {
        let known: Vec<&str> = releases.iter().map(|r| r.version.as_str()).collect();
        return Err(CliError::Release(format!(
            "there is no release {}; the releases are {}",
            args.version,
            known.join(", ")
        )));
    };
    let vectors = released_vectors(r, &corpus)?;
    print(&release::canonical_json(&r.version, &vectors))?;
    Ok(Exit::Success)
}

/// `release`'s vectors from `corpus`, in the release's order.
fn released_vectors<'a>(r: &Release, corpus: &'a Corpus) -> Result<Vec<&'a Vector>, CliError> {
    let mut vectors = Vec::with_capacity(r.entries.len());
    let mut missing = Vec::new();
    for entry in &r.entries {
        match corpus.get(&entry.id) {
            Some(v) => vectors.push(v),
            None => missing.push(entry.id.as_str()),
        }
    }
    if missing.is_empty() {
        return Ok(vectors);
    }
    Err(CliError::Release(format!(
        "this corpus lacks {} vector(s) of release {}, so it is not a copy of it (the first: \
         `{}`)",
        missing.len(),
        r.version,
        missing[0]
    )))
}

/// Cuts a release: the list, the changelog's section, then the generated
/// files from a runner rebuilt to know the new release.
fn cut(args: &ReleaseCutArgs) -> Result<Exit, CliError> {
    let version = args.version.as_str();
    let Some(number) = Release::parse_version(version) else {
        return Err(CliError::Release(format!(
            "`{version}` is not a version: <major>.<minor>.<patch>, such as 1.2.0"
        )));
    };
    let origin = Origin::find(args.vectors.as_ref())?;
    let Some(dir) = origin.dir().map(Path::to_owned) else {
        return Err(CliError::Release(
            "release cut writes into a checkout's vectors/ directory, and there is no checkout \
             around the current directory; run it inside one or pass --vectors DIR"
                .to_owned(),
        ));
    };
    let corpus = load(&origin)?;
    let releases = on_disk(&dir)?;
    let retired = retired(&origin)?;
    may_cut(version, number, &releases, &retired, &corpus.vectors)?;
    let changelog = read_text(&dir, CHANGELOG_PATH)?.unwrap_or_default();
    let vectors: Vec<&Vector> = corpus.vectors.iter().collect();
    let list = release::write_release(version, &vectors);
    let digest = release::sha256(&release::canonical_json(version, &vectors));
    let Some(changelog) = released_changelog(&changelog, version, &corpus.vectors, &digest) else {
        return Err(CliError::Release(format!(
            "{CHANGELOG_PATH} has no `## Unreleased` section: write what release {version} \
             brings there first"
        )));
    };
    let list_path = write_cut(&dir, version, &list, &changelog)?;
    let mut text = format!(
        "release cut: {origin}\nwrote {} ({} vectors, sha256 {digest})\nupdated {CHANGELOG_PATH} \
         (`## Unreleased` is now `## {version}`)\n",
        list_path.display(),
        corpus.vectors.len()
    );
    if args.no_generate {
        let _ = writeln!(
            text,
            "release cut: now run `{}` (it rebuilds the runner, which then knows {version})",
            wow_guid_vectors::generate::COMMAND
        );
        print(&text)?;
        return Ok(Exit::Success);
    }
    print(&text)?;
    regenerate(&dir)?;
    print(&format!(
        "release cut: corpus {version} is cut; commit what changed\n"
    ))?;
    Ok(Exit::Success)
}

/// Whether release `version` (`number`, parsed) may be cut from `vectors`:
/// it comes after the newest of `releases`, the corpus keeps every one of
/// them (`retired` ids excepted), and it is not exactly one of them.
fn may_cut(
    version: &str,
    number: (u64, u64, u64),
    releases: &[Release],
    retired: &[String],
    vectors: &[Vector],
) -> Result<(), CliError> {
    if let Some(newest) = releases.last() {
        if Release::parse_version(&newest.version) >= Some(number) {
            return Err(CliError::Release(format!(
                "release {version} would not come after the newest, {}",
                newest.version
            )));
        }
    }
    let problems: Vec<String> = releases
        .iter()
        .flat_map(|r| release::broken_promises(r, retired, vectors))
        .collect();
    if !problems.is_empty() {
        return Err(CliError::Release(format!(
            "the corpus breaks a release, so no release can be cut from it:\n  {}",
            problems.join("\n  ")
        )));
    }
    if let Label::Release { version: same, .. } = Label::of(vectors, releases) {
        return Err(CliError::Release(format!(
            "the corpus is exactly release {same}: there is nothing new to release"
        )));
    }
    Ok(())
}

/// Writes release `version`'s `list` and the `changelog` that now has its
/// section into the corpus directory `dir`; the list's path.
fn write_cut(dir: &Path, version: &str, list: &str, changelog: &str) -> Result<PathBuf, CliError> {
    let list_path = dir.join(Release::path(version));
    let releases_dir = dir.join(RELEASES_DIR);
    fs::create_dir_all(&releases_dir).map_err(CliError::writing(&releases_dir))?;
    fs::write(&list_path, list).map_err(CliError::writing(&list_path))?;
    let changelog_path = dir.join(CHANGELOG_PATH);
    fs::write(&changelog_path, changelog).map_err(CliError::writing(&changelog_path))?;
    Ok(list_path)
}

/// The release lists of a corpus directory, oldest first.
fn on_disk(dir: &Path) -> Result<Vec<Release>, CliError> {
    let mut releases = Vec::new();
    let Ok(entries) = fs::read_dir(dir.join(RELEASES_DIR)) else {
        return Ok(releases);
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".txt") {
            continue;
        }
        let relative = format!("{RELEASES_DIR}/{name}");
        let text = read_text(dir, &relative)?.unwrap_or_default();
        releases.push(
            release::parse_release(&relative, &text)
                .map_err(|e| CliError::Release(e.to_string()))?,
        );
    }
    releases.sort_by_key(|r| Release::parse_version(&r.version));
    Ok(releases)
}

/// `changelog` with its `## Unreleased` heading turned into the release's,
/// followed by its count and digest; `None` without that heading.
fn released_changelog(
    changelog: &str,
    version: &str,
    vectors: &[Vector],
    digest: &str,
) -> Option<String> {
    const HEADING: &str = "\n## Unreleased\n";
    let at = changelog.find(HEADING)?;
    let generated = vectors
        .iter()
        .filter(|v| v.location.file.starts_with("generated/"))
        .count();
    let section = format!(
        "\n## {version}\n\n{} vectors ({} written by hand, {generated} generated), listed in\n\
         `{}`; the digest of its canonical JSON is\nsha256 `{digest}`.\n",
        vectors.len(),
        vectors.len() - generated,
        Release::path(version)
    );
    Some(format!(
        "{}{section}{}",
        &changelog[..at],
        &changelog[at + HEADING.len()..]
    ))
}

/// `generate` by a runner rebuilt from the checkout, so that REFERENCE.md
/// and vectors.json name the release just cut.
fn regenerate(dir: &Path) -> Result<(), CliError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = dir.parent().unwrap_or(dir);
    let status = Command::new(&cargo)
        .args([
            "run",
            "--release",
            "-p",
            "wow-guid-conformance",
            "--",
            "generate",
        ])
        .arg("--vectors")
        .arg(dir)
        .current_dir(workspace)
        .status();
    match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(CliError::Release(format!(
            "the list and the changelog are written, but regenerating failed ({status}); run \
             `{}` in {}",
            wow_guid_vectors::generate::COMMAND,
            workspace.display()
        ))),
        Err(error) => Err(CliError::Release(format!(
            "the list and the changelog are written, but `{}` could not be started ({error}); \
             run `{}` in {}",
            Path::new(&cargo).display(),
            wow_guid_vectors::generate::COMMAND,
            workspace.display()
        ))),
    }
}
