//! The unit tests of `duration`, through the crate's API.

use std::time::Duration;
use wow_guid_conformance::duration::*;
use wow_guid_harness::duration::DisplayDuration;

#[test]
fn durations_in_seconds_and_milliseconds() {
    assert_eq!(parse_duration("5"), Ok(Duration::from_secs(5)));
    assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
    assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
    assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
    assert_eq!(parse_duration("0"), Err(DurationError::Zero));
    assert_eq!(parse_timeout("10ms"), Ok(Duration::from_millis(10)));
    assert_eq!(
        parse_timeout("9ms"),
        Err(DurationError::BelowFloor {
            given: Duration::from_millis(9)
        })
    );
    assert_eq!(
        parse_timeout("0.001").unwrap_err().to_string(),
        "a timeout of 1ms is below the floor of 10ms: on a busy machine scheduling delays \
         alone would fail requests, and the failures would be blamed on the implementation"
    );
    assert_eq!(
        parse_duration("1e3"),
        Err(DurationError::Syntax("1e3".into()))
    );
    assert_eq!(
        parse_duration("-1s"),
        Err(DurationError::Syntax("-1s".into()))
    );
    assert_eq!(
        parse_duration("5m"),
        Err(DurationError::Syntax("5m".into()))
    );
    assert_eq!(parse_duration("100000"), Err(DurationError::TooLong));
    assert!(parse_duration("x")
        .unwrap_err()
        .to_string()
        .contains("500ms"));
}

/// What a rerun command writes, the command line reads back unchanged.
#[test]
fn written_durations_read_back() {
    for ms in [1, 250, 999, 1000, 1500, 2001, 5000, 30_000, 86_400_000] {
        let d = Duration::from_millis(ms);
        assert_eq!(
            parse_duration(&DisplayDuration(d).to_string()),
            Ok(d),
            "{ms} ms"
        );
    }
}
