//! The generated part of the corpus: systematic sweeps that would be tedious
//! and error-prone to write by hand (every mask, every truncation point, every
//! byte position, long names).
//!
//! Expected values are built here from the definition of the formats (place
//! the bytes at the positions of the set mask bits, and read the GUID off
//! them), never by calling a codec: this crate must not depend on the
//! implementations it judges. The files live in `generated/` below the corpus
//! root and are checked in; [`check`] (run by CI through the runner's
//! `generate --check`, and by the test `generated_files_are_up_to_date`) fails
//! when they differ from what [`files`] produces, and [`write_all`] rewrites
//! them.
//!
//! Ids are built from the parameters of each case (mask, length, position,
//! byte), never from a counter, so adding a case never renames another.

use core::fmt;
use std::collections::BTreeSet;
use std::path::Path;

use crate::hex_text::{format_guid, format_spaced};
use crate::model::{Expectation, Location, Request, Value, Vector, NAME_BOUND_FLOOR};
use crate::reference_page::KnownFailures;
use crate::topics::derived_flags;
use crate::vocab::{ErrorCode, Flag};

/// The command that rewrites the generated files.
pub const COMMAND: &str = "cargo run -p wow-guid-conformance -- generate";

/// The command that fails when the generated files are out of date.
pub const CHECK_COMMAND: &str = "cargo run -p wow-guid-conformance -- generate --check";

/// The directory below the corpus root that holds only generated files.
pub const DIR: &str = "generated";

/// The GUID byte placed at each position in the mask sweep: distinct and
/// non-zero everywhere, so a byte put at the wrong position changes the
/// result, and every sweep GUID has the mask it was built from.
const PATTERN: [u8; 8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];

/// The GUID of the long-name vectors: all bytes distinct, so a byte-order
/// mistake shows.
const NAMED_GUID: u64 = 0x0123_4567_89ab_cdef;

/// What follows the NUL of a long name in a decode input: the next field,
/// which a decoder must leave alone.
const NEXT_FIELD: [u8; 3] = [0x01, 0x02, 0x03];

/// The generated files as (path relative to the corpus root, contents), in a
/// fixed order. Deterministic: same code, same bytes.
#[must_use]
pub fn files() -> Vec<(String, String)> {
    families()
        .into_iter()
        .map(|family| {
            let header = format!(
                "GENERATED FILE: do not edit. Regenerate with\n  {COMMAND}\n\
                 (`generate --check` and the test generated_files_are_up_to_date fail when this\n\
                 file is out of date). Written by vectors/src/generate.rs, which builds\n\
                 every expected value from the format's definition, not by running a codec.\n\n{}\n\n\
                 yaml-language-server: $schema=../schema.json",
                family.about
            );
            (
                family.path.to_owned(),
                crate::yaml::write_file(&header, &family.vectors),
            )
        })
        .collect()
}

/// Every generated family as [`crate::reference_page`] summarises it, in the
/// order of [`files`].
#[must_use]
pub fn summaries() -> Vec<crate::reference_page::FamilySummary> {
    families()
        .into_iter()
        .map(|family| crate::reference_page::FamilySummary {
            path: family.path.to_owned(),
            rule: family.about.to_owned(),
            note: family.note.to_owned(),
            ids: family.vectors.into_iter().map(|v| v.id).collect(),
        })
        .collect()
}

/// `REFERENCE.md` as it should be for the hand-written files below `root`,
/// the generator's families, the notes (`NOTES.md` below `root`) and the
/// `known` failures of real implementations. The hand-written files are
/// loaded together with what the generator writes (not the generated files
/// on disk, which may be stale), so the page depends only on sources.
///
/// # Errors
/// A [`Drift::Unreadable`] for the page when the corpus does not load.
fn reference_page(
    root: &Path,
    known: &[crate::reference_page::KnownFailures],
) -> Result<String, Drift> {
    let unreadable = |message: String| Drift::Unreadable {
        path: crate::reference_page::PATH.to_owned(),
        message,
    };
    let walk = crate::files::walk(root);
    if let Some((path, err)) = walk.errors.first() {
        return Err(unreadable(format!("cannot read {path}: {err}")));
    }
    let mut sources = Vec::new();
    for (relative, full) in walk.files {
        if relative.starts_with(&format!("{DIR}/")) {
            continue;
        }
        match crate::files::read_text(&full) {
            Ok(text) => sources.push((relative, text)),
            Err(err) => return Err(unreadable(format!("cannot read {relative}: {err}"))),
        }
    }
    sources.extend(files());
    let corpus = crate::Corpus::from_sources(&sources).map_err(|errors| {
        unreadable(format!(
            "the corpus does not load ({} error(s), the first: {}); \
             `cargo run -p wow-guid-conformance -- lint` lists them",
            errors.len(),
            errors
                .iter()
                .next()
                .map(ToString::to_string)
                .unwrap_or_default()
        ))
    })?;
    let notes = crate::files::read_text(&root.join("NOTES.md"))
        .map(|text| crate::citation::sections(&text))
        .unwrap_or_default();
    let page = crate::reference_page::render(&crate::reference_page::Page {
        version: crate::release::CORPUS_VERSION,
        notes: &notes,
        vectors: &corpus.vectors,
        families: &summaries(),
        failures: known,
    });
    Ok(format!(
        "<!-- GENERATED FILE: do not edit. Regenerate with\n     {COMMAND}\n     \
         (`generate --check` fails when this file is out of date). Written by\n     \
         vectors/src/reference_page.rs from the vector files. -->\n\n{page}"
    ))
}

