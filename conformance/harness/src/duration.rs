//! Durations as people write them on the command line: `5s`, `250ms`,
//! `1.5s`. The harness writes them in rerun commands and messages with
//! [`DisplayDuration`]; the runner's command line reads them back in the
//! same syntax, and a test of the runner holds the two to one syntax. Pure.

use std::fmt;
use std::time::Duration;

/// The shortest timeout the command line accepts: below it, scheduling
/// delays of a loaded machine alone would fail requests, and the failures
/// would be blamed on the implementation. Processes know it as
/// [`MIN_TIMEOUT`].
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
