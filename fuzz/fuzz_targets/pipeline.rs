//! The runner's pipeline, structure-aware: the real batching, windowing,
//! fault attribution, restarts and judging (`run::run` over a
//! `ProcessImplementation`) driven against a fake implementation in process
//! whose behaviour for each request the fuzzer chooses through `arbitrary`:
//! the right answer, a wrong one, garbage, a slow answer, a crash before or
//! after answering, a hang, a line that never ends, an answer given twice.
//! No process is started and nothing sleeps: the fake answers from a queue,
//! and a delay is compared with the runner's deadline instead of waited out.
//!
//! The same script runs at several windows and numbers of jobs (so with
//! different batch and chunk boundaries). Invariants:
//! - every selected vector gets exactly one result, in order, and the
//!   counts add up to the number of vectors;
//! - a vector whose behaviour depends only on its own request gets the same
//!   outcome whatever the window and the boundaries; only the vectors next
//!   to output that answers no request (an answer given twice, output after
//!   a last answer) may be blamed differently, as the runner documents;
//! - nothing panics, and no run is a harness error (the liveness probes are
//!   always answered, so a command that answers is never "never answered").
#![no_main]

use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use wow_guid_harness::{
    implementation::{Excerpt, Implementation, Query},
    judge::JudgeOptions,
    process::{Ended, Mode, ProcessConfig, ProcessImplementation, Transport, PROBE_ID},
    protocol::{parse_request, write_response},
    reference::Reference,
    run::{self, RunOutcome, RunPlan},
};
use wow_guid_vectors::{Corpus, Vector};

/// The runner's per-request timeout in these runs; delays are chosen well
/// below or well above it, so no verdict hangs on a scheduler's whim.
const TIMEOUT: Duration = Duration::from_secs(10);

static CORPUS: LazyLock<Vec<Vector>> = LazyLock::new(|| {
    Corpus::embedded()
        .expect("the embedded corpus loads")
        .vectors
});

/// What the fake does with one request.
#[derive(Arbitrary, Clone, Debug)]
enum Action {
    /// The reference codec's answer.
    Correct,
    /// The right answer after a short delay (well within the timeout).
    Quick(u8),
    /// An answer after a delay well past the timeout.
    Slow,
    /// `unsupported`.
    Unsupported,
    /// `error other`.
    ErrorOther,
    /// A line that is no response (never starting with a request id).
    Garbage(Vec<u8>),
    /// The process exits before answering, having written these bytes.
    Crash(Vec<u8>),
    /// The process stops writing.
    Hang,
    /// A line longer than the runner reads.
    TooLong,
    /// The right answer, twice: the second answers no request.
    Twice,
    /// The right answer, then the process exits.
    AnswerThenExit,
}

impl Action {
    /// Whether what this does can be blamed on a neighbour: output that
    /// answers no request is seen when the next answer is due, or at the end.
    fn spills(&self) -> bool {
        matches!(self, Action::Twice | Action::AnswerThenExit)
    }
}

#[derive(Arbitrary, Debug)]
struct Script {
    /// Which vectors to run: indices into the corpus (modulo its size).
    picks: Vec<u16>,
    /// One action per picked vector (cycled).
    actions: Vec<Action>,
    /// A window bigger than one, and a number of jobs.
    window: u8,
    jobs: u8,
}

/// One output event of the fake process.
#[derive(Clone, Debug)]
enum Event {
    Line(Vec<u8>, Duration),
    Eof(Vec<u8>),
    Stall,
    TooLong,
}

/// A fake implementation process: what it writes is decided, per request,
/// by the script.
struct Fake {
    actions: Arc<HashMap<String, Action>>,
    out: VecDeque<Event>,
    current: Vec<u8>,
    /// Whether it has stopped reading (crashed, hung or exited).
    dead: bool,
    input_closed: bool,
    answered: bool,
    started: Instant,
}

impl Fake {
    fn new(actions: Arc<HashMap<String, Action>>) -> Self {
        Self {
            actions,
            out: VecDeque::new(),
            current: Vec::new(),
            dead: false,
            input_closed: false,
            answered: false,
            started: Instant::now(),
        }
    }