/// How a generated file on disk differs from what the generator writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drift {
    /// The file's contents differ.
    Stale(String),
    /// The file does not exist.
    Missing(String),
    /// A `.yaml` file in `generated/` that the generator does not write (left
    /// over from a renamed or removed family).
    Extra(String),
    /// The file or directory could not be read.
    Unreadable {
        /// Path relative to the corpus root.
        path: String,
        /// The I/O error's message.
        message: String,
    },
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::Stale(path) => write!(f, "{path}: out of date"),
            Drift::Missing(path) => write!(f, "{path}: missing"),
            Drift::Extra(path) => write!(f, "{path}: not written by the generator"),
            Drift::Unreadable { path, message } => write!(f, "{path}: cannot read: {message}"),
        }
    }
}

/// The generated files on disk are not what the generator writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError(pub Vec<Drift>);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for drift in &self.0 {
            writeln!(f, "{drift}")?;
        }
        write!(
            f,
            "the generated files are out of date: run `{COMMAND}` and commit the result"
        )
    }
}

impl std::error::Error for CheckError {}

/// A generated file could not be written or removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// Path relative to the corpus root.
    pub path: String,
    /// The I/O error's kind.
    pub kind: std::io::ErrorKind,
    /// The I/O error's message.
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.path, self.message)
    }
}

impl std::error::Error for WriteError {}

/// Compares the generated files below the corpus root `root` with [`files`],
/// and `REFERENCE.md` with the page for the `known` failures of real
/// implementations when they are given (`None` leaves the page out: the
/// failures come from the repository around the corpus, which the caller
/// reads; the runner's `generate` does).
///
/// # Errors
/// [`CheckError`] listing every stale, missing, extra or unreadable file.
pub fn check(root: &Path, known: Option<&[KnownFailures]>) -> Result<(), CheckError> {
    let drift = drift(root, known);
    if drift.is_empty() {
        Ok(())
    } else {
        Err(CheckError(drift))
    }
}

/// What [`write_all`] would change below the corpus root `root`, as a
/// unified diff (`--- a/PATH`, `+++ b/PATH`, three lines of context; a
/// missing file is a diff from `/dev/null`, a file the generator no longer
/// writes one to it), with paths relative to `root`. Empty when nothing
/// would change; unreadable files are left to [`check`]'s list. `known` as
/// for [`check`].
#[must_use]
pub fn diff(root: &Path, known: Option<&[KnownFailures]>) -> String {
    let mut expected = files();
    if let Some(Ok(page)) = known.map(|k| reference_page(root, k)) {
        expected.push((crate::reference_page::PATH.to_owned(), page));
    }
    let wanted = |path: &str| {
        expected
            .iter()
            .find(|(p, _)| p == path)
            .map_or("", |(_, c)| c.as_str())
    };
    let on_disk = |path: &str| crate::files::read_text(&root.join(path)).unwrap_or_default();
    let mut out = String::new();
    for item in drift(root, known) {
        let (old, new, from, to) = match &item {
            Drift::Stale(path) => (
                on_disk(path),
                wanted(path).to_owned(),
                format!("a/{path}"),
                format!("b/{path}"),
            ),
            Drift::Missing(path) => (
                String::new(),
                wanted(path).to_owned(),
                "/dev/null".to_owned(),
                format!("b/{path}"),
            ),
            Drift::Extra(path) => (
                on_disk(path),
                String::new(),
                format!("a/{path}"),
                "/dev/null".to_owned(),
            ),
            Drift::Unreadable { .. } => continue,
        };
        let text = similar::TextDiff::from_lines(&old, &new)
            .unified_diff()
            .context_radius(3)
            .header(&from, &to)
            .to_string();
        out.push_str(&text);
    }
    out
}

/// Brings the generated files below the corpus root `root` up to date:
/// writes stale and missing files, and removes `.yaml` files in `generated/`
/// that the generator no longer writes. Returns what it changed (nothing
/// when all was up to date). `known` as for [`check`]: `None` leaves
/// `REFERENCE.md` alone.
///
/// # Errors
/// [`WriteError`] for the first file that cannot be read, written or removed.
pub fn write_all(root: &Path, known: Option<&[KnownFailures]>) -> Result<Vec<Drift>, WriteError> {
    let mut expected = files();
    if let Some(Ok(page)) = known.map(|k| reference_page(root, k)) {
        expected.push((crate::reference_page::PATH.to_owned(), page));
    }
    is_corpus_root(root)?;
    let drift = drift(root, known);
    // Every file is checked before any is touched: a refusal changes nothing.
    for item in &drift {
        match item {
            Drift::Stale(path) | Drift::Missing(path) => writable(root, path)?,
            Drift::Extra(path) => removable(root, path)?,
            Drift::Unreadable { .. } => {}
        }
    }
    for item in &drift {
        let io = |path: &str, err: std::io::Error| WriteError {
            path: path.to_owned(),
            kind: err.kind(),
            message: err.to_string(),
        };
        match item {
            Drift::Stale(path) | Drift::Missing(path) => {
                let contents = expected
                    .iter()
                    .find(|(p, _)| p == path)
                    .map_or("", |(_, c)| c.as_str());
                let full = root.join(path);
                if let Some(dir) = full.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| io(path, e))?;
                }
                std::fs::write(&full, contents).map_err(|e| io(path, e))?;
            }
            Drift::Extra(path) => std::fs::remove_file(root.join(path)).map_err(|e| io(path, e))?,
            Drift::Unreadable { path, message } => {
                return Err(WriteError {
                    path: path.clone(),
                    kind: std::io::ErrorKind::Other,
                    message: message.clone(),
                })
            }
        }
    }
    Ok(drift)
}

