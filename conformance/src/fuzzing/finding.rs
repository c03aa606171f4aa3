//! Findings, and findings as vectors of the corpus.
//!
//! A finding is one [`Signature`] of disagreement with its minimal request
//! (and, for an implementation that keeps state, the requests that must come
//! before it). [`Finding::vectors`] turns it into corpus vectors whose
//! expectations are the reference's ([`super::oracle`]), so a finding pasted
//! into `vectors/` fails the implementation that produced it and passes a
//! conformant one; [`Finding::yaml`] writes them in the corpus format (with
//! the corpus's own writer, [`wow_guid_vectors::yaml`]), and
//! [`append`] adds them to a vector file, checking that the result still
//! loads. Ids are derived from the requests (`found.<kind>.<hash>`), so the
//! same finding gets the same id on every run and is appended once.

use std::fmt::{self, Write as _};
use std::io::Read as _;
use std::path::Path;
use std::time::Duration;
use std::{fs, io};

use wow_guid_vectors::{
    topics::derived_flags, yaml, Corpus, Expectation, Flag, LoadErrors, Location, Request, Vector,
    MAX_FILE_BYTES,
};

use super::oracle::corpus_expectation;
use super::signature::{Disagreement, Signature};
use crate::duration::DisplayDuration;
use crate::implementation::Fault;
use crate::judge::Mismatch;
use crate::protocol::{self, Response};

/// How a finding was reproduced after it was first seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reproduction {
    /// The request disagrees on its own, in a fresh process.
    Alone,
    /// The request disagrees in a fresh process only after
    /// [`Finding::prefix`]: the implementation keeps state between calls.
    AfterPrefix,
    /// Not tried: the disagreement is not about one request (a fault that
    /// needs pipelining).
    NotTried,
    /// Neither alone nor after the requests sent before it: it depends on
    /// something else (timing, say). Reported as first seen.
    NotReproduced,
    /// The run's time budget ran out before it could be replayed. Reported
    /// as first seen.
    OutOfTime,
}

/// What shrinking did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkStats {
    /// Moves to a smaller request.
    pub steps: usize,
    /// Candidate requests (or sequences) tested.
    pub tests: usize,
    /// False when a limit stopped the search early.
    pub complete: bool,
    /// True when that limit was the run's time budget.
    pub out_of_time: bool,
    /// Time spent.
    pub time: Duration,
}

/// One signature of disagreement, minimised.
#[derive(Clone, Debug)]
pub struct Finding {
    /// What kind of disagreement.
    pub signature: Signature,
    /// Requests to send first, in order, for [`Finding::request`] to
    /// disagree (empty unless the implementation keeps state).
    pub prefix: Vec<Request>,
    /// The minimal request.
    pub request: Request,
    /// How the minimal request disagrees.
    pub disagreement: Disagreement,
    /// The request as first seen.
    pub original: Request,
    /// How it was reproduced.
    pub reproduction: Reproduction,
    /// What shrinking did, when it ran.
    pub shrink: Option<ShrinkStats>,
    /// Requests of the run that disagreed with this signature.
    pub occurrences: u64,
    /// The index of the first of them among the generated requests.
    pub first_index: u64,
    /// Time from the start of the run to the first of them.
    pub found_after: Duration,
    /// The run's seed.
    pub seed: u64,
    /// A corpus vector with exactly the minimal request, when there is one
    /// (the corpus already covers this case).
    pub in_corpus: Option<String>,
}

