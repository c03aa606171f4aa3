//! The runner's ends of an implementation's pipes, which the owner of the
//! process can always get closed.
//!
//! A thread blocked in `read` or `write` returns only when the other end
//! closes, and a descendant that left the process group (`setsid`) escapes
//! the group's kill and may hold the pipes open for ever: blocked threads
//! would never end, leaking two or three descriptors per start until a long
//! one-shot run hit the limit on open files.
//!
//! So [`PipeReader`] and [`PipeWriter`] `poll` their pipe together with a
//! [`StopSignal`], which the owner raises ([`StopRaiser::raise`]) once the
//! process is dead and reaped. Then a writer fails at once, and a reader
//! returns what is already in the pipe (up to [`DRAIN_LIMIT`] bytes, which
//! an escaped descendant cannot stretch) and then end of file.
//!
//! The signal is itself a pipe: closing its write end makes the read end
//! readable for every thread at once, with no polling interval and nothing
//! to reset. Every descriptor here is close-on-exec.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::sync::Arc;

use rustix::event::{PollFd, PollFlags};

/// After the stop signal, a reader returns at most this many more bytes:
/// enough for all a dead process can leave in a pipe (at most 1 MiB unless
/// its owner raised it; a response line is at most 1 MiB too).
pub(crate) const DRAIN_LIMIT: usize = 4 << 20;

/// The owner's side of the stop signal: raising it (or dropping it) wakes
/// every thread waiting on a pipe with the matching [`StopSignal`].
#[derive(Debug)]
pub(crate) struct StopRaiser(Option<OwnedFd>);

/// The threads' side of the stop signal; cloned into each thread.
#[derive(Clone, Debug)]
pub(crate) struct StopSignal(Arc<OwnedFd>);

/// A fresh stop signal, not raised.
pub(crate) fn stop_signal() -> io::Result<(StopRaiser, StopSignal)> {
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    Ok((StopRaiser(Some(write)), StopSignal(Arc::new(read))))
}

impl StopRaiser {
    /// Raises the signal: every reader drains and ends, every writer ends.
    /// Idempotent.
    pub(crate) fn raise(&mut self) {
        self.0 = None;
    }
}

/// Waits until `pipe` is ready for `events` (or closed, or broken: the
/// next call says which) or `stop` is raised; whether `stop` is raised.
fn stopped(pipe: &File, events: PollFlags, stop: &StopSignal) -> io::Result<bool> {
    loop {
        let mut fds = [
            PollFd::new(pipe, events),
            PollFd::new(&*stop.0, PollFlags::IN),
        ];
        match rustix::event::poll(&mut fds, None) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
        if !fds[1].revents().is_empty() {
            return Ok(true);
        }
        if !fds[0].revents().is_empty() {
            return Ok(false);
        }
    }
}

/// Makes `fd` non-blocking and wraps it for reading and writing. Only the
/// runner's end changes: the process's end is a different open file.
fn non_blocking(fd: OwnedFd) -> io::Result<File> {
    rustix::io::ioctl_fionbio(&fd, true)?;
    Ok(File::from(fd))
}

/// The runner's end of an implementation's stdout or stderr (see the
/// module docs).
pub(crate) struct PipeReader {
    pipe: File,
    stop: StopSignal,
    /// Bytes still allowed once the stop signal is seen; `None` before.
    draining: Option<usize>,
}

impl PipeReader {
    /// Wraps the runner's end of a pipe the process writes to.
    pub(crate) fn new(fd: impl Into<OwnedFd>, stop: StopSignal) -> io::Result<Self> {
        Ok(Self {
            pipe: non_blocking(fd.into())?,
            stop,
            draining: None,
        })
    }

    /// Waits, without reading, until there is something to read or the
    /// stop signal (from then on at most [`DRAIN_LIMIT`] bytes are read).
    pub(crate) fn wait_readable(&mut self) -> io::Result<()> {
        if self.draining.is_none() && stopped(&self.pipe, PollFlags::IN, &self.stop)? {
            self.draining = Some(DRAIN_LIMIT);
        }
        Ok(())
    }