fn drift(root: &Path, known: Option<&[KnownFailures]>) -> Vec<Drift> {
    let mut expected = files();
    let mut drift = Vec::new();
    match known.map(|k| reference_page(root, k)) {
        Some(Ok(page)) => expected.push((crate::reference_page::PATH.to_owned(), page)),
        Some(Err(unreadable)) => drift.push(unreadable),
        None => {}
    }
    for (path, contents) in &expected {
        let read = crate::files::read_bounded(
            &root.join(path),
            crate::MAX_FILE_BYTES,
            crate::Pipes::Refuse,
        )
        .map_err(std::io::Error::from);
        match read {
            Ok(actual) if actual == contents.as_bytes() => {}
            Ok(_) => drift.push(Drift::Stale(path.clone())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                drift.push(Drift::Missing(path.clone()));
            }
            Err(err) => drift.push(Drift::Unreadable {
                path: path.clone(),
                message: err.to_string(),
            }),
        }
    }
    let dir = root.join(DIR);
    if dir.is_dir() {
        let written: BTreeSet<&str> = expected.iter().map(|(p, _)| p.as_str()).collect();
        let walk = crate::files::walk(&dir);
        for (relative, err) in walk.errors {
            drift.push(Drift::Unreadable {
                path: format!("{DIR}/{relative}"),
                message: err.to_string(),
            });
        }
        for (relative, _) in walk.files {
            let path = format!("{DIR}/{relative}");
            if !written.contains(path.as_str()) {
                drift.push(Drift::Extra(path));
            }
        }
    }
    drift
}

/// The files that make a directory a corpus root `generate` may write into:
/// the notes and the format that every generated page links to. A directory
/// without them (a home directory, a project's `docs/`) is refused whole.
pub const CORPUS_MARKERS: [&str; 2] = ["NOTES.md", "schema.json"];

/// A refusal, as the [`WriteError`] it is reported as.
fn refused(path: &str, message: String) -> WriteError {
    WriteError {
        path: path.to_owned(),
        kind: std::io::ErrorKind::InvalidInput,
        message,
    }
}

/// Whether `root` holds the [`CORPUS_MARKERS`] as regular files.
fn is_corpus_root(root: &Path) -> Result<(), WriteError> {
    for marker in CORPUS_MARKERS {
        let is_file = std::fs::symlink_metadata(root.join(marker)).is_ok_and(|m| m.is_file());
        if !is_file {
            return Err(refused(
                ".",
                format!(
                    "{} is not a corpus root: it has no {marker} (a corpus root holds {}), \
                     so generate writes nothing there",
                    root.display(),
                    CORPUS_MARKERS.join(" and ")
                ),
            ));
        }
    }
    Ok(())
}

/// Whether `path` (relative to `root`) and the folders on the way to it
/// are real files and folders, not links: generate writes through no link,
/// so nothing outside the corpus is ever written.
///
/// # Errors
/// A [`WriteError`] naming the link.
pub fn writable(root: &Path, path: &str) -> Result<(), WriteError> {
    let mut at = root.to_path_buf();
    for part in path.split('/') {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(refused(
                    path,
                    format!(
                        "{} is a symbolic link; generate writes no file through a link                          (replace it with a plain file or folder)",
                        at.display()
                    ),
                ));
            }
            // Missing: created as a plain file or folder.
            Ok(_) | Err(_) => {}
        }
    }
    Ok(())
}

/// Whether the extra file `path` in `generated/` is one generate wrote (a
/// plain file that starts with its header) and so may remove; anything
/// else there is someone's, and is left for them.
fn removable(root: &Path, path: &str) -> Result<(), WriteError> {
    writable(root, path)?;
    let mut head = [0u8; 64];
    // Only the head is read, so any size will do; a FIFO or a device is
    // refused without waiting on it, as something generate did not write.
    let read = crate::files::open(&root.join(path), u64::MAX, crate::Pipes::Refuse)
        .map_err(std::io::Error::from)
        .and_then(|(mut f, _)| {
            use std::io::Read as _;
            f.read(&mut head)
        });
    match read {
        Ok(n) if head[..n].starts_with(b"# GENERATED FILE: do not edit.") => Ok(()),
        Ok(_) => Err(refused(
            path,
            "it lies in the generated folder but generate did not write it (it lacks \
             the generated-file header); move it out or delete it yourself"
                .to_owned(),
        )),
        Err(err) => Err(refused(path, err.to_string())),
    }
}

