//! The corpus as a test: `run`'s judge and report, and the round trips.

use wow_guid_harness::judge::JudgeOptions;
use wow_guid_testkit::corpus::run_corpus;
use wow_guid_testkit::Reference;

use crate::codecs::{Bounded, PanicsOnZero, TopByteLost};

#[test]
fn the_reference_passes_strictly() {
    let run = run_corpus(
        &Reference,
        JudgeOptions {
            strict_errors: true,
        },
    );
    assert!(run.conforms, "{}", run.report);
    assert!(run.report.contains("verdict: PASS"), "{}", run.report);
}

#[test]
fn a_wrong_decoder_is_reported_grouped_by_cause_with_reproduce_lines() {
    let run = run_corpus(&TopByteLost, JudgeOptions::default());
    assert!(!run.conforms);
    let report = &run.report;
    assert!(report.contains("cause(s):"), "{report}");
    assert!(
        report.contains("decode packed_guid: wrong GUID (high 32 bits, too small)"),
        "{report}"
    );
    assert!(report.contains("reproduce"), "{report}");
    assert!(report.contains("verdict: FAIL"), "{report}");
}

#[test]
fn a_panic_is_a_crash_of_its_vector_and_the_run_goes_on() {
    let run = run_corpus(&PanicsOnZero, JudgeOptions::default());
    assert!(!run.conforms);
    assert!(run.report.contains("crash"), "{}", run.report);
    assert!(run.report.contains("GUID 0 has no name"), "{}", run.report);
}

#[test]
fn an_encoder_past_its_decoders_bound_writes_what_it_cannot_read() {
    let run = run_corpus(&Bounded, JudgeOptions::default());
    let report = &run.report;
    // Every vector of the corpus passes (it lets a decoder bound names),
    // but reading back what the encoder wrote fails.
    assert!(!run.conforms, "{report}");
    assert!(
        report.contains("decode named_guid: `error name_too_long` instead of a value"),
        "{report}"
    );
    assert!(report.contains(".read-back"), "{report}");
    assert!(report.contains("writes what it cannot read"), "{report}");
    assert!(report.contains("verdict: FAIL"), "{report}");
}
