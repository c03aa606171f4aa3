//! One running implementation process and the three threads that serve it.
//!
//! The process gets its own process group, so that killing it also kills
//! whatever it started (a shell wrapper, an interpreter's workers). Its
//! three pipes are each served by a thread, so that none can fill up and
//! deadlock the others: a writer thread feeds stdin from a channel, a reader
//! thread cuts stdout into complete lines under a length bound and hands them
//! over a bounded channel, and a drain thread keeps stderr's tail. The
//! owner of a [`Child`] only ever waits on the line channel, with a deadline,
//! so a hung process can always be noticed and killed.
//!
//! This module owns process lifetime: every process it starts is killed
//! (with its group) and reaped before the [`Child`] is dropped. Killing it
//! raises the stop signal of its pipes (see `pipes.rs`), so the three threads
//! end and close the runner's ends of the pipes even when a descendant that
//! left the group still holds the other ends: no thread it starts can keep
//! the runner waiting, and no start leaves a file descriptor behind.

use std::ffi::OsString;
use std::io;
use std::ops::Range;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

use super::pipe_threads::{read_lines, write_requests, ReadEvent};
use super::pipes::{self, PipeReader, PipeWriter, StopRaiser};
use super::stderr::{self, StderrTail};
use super::transport::{Ended, Transport};
use crate::implementation::{Excerpt, Failure, HarnessError};
use crate::protocol;

/// How long threads get to finish after their process is killed before
/// they are left to end on their own. Killing raises their stop signal, so
/// they end at once; the bound only keeps a bug from hanging the runner.
const THREAD_JOIN_GRACE: Duration = Duration::from_millis(500);

/// How often a wait for output checks whether the process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// How long end of output may take once the process has exited and been
/// killed: the reader drains what is in the pipe and ends at once, so this
/// only bounds a reader that is late to run on a loaded machine.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// How many chunks of stdout the reader may hold before it stops reading,
/// which bounds memory when an implementation floods its stdout.
const CHUNKS_IN_FLIGHT: usize = 8;

