//! The unit tests of `report::grouping`, through the crate's API.

use crate::fixtures::sample;
use wow_guid_harness::implementation::{Answer, Fault};
use wow_guid_harness::judge::Mismatch;
use wow_guid_harness::judge::Verdict;
use wow_guid_harness::report::grouping::*;
use wow_guid_harness::run::RunOutcome;
use wow_guid_harness::run::VectorResult;
use wow_guid_vectors::{ErrorCode, Value, Vector};

fn result(vector: &Vector, verdict: Verdict) -> VectorResult<'_> {
    VectorResult {
        vector,
        answer: Answer::fault(Fault::ReadFailed {
            message: "unused".into(),
        }),
        outcome: if verdict.is_pass() {
            RunOutcome::Passed
        } else {
            RunOutcome::Failed
        },
        verdict,
        vector_bug: None,
        expected_failure: None,
        passes_alone: None,
        checked_alone: false,
    }
}

#[test]
fn the_same_kind_of_difference_on_the_same_request_kind_is_one_group() {
    let vectors = sample();
    let wrong_guid = |guid| {
        Verdict::Fail(Mismatch::WrongValue {
            expected: Value::Packed {
                guid: 0xad00_de00,
                consumed: 3,
            },
            got: Value::Packed { guid, consumed: 3 },
        })
    };
    let rejected = Verdict::Fail(Mismatch::RejectedValid {
        expected: Value::Encoded { bytes: vec![0] },
        code: ErrorCode::Eof,
    });
    let results = [
        result(&vectors[0], wrong_guid(1)),
        result(&vectors[1], Verdict::Pass),
        result(&vectors[2], rejected),
        // Another GUID, same class, same kind: the same group.
        result(&vectors[0], wrong_guid(2)),
    ];
    let groups = by_cause(&results);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].members.len(), 2);
    assert_eq!(
        groups[0].cause.to_string(),
        "decode packed_guid: wrong GUID (low 32 bits, too small)"
    );
    assert_eq!(groups[1].members.len(), 1);
    assert_eq!(
        groups[1].cause.to_string(),
        "encode packed_guid: `error eof` instead of a value"
    );
    // The passing result is in no group.
    assert!(groups
        .iter()
        .all(|g| g.members.iter().all(|m| !m.verdict.is_pass())));
}