/// 64-bit FNV-1a: a hash that is the same on every platform and release,
/// which ids need.
fn fnv1a(data: &[u8], mut hash: u64) -> u64 {
    for &b in data {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn request_text(request: &Request) -> String {
    protocol::request_line("-", request)
}

/// The reply in the protocol's words, without the id.
#[must_use]
pub fn reply_text(reply: &Result<Response, Fault>) -> String {
    match reply {
        Ok(response) => {
            let line = protocol::response_line("-", response);
            line.strip_prefix("- ").unwrap_or(&line).to_owned()
        }
        Err(fault) => fault.to_string(),
    }
}

/// `text` for a one-line YAML comment: UTF-8 kept as it is (the text is
/// already a string, with the implementation's raw bytes escaped where it
/// quotes them), control characters escaped so the comment stays one line,
/// cut after `max_chars` characters with `…`.
fn comment_text(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (shown, c) in text.chars().enumerate() {
        if shown == max_chars {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// What differed, in one line for a vector's description: the judge's
/// words, and a fault's [summary](Fault::summary) without its advice.
fn what_differed(mismatch: &Mismatch) -> String {
    match mismatch {
        Mismatch::Fault(fault) => fault.summary(),
        other => other.to_string(),
    }
}

impl Finding {
    /// The topic word of this finding's ids, `found-<hash>`, the hash taken
    /// over every request of the sequence.
    fn topic(&self) -> String {
        let mut hash = 0xcbf2_9ce4_8422_2325;
        for r in self.prefix.iter().chain(std::iter::once(&self.request)) {
            hash = fnv1a(request_text(r).as_bytes(), hash);
            hash = fnv1a(b"\n", hash);
        }
        format!("found-{:08x}", hash >> 32)
    }

    /// The finding's id, in the corpus's naming rule
    /// (`<type>.<op>.<topic>`): `packed.decode.found-<hash>`, the kind of
    /// the disagreeing request. It is the id of the one vector of a finding
    /// without a prefix, and the name of the sequence of one with a prefix,
    /// whose steps are `<their own type>.<op>.found-<hash>.<step>`.
    #[must_use]
    pub fn id(&self) -> String {
        format!("{}.{}", self.signature.kind.id_prefix(), self.topic())
    }

    /// The `source` of this finding's vectors: a citation of the notes'
    /// summary of positions (the reference codec's answers follow them), so
    /// the vectors pass the corpus's citation check as they are; a reviewer
    /// may cite the one note the behaviour rests on instead.
    #[must_use]
    pub fn source(&self) -> String {
        format!(
            "NOTES.md#summary-of-positions: found by differential fuzzing, seed {}; expects \
             the reference codec's answer",
            self.seed
        )
    }

    /// The finding as corpus vectors: the prefix steps, then the
    /// disagreeing request, each expecting what the reference says; with a
    /// prefix they are the steps of a sequence named after the finding
    /// (flag `stateful`).
    #[must_use]
    pub fn vectors(&self) -> Vec<Vector> {
        let stem = self.id();
        let steps = self.prefix.len() + 1;
        let what = what_differed(&self.disagreement.mismatch);
        let mut vectors = Vec::with_capacity(steps);
        for (i, request) in self
            .prefix
            .iter()
            .chain(std::iter::once(&self.request))
            .enumerate()
        {
            let last = i + 1 == steps;
            let expect = corpus_expectation(request);
            let mut flags = derived_flags(request, &expect);
            let (id, description) = if steps == 1 {
                (
                    stem.clone(),
                    format!("Found by differential fuzzing: {what}."),
                )
            } else {
                flags.push(Flag::Stateful);
                flags.sort();
                let description = if last {
                    format!(
                        "Step {steps} of {steps}, found by differential fuzzing: {what}, \
                         after the steps before it (state kept between calls)."
                    )
                } else {
                    format!(
                        "Step {} of {steps}, found by differential fuzzing: sets up the state \
                         under which step {steps} went wrong.",
                        i + 1
                    )
                };
                (
                    format!("{}.{}.{}", request.kind().id_prefix(), self.topic(), i + 1),
                    description,
                )
            };
            vectors.push(Vector {
                id,
                sequence: (steps > 1).then(|| stem.clone()),
                description,
                request: request.clone(),
                expect,
                flags: flags.into(),
                versions: request.guid_type().versions().into(),
                source: Some(self.source().into()),
                location: Location::whole_file("found.yaml"),
            });
        }
        vectors
    }

    /// `#` lines saying what was found, for a person reading the YAML.
    #[must_use]
    pub fn comment(&self, indent: &str) -> String {
        let mut out = String::new();
        let mut line = |text: String| {
            let _ = writeln!(out, "{indent}# {text}");
        };
        line(format!(
            "{}: first seen at request {} of seed {}, after {}",
            self.signature,
            self.first_index,
            self.seed,
            DisplayDuration(self.found_after)
        ));
        for (i, r) in self.prefix.iter().enumerate() {
            line(format!("step {}:  {}", i + 1, request_words(r)));
        }
        line(format!("request:  {}", request_words(&self.request)));
        line(format!(
            "answer:   {}",
            comment_text(&reply_text(&self.disagreement.reply), 200)
        ));
        let expected = match corpus_expectation(&self.request) {
            Expectation::Valid(v) => reply_text(&Ok(Response::Ok(v))),
            Expectation::Invalid(code) => reply_text(&Ok(Response::Error(code))),
            Expectation::Acceptable { value, .. } => {
                format!("{} or any error", reply_text(&Ok(Response::Ok(value))))
            }
        };
        line(format!("expected: {expected}"));
        match (&self.reproduction, &self.shrink) {
            (Reproduction::NotReproduced, _) => line(
                "did not reproduce in a fresh process, alone or after the requests before it: \
                 not shrunk"
                    .into(),
            ),
            (Reproduction::NotTried, _) => line("not about one request: not shrunk".into()),
            (Reproduction::OutOfTime, _) => line(
                "the time budget ran out before it could be replayed: not shrunk (a longer --time \
                 shrinks it)"
                    .into(),
            ),
            (_, Some(s)) => {
                if self.original != self.request {
                    line(format!(
                        "shrunk from {} in {} steps ({} tests, {}){}",
                        request_words(&self.original),
                        s.steps,
                        s.tests,
                        DisplayDuration(s.time),
                        if s.complete {
                            ""
                        } else if s.out_of_time {
                            "; cut short by the time budget, so maybe not minimal"
                        } else {
                            "; stopped by the shrink limit"
                        }
                    ));
                } else if s.out_of_time {
                    line("the time budget ran out before it could be shrunk".into());
                }
            }
            (_, None) => {}
        }
        if self.reproduction == Reproduction::AfterPrefix {
            line("keeps state between calls: run the steps in order, in one process".into());
        }
        if let Some(id) = &self.in_corpus {
            line(format!("the corpus already has this request as {id}"));
        }
        out
    }

    /// The vectors as YAML list items at `indent` (the indentation of the
    /// `-`), preceded by [`Finding::comment`].
    #[must_use]
    pub fn yaml(&self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let mut out = self.comment(&pad);
        for (i, v) in self.vectors().iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            yaml::write_vector(&mut out, v, indent);
        }
        out
    }
}

/// The request in protocol words without an id, shortened when long.
fn request_words(request: &Request) -> String {
    let text = request_text(request);
    let text = text.strip_prefix("- ").unwrap_or(&text);
    if text.len() > 140 {
        format!("{}… ({} characters)", &text[..120], text.len())
    } else {
        text.to_owned()
    }
}

/// A whole vector file holding `findings`, after `header` as `#` lines.
#[must_use]
pub fn file_text(header: &str, findings: &[Finding]) -> String {
    let mut out = String::new();
    yaml::write_comment(&mut out, header, 0);
    out.push_str("vectors:\n");
    for (i, f) in findings.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&f.yaml(2));
    }
    out
}

/// Why findings could not be appended to a file.
#[derive(Debug)]
pub enum AppendError {
    /// The file could not be read or written.
    Io(io::Error),
    /// The file exists but is not a vector file that loads, so appending
    /// to it would only make matters worse.
    NotAVectorFile(LoadErrors),
    /// The file would not load after appending (a bug of this module; the
    /// file was left as it was).
    WouldNotLoad(LoadErrors),
}

impl fmt::Display for AppendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => e.fmt(f),
            Self::NotAVectorFile(errors) => write!(
                f,
                "it exists but does not load as a vector file, so nothing was appended:\n{errors}"
            ),
            Self::WouldNotLoad(errors) => write!(
                f,
                "it would not load after appending, so it was left unchanged:\n{errors}"
            ),
        }
    }
}

