//! Raw bytes as a duration from the command line (`--timeout`, `--time`).
//! Anything accepted is positive and at most a day; a timeout is at least
//! the floor; and the runner's own way of writing a duration (in rerun
//! commands) reads back to a duration within the millisecond it rounds to.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use wow_guid_conformance::duration::{parse_duration, parse_timeout, DurationError};
use wow_guid_harness::duration::{DisplayDuration, MIN_TIMEOUT};

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    match parse_duration(text) {
        Ok(duration) => {
            assert!(!duration.is_zero() && duration <= Duration::from_secs(86_400));
            let shown = DisplayDuration(duration).to_string();
            if duration >= Duration::from_millis(1) {
                let back = parse_duration(&shown)
                    .unwrap_or_else(|e| panic!("{text:?} -> {duration:?} shown as {shown:?}: {e}"));
                let diff = back.abs_diff(duration);
                assert!(
                    diff < Duration::from_millis(1),
                    "{text:?} -> {duration:?} -> {shown:?} -> {back:?}"
                );
            }
            match parse_timeout(text) {
                Ok(timeout) => assert!(timeout == duration && timeout >= MIN_TIMEOUT),
                Err(DurationError::BelowFloor { given }) => {
                    assert!(given == duration && given < MIN_TIMEOUT)
                }
                Err(e) => panic!("{text:?} is a duration but not a timeout: {e:?}"),
            }
        }
        Err(error) => {
            assert!(parse_timeout(text).is_err());
            let _ = error.to_string();
        }
    }
});
