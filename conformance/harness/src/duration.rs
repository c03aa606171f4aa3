//! Durations as people write them on the command line (`5s`, `250ms`,
//! `1.5s`), in rerun commands and messages; a test of the runner holds its
//! parser to this syntax.

use std::fmt;
use std::time::Duration;

/// The shortest timeout the command line accepts: below it, a loaded
/// machine's scheduling delays alone would fail requests, blamed on the
/// implementation.
pub const MIN_TIMEOUT: Duration = Duration::from_millis(10);

/// A duration as a person writes it: `5s`, `250ms`, `1.5s`.
#[derive(Clone, Copy, Debug)]
pub struct DisplayDuration(pub Duration);

impl fmt::Display for DisplayDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms < 1000 {
            write!(f, "{ms}ms")
        } else if Duration::from_secs(self.0.as_secs()) == self.0 {
            write!(f, "{}s", ms / 1000)
        } else {
            write!(f, "{:.3}s", self.0.as_secs_f64())
        }
    }
}