/// One generated file.
struct Family {
    path: &'static str,
    about: &'static str,
    /// The anchor of the note in `NOTES.md` the family rests on.
    note: &'static str,
    vectors: Vec<Vector>,
}

fn families() -> Vec<Family> {
    vec![
        Family {
            path: CELLS_FILE,
            note: "two-faults-in-one-input",
            about: "One named GUID for each cell of the fault model (vectors/fault-model.yaml):\n\
                    every class of name bytes, every kind of invalid UTF-8, every buffer\n\
                    length (powers of two from 1 to 8192 and their neighbours, the name\n\
                    ending in a multi-byte character), each fault alone and each pair of\n\
                    faults one input can carry, with the code the model gives them.",
            vectors: fault_cells(),
        },
        Family {
            path: "generated/named-long-names.yaml",
            note: "names-longer-than-a-bound",
            about: "Named GUIDs with names of 255, 256, 257, 300 and 4096 bytes, decoded with\n\
                    bytes after the NUL and encoded. One widely used implementation stops a\n\
                    name after 256 bytes and swallows the next byte; these catch it.",
            vectors: long_names(),
        },
        Family {
            path: "generated/packed-masks.yaml",
            note: "the-mask-selects-byte-positions",
            about: "Every mask 00..ff, decoded and encoded. GUID byte i is 0x11 * (i + 1)\n\
                    wherever mask bit i is set, so a byte put at the wrong position shows.",
            vectors: mask_sweep(),
        },
        Family {
            path: "generated/packed-sign-bit.yaml",
            note: "the-specs-c-snippet-sign-extends",
            about: "A GUID byte >= 0x80 at every position, among 01 bytes. The spec's C\n\
                    snippet shifts the byte as a 32-bit int: at position 3 the result\n\
                    overflows the int (undefined behaviour; usually sign-extended into the\n\
                    high bytes), from position 4 on the shift count is too large (undefined\n\
                    behaviour too).",
            vectors: sign_bit(),
        },
        Family {
            path: "generated/packed-single-byte.yaml",
            note: "the-mask-selects-byte-positions",
            about: "Each one-bit mask with the byte 00, 7f, 80 and ff, decoded, and encoded\n\
                    where the byte is not 00 (the 00 forms are non-canonical).",
            vectors: single_byte(),
        },
        Family {
            path: "generated/packed-truncation.yaml",
            note: "truncated-input-is-an-error",
            about: "Truncated packed GUIDs: the 9-byte value with mask ff cut after each of\n\
                    its first 8 bytes, and every other non-zero mask one byte short.",
            vectors: truncation(),
        },
    ]
}

/// The wire form of a packed GUID with mask `mask` and `byte(i)` at each set
/// position `i`, and the GUID those bytes make: straight from the definition.
fn packed(mask: u8, byte: impl Fn(usize) -> u8) -> (Vec<u8>, u64) {
    let mut wire = vec![mask];
    let mut guid = 0u64;
    for i in 0..8 {
        if mask & (1 << i) != 0 {
            let b = byte(i);
            wire.push(b);
            guid |= u64::from(b) << (8 * i);
        }
    }
    (wire, guid)
}

/// The shortest wire form of `guid`: a mask bit for each non-zero byte.
fn shortest(guid: u64) -> Vec<u8> {
    let bytes = guid.to_le_bytes();
    let mask = (0..8)
        .filter(|&i| bytes[i] != 0)
        .fold(0u8, |mask, i| mask | (1 << i));
    packed(mask, |i| bytes[i]).0
}

/// The positions of the set bits of a mask, for descriptions.
fn positions(mask: u8) -> String {
    let list: Vec<String> = (0..8)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| i.to_string())
        .collect();
    list.join(", ")
}

/// A generated vector: every generated vector carries `generated` and all the
/// versions its type is used in.
fn vector(
    file: &str,
    id: String,
    description: String,
    request: Request,
    expect: Expectation,
    family: Flag,
    source: Option<&str>,
) -> Vector {
    // The family's flag first, then what the bytes imply (one rule for
    // every topic: crate::topics), then `generated`.
    let mut flags = vec![family];
    flags.extend(
        derived_flags(&request, &expect)
            .into_iter()
            .filter(|f| *f != family),
    );
    flags.push(Flag::Generated);
    Vector {
        id,
        sequence: None,
        description,
        versions: request.guid_type().versions().into(),
        request,
        expect,
        flags: flags.into(),
        source: source.map(Into::into),
        location: Location::whole_file(file),
    }
}