impl std::error::Error for AppendError {}

/// What [`append`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appended {
    /// Findings written.
    pub written: usize,
    /// Findings left out because the file already has their ids.
    pub already_there: usize,
}

/// The indentation of the list items of an existing vector file.
fn item_indent(text: &str) -> usize {
    text.lines()
        .find_map(|l| {
            let trimmed = l.trim_start();
            trimmed.starts_with("- ").then(|| l.len() - trimmed.len())
        })
        .unwrap_or(2)
}

/// The text of the vector file at `path`, empty when there is none. Held to
/// the corpus's own rules before anything is read: a regular file of at
/// most [`MAX_FILE_BYTES`], so naming a device or a FIFO is an error, not a
/// read without end or a wait for a writer.
fn read_vector_file(path: &Path) -> io::Result<String> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file; findings are appended to a vector file",
        ));
    }
    let too_large = |size: u64| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("{size} bytes, more than a vector file's limit of {MAX_FILE_BYTES}"),
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut text = String::new();
    fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(text.len() as u64));
    }
    Ok(text)
}

/// Appends `findings` to the vector file at `path`: creates it (with
/// `header`) when it does not exist or holds only comments, and otherwise
/// adds to its `vectors` list the findings whose ids it lacks. The file is
/// written only when the result loads.
///
/// # Errors
/// [`AppendError`] when the file cannot be read or written or does not load.
///
/// Two runs appending to one file at once both keep their findings: the
/// read, the check and the write happen under a lock on the file's
/// directory, and the new text goes to a temporary file in that directory
/// that then replaces the file in one rename, so no reader ever sees half a
/// file and a run killed midway leaves the old file whole.
pub fn append(path: &Path, header: &str, findings: &[Finding]) -> Result<Appended, AppendError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Held until this function returns; the lock goes with the handle.
    let lock = fs::File::open(dir).map_err(AppendError::Io)?;
    lock.lock().map_err(AppendError::Io)?;
    append_locked(path, dir, header, findings)
}

