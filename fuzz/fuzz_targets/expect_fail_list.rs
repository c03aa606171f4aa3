//! Raw bytes as an expected-failure list (`--expect-fail`), checked against
//! the ids of a small corpus. Either a list whose every id is in the corpus,
//! each at a line of the text, or errors sorted by line, each at a line of
//! the text, whose message stays bounded however many bad lines there are.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wow_guid_harness::expect_fail::ExpectedFailures;

/// A handful of real ids: the parser's work per input does not depend on
/// the corpus's size, and the dictionary holds these ids.
const IDS: &[&str] = &[
    "packed/decode/zero-guid",
    "packed/decode/all-bytes",
    "named/decode/empty-name",
    "named/encode/ascii-name",
    "a",
    "b-1",
];

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let lines = text.lines().count();
    match ExpectedFailures::parse("list.txt", text, IDS.iter().copied()) {
        Ok(list) => {
            for (id, entry) in &list.entries {
                assert!(IDS.contains(&id.as_str()), "{id:?} is not in the corpus");
                assert!((1..=lines).contains(&entry.line));
            }
        }
        Err(errors) => {
            assert!(!errors.0.is_empty());
            assert!(errors.0.windows(2).all(|w| w[0].line <= w[1].line));
            assert!(errors.0.iter().all(|e| (1..=lines).contains(&e.line)));
            let message = errors.to_string();
            assert!(
                message.len() <= 16 * 1024,
                "{} bytes of message",
                message.len()
            );
        }
    }
});
