//! What `fuzz` writes besides the findings themselves: the header of a
//! findings file, and the summary at the end of a session, whose last line
//! is the command that runs the same session again (written by
//! [`Rerun`], like every rerun command). Pure string work.

use std::fmt::Write as _;

use super::finding::{Finding, Novelty, Reproduction};
use super::session::{FuzzResults, Stop};
use wow_guid_harness::report::rerun::Rerun;
use wow_guid_vectors::RequestKind;

/// The `#` header of a file of findings from seed `seed`.
#[must_use]
pub fn file_header(seed: u64) -> String {
    format!(
        "Found by `wow-guid-conformance fuzz --seed {seed}`: requests on which the implementation\n\
         disagreed with the reference codec, each shrunk to a minimal one. Every vector expects\n\
         what the reference codec answers. Review each before committing it to vectors/."
    )
}

/// Whether `finding` was shrunk, in a few words: `shrunk fully`, `shrunk
/// partly` or `not shrunk`, and why not fully.
#[must_use]
pub fn shrink_state(finding: &Finding) -> &'static str {
    match (&finding.reproduction, &finding.shrink) {
        (Reproduction::NotTried, _) => "not shrunk: not about one request",
        (Reproduction::NotReproduced, _) => "not shrunk: did not reproduce",
        (Reproduction::OutOfTime, _) => "not shrunk: out of time (--time)",
        (_, None) => "not shrunk",
        (_, Some(s)) if s.complete => "shrunk fully",
        (_, Some(s)) if s.out_of_time => "shrunk partly: out of time (--time)",
        (_, Some(_)) => "shrunk partly: its share of the time ran out (--shrink-time)",
    }
}

/// The `#` lines that end a session of seed `seed`: counts, why it
/// stopped, the findings, and the command that runs it again.
#[must_use]
pub fn summary(results: &FuzzResults, seed: u64, rerun: &Rerun<'_>) -> String {
    let mut s = String::new();
    write_counts(&mut s, results, seed, rerun);
    write_cut_short(&mut s, results);
    write_verdict(&mut s, results);
    let (seed, count) = (seed.to_string(), results.done.to_string());
    let words = ["fuzz", "--seed", &seed, "--count", &count];
    // Writing to a String cannot fail (here and in the helpers below).
    let _ = writeln!(s, "# rerun: {}", rerun.line(&words, false));
    s
}

/// The summary's first lines: how many requests of each kind were sent and
/// how fast, with the read-backs asked besides.
fn write_counts(s: &mut String, results: &FuzzResults, seed: u64, rerun: &Rerun<'_>) {
    let secs = results.elapsed.as_secs_f64().max(1e-3);
    let _ = writeln!(
        s,
        "# fuzz: {} requests in {:.1}s ({:.0}/s) against {}, seed {seed}",
        results.done,
        results.elapsed.as_secs_f64(),
        results.done as f64 / secs,
        rerun.conditions.target,
    );
    let by_kind: Vec<String> = RequestKind::ALL
        .iter()
        .zip(results.done_by_kind)
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    let _ = writeln!(s, "#   {}", by_kind.join(", "));
    if results.read_backs > 0 {
        let _ = writeln!(
            s,
            "#   and {} read-back(s): its own encodes decoded back (round trips)",
            results.read_backs
        );
    }
}

/// The lines on what the session did not do: kinds answered `unsupported`,
/// requests left unjudged or findings left unshrunk when the time ran out,
/// and why it stopped before its budget.
fn write_cut_short(s: &mut String, results: &FuzzResults) {
    if !results.unsupported_kinds.is_empty() {
        let kinds: Vec<String> = results
            .unsupported_kinds
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(
            s,
            "#   answered `unsupported` (not generated afterwards): {}",
            kinds.join(", ")
        );
    }
    if results.unjudged > 0 {
        let _ = writeln!(
            s,
            "#   the time budget ran out with {} request(s) of the last batch unanswered: not judged",
            results.unjudged
        );
    }
    let cut: Vec<String> = results
        .findings
        .iter()
        .filter(|f| {
            f.reproduction == Reproduction::OutOfTime || f.shrink.is_some_and(|s| s.out_of_time)
        })
        .map(Finding::id)
        .collect();
    if !cut.is_empty() {
        let _ = writeln!(
            s,
            "#   the time budget ran out before these were fully replayed and shrunk: {}",
            cut.join(", ")
        );
    }
    let stop = match results.stop {
        Stop::Budget => return,
        Stop::MaxFindings => format!(
            "stopped after {} finding(s) (--max-findings)",
            results.findings.len()
        ),
        Stop::NothingSupported => {
            "every request kind was answered `unsupported`: nothing left to fuzz".to_owned()
        }
        Stop::NoAnswers => {
            "stopped: the implementation has failed every request without answering one".to_owned()
        }
    };
    let _ = writeln!(s, "#   {stop}");
}

/// The verdict: nothing judged, no disagreement, or the findings, one line
/// each with its novelty and how far it was shrunk.
fn write_verdict(s: &mut String, results: &FuzzResults) {
    if results.judged_nothing() {
        let _ = writeln!(
            s,
            "# nothing judged: no request was answered within the time budget \
             (no verdict; a --timeout well under --time lets a hang be judged)"
        );
        return;
    }
    if results.findings.is_empty() {
        let _ = writeln!(s, "# no disagreement with the reference codec");
        return;
    }
    let new = results
        .findings
        .iter()
        .filter(|f| f.novelty == Novelty::New)
        .count();
    let _ = writeln!(
        s,
        "# {} finding(s), {new} new (no corpus vector fails this way):",
        results.findings.len()
    );
    for f in &results.findings {
        let novelty = match &f.novelty {
            Novelty::New => "new".to_owned(),
            Novelty::Known(id) => format!("known: {id}"),
            Novelty::Unchecked => "not checked".to_owned(),
        };
        let _ = writeln!(
            s,
            "#   {}  {} ({} request(s)) [{novelty}; {}]",
            f.id(),
            f.signature,
            f.occurrences,
            shrink_state(f)
        );
    }
}
