//! The corpus as a whole: where its files come from (the embedded copy, a
//! directory, or strings) and the rules that compare vectors across files
//! (unique ids, no repeated or contradicting content).
//!
//! This module reads files and directories but never parses YAML itself; it
//! hands each file's text to the `yaml` module.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{LoadError, LoadErrorKind, LoadErrors};
use crate::files::{FileError, Pipes, MAX_FILE_BYTES};
use crate::interner::Interner;
use crate::model::{Expectation, Location, Request, Vector};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Every vector of a corpus, in a fixed order: files sorted by relative path
/// (as bytes), vectors in the order their file lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corpus {
    /// The vectors, in corpus order.
    pub vectors: Vec<Vector>,
}

/// Where one file's text comes from.
enum FileInput<'a> {
    /// The text is at hand (embedded, or given as a string).
    Text(Cow<'a, str>),
    /// The text is read from this path when its turn comes, so that only one
    /// file's text is in memory at a time.
    Path(PathBuf),
    /// There is no text: why.
    Failed(Box<LoadError>),
}

/// One file to load: its relative name and where its text comes from.
type Input<'a> = (String, FileInput<'a>);

impl Corpus {
    /// The corpus compiled into this crate: every vector file that was below
    /// the crate directory when it was built.
    ///
    /// # Errors
    /// Every fault in the embedded files, as for [`Corpus::load_dir`].
    pub fn embedded() -> Result<Corpus, LoadErrors> {
        into_result(Self::embedded_with_errors())
    }

    /// The embedded corpus as far as it loads: every vector without a
    /// fault, and every error (sorted by location; empty when all is
    /// well). For a tool that reports every problem of a corpus in one
    /// pass, such as `lint`, which also judges the vectors that loaded.
    #[must_use]
    pub fn embedded_with_errors() -> (Corpus, Vec<LoadError>) {
        let inputs = embedded::EMBEDDED.iter().map(|&(n, b)| bytes_input(n, b));
        load(inputs.collect(), "(embedded corpus)")
    }

    /// Loads every `*.yaml` file below `dir`, one at a time, as the
    /// [crate documentation](crate#files) says: hidden entries and `target`
    /// directories skipped, a `*.yml` file, anything but a regular file (or
    /// a symlink to one) and a file over [`MAX_FILE_BYTES`] an error.
    ///
    /// # Errors
    /// Every fault found in every file, plus unreadable files and
    /// directories, sorted by location.
    pub fn load_dir(dir: &Path) -> Result<Corpus, LoadErrors> {
        into_result(Self::load_dir_with_errors(dir))
    }

    /// The corpus below `dir` as far as it loads, as
    /// [`Corpus::embedded_with_errors`] does for the embedded copy: the
    /// vectors of [`Corpus::load_dir`] that have no fault, and every error.
    #[must_use]
    pub fn load_dir_with_errors(dir: &Path) -> (Corpus, Vec<LoadError>) {
        let walk = crate::files::walk(dir);
        let mut inputs: Vec<Input<'static>> = walk
            .errors
            .into_iter()
            .map(|(name, err)| {
                // The walk calls the root itself "."; name it as the caller did.
                let name = if name == "." {
                    dir.display().to_string()
                } else {
                    name
                };
                let error = file_error(&name, FileError::Io(err));
                (name, FileInput::Failed(error))
            })
            .collect();
        inputs.extend(
            walk.files
                .into_iter()
                .map(|(name, path)| (name, FileInput::Path(path))),
        );
        load(inputs, &dir.display().to_string())
    }

    /// Loads files given as (path relative to the corpus root, text) pairs,
    /// in any order; they are put in sorted order as for a directory.
    ///
    /// # Errors
    /// Every fault found, sorted by location.
    pub fn from_sources(files: &[(String, String)]) -> Result<Corpus, LoadErrors> {
        let inputs = files
            .iter()
            .map(|(name, text)| (name.clone(), FileInput::Text(Cow::Borrowed(text.as_str()))))
            .collect();
        into_result(load(inputs, "(no files)"))
    }

    /// Loads files given as (name, raw bytes) pairs, as [`Corpus::load_dir`]
    /// would load files with those contents: bytes that are not UTF-8 are
    /// an error at the first bad byte. For the fuzz targets, which feed the
    /// loader arbitrary bytes; not part of the documented API.
    ///
    /// # Errors
    /// Every fault found, sorted by location.
    #[doc(hidden)]
    pub fn from_byte_sources(files: &[(&str, &[u8])]) -> Result<Corpus, LoadErrors> {
        let inputs = files.iter().map(|&(name, bytes)| bytes_input(name, bytes));
        into_result(load(inputs.collect(), "(no files)"))
    }

