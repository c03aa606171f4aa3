//! Requests generated a batch ahead, on a thread of their own, while the
//! implementation answers the batch before.
//!
//! Generating was the fuzzing loop's largest cost, and the loop did it while
//! the implementation sat idle waiting for the next batch. Request `i` of a
//! seed depends only on `i` and the kinds still generated
//! ([`Generator::request`]), so the next batch can be made before the
//! current one is judged: as soon as a batch goes out, the thread is asked
//! for the one after it, as large as it will be unless a fault makes it
//! smaller, of the kinds generated now. When the loop comes to it, a batch
//! made for the same first index and kinds is used (cut to the size the
//! loop wants); any other is thrown away and the batch made again, so the
//! requests are always exactly the ones [`generate`] gives.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use wow_guid_vectors::{Request, RequestKind};

use super::requests::Generator;

/// Requests `first..first + n` of `kinds`: the first of the run is a probe,
/// one request of each kind.
pub fn generate(
    generator: &mut Generator,
    first: u64,
    n: usize,
    kinds: &[RequestKind],
) -> Vec<Request> {
    (first..first + n as u64)
        .map(|i| match RequestKind::ALL.get(i as usize) {
            Some(&kind) => generator.request(i, &[kind]),
            None => generator.request(i, kinds),
        })
        .collect()
}

/// An order: the first index, how many, of which kinds.
type Order = (u64, usize, Vec<RequestKind>);

/// A generator on a thread of its own, a batch ahead of the loop.
pub struct Ahead {
    orders: Option<Sender<Order>>,
    batches: Receiver<Vec<Request>>,
    /// The order the thread is working on, if any.
    pending: Option<Order>,
    thread: Option<JoinHandle<()>>,
}

impl Ahead {
    /// Starts the thread, which owns `generator`.
    #[must_use]
    pub fn new(mut generator: Generator) -> Self {
        let (orders, inbox) = channel::<Order>();
        let (outbox, batches) = channel();
        let thread = std::thread::Builder::new()
            .name("fuzz-generator".into())
            .spawn(move || {
                for (first, n, kinds) in inbox {
                    let batch = generate(&mut generator, first, n, &kinds);
                    if outbox.send(batch).is_err() {
                        break;
                    }
                }
            })
            .ok();
        Self {
            orders: Some(orders),
            batches,
            pending: None,
            thread,
        }
    }

    /// Asks for requests `first..first + n` of `kinds`, to be taken later.
    pub fn order(&mut self, first: u64, n: usize, kinds: &[RequestKind]) {
        // A batch ordered and never taken is received here, so that the
        // next one received is the one ordered now.
        if self.pending.take().is_some() {
            let _ = self.batches.recv();
        }
        let order = (first, n, kinds.to_vec());
        if let Some(orders) = &self.orders {
            if orders.send(order.clone()).is_ok() {
                self.pending = Some(order);
            }
        }
    }

    /// Requests `first..first + n` of `kinds`: the batch ordered, when it
    /// is for them (cut to `n`), or else made now.
    pub fn take(&mut self, first: u64, n: usize, kinds: &[RequestKind]) -> Vec<Request> {
        if let Some((f, m, k)) = self.pending.take() {
            if let Ok(mut batch) = self.batches.recv() {
                if f == first && m >= n && k == kinds {
                    batch.truncate(n);
                    return batch;
                }
            }
        }
        self.order(first, n, kinds);
        match self.pending.take().map(|_| self.batches.recv()) {
            Some(Ok(batch)) => batch,
            // The thread could not be started or is gone: nothing can make
            // the requests, which only a bug would bring about.
            _ => panic!("the request generator's thread has stopped"),
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        self.orders = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
