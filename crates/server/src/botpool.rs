//! Where bots think (docs/protocol.md section 6): a fixed set of threads, so bots never take more
//! cores than the pool has, however many matches they play; the rest of the machine stays with
//! the people. Matches with a person at the table go first; within a class, jobs wait in arrival
//! order, so each match gets its turn (one bot move per match is in line at a time, a few at a
//! Bataille Navale placement).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

/// Who a bot move is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Priority {
    /// A match with a person at the table: served first.
    People,
    /// A match of bots alone.
    BotsOnly,
}

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queues {
    people: VecDeque<Job>,
    bots: VecDeque<Job>,
    stopping: bool,
}

struct Inner {
    queues: Mutex<Queues>,
    ready: Condvar,
}

/// The bot threads and their queues.
pub struct BotPool {
    inner: Arc<Inner>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl BotPool {
    /// A pool of `threads` threads (at least one).
    #[must_use]
    pub fn new(threads: usize) -> BotPool {
        let inner = Arc::new(Inner {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
        });
        let threads = (0..threads.max(1))
            .filter_map(|i| {
                let inner = inner.clone();
                std::thread::Builder::new()
                    .name(format!("plateau-bot-{i}"))
                    .spawn(move || work(&inner))
                    .ok()
            })
            .collect();
        BotPool {
            inner,
            threads: Mutex::new(threads),
        }
    }

    /// Puts `job` in line.
    pub fn submit(&self, priority: Priority, job: impl FnOnce() + Send + 'static) {
        let mut q = self
            .inner
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match priority {
            Priority::People => q.people.push_back(Box::new(job)),
            Priority::BotsOnly => q.bots.push_back(Box::new(job)),
        }
        drop(q);
        self.inner.ready.notify_one();
    }

    /// Jobs waiting now: `(people, bots only)`.
    #[must_use]
    pub fn waiting(&self) -> (usize, usize) {
        let q = self
            .inner
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        (q.people.len(), q.bots.len())
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        self.inner
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stopping = true;
        self.inner.ready.notify_all();
        for t in self
            .threads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            let _ = t.join();
        }
    }
}

/// One thread: the next job, people's first, until the pool stops.
fn work(inner: &Inner) {
    loop {
        let job = {
            let mut q = inner.queues.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if q.stopping {
                    return;
                }
                if let Some(job) = q.people.pop_front().or_else(|| q.bots.pop_front()) {
                    break job;
                }
                q = inner.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        // A panicking bot must not take the thread with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn people_go_first_and_each_class_in_order() {
        let pool = BotPool::new(1);
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel::<&'static str>();
        // Hold the only thread while the line forms.
        let (held_tx, held_rx) = mpsc::channel::<()>();
        pool.submit(Priority::BotsOnly, move || {
            let _ = held_tx.send(());
            let _ = gate_rx.recv();
        });
        held_rx.recv().unwrap();
        for (p, name) in [
            (Priority::BotsOnly, "bots 1"),
            (Priority::People, "people 1"),
            (Priority::BotsOnly, "bots 2"),
            (Priority::People, "people 2"),
        ] {
            let done = done_tx.clone();
            pool.submit(p, move || {
                let _ = done.send(name);
            });
        }
        assert_eq!(pool.waiting(), (2, 2));
        gate_tx.send(()).unwrap();
        let order: Vec<&str> = (0..4).map(|_| done_rx.recv().unwrap()).collect();
        assert_eq!(order, ["people 1", "people 2", "bots 1", "bots 2"]);
    }

    #[test]
    fn a_panicking_job_leaves_the_thread_working() {
        let pool = BotPool::new(1);
        pool.submit(Priority::People, || panic!("a bot failed"));
        let (tx, rx) = mpsc::channel();
        pool.submit(Priority::People, move || tx.send(7).unwrap());
        assert_eq!(rx.recv().unwrap(), 7);
    }
}