/// Process groups started and not yet killed: what a signal handler must
/// kill if the runner itself is interrupted (see [`kill_all`]).
static LIVE: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<Pid>> {
    // The list stays valid even if a thread panicked while holding it.
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every process group started here and not yet killed. For an
/// interrupted runner about to exit; the processes are not reaped, which
/// the runner's exit leaves to the operating system.
pub(crate) fn kill_all() {
    for pid in live().drain(..) {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        let _ = rustix::process::kill_process(pid, Signal::KILL);
    }
}

/// A running implementation process.
pub struct Child {
    process: std::process::Child,
    pid: Pid,
    reaped: Option<String>,
    /// Raised once the process is killed: the pipe threads end.
    stop: StopRaiser,
    writer: Option<Sender<Vec<u8>>>,
    lines: Option<Receiver<ReadEvent>>,
    /// An event [`Child::ready`] took from `lines` ahead of
    /// [`Child::next_line`], which takes it first.
    peeked: Option<ReadEvent>,
    chunk: Vec<u8>,
    pos: usize,
    stderr: Arc<StderrTail>,
    /// A second handle on stderr's read end, for [`StderrTail::settle`].
    stderr_peek: Option<std::os::fd::OwnedFd>,
    stderr_seen: u64,
    stderr_snapshot: Option<Arc<str>>,
    threads: Vec<JoinHandle<()>>,
    /// Whether this process has given a valid response; its owner sets it.
    pub(crate) answered: bool,
    /// When the process was started.
    pub(crate) started: Instant,
}

impl Child {
    /// Starts `command` in a new process group with all three pipes served.
    pub(crate) fn spawn(
        command: &[OsString],
        env: &[(OsString, OsString)],
    ) -> Result<Self, HarnessError> {
        let Some((program, args)) = command.split_first() else {
            return Err(HarnessError::from(Failure::Spawn {
                command: String::new(),
                error: io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
            }));
        };
        // Like the process's pipes, this one takes a file descriptor pair,
        // so running out of them shows here as a failure to start it.
        let (stop, stop_signal) = pipes::stop_signal().map_err(|error| {
            HarnessError::from(Failure::Spawn {
                command: crate::shell::words(command),
                error,
            })
        })?;
        let mut process = Command::new(program)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|error| {
                HarnessError::from(Failure::Spawn {
                    command: crate::shell::words(command),
                    error,
                })
            })?;
        let pid = Pid::from_child(&process);
        live().push(pid);

        let stdin = process.stdin.take();
        let stdout = process.stdout.take();
        let stderr_pipe = process.stderr.take();
        let mut child = Self {
            process,
            pid,
            reaped: None,
            stop,
            writer: None,
            lines: None,
            peeked: None,
            chunk: Vec::new(),
            pos: 0,
            stderr: Arc::new(StderrTail::default()),
            stderr_peek: None,
            stderr_seen: 0,
            stderr_snapshot: None,
            threads: Vec::new(),
            answered: false,
            started: Instant::now(),
        };
        // From here on, dropping `child` on an error path kills and reaps it.
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) = (stdin, stdout, stderr_pipe) else {
            return Err(HarnessError::from(Failure::Pipe {
                which: "standard streams",
            }));
        };
        child.stderr_peek = rustix::io::dup(&stderr_pipe).ok();
        let ends = (
            PipeWriter::new(stdin, stop_signal.clone()),
            PipeReader::new(stdout, stop_signal.clone()),
            PipeReader::new(stderr_pipe, stop_signal),
        );
        let (Ok(stdin), Ok(stdout), Ok(stderr_pipe)) = ends else {
            return Err(HarnessError::from(Failure::Pipe {
                which: "standard streams",
            }));
        };
        child.serve(stdin, stdout, stderr_pipe)?;
        Ok(child)
    }

    /// Starts the three threads that serve the process's pipes: the writer
    /// that feeds `stdin`, the reader that cuts `stdout` into lines, and
    /// the drain that keeps the tail of `stderr_pipe`.
    fn serve(
        &mut self,
        stdin: PipeWriter,
        stdout: PipeReader,
        stderr_pipe: PipeReader,
    ) -> Result<(), HarnessError> {
        let (writer_tx, writer_rx) = mpsc::channel();
        let (lines_tx, lines_rx) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
        self.writer = Some(writer_tx);
        self.lines = Some(lines_rx);
        let tail = Arc::clone(&self.stderr);
        let spawn_thread = |name: &str, f: Box<dyn FnOnce() + Send>| {
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(f)
                .map_err(|error| HarnessError::from(Failure::Thread { error }))
        };
        self.threads.push(spawn_thread(
            "adapter-stdin",
            Box::new(move || write_requests(stdin, &writer_rx)),
        )?);
        self.threads.push(spawn_thread(
            "adapter-stdout",
            Box::new(move || read_lines(stdout, &lines_tx)),
        )?);
        self.threads.push(spawn_thread(
            "adapter-stderr",
            Box::new(move || stderr::drain(stderr_pipe, &tail)),
        )?);
        Ok(())
    }

    /// The operating-system process id.
    pub(crate) fn id(&self) -> u32 {
        self.process.id()
    }

    /// Queues bytes for the process's stdin. A process that has stopped
    /// reading is noticed through its stdout instead, so a failed send is
    /// not an error here.
    pub(crate) fn send(&self, bytes: Vec<u8>) {
        if let Some(writer) = &self.writer {
            let _ = writer.send(bytes);
        }
    }

    /// Closes stdin once everything queued has been written: end of input.
    pub(crate) fn close_input(&mut self) {
        self.writer = None;
    }

    /// The next complete line (without its `\n`), as a range into
    /// [`Child::line`], waiting at most until `deadline`.
    ///
    /// End of output is usually how a dead process shows, but not when a
    /// process it started still holds the pipe: so while it waits, this
    /// checks every [`EXIT_POLL`] whether the process itself has exited.
    /// If it has, it kills the rest of its process group and reaps it
    /// ([`Child::kill`]), which makes the reader hand over what is left in
    /// the pipe and then end of output, even if a descendant that left the
    /// group holds the pipe, instead of waiting out the deadline.
    pub(crate) fn next_line(&mut self, deadline: Instant) -> Result<Range<usize>, Ended> {
        let mut gone_since: Option<Instant> = None;
        loop {
            let rest = &self.chunk[self.pos..];
            if let Some(len) = rest.iter().position(|&b| b == b'\n') {
                if len + 1 > protocol::MAX_RESPONSE_LINE {
                    return Err(Ended::TooLong(Excerpt::cut(rest, len)));
                }
                let range = self.pos..self.pos + len;
                self.pos += len + 1;
                return Ok(range);
            }
            let Some(lines) = &self.lines else {
                return Err(Ended::Eof(Excerpt::default()));
            };
            let now = Instant::now();
            let mut wait = deadline.saturating_duration_since(now).min(EXIT_POLL);
            if let Some(since) = gone_since {
                wait = wait.min((since + EXIT_GRACE).saturating_duration_since(now));
            }
            let event = match self.peeked.take() {
                Some(event) => Ok(event),
                None => lines.recv_timeout(wait),
            };
            match event {
                Ok(ReadEvent::Chunk(chunk)) => {
                    self.chunk = chunk;
                    self.pos = 0;
                    if let Some(peek) = &self.stderr_peek {
                        self.stderr.settle(peek);
                    }
                }
                Ok(ReadEvent::Eof(partial)) => {
                    self.lines = None;
                    return Err(Ended::Eof(partial));
                }
                Ok(ReadEvent::TooLong(prefix)) => {
                    self.lines = None;
                    return Err(Ended::TooLong(prefix));
                }
                Ok(ReadEvent::Failed(message)) => {
                    self.lines = None;
                    return Err(Ended::ReadFailed(message));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        return Err(Ended::Timeout);
                    }
                    match gone_since {
                        // The reader has had time to drain the pipe; it can
                        // only be late.
                        Some(since) if since.elapsed() >= EXIT_GRACE => {
                            return Err(Ended::Eof(Excerpt::default()));
                        }
                        Some(_) => {}
                        None if self.has_exited() => {
                            // Its descendants in the group go with it, and
                            // the reader drains what it wrote, then reports
                            // end of file, however late it runs and whoever
                            // still holds the pipe.
                            self.kill();
                            gone_since = Some(Instant::now());
                        }
                        None => {}
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.lines = None;
                    return Err(Ended::Eof(Excerpt::default()));
                }
            }
        }
    }

    /// Whether [`Child::next_line`] would return without waiting: a line
    /// or the end of output is there, or the process has exited.
    pub(crate) fn ready(&mut self) -> bool {
        if self.peeked.is_some() || self.chunk[self.pos..].contains(&b'\n') {
            return true;
        }
        let Some(lines) = &self.lines else {
            return true;
        };
        match lines.try_recv() {
            Ok(event) => {
                self.peeked = Some(event);
                true
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => true,
            Err(std::sync::mpsc::TryRecvError::Empty) => self.has_exited(),
        }
    }

    /// The bytes of a line returned by [`Child::next_line`].
    pub(crate) fn line(&self, range: Range<usize>) -> &[u8] {
        &self.chunk[range]
    }

    /// The tail of stderr now, shared with earlier answers when nothing new
    /// was written since (the common case costs one atomic load).
    pub(crate) fn stderr_tail(&mut self) -> Option<Arc<str>> {
        let total = self.stderr.total();
        if total != self.stderr_seen {
            self.stderr_seen = total;
            self.stderr_snapshot = self.stderr.tail().map(Arc::from);
        }
        self.stderr_snapshot.clone()
    }

    /// The tail of stderr once the process is dead: waits (briefly) for the
    /// drain thread to read what the process wrote before it died, which is
    /// usually what explains the death. The kill has stopped the thread, so
    /// it ends as soon as the pipe is drained; the wait is bounded all the
    /// same. Call after [`Child::kill`].
    pub(crate) fn final_stderr_tail(&mut self) -> Option<Arc<str>> {
        let deadline = Instant::now() + THREAD_JOIN_GRACE;
        while !self.stderr.is_closed() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(1));
        }
        self.stderr_tail()
    }

    /// After a timeout: the bytes of an unfinished line, which the reader
    /// hands over once the process is dead. Call after [`Child::kill`].
    pub(crate) fn unfinished_line(&mut self) -> Excerpt {
        match self.peeked.take() {
            Some(ReadEvent::Eof(partial) | ReadEvent::TooLong(partial)) => return partial,
            Some(ReadEvent::Failed(_)) => return Excerpt::default(),
            Some(ReadEvent::Chunk(_)) | None => {}
        }
        let Some(lines) = &self.lines else {
            return Excerpt::default();
        };
        let deadline = Instant::now() + THREAD_JOIN_GRACE;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(wait) {
                // Complete lines that arrived after the deadline are not
                // what the runner waited for; keep looking for the tail.
                Ok(ReadEvent::Chunk(_)) => {}
                Ok(ReadEvent::Eof(partial) | ReadEvent::TooLong(partial)) => return partial,
                Ok(ReadEvent::Failed(_)) | Err(_) => return Excerpt::default(),
            }
        }
    }

    /// Whether the process has exited, without reaping it (so its process
    /// group id stays reserved until the group has been killed).
    fn has_exited(&self) -> bool {
        if self.reaped.is_some() {
            return true;
        }
        matches!(
            rustix::process::waitid(
                WaitId::Pid(self.pid),
                WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
            ),
            Ok(Some(_)) | Err(_)
        )
    }

    /// Waits up to `grace` for the process to exit on its own. Returns
    /// whether it did.
    pub(crate) fn wait_for_exit(&self, grace: Duration) -> bool {
        let deadline = Instant::now() + grace;
        let mut pause = Duration::from_micros(100);
        loop {
            if self.has_exited() {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            thread::sleep(pause.min(deadline - now));
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// Kills the whole process group at once, reaps the process, raises the
    /// stop signal of the pipe threads (so they drain what is left and close
    /// the runner's ends, whoever holds the others), and returns how it
    /// ended. Idempotent.
    pub(crate) fn kill(&mut self) -> String {
        if let Some(status) = &self.reaped {
            return status.clone();
        }
        // The group may already be empty (ESRCH); nothing else can fail for
        // a group this process created.
        let _ = rustix::process::kill_process_group(self.pid, Signal::KILL);
        // The process itself too, in case it moved to another group.
        let _ = rustix::process::kill_process(self.pid, Signal::KILL);
        // Off the list before reaping: once reaped, its id may be reused.
        live().retain(|&p| p != self.pid);
        let status = match self.process.wait() {
            Ok(status) => status.to_string(),
            Err(e) => format!("unknown exit status ({e})"),
        };
        self.reaped = Some(status.clone());
        self.writer = None;
        self.stop.raise();
        status
    }

    /// Ends the process politely: closes stdin, reads what it still writes
    /// until it closes stdout or `grace` runs out, then kills what is left
    /// of its group. Returns whether it exited within the grace period on
    /// its own, and the first output it wrote that no request asked for
    /// (a line, or bytes without a newline), if any.
    pub(crate) fn finish(&mut self, grace: Duration) -> (bool, Option<Excerpt>) {
        self.close_input();
        let deadline = Instant::now() + grace;
        let mut unsolicited = None;
        loop {
            match self.next_line(deadline) {
                Ok(range) => {
                    if unsolicited.is_none() {
                        unsolicited = Some(Excerpt::of(self.line(range)));
                    }
                }
                Err(Ended::Eof(partial) | Ended::TooLong(partial)) => {
                    if unsolicited.is_none() && !partial.is_empty() {
                        unsolicited = Some(partial);
                    }
                    break;
                }
                Err(Ended::Timeout | Ended::ReadFailed(_)) => break,
            }
        }
        let exited = self.wait_for_exit(deadline.saturating_duration_since(Instant::now()));
        self.kill();
        (exited, unsolicited)
    }

    fn join_threads(&mut self) {
        // Dropping the receiving end unblocks a reader waiting to hand over;
        // the stop signal (raised by the kill, and here again in case the
        // process could not be reaped) unblocks one waiting on its pipe.
        self.lines = None;
        self.writer = None;
        self.stop.raise();
        let deadline = Instant::now() + THREAD_JOIN_GRACE;
        for handle in self.threads.drain(..) {
            while !handle.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(1));
            }
            if handle.is_finished() {
                let _ = handle.join();
            }
            // Otherwise it is late to run on a loaded machine; it ends by
            // itself, and owns nothing else.
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if self.reaped.is_none() {
            self.finish(Duration::from_millis(200));
        }
        self.join_threads();
    }
}

impl Transport for Child {
    fn id(&self) -> u32 {
        Child::id(self)
    }
    fn send(&mut self, bytes: Vec<u8>) {
        Child::send(self, bytes);
    }
    fn close_input(&mut self) {
        Child::close_input(self);
    }
    fn next_line(&mut self, deadline: Instant) -> Result<Range<usize>, Ended> {
        Child::next_line(self, deadline)
    }
    fn ready(&mut self) -> bool {
        Child::ready(self)
    }
    fn line(&self, range: Range<usize>) -> &[u8] {
        Child::line(self, range)
    }
    fn stderr_tail(&mut self) -> Option<Arc<str>> {
        Child::stderr_tail(self)
    }
    fn final_stderr_tail(&mut self) -> Option<Arc<str>> {
        Child::final_stderr_tail(self)
    }
    fn unfinished_line(&mut self) -> Excerpt {
        Child::unfinished_line(self)
    }
    fn wait_for_exit(&mut self, grace: Duration) -> bool {
        Child::wait_for_exit(self, grace)
    }
    fn kill(&mut self) -> String {
        Child::kill(self)
    }
    fn finish(&mut self, grace: Duration) -> (bool, Option<Excerpt>) {
        Child::finish(self, grace)
    }
    fn answered(&self) -> bool {
        self.answered
    }
    fn mark_answered(&mut self) {
        self.answered = true;
    }
    fn started(&self) -> Instant {
        self.started
    }
}
