//! Raw bytes as a JSON report read back by `run --rerun-failed`. Either the
//! ids to rerun (each once, each in the corpus) or an error whose message
//! stays bounded: a report is a user's file and may name any number of ids
//! of any length.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use wow_guid_conformance::report_reader::failed_ids;

const IDS: &[&str] = &[
    "packed/decode/zero-guid",
    "named/decode/empty-name",
    "a",
    "b-1",
];

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    match failed_ids("report.json", text, IDS.iter().copied()) {
        Ok(ids) => {
            let unique: HashSet<&String> = ids.iter().collect();
            assert_eq!(unique.len(), ids.len(), "an id twice: {ids:?}");
            assert!(ids.iter().all(|id| IDS.contains(&id.as_str())), "{ids:?}");
        }
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.len() <= 16 * 1024,
                "{} bytes of message",
                message.len()
            );
        }
    }
});
