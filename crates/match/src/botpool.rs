//! Where bots think (docs/protocol.md section 6): a fixed set of threads, so bots never take more
//! cores than the pool has, however many matches they play; the rest of the machine stays with
//! the people. Matches with a person at the table go first. Within a class, the jobs are shared
//! out in turns between their owners (the address that made each match, `Lobby::creation_allowed`):
//! each owner with a job waiting gets one taken before any owner gets a second, so an address
//! with many tables waits for its own and not everyone else (one bot move per match is in line
//! at a time, a few at a Bataille Navale placement), and an owner's jobs go in arrival order.

use std::collections::{HashMap, VecDeque};
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

/// One class's jobs: per owner in arrival order, and the owners with jobs in the order of their
/// turns.
#[derive(Default)]
struct Turns {
    jobs: HashMap<String, VecDeque<Job>>,
    owners: VecDeque<String>,
}

impl Turns {
    fn push(&mut self, owner: String, job: Job) {
        let line = self.jobs.entry(owner.clone()).or_default();
        if line.is_empty() {
            self.owners.push_back(owner);
        }
        line.push_back(job);
    }

    /// The first job of the owner whose turn it is; that owner goes to the back of the turns if
    /// it has more.
    fn pop(&mut self) -> Option<Job> {
        let owner = self.owners.pop_front()?;
        let line = self.jobs.get_mut(&owner)?;
        let job = line.pop_front();
        if line.is_empty() {
            self.jobs.remove(&owner);
        } else {
            self.owners.push_back(owner);
        }
        job
    }

    fn len(&self) -> usize {
        self.jobs.values().map(VecDeque::len).sum()
    }
}

#[derive(Default)]
struct Queues {
    people: Turns,
    bots: Turns,
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

    /// Puts `job` in line for `owner` (the key of the address that made the match, or the
    /// match's own where no address counts).
    pub fn submit(&self, priority: Priority, owner: String, job: impl FnOnce() + Send + 'static) {
        let mut q = self
            .inner
            .queues
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match priority {
            Priority::People => q.people.push(owner, Box::new(job)),
            Priority::BotsOnly => q.bots.push(owner, Box::new(job)),
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
                if let Some(job) = q.people.pop().or_else(|| q.bots.pop()) {
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

    /// Holds the pool's only thread until the returned sender is used (or dropped).
    fn hold(pool: &BotPool) -> mpsc::Sender<()> {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (held_tx, held_rx) = mpsc::channel::<()>();
        pool.submit(Priority::BotsOnly, "holder".into(), move || {
            let _ = held_tx.send(());
            let _ = gate_rx.recv();
        });
        held_rx.recv().unwrap();
        gate_tx
    }

    #[test]
    fn people_go_first_and_each_class_in_order() {
        let pool = BotPool::new(1);
        let gate = hold(&pool);
        let (done_tx, done_rx) = mpsc::channel::<&'static str>();
        for (p, name) in [
            (Priority::BotsOnly, "bots 1"),
            (Priority::People, "people 1"),
            (Priority::BotsOnly, "bots 2"),
            (Priority::People, "people 2"),
        ] {
            let done = done_tx.clone();
            pool.submit(p, "a".into(), move || {
                let _ = done.send(name);
            });
        }
        assert_eq!(pool.waiting(), (2, 2));
        gate.send(()).unwrap();
        let order: Vec<&str> = (0..4).map(|_| done_rx.recv().unwrap()).collect();
        assert_eq!(order, ["people 1", "people 2", "bots 1", "bots 2"]);
    }

    /// An owner with many jobs in line waits for its own: another owner's job, come later, is
    /// taken second, not after all of them.
    #[test]
    fn owners_take_turns() {
        let pool = BotPool::new(1);
        let gate = hold(&pool);
        let (done_tx, done_rx) = mpsc::channel::<String>();
        let jobs = (0..5)
            .map(|i| ("crowd", format!("crowd {i}")))
            .chain([
                ("honest", "honest 0".to_owned()),
                ("other", "other 0".to_owned()),
            ])
            .chain([("honest", "honest 1".to_owned())]);
        for (owner, name) in jobs {
            let done = done_tx.clone();
            pool.submit(Priority::People, owner.into(), move || {
                let _ = done.send(name);
            });
        }
        gate.send(()).unwrap();
        let order: Vec<String> = (0..8).map(|_| done_rx.recv().unwrap()).collect();
        assert_eq!(
            order,
            [
                "crowd 0", "honest 0", "other 0", "crowd 1", "honest 1", "crowd 2", "crowd 3",
                "crowd 4"
            ]
        );
        assert_eq!(pool.waiting(), (0, 0));
    }

    #[test]
    fn a_panicking_job_leaves_the_thread_working() {
        let pool = BotPool::new(1);
        pool.submit(Priority::People, "a".into(), || panic!("a bot failed"));
        let (tx, rx) = mpsc::channel();
        pool.submit(Priority::People, "a".into(), move || tx.send(7).unwrap());
        assert_eq!(rx.recv().unwrap(), 7);
    }
}
