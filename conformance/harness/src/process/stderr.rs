//! Draining an implementation's stderr and keeping its tail. The runner
//! never parses stderr, but must read it all the time (a chatty
//! implementation would otherwise block on a full pipe and look hung), and
//! keeps the last few kilobytes to show next to a failure.

use std::collections::VecDeque;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::pipes::PipeReader;
use crate::terminal::escape_controls;

/// Bytes of stderr kept in memory per process.
const KEEP_BYTES: usize = 16 * 1024;
/// At most this many lines are shown in a report.
const SHOW_LINES: usize = 20;
/// At most this many bytes are shown in a report.
const SHOW_BYTES: usize = 2 * 1024;
/// What [`StderrTail::settle`] reads from the pipe at most, so that a
/// flood on stderr cannot hold up the answers.
const SETTLE_BYTES: usize = 64 * 1024;

/// The last bytes an implementation wrote to stderr, shared between the
/// draining thread and the runner.
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    /// Bytes read so far; lets a reader tell cheaply whether anything changed.
    total: AtomicU64,
    kept: Mutex<VecDeque<u8>>,
    /// Whether the pipe has reached its end (or failed): nothing more comes.
    closed: AtomicBool,
    /// Held from taking bytes out of the pipe to keeping them, by the drain
    /// thread and by [`StderrTail::settle`], so that they keep their order.
    reading: Mutex<()>,
}

impl StderrTail {
    /// How many bytes the implementation has written to stderr so far.
    pub(crate) fn total(&self) -> u64 {
        self.total.load(Ordering::Acquire)
    }

    /// Whether the pipe is closed, so the tail is final.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Reads into the tail what waits in the stderr pipe now, through `peek`
    /// (a second handle on its read end), up to [`SETTLE_BYTES`]: stdout and
    /// stderr are read by different threads, so an answer can arrive before
    /// the stderr line written just before it, which a tail taken after this
    /// holds. Under the drain thread's lock, so bytes keep their order. One
    /// call per chunk of stdout, usually finding nothing.
    pub(crate) fn settle(&self, peek: &OwnedFd) {
        let _reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        let mut block = [0u8; 4096];
        let mut read = 0;
        while read < SETTLE_BYTES {
            match rustix::io::read(peek, &mut block) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    self.push(&block[..n]);
                    read += n;
                }
            }
        }
    }

    fn push(&self, bytes: &[u8]) {
        let written = bytes.len() as u64;
        // A poisoned lock only means another thread panicked while holding
        // it; the bytes are still usable for a report.
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let bytes = &bytes[bytes.len().saturating_sub(KEEP_BYTES)..];
        let overflow = (kept.len() + bytes.len()).saturating_sub(KEEP_BYTES);
        kept.drain(..overflow);
        kept.extend(bytes);
        drop(kept);
        self.total.fetch_add(written, Ordering::Release);
    }

    /// The last lines written so far, for a person to read, or `None` if
    /// nothing was written.
    pub(crate) fn tail(&self) -> Option<String> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = kept.iter().copied().collect();
        drop(kept);
        (!bytes.is_empty()).then(|| show(&bytes))
    }
}

/// Cuts kept stderr bytes to what a report shows: whole last lines, bounded
/// in count and size, decoded (a byte outside UTF-8 spelled `\xNN`), and
/// escaped once for a terminal ([`crate::terminal`]).
fn show(bytes: &[u8]) -> String {
    let trimmed = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let floor = trimmed.len().saturating_sub(SHOW_BYTES);
    let start = (floor..trimmed.len())
        .rev()
        .filter(|&i| trimmed[i] == b'\n')
        .nth(SHOW_LINES - 1)
        .map_or(floor, |i| i + 1);
    let mut text = String::with_capacity(trimmed.len() - start);
    for chunk in trimmed[start..].utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    escape_controls(&text)
}

/// Reads `stderr` until end of file or an error, keeping its tail in
/// `tail`; waits without the reading lock and reads under it.
pub(crate) fn drain(mut stderr: PipeReader, tail: &Arc<StderrTail>) {
    let mut block = vec![0u8; 8 * 1024];
    loop {
        if stderr.wait_readable().is_err() {
            break;
        }
        let reading = tail.reading.lock().unwrap_or_else(|e| e.into_inner());
        match stderr.try_read(&mut block) {
            Ok(Some(0)) => break,
            Ok(Some(n)) => tail.push(&block[..n]),
            Ok(None) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // The implementation's stderr is closed or broken: nothing more
            // to keep, and nothing the runner should do about it.
            Err(_) => break,
        }
        drop(reading);
    }
    tail.closed.store(true, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_last_lines() {
        let tail = Arc::new(StderrTail::default());
        assert_eq!(tail.tail(), None);
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        tail.push(text.as_bytes());
        assert_eq!(tail.total(), text.len() as u64);
        let shown = tail.tail().unwrap();
        assert!(shown.starts_with("line 80\n"), "{shown}");
        assert!(shown.ends_with("line 99"), "{shown}");
        assert_eq!(shown.lines().count(), SHOW_LINES);
    }

    #[test]
    fn memory_stays_bounded() {
        let tail = Arc::new(StderrTail::default());
        let big = vec![b'x'; 1024 * 1024];
        for _ in 0..8 {
            tail.push(&big[..]);
        }
        assert_eq!(tail.kept.lock().unwrap().len(), KEEP_BYTES);
        assert_eq!(tail.tail().unwrap().len(), SHOW_BYTES);
    }

    #[test]
    fn controls_that_would_act_on_a_terminal_are_spelled_out() {
        let tail = Arc::new(StderrTail::default());
        let written = "ok\tfine\n\x1b[2J\x1b]0;title\x07cleared\rover\x08x\n\
                       \u{202e}txt.exe\u{2066}\u{9b}31m é\n";
        tail.push(written.as_bytes());
        assert_eq!(
            tail.tail().unwrap(),
            "ok\tfine\n\\x1b[2J\\x1b]0;title\\x07cleared\\rover\\x08x\n\
             \\u{202e}txt.exe\\u{2066}\\u{9b}31m é"
        );
    }
}