/// Flags that describe a packed GUID's bytes.
fn mask_sweep() -> Vec<Vector> {
    const FILE: &str = "generated/packed-masks.yaml";
    let mut out = Vec::new();
    for mask in 0..=u8::MAX {
        let (wire, guid) = packed(mask, |i| PATTERN[i]);
        let (decode_text, encode_text, source) = if mask == 0 {
            (
                "Mask 00: no bytes follow, GUID 0 is the single byte 00.".to_owned(),
                "GUID 0 encodes as the single byte 00.".to_owned(),
                Some(
                    "NOTES.md#guid-0-is-one-byte: GUID 0 is the single byte 00 (not 2 to 9 bytes)",
                ),
            )
        } else {
            (
                format!(
                    "Mask {mask:02x}: GUID {} {} follow{}, least significant first.",
                    if mask.count_ones() == 1 {
                        "byte"
                    } else {
                        "bytes"
                    },
                    positions(mask),
                    if mask.count_ones() == 1 { "s" } else { "" },
                ),
                format!(
                    "GUID {}: {} {} non-zero, so the mask is {mask:02x}.",
                    format_guid(guid),
                    if mask.count_ones() == 1 {
                        "byte"
                    } else {
                        "bytes"
                    },
                    if mask.count_ones() == 1 {
                        format!("{} is", positions(mask))
                    } else {
                        format!("{} are", positions(mask))
                    },
                ),
                None,
            )
        };
        out.push(vector(
            FILE,
            format!("packed.decode.mask-{mask:02x}"),
            decode_text,
            Request::DecodePacked {
                bytes: wire.clone(),
            },
            Expectation::Valid(Value::Packed {
                guid,
                consumed: wire.len(),
            }),
            Flag::MaskSweep,
            source,
        ));
        out.push(vector(
            FILE,
            format!("packed.encode.mask-{mask:02x}"),
            encode_text,
            Request::EncodePacked { guid },
            Expectation::Valid(Value::Encoded { bytes: wire }),
            Flag::MaskSweep,
            source,
        ));
    }
    out
}