/// [`append`]'s work, with the directory `dir` of `path` locked.
fn append_locked(
    path: &Path,
    dir: &Path,
    header: &str,
    findings: &[Finding],
) -> Result<Appended, AppendError> {
    let existing = read_vector_file(path).map_err(AppendError::Io)?;
    let name = path.file_name().map_or_else(
        || "found.yaml".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let name = if name.ends_with(".yaml") {
        name
    } else {
        format!("{name}.yaml")
    };
    let only_comments = existing
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    let (text, written, already_there) = if only_comments {
        let mut text = existing.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if findings.is_empty() {
            return Ok(Appended {
                written: 0,
                already_there: 0,
            });
        }
        text.push_str(&file_text(
            if existing.is_empty() { header } else { "" },
            findings,
        ));
        (text, findings.len(), 0)
    } else {
        let corpus = Corpus::from_sources(&[(name.clone(), existing.clone())])
            .map_err(AppendError::NotAVectorFile)?;
        let indent = item_indent(&existing);
        let mut text = existing.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let (mut written, mut already_there) = (0, 0);
        for f in findings {
            if f.vectors().iter().any(|v| corpus.get(&v.id).is_some()) {
                already_there += 1;
                continue;
            }
            text.push('\n');
            text.push_str(&f.yaml(indent));
            written += 1;
        }
        if written == 0 {
            return Ok(Appended {
                written,
                already_there,
            });
        }
        (text, written, already_there)
    };
    Corpus::from_sources(&[(name.clone(), text.clone())]).map_err(AppendError::WouldNotLoad)?;
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written_out = fs::write(&temp, text).and_then(|()| fs::rename(&temp, path));
    if let Err(error) = written_out {
        let _ = fs::remove_file(&temp);
        return Err(AppendError::Io(error));
    }
    Ok(Appended {
        written,
        already_there,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::signature::{Difference, EncodingError, GuidError};

    fn finding(prefix: Vec<Request>, request: Request, difference: Difference) -> Finding {
        let mismatch = Mismatch::Fault(Fault::Exited {
            status: "exit status: 1".into(),
            partial: crate::implementation::Excerpt::default(),
        });
        Finding {
            signature: Signature {
                kind: request.kind(),
                difference,
            },
            prefix,
            request: request.clone(),
            disagreement: Disagreement {
                signature: Signature {
                    kind: request.kind(),
                    difference,
                },
                mismatch: mismatch.clone(),
                reply: Err(Fault::Exited {
                    status: "exit status: 1".into(),
                    partial: crate::implementation::Excerpt::default(),
                }),
            },
            original: request,
            reproduction: Reproduction::Alone,
            shrink: None,
            occurrences: 3,
            first_index: 7,
            found_after: Duration::from_millis(20),
            seed: 42,
            in_corpus: None,
        }
    }

    fn every_shape() -> Vec<Finding> {
        let mut long = vec![b'a'; 300];
        long[150] = 0xc3;
        long[151] = 0xa9;
        vec![
            finding(
                vec![],
                Request::DecodePacked { bytes: vec![] },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::DecodePacked {
                    bytes: vec![0x0a, 0xde, 0xad, 7],
                },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::EncodePacked { guid: u64::MAX },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::DecodeNamed {
                    bytes: [&[1u8, 0, 0, 0, 0, 0, 0, 0][..], &long, &[0, 9]].concat(),
                },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::DecodeNamed {
                    bytes: vec![1, 0, 0, 0, 0, 0, 0, 0, 0xff],
                },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::EncodeNamed {
                    guid: 5,
                    name: None,
                },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::EncodeNamed {
                    guid: 0,
                    name: Some(vec![]),
                },
                Difference::Crash,
            ),
            finding(
                vec![],
                Request::EncodeNamed {
                    guid: 5,
                    name: Some(b"a\0b".to_vec()),
                },
                Difference::Crash,
            ),
            finding(
                vec![
                    Request::EncodePacked { guid: 1 },
                    Request::DecodePacked { bytes: vec![0] },
                ],
                Request::EncodePacked { guid: 0 },
                Difference::WrongEncoding(EncodingError::Head),
            ),
        ]
    }

    #[test]
    fn every_shape_of_finding_is_a_vector_file_that_loads() {
        let findings = every_shape();
        let text = file_text("a header\nof two lines", &findings);
        let corpus = Corpus::from_sources(&[("found.yaml".into(), text.clone())])
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let written: Vec<Vector> = findings.iter().flat_map(Finding::vectors).collect();
        assert_eq!(corpus.vectors.len(), written.len());
        for (read, v) in corpus.vectors.iter().zip(&written) {
            assert_eq!(
                (&read.id, &read.request, &read.expect, &read.flags),
                (&v.id, &v.request, &v.expect, &v.flags)
            );
            assert_eq!(
                read.source.as_deref(),
                Some(
                    "NOTES.md#summary-of-positions: found by differential fuzzing, seed 42; \
                     expects the reference codec's answer"
                )
            );
        }
        let steps: Vec<&Vector> = corpus
            .vectors
            .iter()
            .filter(|v| v.has_flag(Flag::Stateful))
            .collect();
        assert_eq!(steps.len(), 3);
        assert!(steps[2].description.starts_with("Step 3 of 3"));
        let acceptable = corpus
            .vectors
            .iter()
            .filter(|v| matches!(v.expect, Expectation::Acceptable { .. }))
            .count();
        assert_eq!(acceptable, 2, "no name, and GUID 0 with an empty name");
    }

    #[test]
    fn ids_depend_on_the_requests_only() {
        let a = finding(
            vec![],
            Request::DecodePacked {
                bytes: vec![8, 0x80],
            },
            Difference::WrongGuid(GuidError {
                high_half: true,
                larger: true,
            }),
        );
        let mut b = a.clone();
        b.seed = 1;
        b.occurrences = 99;
        assert_eq!(a.id(), b.id());
        assert!(a.id().starts_with("packed.decode.found-"));
        assert_eq!(a.id().len(), "packed.decode.found-".len() + 8);
        let c = finding(
            vec![],
            Request::DecodePacked {
                bytes: vec![8, 0x81],
            },
            Difference::WrongGuid(GuidError {
                high_half: true,
                larger: true,
            }),
        );
        assert_ne!(a.id(), c.id());
    }

    fn temp_file(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("wow-guid-fuzz-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir.join("found.yaml")
    }

    #[test]
    fn append_creates_extends_and_skips_known_ids() {
        let path = temp_file("append");
        let findings = every_shape();
        let a = append(&path, "header", &findings[..2]).unwrap();
        assert_eq!(
            a,
            Appended {
                written: 2,
                already_there: 0
            }
        );
        let a = append(&path, "header", &findings[1..4]).unwrap();
        assert_eq!(
            a,
            Appended {
                written: 2,
                already_there: 1
            }
        );
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# header\nvectors:\n"));
        let corpus = Corpus::from_sources(&[("found.yaml".into(), text)]).unwrap();
        assert_eq!(corpus.vectors.len(), 4);
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn concurrent_appends_to_one_file_keep_every_finding() {
        let findings = every_shape();
        for round in 0..10 {
            let path = temp_file(&format!("concurrent-{round}"));
            std::thread::scope(|scope| {
                for f in &findings {
                    let path = &path;
                    scope.spawn(move || append(path, "header", std::slice::from_ref(f)).unwrap());
                }
            });
            let text = fs::read_to_string(&path).unwrap();
            let corpus = Corpus::from_sources(&[("found.yaml".into(), text)]).unwrap();
            let expected: usize = findings.iter().map(|f| f.vectors().len()).sum();
            assert_eq!(corpus.vectors.len(), expected, "round {round}");
            // Nothing is left beside the file: the temporary one was renamed.
            let entries = fs::read_dir(path.parent().unwrap()).unwrap().count();
            assert_eq!(entries, 1);
            let _ = fs::remove_dir_all(path.parent().unwrap());
        }
    }

    #[test]
    fn append_follows_the_file_s_indentation_and_refuses_other_files() {
        let path = temp_file("indent");
        let existing = "vectors:\n- id: mine.one\n  description: Mine.\n  type: packed_guid\n  op: decode\n  \
                        input: { bytes: \"00\" }\n  outcome: valid\n  expect: { guid: \"0000000000000000\", consumed: 1 }\n  \
                        versions: [vanilla]\n";
        fs::write(&path, existing).unwrap();
        let a = append(&path, "header", &every_shape()[..1]).unwrap();
        assert_eq!(a.written, 1);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(existing));
        assert_eq!(
            Corpus::from_sources(&[("found.yaml".into(), text)])
                .unwrap()
                .vectors
                .len(),
            2
        );

        fs::write(&path, "vectors: 3\n").unwrap();
        assert!(matches!(
            append(&path, "header", &every_shape()[..1]),
            Err(AppendError::NotAVectorFile(_))
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), "vectors: 3\n");
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    /// The findings file is held to a vector file's rules before it is read:
    /// a device or a directory is refused at once (`/dev/zero` would never
    /// end), and so is a file over the size limit.
    #[test]
    fn append_refuses_what_is_not_a_vector_file_before_reading_it() {
        for path in ["/dev/zero", "/"] {
            match append(Path::new(path), "header", &every_shape()[..1]) {
                Err(AppendError::Io(e)) => {
                    assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{path}: {e}");
                    assert!(e.to_string().contains("not a regular file"), "{path}: {e}");
                }
                other => panic!("{path}: {other:?}"),
            }
        }
        let path = temp_file("too-large");
        let file = fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        match append(&path, "header", &every_shape()[..1]) {
            Err(AppendError::Io(e)) => {
                assert_eq!(e.kind(), io::ErrorKind::FileTooLarge, "{e}");
                assert!(
                    e.to_string().contains("more than a vector file's limit"),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    /// The comment above a finding quotes the answer as UTF-8: a fault's
    /// words keep their `…` (once written as `\xe2\x80\xa6`), while the
    /// implementation's own bytes stay escaped and control characters cannot
    /// break the comment's line.
    #[test]
    fn comments_write_utf8_and_escape_control_characters() {
        let mut f = finding(vec![], Request::EncodePacked { guid: 1 }, Difference::Crash);
        let line = [&b"x ok \xff"[..], &[b'z'; 300]].concat();
        f.disagreement.reply = Err(Fault::Malformed {
            line: crate::implementation::Excerpt::of(&line),
            error: crate::protocol::ResponseError {
                column: 6,
                kind: crate::protocol::ResponseErrorKind::NotAscii { byte: 0xff },
            },
        });
        let comment = f.comment("  ");
        let answer = comment
            .lines()
            .find(|l| l.starts_with("  # answer:"))
            .expect("an answer line");
        assert!(answer.contains("… ("), "{answer}");
        assert!(!answer.contains("\\xe2"), "{answer}");
        assert!(answer.contains("x ok \\xff"), "{answer}");
        assert_eq!(comment_text("a\nb\u{7}…", 10), "a\\nb\\u{7}…");
        assert_eq!(comment_text("abcdef", 3), "abc…");
    }
}
