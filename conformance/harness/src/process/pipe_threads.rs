//! The two threads that serve a child's stdin and stdout (see `child.rs`):
//! one writes the queued requests, the other cuts the output into complete
//! lines under a length bound and hands them over a bounded channel.

use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender};

use super::pipes::{PipeReader, PipeWriter};
use crate::implementation::Excerpt;
use crate::protocol;

/// What the reader thread hands over.
pub(super) enum ReadEvent {
    /// One or more complete lines, each ending in `\n`.
    Chunk(Vec<u8>),
    /// End of file, with the unterminated last line.
    Eof(Excerpt),
    /// A line grew past the bound; the reader has stopped.
    TooLong(Excerpt),
    /// Reading failed; the reader has stopped.
    Failed(String),
}

pub(super) fn write_requests(mut stdin: PipeWriter, queue: &Receiver<Vec<u8>>) {
    // `PipeWriter` is unbuffered, so each chunk reaches the pipe as soon as
    // it is written: no flush needed.
    for chunk in queue {
        if stdin.write_all(&chunk).is_err() {
            // The process stopped reading or was killed; its stdout tells
            // the rest.
            return;
        }
    }
    // The queue is closed: dropping stdin is the end-of-input signal.
}

pub(super) fn read_lines(mut stdout: PipeReader, lines: &SyncSender<ReadEvent>) {
    let mut block = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    // Bytes at the front of `pending` already known to hold no newline.
    let mut scanned = 0;
    loop {
        let n = match stdout.read(&mut block) {
            Ok(0) => {
                let _ = lines.send(ReadEvent::Eof(Excerpt::of(&pending)));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = lines.send(ReadEvent::Failed(e.to_string()));
                return;
            }
        };
        pending.extend_from_slice(&block[..n]);
        if let Some(last) = pending[scanned..].iter().rposition(|&b| b == b'\n') {
            let rest = pending.split_off(scanned + last + 1);
            let chunk = std::mem::replace(&mut pending, rest);
            if lines.send(ReadEvent::Chunk(chunk)).is_err() {
                return;
            }
        }
        scanned = pending.len();
        if pending.len() > protocol::MAX_RESPONSE_LINE {
            // Only a copy of the head leaves this thread: `pending` and
            // its megabyte of capacity are freed here, not kept as evidence.
            let _ = lines.send(ReadEvent::TooLong(Excerpt::cut(&pending, pending.len())));
            return;
        }
    }
}