fn truncation() -> Vec<Vector> {
    const FILE: &str = "generated/packed-truncation.yaml";
    let mut out = Vec::new();
    let (full, _) = packed(0xff, |i| PATTERN[i]);
    for len in 1..full.len() {
        out.push(vector(
            FILE,
            format!("packed.decode.truncated.ff.len-{len}"),
            format!(
                "Mask ff promises 8 GUID bytes but only {} follow: the input ends inside the value.",
                len - 1
            ),
            Request::DecodePacked {
                bytes: full[..len].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::Truncated,
            Some("NOTES.md#truncated-input-is-an-error: input that ends inside the value is an error"),
        ));
    }
    for mask in 1..u8::MAX {
        let (wire, _) = packed(mask, |i| PATTERN[i]);
        let promised = wire.len() - 1;
        out.push(vector(
            FILE,
            format!("packed.decode.truncated.{mask:02x}.one-short"),
            format!(
                "Mask {mask:02x} promises {promised} GUID byte{} but the input ends one byte early.",
                if promised == 1 { "" } else { "s" }
            ),
            Request::DecodePacked {
                bytes: wire[..wire.len() - 1].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::Truncated,
            None,
        ));
    }
    out
}

fn single_byte() -> Vec<Vector> {
    const FILE: &str = "generated/packed-single-byte.yaml";
    let mut out = Vec::new();
    for position in 0..8 {
        let mask = 1u8 << position;
        for byte in [0x00u8, 0x7f, 0x80, 0xff] {
            let (wire, guid) = packed(mask, |_| byte);
            let decode_text = if byte == 0 {
                format!(
                    "Mask {mask:02x} sends byte {position} as 00: not the shortest form, still GUID 0, and both bytes are consumed."
                )
            } else {
                format!("Mask {mask:02x} sends byte {position} as {byte:02x}.")
            };
            out.push(vector(
                FILE,
                format!("packed.decode.single.byte{position}-{byte:02x}"),
                decode_text,
                Request::DecodePacked {
                    bytes: wire.clone(),
                },
                Expectation::Valid(Value::Packed {
                    guid,
                    consumed: wire.len(),
                }),
                Flag::SingleByte,
                (byte == 0).then_some("NOTES.md#decoders-accept-non-shortest-forms: every decoder accepts non-shortest forms"),
            ));
            if byte != 0 {
                out.push(vector(
                    FILE,
                    format!("packed.encode.single.byte{position}-{byte:02x}"),
                    format!(
                        "GUID {} has only byte {position} set, so the mask is {mask:02x}.",
                        format_guid(guid)
                    ),
                    Request::EncodePacked { guid },
                    Expectation::Valid(Value::Encoded { bytes: wire }),
                    Flag::SingleByte,
                    None,
                ));
            }
        }
    }
    out
}

fn sign_bit() -> Vec<Vector> {
    const FILE: &str = "generated/packed-sign-bit.yaml";
    const SOURCE: &str =
        "NOTES.md#the-specs-c-snippet-sign-extends: the spec's C snippet shifts the byte as an int";
    let mut out = Vec::new();
    let push_pair = |out: &mut Vec<Vector>, name: String, what: String, bytes: [u8; 8]| {
        let (wire, guid) = packed(0xff, |i| bytes[i]);
        out.push(vector(
            FILE,
            format!("packed.decode.sign-bit.{name}"),
            format!("Mask ff with {what}: GUID {}.", format_guid(guid)),
            Request::DecodePacked {
                bytes: wire.clone(),
            },
            Expectation::Valid(Value::Packed {
                guid,
                consumed: wire.len(),
            }),
            Flag::SignBit,
            Some(SOURCE),
        ));
        out.push(vector(
            FILE,
            format!("packed.encode.sign-bit.{name}"),
            format!("GUID {} ({what}) encodes with mask ff.", format_guid(guid)),
            Request::EncodePacked { guid },
            Expectation::Valid(Value::Encoded {
                bytes: shortest(guid),
            }),
            Flag::SignBit,
            Some(SOURCE),
        ));
    };
    for position in 0..8 {
        for byte in [0x80u8, 0xff] {
            let mut bytes = [0x01u8; 8];
            bytes[position] = byte;
            push_pair(
                &mut out,
                format!("byte{position}-{byte:02x}"),
                format!("byte {position} = {byte:02x} and all others 01"),
                bytes,
            );
        }
    }
    push_pair(
        &mut out,
        "all-bytes".to_owned(),
        "every byte >= 0x80".to_owned(),
        [0x80, 0x91, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7],
    );
    out
}

/// What a long-name vector's description adds about bounds: a name of
/// [`NAME_BOUND_FLOOR`] bytes or more may also be refused.
fn bound_note(len: usize) -> &'static str {
    if len >= NAME_BOUND_FLOOR {
        " (or refused as name_too_long by an implementation with a bound)"
    } else {
        " (below every allowed bound)"
    }
}

fn long_names() -> Vec<Vector> {
    const FILE: &str = "generated/named-long-names.yaml";
    const SOURCE: &str =
        "NOTES.md#names-longer-than-a-bound: a name is never cut; from 256 bytes on it may be refused as name_too_long";
    let mut cases: Vec<(String, Vec<u8>, &str)> = [255usize, 256, 257, 300, 4096]
        .into_iter()
        .map(|len| {
            // Letters a..z over and over: valid UTF-8, and a misplaced cut shows.
            let name = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            (len.to_string(), name, "letters a to z, repeated")
        })
        .collect();
    // 86 three-byte characters: byte 256 falls inside the 86th character, so
    // a cap at 256 bytes also cuts a UTF-8 sequence.
    cases.push((
        "258-utf8".to_owned(),
        "\u{20ac}".repeat(86).into_bytes(),
        "the 3-byte character U+20AC 86 times, so byte 256 is inside a character",
    ));
    let mut out = Vec::new();
    for (name_id, name, what) in cases {
        let len = name.len();
        let mut encoded = NAMED_GUID.to_le_bytes().to_vec();
        encoded.extend_from_slice(&name);
        encoded.push(0);
        let mut input = encoded.clone();
        input.extend_from_slice(&NEXT_FIELD);
        out.push(vector(
            FILE,
            format!("named.decode.long-name.{name_id}"),
            format!(
                "A {len}-byte name ({what}), then NUL and the next field ({}); all of the name is read{}.",
                format_spaced(&NEXT_FIELD),
                bound_note(len),
            ),
            Request::DecodeNamed { bytes: input },
            Expectation::Valid(Value::Named {
                guid: NAMED_GUID,
                consumed: encoded.len(),
                name: Some(name.clone()),
            }),
            Flag::LongName,
            Some(SOURCE),
        ));
        // The same name running to the end of the input: a reader with a
        // fixed buffer that takes the end of its buffer, or of the input,
        // for the end of the name accepts it.
        out.push(vector(
            FILE,
            format!("named.decode.long-name.{name_id}.unterminated"),
            format!(
                "A {len}-byte name ({what}) that runs to the end of the input without its NUL: the input is cut short{}.",
                bound_note(len),
            ),
            Request::DecodeNamed {
                bytes: encoded[..encoded.len() - 1].to_vec(),
            },
            Expectation::Invalid(ErrorCode::Eof),
            Flag::LongName,
            Some(SOURCE),
        ));
        out.push(vector(
            FILE,
            format!("named.encode.long-name.{name_id}"),
            format!(
                "A {len}-byte name ({what}) is written whole, then NUL{}.",
                bound_note(len)
            ),
            Request::EncodeNamed {
                guid: NAMED_GUID,
                name: Some(name),
            },
            Expectation::Valid(Value::Encoded { bytes: encoded }),
            Flag::LongName,
            Some(SOURCE),
        ));
    }
    out
}

/// The file of the fault model's named-GUID cells.
const CELLS_FILE: &str = "generated/named-fault-cells.yaml";

/// A short name of each class of the fault model: the class's bytes between
/// letters, so the class is all the name shows.
fn class_name(class: &str) -> Option<&'static [u8]> {
    Some(match class {
        "empty" => b"",
        "ascii" => b"Thrall",
        "utf8-2" => "Caf\u{e9}s".as_bytes(),
        "utf8-3" => "5\u{20ac}s".as_bytes(),
        "utf8-4" => "a\u{1f600}b".as_bytes(),
        "bom" => "\u{feff}Thrall".as_bytes(),
        "noncharacter" => "a\u{fdd0}b".as_bytes(),
        "stray-continuation" => b"a\x80b",
        "truncated-sequence" => b"a\xe2\x82b",
        "overlong" => b"a\xc0\xafb",
        "surrogate" => b"a\xed\xa0\x80b",
        "above-max" => b"a\xf4\x90\x80\x80b",
        _ => return None,
    })
}

/// A name of `len` bytes ending in a multi-byte character (two bytes when
/// `len` is 2, three from 3 on), so a buffer of `len` bytes or one less
/// cuts inside the character; letters before it.
fn ends_multibyte(len: usize) -> Vec<u8> {
    let last: &[u8] = if len >= 3 {
        "\u{20ac}".as_bytes()
    } else {
        "\u{e9}".as_bytes()
    };
    let mut name: Vec<u8> = (0..len - last.len())
        .map(|i| b'a' + (i % 26) as u8)
        .collect();
    name.extend_from_slice(last);
    name
}

