//! The corpus as a `cargo test`: every vector of the embedded corpus sent
//! to a [`Codec`] in this process, judged and reported exactly as the
//! runner's `run` judges and reports a program (the harness's [`run()`]
//! and its human report: failures grouped by cause, the biggest first, a
//! few of each in full), with each encode's own round trip: the vectors
//! that read back what the codec wrote ([`crate::round_trip`]), sent after
//! the corpus and reported with its failures.
//!
//! `WOW_GUID_VECTORS`, when set, selects vectors by id (globs, separated by
//! commas), as the runner's `--id` does: `WOW_GUID_VECTORS=named.decode.*
//! cargo test` runs those alone.
//!
//! [`run()`]: wow_guid_harness::run::run

use std::num::NonZeroUsize;

use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::options::{Conditions, RunOptions, Target};
use wow_guid_harness::report::human::Human;
use wow_guid_harness::report::{Format, RunReport};
use wow_guid_harness::run::run;
use wow_guid_harness::select::Selection;
use wow_guid_vectors::Corpus;

use crate::codec::Codec;
use crate::in_process::InProcess;
use crate::round_trip;

/// The environment variable that selects vectors by id.
pub const SELECT_VARIABLE: &str = "WOW_GUID_VECTORS";

/// What a run of the corpus against a codec came to.
#[derive(Clone, Debug)]
pub struct CorpusRun {
    /// Whether the codec passes: no vector failed and every encode reads
    /// back.
    pub conforms: bool,
    /// The report, as `run` writes it.
    pub report: String,
}

/// `text` without the ANSI styles the human report carries: a test's
/// output is read in a log more often than on a terminal.
fn without_styles(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("\x1b[") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(after.len(), |i| i + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Runs the embedded corpus (or the vectors `WOW_GUID_VECTORS` selects)
/// against `codec`, judged under `judge`, and checks every encode's own
/// round trip.
///
/// # Panics
/// When the embedded corpus does not load or `WOW_GUID_VECTORS` holds a
/// bad glob: the test cannot run then.
#[must_use]
pub fn run_corpus<C: Codec + Sync>(codec: &C, judge: JudgeOptions) -> CorpusRun {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    let selection = match std::env::var(SELECT_VARIABLE) {
        Ok(patterns) => {
            let patterns: Vec<String> = patterns.split(',').map(str::to_owned).collect();
            Selection::all()
                .with_id_patterns(&patterns)
                .unwrap_or_else(|e| panic!("{SELECT_VARIABLE}: {e}"))
        }
        Err(_) => Selection::all(),
    };
    let mut conditions = Conditions::new(Target::Command(vec![std::any::type_name::<C>().into()]));
    conditions.judge = judge;
    let options = RunOptions {
        conditions,
        corpus,
        selection,
        jobs: NonZeroUsize::MIN,
    };
    let plan = options.plan();
    let mut results = run(&plan, || InProcess(codec), None).unwrap_or_else(|e| panic!("{e}"));
    let read_back = round_trip::read_back_vectors(&results.results);
    round_trip::add_read_backs(&mut results, &read_back, judge, None, || InProcess(codec))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut report = Vec::new();
    let document = RunReport::new(&options, "wow-guid-conformance", &results);
    Human::default()
        .write(&document, &mut report)
        .expect("writing to memory cannot fail");
    let mut report = without_styles(&String::from_utf8_lossy(&report));
    report.push_str(&format!(
        "(to run some vectors alone: {SELECT_VARIABLE}=ID[,ID...] cargo test; ids may be globs)\n"
    ));
    CorpusRun {
        conforms: results.counts.conforms(),
        report,
    }
}

/// Runs the corpus against `codec` as [`run_corpus`] does (error codes
/// judged loosely, as `run` judges them by default), prints the report,
/// and panics if the codec does not pass: the one line of a crate's corpus
/// test.
///
/// # Panics
/// When the codec fails a vector or writes what it cannot read.
#[track_caller]
pub fn assert_corpus<C: Codec + Sync>(codec: &C) {
    let outcome = run_corpus(codec, JudgeOptions::default());
    println!("{}", outcome.report);
    assert!(
        outcome.conforms,
        "the codec fails the corpus:\n{}",
        outcome.report
    );
}