    /// The reference's response line (without its newline) to the request
    /// line `line` for vector `id`. A vector's request line is the same in
    /// every run, so each is parsed and answered once and kept with its
    /// line: a later request for the same id reuses the answer only when it
    /// is the same bytes, and is parsed and answered again otherwise.
    fn answer(id: &str, line: &[u8]) -> Vec<u8> {
        /// Per vector id: its request line and the answer to it.
        type Answers = HashMap<String, (Vec<u8>, Vec<u8>)>;
        static ANSWERS: LazyLock<Mutex<Answers>> = LazyLock::new(Mutex::default);
        let mut answers = ANSWERS.lock().expect("no panic while holding the lock");
        if let Some((known, answer)) = answers.get(id) {
            if known.as_slice() == line {
                return answer.clone();
            }
        }
        let answer = Self::answer_uncached(id, line);
        answers.insert(id.to_owned(), (line.to_vec(), answer.clone()));
        answer
    }

    fn answer_uncached(id: &str, line: &[u8]) -> Vec<u8> {
        let (_, request) = parse_request(line).expect("the runner writes valid requests");
        let answers = Reference
            .answer_all(&[Query {
                id,
                request: &request,
            }])
            .expect("the reference answers");
        let response = answers[0]
            .reply
            .clone()
            .expect("the reference never faults");
        let mut out = Vec::new();
        write_response(&mut out, id, &response);
        out.pop();
        out
    }
}

impl Transport for Fake {
    fn id(&self) -> u32 {
        1
    }

