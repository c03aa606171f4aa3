//! The runner's ends of an implementation's pipes, which the owner of the
//! process can always get closed.
//!
//! Each pipe is served by a thread of its own (see `child.rs`), and a
//! thread blocked in `read` or `write` only returns when the other end
//! closes. The process's own end closes when it dies, but a descendant that
//! left its process group (`setsid`) cannot be killed with the group and may
//! hold the pipes open for as long as it likes: threads blocked on them would
//! never end, and their file descriptors would leak, two or three per start,
//! until a long one-shot run hit the limit on open files.
//!
//! So the threads never block on a pipe alone: [`PipeReader`] and
//! [`PipeWriter`] wait with `poll` on their pipe and on a [`StopSignal`]
//! that the owner raises with [`StopRaiser::raise`] once the process is dead and
//! reaped. After that a writer fails at once, and a reader returns what is
//! already in the pipe (what the process wrote before it died, up to
//! [`DRAIN_LIMIT`] bytes, which an escaped descendant cannot stretch) and
//! then end of file. Either way the thread ends and closes its end.
//!
//! The signal is itself a pipe: the owner holds its write end and closing
//! it makes the read end readable (end of file) for every thread at once,
//! with no polling interval and nothing to reset. Every descriptor here is
//! close-on-exec, so no other process started by the runner inherits one.
//! This module touches nothing but these descriptors.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::sync::Arc;

use rustix::event::{PollFd, PollFlags};

/// After the stop signal, a reader returns at most this many more bytes
/// before end of file: enough for everything a dead process can have left
/// in a pipe (a pipe holds at most 1 MiB unless raised by its owner, and a
/// response line is at most 1 MiB), while a descendant that keeps writing
/// cannot keep the reader going.
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

/// What a wait for a pipe saw.
enum Woke {
    /// The pipe is ready (or closed, or broken: the next call says which).
    Ready,
    /// The stop signal is raised.
    Stopped,
}

/// Waits until `pipe` is ready for `events` or `stop` is raised.
fn wait(pipe: &File, events: PollFlags, stop: &StopSignal) -> io::Result<Woke> {
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
            return Ok(Woke::Stopped);
        }
        if !fds[0].revents().is_empty() {
            return Ok(Woke::Ready);
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
}

impl PipeReader {
    /// Waits until there is something to read (bytes, or the end), or the
    /// process was killed (from then on at most [`DRAIN_LIMIT`] bytes are
    /// read), without reading: [`PipeReader::try_read`] then takes it.
    pub(crate) fn wait_readable(&mut self) -> io::Result<()> {
        if self.draining.is_none() {
            if let Woke::Stopped = wait(&self.pipe, PollFlags::IN, &self.stop)? {
                self.draining = Some(DRAIN_LIMIT);
            }
        }
        Ok(())
    }

    /// Reads what is in the pipe now, without waiting: `None` when nothing
    /// is (someone else read it), `Some(0)` at the end (or once the
    /// allowance after a kill is spent).
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
            if let Some(left) = self.draining {
                let want = buf.len().min(left);
                if want == 0 {
                    return Ok(0);
                }
                return match self.pipe.read(&mut buf[..want]) {
                    Ok(n) => {
                        self.draining = Some(left - n);
                        Ok(n)
                    }
                    // Everything the process left is read: end of file.
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(0),
                    Err(e) => Err(e),
                };
            }
            match self.pipe.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                other => return other,
            }
            if let Woke::Stopped = wait(&self.pipe, PollFlags::IN, &self.stop)? {
                self.draining = Some(DRAIN_LIMIT);
            }
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
            if let Woke::Stopped = wait(&self.pipe, PollFlags::OUT, &self.stop)? {
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

    fn pipe() -> (OwnedFd, OwnedFd) {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap()
    }

    /// A reader whose pipe stays open (as when an escaped descendant holds
    /// the other end) returns what was written, then end of file once the
    /// signal is raised, and its thread ends.
    #[test]
    fn a_reader_drains_and_ends_when_stopped_though_the_pipe_stays_open() {
        let (read, write) = pipe();
        let (mut stop, signal) = stop_signal().unwrap();
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
        let (read, write) = pipe();
        let (mut stop, signal) = stop_signal().unwrap();
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
        let (read, write) = pipe();
        let (mut stop, signal) = stop_signal().unwrap();
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
        let (read, write) = pipe();
        let (_stop, signal) = stop_signal().unwrap();
        let mut reader = PipeReader::new(read, signal).unwrap();
        let mut writer = File::from(write);
        writer.write_all(b"abc").unwrap();
        drop(writer);
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"abc");
    }
}
