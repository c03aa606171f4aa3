//! Durations as people write them on the command line: `5`, `5s`, `2.5`,
//! `500ms`, read here ([`parse_duration`]); the harness writes them in the
//! same syntax (`wow_guid_harness::duration::DisplayDuration`), and a test
//! holds the two to one syntax. Pure.

use std::time::Duration;

use wow_guid_harness::duration::{DisplayDuration, MIN_TIMEOUT};

/// A duration that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Not a number with an optional `ms` or `s` unit.
    #[error(
        "`{0}` is not a duration; write a number of seconds (5, 2.5, 5s) or milliseconds (500ms)"
    )]
    Syntax(String),
    /// Zero: every wait would fail at once.
    #[error("a timeout of zero would fail every request")]
    Zero,
    /// Longer than a day: surely a slip.
    #[error("durations are limited to one day")]
    TooLong,
    /// A timeout shorter than [`MIN_TIMEOUT`].
    #[error(
        "a timeout of {} is below the floor of {}: on a busy machine scheduling delays \
         alone would fail requests, and the failures would be blamed on the implementation",
        DisplayDuration(*.given),
        DisplayDuration(MIN_TIMEOUT)
    )]
    BelowFloor {
        /// The timeout given.
        given: Duration,
    },
}

/// Reads `5`, `5s`, `2.5`, `2.5s` or `500ms`.
///
/// # Errors
/// [`DurationError`] for anything else, zero, or more than a day.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        (text, 1.0)
    };
    let syntax = || DurationError::Syntax(text.to_owned());
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(syntax());
    }
    let value: f64 = number.parse().map_err(|_| syntax())?;
    let seconds = value * scale;
    if seconds > 86_400.0 {
        return Err(DurationError::TooLong);
    }
    let duration = Duration::from_secs_f64(seconds);
    if duration.is_zero() {
        return Err(DurationError::Zero);
    }
    Ok(duration)
}

/// Reads a timeout as [`parse_duration`] does, and refuses one below
/// [`MIN_TIMEOUT`].
///
/// # Errors
/// [`DurationError`] as for [`parse_duration`], or [`DurationError::BelowFloor`].
pub fn parse_timeout(text: &str) -> Result<Duration, DurationError> {
    let given = parse_duration(text)?;
    if given < MIN_TIMEOUT {
        return Err(DurationError::BelowFloor { given });
    }
    Ok(given)
}