/// One vector for each cell of the fault model's named-GUID grids, built
/// from the cell's values by the format's definition.
fn fault_cells() -> Vec<Vector> {
    use crate::fault_model::{code_for, coordinates, FaultModel};
    const SOURCE: &str =
        "NOTES.md#two-faults-in-one-input: one fault is answered with its own code, two with the code the precedence gives";
    // The checked-in model is valid: a test loads it, and so does the
    // coverage test; an invalid one generates no cells, which that test
    // reports.
    let Ok(model) = FaultModel::load() else {
        return Vec::new();
    };
    // A cell whose one possible input a hand-written vector already asks
    // (GUID 0 alone, the empty input) gets no second vector: the corpus
    // refuses two vectors with one request and answer.
    let written: Vec<Request> = crate::Corpus::embedded_with_errors()
        .0
        .vectors
        .into_iter()
        .filter(|v| !v.location.file.starts_with(DIR))
        .map(|v| v.request)
        .collect();
    let mut out = Vec::new();
    for cell in model.cells() {
        if !cell.grid.starts_with("named-") {
            continue;
        }
        let get = |axis: &str| {
            cell.values
                .iter()
                .find(|(a, _)| a == axis)
                .map(|(_, v)| v.as_str())
        };
        let faults: Vec<&str> = get("fault")
            .filter(|f| *f != "none")
            .map(|f| f.split('+').collect())
            .unwrap_or_default();
        let has = |fault: &str| faults.contains(&fault);
        let (name, what): (Vec<u8>, String) = match (get("length"), get("class"), get("nul-at")) {
            (Some(len), Some("ends-invalid"), _) => {
                let len: usize = len.parse().unwrap_or(1);
                let mut name: Vec<u8> = (0..len - 1).map(|i| b'a' + (i % 26) as u8).collect();
                name.push(0x80);
                (
                    name,
                    format!("a {len}-byte name whose last byte is a stray continuation byte 80"),
                )
            }
            (Some(len), _, _) => {
                let len: usize = len.parse().unwrap_or(2);
                (
                    ends_multibyte(len),
                    format!("a {len}-byte name ending in a multi-byte character"),
                )
            }
            (None, Some(class), _) => (
                class_name(class).unwrap_or_default().to_vec(),
                format!("a name of class {class}"),
            ),
            (None, None, Some(at)) => (
                match at {
                    "first" => b"\0abc".to_vec(),
                    "last" => b"abc\0".to_vec(),
                    _ => b"ab\0c".to_vec(),
                },
                format!("a name whose NUL is its {at} byte"),
            ),
            _ => (b"a".to_vec(), "the name a".to_owned()),
        };
        let mut id = format!(
            "named.{}.cell",
            if cell.request == crate::RequestKind::DecodeNamed {
                "decode"
            } else {
                "encode"
            }
        );
        for (axis, value) in &cell.values {
            if axis != "fault" {
                id.push_str(&format!(".{axis}-{value}"));
            }
        }
        id.push('.');
        id.push_str(&faults.join("."));
        if faults.is_empty() {
            id.push_str("valid");
        }
        let (request, expect, description) = if cell.request == crate::RequestKind::DecodeNamed {
            if let Some(n) = get("guid-bytes") {
                let n: usize = n.parse().unwrap_or(0);
                let bytes = NAMED_GUID.to_le_bytes()[..n].to_vec();
                (
                    Request::DecodeNamed { bytes },
                    Expectation::Invalid(ErrorCode::Eof),
                    format!("Only {n} of the 8 GUID bytes: the input ends inside the GUID."),
                )
            } else if get("guid") == Some("zero") {
                let mut bytes = vec![0u8; 8];
                let trailing = get("trailing") == Some("yes");
                if trailing {
                    bytes.extend_from_slice(&NEXT_FIELD);
                }
                (
                    Request::DecodeNamed { bytes },
                    Expectation::Valid(Value::Named {
                        guid: 0,
                        consumed: 8,
                        name: None,
                    }),
                    format!(
                        "GUID 0: no name follows{}.",
                        if trailing {
                            "; the next field's bytes are left alone"
                        } else {
                            ""
                        }
                    ),
                )
            } else {
                let name = if get("guid").is_some() {
                    b"a".to_vec()
                } else {
                    name
                };
                let mut bytes = NAMED_GUID.to_le_bytes().to_vec();
                bytes.extend_from_slice(&name);
                if !has("missing_terminator") {
                    bytes.push(0);
                }
                let consumed = bytes.len();
                let trailing = get("trailing") == Some("yes");
                if trailing {
                    bytes.extend_from_slice(&NEXT_FIELD);
                }
                let faults: Vec<String> = coordinates(&Request::DecodeNamed {
                    bytes: bytes.clone(),
                })
                .faults;
                let expect = match code_for(&model, &faults) {
                    Some(code) => Expectation::Invalid(code),
                    None => Expectation::Valid(Value::Named {
                        guid: NAMED_GUID,
                        consumed,
                        name: Some(name.clone()),
                    }),
                };
                let description = format!(
                    "{}{}: {}.",
                    capitalise(&what),
                    if has("missing_terminator") {
                        ", running to the end of the input without its NUL"
                    } else if trailing {
                        ", its NUL, then the next field"
                    } else {
                        ", then its NUL"
                    },
                    outcome_words(&expect, name.len()),
                );
                (Request::DecodeNamed { bytes }, expect, description)
            }
        } else {
            let guid = if has("name_with_guid_zero") || get("guid") == Some("zero") {
                0
            } else {
                NAMED_GUID
            };
            let name = if get("name") == Some("absent") {
                None
            } else if has("interior_nul") && get("nul-at").is_none() {
                // The class's bytes, then a NUL inside the name.
                let mut with_nul = name;
                with_nul.extend_from_slice(b"\0z");
                Some(with_nul)
            } else {
                Some(name)
            };
            let request = Request::EncodeNamed {
                guid,
                name: name.clone(),
            };
            let faults: Vec<String> = coordinates(&request).faults;
            let mut wire = guid.to_le_bytes().to_vec();
            let expect = match code_for(&model, &faults) {
                // GUID 0 with an empty name: nothing is lost by writing GUID
                // 0 alone, so either answer is allowed.
                Some(ErrorCode::NameWithoutGuid) if name.as_deref() == Some(b"") => {
                    Expectation::Acceptable {
                        value: Value::Encoded { bytes: wire },
                        why: "The format has no way to write a name after GUID 0. An implementation whose type tells no name from an empty name rejects this (name_without_guid); one whose type cannot writes eight 00 bytes, which loses nothing.".to_owned(),
                    }
                }
                Some(code) => Expectation::Invalid(code),
                None => match &name {
                    None if guid != 0 => {
                        wire.push(0);
                        Expectation::Acceptable {
                            value: Value::Encoded { bytes: wire },
                            why: "A non-zero GUID is always followed by a name on the wire. An implementation whose type cannot tell no name from an empty name writes the empty name (the GUID, then 00); one that can may reject the call.".to_owned(),
                        }
                    }
                    None => Expectation::Valid(Value::Encoded { bytes: wire }),
                    Some(bytes) => {
                        wire.extend_from_slice(bytes);
                        wire.push(0);
                        Expectation::Valid(Value::Encoded { bytes: wire })
                    }
                },
            };
            let description = match &name {
                None => format!(
                    "GUID {} given without a name: {}.",
                    format_guid(guid),
                    outcome_words(&expect, 0)
                ),
                Some(bytes) => format!(
                    "{} with GUID {}{}: {}.",
                    capitalise(&what),
                    format_guid(guid),
                    if has("interior_nul") && get("nul-at").is_none() {
                        ", a NUL and z after it"
                    } else {
                        ""
                    },
                    outcome_words(&expect, bytes.len()),
                ),
            };
            (request, expect, description)
        };
        if written.contains(&request) {
            continue;
        }
        out.push(vector(
            CELLS_FILE,
            id,
            description,
            request,
            expect,
            Flag::FaultCell,
            Some(SOURCE),
        ));
    }
    out
}