    /// The vector with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Vector> {
        self.position(id).map(|at| &self.vectors[at])
    }

    /// Where the vector with this id is in the corpus's order.
    #[must_use]
    pub fn position(&self, id: &str) -> Option<usize> {
        self.vectors.iter().position(|v| v.id == id)
    }

    /// The vector with this id, after the steps before it when it is a
    /// step of a sequence: the requests to send, in order, to one fresh
    /// session to replay it as a run does. `None` when no vector has the id.
    ///
    /// ```
    /// let corpus = wow_guid_vectors::Corpus::embedded().unwrap();
    /// let steps = corpus.steps_through("packed.encode.stateful.03-zero").unwrap();
    /// let ids: Vec<&str> = steps.iter().map(|v| v.id.as_str()).collect();
    /// assert_eq!(
    ///     ids,
    ///     ["packed.encode.stateful.01-max", "packed.encode.stateful.02-one", "packed.encode.stateful.03-zero"]
    /// );
    /// assert_eq!(corpus.steps_through("packed.decode.doc-example").unwrap().len(), 1);
    /// ```
    #[must_use]
    pub fn steps_through(&self, id: &str) -> Option<&[Vector]> {
        let end = self.position(id)?;
        let vector = &self.vectors[end];
        // The loader keeps a sequence's steps consecutive.
        let start = self.vectors[..end]
            .iter()
            .rposition(|v| !v.same_sequence(vector))
            .map_or(0, |i| i + 1);
        Some(&self.vectors[start..=end])
    }

    /// The vectors, in corpus order.
    pub fn iter(&self) -> core::slice::Iter<'_, Vector> {
        self.vectors.iter()
    }
}

impl<'a> IntoIterator for &'a Corpus {
    type Item = &'a Vector;
    type IntoIter = core::slice::Iter<'a, Vector>;

    fn into_iter(self) -> Self::IntoIter {
        self.vectors.iter()
    }
}

/// An error about the whole file `name`.
fn at_file(name: &str, kind: LoadErrorKind) -> LoadError {
    let location = Location::whole_file(name);
    LoadError { location, kind }
}

fn file_error(name: &str, err: FileError) -> Box<LoadError> {
    Box::new(at_file(
        name,
        match err {
            FileError::NotRegular(what) => LoadErrorKind::NotRegularFile { what },
            FileError::TooLarge { size, limit } => LoadErrorKind::FileTooLarge { size, limit },
            FileError::Io(err) => LoadErrorKind::Io {
                kind: err.kind(),
                message: err.to_string(),
            },
        },
    ))
}

/// Reads the file at `path` (see [`crate::files::read_bounded`]) as UTF-8 text.
fn read_text(name: &str, path: &Path) -> Result<String, Box<LoadError>> {
    let bytes = crate::files::read_bounded(path, MAX_FILE_BYTES, Pipes::Refuse)
        .map_err(|err| file_error(name, err))?;
    String::from_utf8(bytes).map_err(|err| not_utf8(name, err.as_bytes(), err.utf8_error()))
}

/// A file given as bytes: its text, or an error at its first byte that is
/// not UTF-8.
fn bytes_input<'b>(name: &str, bytes: &'b [u8]) -> Input<'b> {
    let source = match std::str::from_utf8(bytes) {
        Ok(text) => FileInput::Text(Cow::Borrowed(text)),
        Err(err) => FileInput::Failed(not_utf8(name, bytes, err)),
    };
    (name.to_owned(), source)
}

/// The error for `bytes`, which are not UTF-8 from `err.valid_up_to()` on.
fn not_utf8(name: &str, bytes: &[u8], err: std::str::Utf8Error) -> Box<LoadError> {
    // The prefix up to `valid_up_to` is valid by definition.
    let valid = std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or("");
    let line_start = valid.rfind('\n').map_or(0, |i| i + 1);
    Box::new(LoadError {
        location: Location {
            file: name.into(),
            line: valid.matches('\n').count() + 1,
            column: valid[line_start..].chars().count() + 1,
        },
        kind: LoadErrorKind::NotUtf8,
    })
}

/// The corpus when nothing went wrong, else every error.
fn into_result((corpus, errors): (Corpus, Vec<LoadError>)) -> Result<Corpus, LoadErrors> {
    if errors.is_empty() {
        Ok(corpus)
    } else {
        Err(LoadErrors(errors))
    }
}