    fn send(&mut self, bytes: Vec<u8>) {
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            if self.dead || self.input_closed {
                return;
            }
            let id = std::str::from_utf8(line.split(|&b| b == b' ').next().unwrap_or_default())
                .expect("ids are UTF-8")
                .to_owned();
            let action = if id == PROBE_ID {
                Action::Correct
            } else {
                self.actions
                    .get(&id)
                    .cloned()
                    .expect("every request is a picked vector")
            };
            let right = || Fake::answer(&id, line);
            let mut push = |event| self.out.push_back(event);
            match action {
                Action::Correct => push(Event::Line(right(), Duration::ZERO)),
                Action::Quick(ms) => {
                    push(Event::Line(right(), Duration::from_millis(u64::from(ms))))
                }
                Action::Slow => push(Event::Line(right(), TIMEOUT * 3)),
                Action::Unsupported => push(Event::Line(
                    format!("{id} unsupported").into_bytes(),
                    Duration::ZERO,
                )),
                Action::ErrorOther => push(Event::Line(
                    format!("{id} error other").into_bytes(),
                    Duration::ZERO,
                )),
                Action::Garbage(mut bytes) => {
                    bytes.retain(|&b| b != b'\n');
                    bytes.truncate(200);
                    bytes.insert(0, b'~');
                    push(Event::Line(bytes, Duration::ZERO));
                }
                Action::Crash(mut partial) => {
                    partial.retain(|&b| b != b'\n');
                    partial.truncate(200);
                    push(Event::Eof(partial));
                    self.dead = true;
                }
                Action::Hang => {
                    push(Event::Stall);
                    self.dead = true;
                }
                Action::TooLong => {
                    push(Event::TooLong);
                    self.dead = true;
                }
                Action::Twice => {
                    push(Event::Line(right(), Duration::ZERO));
                    push(Event::Line(right(), Duration::ZERO));
                }
                Action::AnswerThenExit => {
                    push(Event::Line(right(), Duration::ZERO));
                    push(Event::Eof(Vec::new()));
                    self.dead = true;
                }
            }
        }
    }

    fn close_input(&mut self) {
        self.input_closed = true;
        if !self.dead {
            self.out.push_back(Event::Eof(Vec::new()));
            self.dead = true;
        }
    }

    fn ready(&mut self) -> bool {
        // It never makes the runner wait: every call answers at once.
        true
    }

    fn next_line(&mut self, deadline: Instant) -> Result<Range<usize>, Ended> {
        match self.out.front().cloned() {
            // Nothing more to say for now: the runner would wait in vain.
            None | Some(Event::Stall) => Err(Ended::Timeout),
            Some(Event::Line(line, delay)) => {
                if Instant::now() + delay >= deadline {
                    self.out.clear();
                    self.out.push_back(Event::Stall);
                    return Err(Ended::Timeout);
                }
                self.out.pop_front();
                self.current = line;
                Ok(0..self.current.len())
            }
            Some(Event::Eof(partial)) => Err(Ended::Eof(Excerpt::of(&partial))),
            Some(Event::TooLong) => Err(Ended::TooLong(Excerpt::of(&[b'7'; 64]))),
        }
    }

    fn line(&self, range: Range<usize>) -> &[u8] {
        &self.current[range]
    }

    fn stderr_tail(&mut self) -> Option<Arc<str>> {
        None
    }

    fn final_stderr_tail(&mut self) -> Option<Arc<str>> {
        None
    }

    fn unfinished_line(&mut self) -> Excerpt {
        Excerpt::default()
    }

    fn wait_for_exit(&mut self, _grace: Duration) -> bool {
        true
    }

    fn kill(&mut self) -> String {
        self.dead = true;
        "exit status: 1".into()
    }

    fn finish(&mut self, _grace: Duration) -> (bool, Option<Excerpt>) {
        // Input closed: whatever is still queued answers no request.
        self.close_input();
        let extra = self.out.iter().find_map(|e| match e {
            Event::Line(line, _) => Some(Excerpt::of(line)),
            _ => None,
        });
        (true, extra)
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

/// Runs `vectors` against the fake at `window` and `jobs`; the outcome of
/// each vector, in order.
fn outcomes(
    vectors: &[&Vector],
    actions: &Arc<HashMap<String, Action>>,
    window: usize,
    jobs: usize,
) -> Vec<RunOutcome> {
    let plan = RunPlan {
        vectors: vectors.to_vec(),
        judge: JudgeOptions::default(),
        expected_failures: None,
        jobs: NonZeroUsize::new(jobs).expect("at least one job"),
    };
    let mut config = ProcessConfig::new(vec![OsString::from("fake")]);
    config.timeout = TIMEOUT;
    config.startup_timeout = TIMEOUT;
    config.mode = Mode::Persistent {
        window: NonZeroUsize::new(window).expect("at least 1"),
    };
    let start = || {
        let actions = Arc::clone(actions);
        ProcessImplementation::with_transport(
            config.clone(),
            Box::new(move |_: &[OsString], _: &[(OsString, OsString)]| {
                Ok(Fake::new(Arc::clone(&actions)))
            }),
        )
    };
    let results = run::run(&plan, start, None).expect("no harness error: the probes are answered");
    assert_eq!(
        results.results.len(),
        vectors.len(),
        "one result per vector"
    );
    for (result, vector) in results.results.iter().zip(vectors) {
        assert_eq!(result.vector.id, vector.id, "results in order");
    }
    assert_eq!(results.counts.total(), vectors.len(), "the counts add up");
    results.results.iter().map(|r| r.outcome).collect()
}

fuzz_target!(|input: &[u8]| {
    let Ok(script) = Script::arbitrary_take_rest(Unstructured::new(input)) else {
        return;
    };
    let corpus = &*CORPUS;
    if script.actions.is_empty() || corpus.is_empty() {
        return;
    }
    let mut picked: Vec<&Vector> = Vec::new();
    for &p in script.picks.iter().take(48) {
        let v = &corpus[usize::from(p) % corpus.len()];
        if !picked.iter().any(|q| q.id == v.id) {
            picked.push(v);
        }
    }
    if picked.is_empty() {
        return;
    }
    let actions: HashMap<String, Action> = picked
        .iter()
        .zip(script.actions.iter().cycle())
        .map(|(v, a)| (v.id.clone(), a.clone()))
        .collect();
    let actions = Arc::new(actions);
    let baseline = outcomes(&picked, &actions, 1, 1);
    let window = usize::from(script.window % 16).max(2);
    let jobs = usize::from(script.jobs % 3) + 1;
    for (w, j) in [(window, 1), (1, jobs), (window, jobs)] {
        let other = outcomes(&picked, &actions, w, j);
        for (i, v) in picked.iter().enumerate() {
            let near_spill = actions[&v.id].spills()
                || i.checked_sub(1)
                    .is_some_and(|p| actions[&picked[p].id].spills());
            if !near_spill {
                assert_eq!(
                    baseline[i], other[i],
                    "{}: {:?} at window 1, 1 job; {:?} at window {w}, {j} job(s); action {:?}",
                    v.id, baseline[i], other[i], actions[&v.id]
                );
            }
        }
    }
});