/// `text` with its first letter upper-case.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What a fault cell's vector expects, in words.
fn outcome_words(expect: &Expectation, name_len: usize) -> String {
    let bound = if name_len >= NAME_BOUND_FLOOR {
        bound_note(name_len)
    } else {
        ""
    };
    match expect {
        Expectation::Invalid(code) => format!("error {code}{bound}"),
        Expectation::Valid(_) => format!("read and written whole{bound}"),
        Expectation::Acceptable { .. } => "either answer is allowed".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_packed_values_from_the_definition() {
        // The spec's worked example, built the way every generated case is.
        let (wire, guid) = packed(0x0a, |i| [0, 0xde, 0, 0xad, 0, 0, 0, 0][i]);
        assert_eq!(wire, [0x0a, 0xde, 0xad]);
        assert_eq!(guid, 0x0000_0000_ad00_de00);
        assert_eq!(shortest(guid), wire);
        assert_eq!(shortest(0), [0x00]);
        assert_eq!(shortest(u64::MAX), [0xff; 9]);
    }

    #[test]
    fn written_files_load_back_to_the_same_vectors() {
        let written: Vec<(String, String)> = files();
        let loaded = crate::Corpus::from_sources(&written).unwrap_or_else(|e| panic!("{e}"));
        let built: Vec<Vector> = families().into_iter().flat_map(|f| f.vectors).collect();
        assert_eq!(loaded.vectors.len(), built.len());
        for (mut loaded, built) in loaded.vectors.into_iter().zip(built) {
            assert_eq!(loaded.location.file, built.location.file);
            loaded.location = built.location.clone();
            assert_eq!(loaded, built);
        }
    }

    #[test]
    fn output_is_deterministic() {
        assert_eq!(files(), files());
    }

    #[test]
    fn every_generated_file_sits_in_the_generated_directory() {
        for (path, contents) in files() {
            assert!(
                path.starts_with("generated/") && path.ends_with(".yaml"),
                "{path}"
            );
            assert!(
                contents.starts_with("# GENERATED FILE: do not edit."),
                "{path}"
            );
            assert!(contents.contains(COMMAND), "{path}");
        }
    }
}
