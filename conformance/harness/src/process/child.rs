//! One running implementation process and the three threads that serve it.
//!
//! The process gets its own process group, so killing it also kills what it
//! started (a shell wrapper, an interpreter's workers). Each of its pipes is
//! served by a thread, so none can fill up and deadlock the others: a writer
//! feeds stdin from a channel, a reader cuts stdout into complete lines
//! under a length bound and hands them over a bounded channel, and a drain
//! keeps stderr's tail. The owner only waits on the line channel, with a
//! deadline, so a hung process can always be noticed and killed.
//!
//! Every process started here is killed with its group and reaped before
//! its [`Child`] is dropped. Killing raises its pipes' stop signal
//! (`pipes.rs`), so the threads end and close the runner's ends even when a
//! descendant that left the group holds the others: no thread can keep the
//! runner waiting, and no start leaves a file descriptor behind.

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

/// How long threads get to finish after their process is killed (they end
/// at once; the bound only keeps a bug from hanging the runner).
const THREAD_JOIN_GRACE: Duration = Duration::from_millis(500);

/// How often a wait for output checks whether the process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// How long end of output may take once the process has exited and been
/// killed: bounds a reader late to run on a loaded machine.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// Chunks of stdout the reader may hold before it stops reading, bounding
/// memory when an implementation floods its stdout.
const CHUNKS_IN_FLIGHT: usize = 8;

/// Process groups started and not yet killed, for [`kill_all`].
static LIVE: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<Pid>> {
    // The list stays valid even if a thread panicked while holding it.
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every process group started here and not yet killed, for an
/// interrupted runner about to exit (which leaves reaping to the system).
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
    answered: bool,
    started: Instant,
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
        let spawn_failed = |error| {
            HarnessError::from(Failure::Spawn {
                command: crate::shell::words(command),
                error,
            })
        };
        let pipe_failed = || {
            HarnessError::from(Failure::Pipe {
                which: "standard streams",
            })
        };
        // Like the process's pipes, this one takes a file descriptor pair,
        // so running out of them shows here as a failure to start it.
        let (stop, stop_signal) = pipes::stop_signal().map_err(spawn_failed)?;
        let mut process = Command::new(program)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(spawn_failed)?;
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
            return Err(pipe_failed());
        };
        child.stderr_peek = rustix::io::dup(&stderr_pipe).ok();
        let ends = (
            PipeWriter::new(stdin, stop_signal.clone()),
            PipeReader::new(stdout, stop_signal.clone()),
            PipeReader::new(stderr_pipe, stop_signal),
        );
        let (Ok(stdin), Ok(stdout), Ok(stderr_pipe)) = ends else {
            return Err(pipe_failed());
        };
        child.serve(stdin, stdout, stderr_pipe)?;
        Ok(child)
    }

    /// Starts the three threads that serve the process's pipes.
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
        let jobs: [Box<dyn FnOnce() + Send>; 3] = [
            Box::new(move || write_requests(stdin, &writer_rx)),
            Box::new(move || read_lines(stdout, &lines_tx)),
            Box::new(move || stderr::drain(stderr_pipe, &tail)),
        ];
        let names = ["adapter-stdin", "adapter-stdout", "adapter-stderr"];
        for (name, job) in names.into_iter().zip(jobs) {
            let spawned = thread::Builder::new().name(name.to_owned()).spawn(job);
            self.threads
                .push(spawned.map_err(|error| HarnessError::from(Failure::Thread { error }))?);
        }
        Ok(())
    }

    /// Whether the process has exited, without reaping it (so its process
    /// group id stays reserved until the group has been killed).
    fn has_exited(&self) -> bool {
        self.reaped.is_some()
            || matches!(
                rustix::process::waitid(
                    WaitId::Pid(self.pid),
                    WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
                ),
                Ok(Some(_)) | Err(_)
            )
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
        self.process.id()
    }

    /// A process that has stopped reading is noticed through its stdout, so
    /// a failed send is not an error here.
    fn send(&mut self, bytes: Vec<u8>) {
        if let Some(writer) = &self.writer {
            let _ = writer.send(bytes);
        }
    }

    fn close_input(&mut self) {
        self.writer = None;
    }

    /// End of output is usually how a dead process shows, but not while a
    /// process it started holds the pipe: so this checks every
    /// `EXIT_POLL` whether the process itself has exited, and if so kills
    /// its group and reaps it, which makes the reader hand over what is left
    /// and then end of output, instead of waiting out the deadline.
    fn next_line(&mut self, deadline: Instant) -> Result<Range<usize>, Ended> {
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
            let ended = match event {
                Ok(ReadEvent::Chunk(chunk)) => {
                    self.chunk = chunk;
                    self.pos = 0;
                    if let Some(peek) = &self.stderr_peek {
                        self.stderr.settle(peek);
                    }
                    continue;
                }
                Ok(ReadEvent::Eof(partial)) => Ended::Eof(partial),
                Ok(ReadEvent::TooLong(prefix)) => Ended::TooLong(prefix),
                Ok(ReadEvent::Failed(message)) => Ended::ReadFailed(message),
                Err(RecvTimeoutError::Disconnected) => Ended::Eof(Excerpt::default()),
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
                    continue;
                }
            };
            self.lines = None;
            return Err(ended);
        }
    }

    fn ready(&mut self) -> bool {
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

    fn line(&self, range: Range<usize>) -> &[u8] {
        &self.chunk[range]
    }

    /// Shared with earlier answers when nothing new was written (the common
    /// case costs one atomic load).
    fn stderr_tail(&mut self) -> Option<Arc<str>> {
        let total = self.stderr.total();
        if total != self.stderr_seen {
            self.stderr_seen = total;
            self.stderr_snapshot = self.stderr.tail().map(Arc::from);
        }
        self.stderr_snapshot.clone()
    }

    /// Waits briefly (after the kill) for the drain thread to read what the
    /// process wrote before it died, which usually explains the death.
    fn final_stderr_tail(&mut self) -> Option<Arc<str>> {
        let deadline = Instant::now() + THREAD_JOIN_GRACE;
        while !self.stderr.is_closed() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(1));
        }
        self.stderr_tail()
    }

    /// After a timeout and the kill: the reader hands over the unfinished line.
    fn unfinished_line(&mut self) -> Excerpt {
        let deadline = Instant::now() + THREAD_JOIN_GRACE;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let event = match (self.peeked.take(), &self.lines) {
                (Some(event), _) => Ok(event),
                (None, Some(lines)) => lines.recv_timeout(wait),
                (None, None) => return Excerpt::default(),
            };
            match event {
                // Complete lines that arrived after the deadline are not
                // what the runner waited for; keep looking for the tail.
                Ok(ReadEvent::Chunk(_)) => {}
                Ok(ReadEvent::Eof(partial) | ReadEvent::TooLong(partial)) => return partial,
                Ok(ReadEvent::Failed(_)) | Err(_) => return Excerpt::default(),
            }
        }
    }

    fn wait_for_exit(&mut self, grace: Duration) -> bool {
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

    /// Kills the whole group, reaps the process and raises the pipe threads'
    /// stop signal (they drain what is left and close the runner's ends).
    /// Idempotent.
    fn kill(&mut self) -> String {
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

    /// Reads until stdout closes or `grace` runs out, then kills what is
    /// left; the unsolicited output is the first line, or unterminated bytes.
    fn finish(&mut self, grace: Duration) -> (bool, Option<Excerpt>) {
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