/// Loads files in sorted order, then applies the cross-file rules: the
/// vectors without a fault, and every error sorted by location. `origin`
/// names where the files came from when there are none.
fn load(mut inputs: Vec<Input<'_>>, origin: &str) -> (Corpus, Vec<LoadError>) {
    let mut errors = Vec::new();
    if inputs.is_empty() {
        errors.push(at_file(origin, LoadErrorKind::NoFiles));
    }
    inputs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut vectors = Vec::new();
    let mut interner = Interner::default();
    let mut previous: Option<String> = None;
    for (name, source) in inputs {
        if previous.as_deref() == Some(name.as_str()) {
            errors.push(at_file(&name, LoadErrorKind::DuplicateFile));
            continue;
        }
        let name = &*previous.insert(name);
        let text = match source {
            FileInput::Failed(error) => {
                errors.push(*error);
                continue;
            }
            _ if !name.ends_with(".yaml") => {
                errors.push(at_file(name, LoadErrorKind::NotYamlFile));
                continue;
            }
            FileInput::Text(text) => text,
            FileInput::Path(path) => match read_text(name, &path) {
                Ok(text) => Cow::Owned(text),
                Err(error) => {
                    errors.push(*error);
                    continue;
                }
            },
        };
        if text.len() as u64 > MAX_FILE_BYTES {
            errors.push(*file_error(
                name,
                FileError::TooLarge {
                    size: text.len() as u64,
                    limit: MAX_FILE_BYTES,
                },
            ));
            continue;
        }
        vectors.extend(crate::yaml::read_file(
            name,
            &text,
            &mut errors,
            &mut interner,
        ));
    }
    // Growth by doubling may have left up to half the list unused.
    vectors.shrink_to_fit();
    check_unique(&vectors, &mut errors);
    check_sequences(&vectors, &mut errors);
    errors.sort_by(|a, b| a.location.cmp(&b.location));
    (Corpus { vectors }, errors)
}

/// Whether two expectations judge the same way: same outcome and the same
/// value or error code (the `why` text does not matter).
fn same_judgement(a: &Expectation, b: &Expectation) -> bool {
    match (a, b) {
        (Expectation::Valid(x), Expectation::Valid(y))
        | (Expectation::Acceptable { value: x, .. }, Expectation::Acceptable { value: y, .. }) => {
            x == y
        }
        (Expectation::Invalid(x), Expectation::Invalid(y)) => x == y,
        _ => false,
    }
}

/// Ids are unique across the corpus. A request may appear only once, except
/// in the steps of a sequence, whose meaning is their place in it (the same
/// request before and after another one is the point of the test), so they
/// are never compared for content. Two vectors with the same request and
/// different expectations are a contradiction unless their versions do not
/// overlap.
fn check_unique(vectors: &[Vector], errors: &mut Vec<LoadError>) {
    let mut ids: HashMap<&str, &Vector> = HashMap::new();
    let mut requests: HashMap<&Request, &Vector> = HashMap::new();
    for v in vectors {
        if let Some(first) = ids.get(v.id.as_str()) {
            errors.push(LoadError {
                location: v.location.clone(),
                kind: LoadErrorKind::DuplicateId {
                    id: v.id.clone(),
                    first: first.location.clone(),
                },
            });
        } else {
            ids.insert(&v.id, v);
        }
        if v.sequence.is_some() {
            continue;
        }
        let Some(first) = requests.get(&v.request) else {
            requests.insert(&v.request, v);
            continue;
        };
        let kind = if same_judgement(&first.expect, &v.expect) {
            LoadErrorKind::DuplicateContent {
                id: v.id.clone(),
                first_id: first.id.clone(),
                first: first.location.clone(),
            }
        } else if v.versions.iter().any(|ver| first.versions.contains(ver)) {
            LoadErrorKind::ConflictingContent {
                id: v.id.clone(),
                first_id: first.id.clone(),
                first: first.location.clone(),
            }
        } else {
            continue;
        };
        errors.push(LoadError {
            location: v.location.clone(),
            kind,
        });
    }
}

/// Each sequence is a run of consecutive vectors of one file (so a runner
/// finds it whole without looking further) and has at least two steps. A sequence of one is not reported in a file that has other
/// errors, since a faulty step may be what is missing.
fn check_sequences(vectors: &[Vector], errors: &mut Vec<LoadError>) {
    struct Seen<'v> {
        first: &'v Vector,
        steps: usize,
    }
    let mut seen: HashMap<&str, Seen<'_>> = HashMap::new();
    let mut previous: Option<&Vector> = None;
    for v in vectors {
        let Some(name) = v.sequence.as_deref() else {
            previous = Some(v);
            continue;
        };
        let continues =
            previous.is_some_and(|p| p.same_sequence(v) && p.location.file == v.location.file);
        previous = Some(v);
        match seen.get_mut(name) {
            Some(sequence) if continues => sequence.steps += 1,
            Some(sequence) => errors.push(LoadError {
                location: v.location.clone(),
                kind: LoadErrorKind::SequenceSplit {
                    name: name.to_owned(),
                    first: sequence.first.location.clone(),
                },
            }),
            None => {
                seen.insert(name, Seen { first: v, steps: 1 });
            }
        }
    }
    let faulty: std::collections::HashSet<&str> =
        errors.iter().map(|e| &*e.location.file).collect();
    let mut alone: Vec<LoadError> = seen
        .into_iter()
        .filter(|(_, s)| s.steps == 1 && !faulty.contains(&*s.first.location.file))
        .map(|(name, s)| LoadError {
            location: s.first.location.clone(),
            kind: LoadErrorKind::SequenceOfOne {
                name: name.to_owned(),
            },
        })
        .collect();
    errors.append(&mut alone);
}