    /// Reads what is in the pipe now, without waiting: `None` when nothing
    /// is, `Some(0)` at the end (or once the allowance after a stop is spent).
    pub(crate) fn try_read(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        let want = match self.draining {
            Some(left) => buf.len().min(left),
            None => buf.len(),
        };
        if want == 0 {
            return Ok(Some(0));
        }
        match self.pipe.read(&mut buf[..want]) {
            Ok(n) => {
                if let Some(left) = &mut self.draining {
                    *left -= n;
                }
                Ok(Some(n))
            }
            // After a kill, an empty pipe is the end of what is drained.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && self.draining.is_some() => {
                Ok(Some(0))
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl Read for PipeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(n) = self.try_read(buf)? {
                return Ok(n);
            }
            self.wait_readable()?;
        }
    }
}

/// The runner's end of an implementation's stdin (see the module docs).
pub(crate) struct PipeWriter {
    pipe: File,
    stop: StopSignal,
}

impl PipeWriter {
    /// Wraps the runner's end of the pipe the process reads from.
    pub(crate) fn new(fd: impl Into<OwnedFd>, stop: StopSignal) -> io::Result<Self> {
        Ok(Self {
            pipe: non_blocking(fd.into())?,
            stop,
        })
    }
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        loop {
            match self.pipe.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                other => return other,
            }
            if stopped(&self.pipe, PollFlags::OUT, &self.stop)? {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the process was stopped",
                ));
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::{Duration, Instant};

    /// A pipe's read and write ends, and a stop signal.
    fn pipe() -> (OwnedFd, OwnedFd, StopRaiser, StopSignal) {
        let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap();
        let (stop, signal) = stop_signal().unwrap();
        (read, write, stop, signal)
    }

    /// A reader whose pipe stays open (as when an escaped descendant holds
    /// the other end) returns what was written, then end of file once the
    /// signal is raised, and its thread ends.
    #[test]
    fn a_reader_drains_and_ends_when_stopped_though_the_pipe_stays_open() {
        let (read, write, mut stop, signal) = pipe();
        let mut writer = File::from(write);
        writer.write_all(b"written before the stop\n").unwrap();
        let mut reader = PipeReader::new(read, signal).unwrap();
        let thread = thread::spawn(move || {
            let mut all = Vec::new();
            reader.read_to_end(&mut all).map(|_| all)
        });
        thread::sleep(Duration::from_millis(50));
        assert!(!thread.is_finished(), "the reader ended before the stop");
        stop.raise();
        let all = thread.join().unwrap().unwrap();
        assert_eq!(all, b"written before the stop\n");
        drop(writer);
    }

    /// After the stop, a writer that keeps writing cannot keep the reader
    /// going past [`DRAIN_LIMIT`].
    #[test]
    fn draining_is_bounded() {
        let (read, write, mut stop, signal) = pipe();
        let mut reader = PipeReader::new(read, signal).unwrap();
        stop.raise();
        let flood = thread::spawn(move || {
            let mut writer = File::from(write);
            let block = [b'x'; 64 * 1024];
            let began = Instant::now();
            while began.elapsed() < Duration::from_secs(5) {
                if writer.write_all(&block).is_err() {
                    return;
                }
            }
        });
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert!(all.len() <= DRAIN_LIMIT, "{} bytes", all.len());
        drop(reader);
        flood.join().unwrap();
    }

    /// A writer blocked on a full pipe nobody reads fails once stopped.
    #[test]
    fn a_blocked_writer_ends_when_stopped() {
        let (read, write, mut stop, signal) = pipe();
        let mut writer = PipeWriter::new(write, signal).unwrap();
        let thread = thread::spawn(move || writer.write_all(&vec![b'x'; 4 << 20]));
        thread::sleep(Duration::from_millis(50));
        assert!(!thread.is_finished(), "the writer ended before the stop");
        stop.raise();
        let error = thread.join().unwrap().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        drop(read);
    }

    /// Without a stop, a reader sees the pipe's own end of file.
    #[test]
    fn a_reader_sees_end_of_file_without_a_stop() {
        let (read, write, _stop, signal) = pipe();
        let mut reader = PipeReader::new(read, signal).unwrap();
        let mut writer = File::from(write);
        writer.write_all(b"abc").unwrap();
        drop(writer);
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"abc");
    }
}
