//! How long the writer waits for more writes before it commits a group (see the parent module's
//! comment): long enough, when writes arrive fast, that several share one commit's `fsync`, and
//! not at all when a write comes alone.
//!
//! A commit's cost is mostly fixed (the log's frames written, the locks, the `fsync`, the wake-ups
//! of the writer and of each answered task); at human pace writes come one by one, so the natural
//! group commit (the writes that queued during the previous commit) holds about 1.3 of them. The
//! writer waits after a group's first write only when the writes' recent rate says at least one
//! more is expected within the wait (PostgreSQL's `commit_delay` and `commit_siblings` are the same
//! idea), and stops as soon as the group is as large as the largest of the last few groups, each
//! counted with the writes that queued while it was committed: a closed loop (each sender writes
//! again only once answered) queues none then, so its groups are not held for writes that cannot
//! come and a lone writer is never delayed, while writes that come on their own, as at human pace,
//! raise the target until the wait ends at its deadline.
//!
//! The wait's length trades the acknowledgement's latency for the commit's cost: at 8,000 matches
//! at human pace (about 720 writes a second, docs/performance.md section 9.6) a 3 ms wait made
//! groups of about 3 writes, 8 ms about 7: the `fdatasync`s per decision fell from 0.28 to 0.14
//! and the writer thread's CPU per decision from 54 to 47 µs on average (runs taken in turn),
//! for about 3 ms more at the acknowledgement's median. Each group's `fdatasync` also writes the
//! log's inode (ext4 without a journal does at every sync, as the file's times change at each
//! commit), which no smaller write avoids: only fewer commits do.
//!
//! The wait costs no wake-up per write: the writer parks, and senders count their writes in
//! `Doorbell`; only the write that completes the group (or a read, or the deadline) unparks it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// The longest a group's first write waits for others: far under what a person notices, and
/// under the acknowledgement's p99 goal of 50 ms with room for the commit itself.
const WAIT_MAX: Duration = Duration::from_millis(8);

/// The writes a wait is sized to gather, beyond the first: shorter than `WAIT_MAX` when writes
/// come faster than one per `WAIT_MAX / JOINERS` (so a group of about `JOINERS + 1` shares a
/// commit whatever the rate, and a fast stream is held no longer than that takes).
const JOINERS: f64 = 6.0;

/// The shortest span the rate is counted over (`Pace::rate`).
const RATE_SPAN: Duration = Duration::from_millis(50);

/// Groups whose largest size is the target of a wait.
const RECENT: usize = 8;

/// What the senders and the waiting writer share: the writes sent, and the count at which the
/// writer wants to be woken.
#[derive(Debug)]
pub(super) struct Doorbell {
    /// Writes sent so far (counted after each is in the queue).
    sent: AtomicU64,
    /// Reads sent so far (as `sent`).
    reads: AtomicU64,
    /// The value of `sent` that completes the group the writer waits for; `u64::MAX` when it
    /// is not waiting.
    wake_at: AtomicU64,
    /// The writer thread, set as it starts.
    writer: OnceLock<Thread>,
}

impl Doorbell {
    pub(super) fn new() -> Doorbell {
        Doorbell {
            sent: AtomicU64::new(0),
            reads: AtomicU64::new(0),
            wake_at: AtomicU64::new(u64::MAX),
            writer: OnceLock::new(),
        }
    }

    /// Called by the writer thread before its first job.
    pub(super) fn writer_started(&self) {
        let _ = self.writer.set(std::thread::current());
    }

    /// A write is in the queue: it wakes the writer only when it completes the group waited for.
    pub(super) fn wrote(&self) {
        let sent = self.sent.fetch_add(1, Ordering::SeqCst) + 1;
        if sent == self.wake_at.load(Ordering::SeqCst) {
            self.wake();
        }
    }

    /// A read is in the queue: it ends any wait (a read waits behind the group, and only the
    /// group's commit).
    pub(super) fn read(&self) {
        self.reads.fetch_add(1, Ordering::SeqCst);
        if self.wake_at.load(Ordering::SeqCst) != u64::MAX {
            self.wake();
        }
    }

    /// Writes sent so far.
    pub(super) fn sent(&self) -> u64 {
        self.sent.load(Ordering::SeqCst)
    }

    fn wake(&self) {
        if let Some(writer) = self.writer.get() {
            writer.unpark();
        }
    }

    /// Parks the writer until `sent` reaches `wake_at`, a read comes, or `deadline` passes (or
    /// spuriously: the caller checks its queue again). `wake_at` counts writes as `sent` does;
    /// `reads_taken` is the reads the writer has taken from the queue.
    pub(super) fn wait(&self, wake_at: u64, reads_taken: u64, deadline: Instant) {
        self.wake_at.store(wake_at, Ordering::SeqCst);
        // A job sent since the caller last looked may have missed `wake_at`: look again.
        if self.sent.load(Ordering::SeqCst) < wake_at
            && self.reads.load(Ordering::SeqCst) <= reads_taken
        {
            let now = Instant::now();
            if now < deadline {
                std::thread::park_timeout(deadline - now);
            }
        }
        self.wake_at.store(u64::MAX, Ordering::SeqCst);
    }
}

/// The writer's view of how writes arrive: their recent rate and the recent groups' sizes.
#[derive(Debug)]
pub(super) struct Pace {
    /// When the current count started.
    since: Instant,
    /// Writes taken since `since`.
    taken: u32,
    /// Writes a second over the last span of at least `RATE_SPAN`.
    rate: f64,
    /// The sizes of the last `RECENT` groups (`committed`).
    groups: [usize; RECENT],
    next: usize,
}

impl Pace {
    pub(super) fn new(now: Instant) -> Pace {
        Pace {
            since: now,
            taken: 0,
            rate: 0.0,
            groups: [1; RECENT],
            next: 0,
        }
    }

    /// `n` writes were taken from the queue.
    pub(super) fn took(&mut self, n: usize) {
        self.taken = self
            .taken
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// A group is committed: `size` counts its writes and those queued meanwhile (what the
    /// next group could gather at once).
    pub(super) fn committed(&mut self, size: usize) {
        self.groups[self.next] = size;
        self.next = (self.next + 1) % RECENT;
    }

    /// How long a group that starts at `now` may wait, and the size at which it stops waiting;
    /// `None` when no other write is expected soon enough to be worth a wait.
    pub(super) fn plan(&mut self, now: Instant) -> Option<(Instant, usize)> {
        let span = now.saturating_duration_since(self.since);
        if span >= RATE_SPAN {
            // The writes of the group about to start are not counted yet: after a long quiet
            // span the rate is near zero, and a lone write is not delayed.
            self.rate = f64::from(self.taken) / span.as_secs_f64();
            self.since = now;
            self.taken = 0;
        }
        let wait = WAIT_MAX.min(Duration::from_secs_f64(JOINERS / self.rate.max(1e-3)));
        let target = self.groups.iter().copied().max().unwrap_or(1);
        (self.rate * wait.as_secs_f64() >= 1.0 && target > 1).then(|| (now + wait, target))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Pace` that took `writes` in one span of `span` from `start`, then saw `groups`
    /// committed.
    fn paced(start: Instant, writes: usize, span: Duration, groups: &[usize]) -> (Pace, Instant) {
        let mut pace = Pace::new(start);
        pace.took(writes);
        for &size in groups {
            pace.committed(size);
        }
        (pace, start + span)
    }

    #[test]
    fn a_write_that_comes_alone_is_not_delayed() {
        let start = Instant::now();
        // 10 writes a second, in groups that gathered others: 0.08 expected within 8 ms.
        let (mut pace, now) = paced(start, 1, Duration::from_millis(100), &[2, 3]);
        assert_eq!(pace.plan(now), None);
        // The first write after a quiet minute counts the minute: no wait either.
        let (mut pace, now) = paced(start, 0, Duration::from_secs(60), &[4; RECENT]);
        assert_eq!(pace.plan(now), None);
    }

    #[test]
    fn writes_that_come_fast_wait_until_the_largest_recent_group() {
        let start = Instant::now();
        // 30 writes in 50 ms: 600 a second, 4.8 expected within 8 ms.
        let (mut pace, now) = paced(start, 30, RATE_SPAN, &[2, 5, 3]);
        assert_eq!(pace.plan(now), Some((now + WAIT_MAX, 5)));
        // 3,000 a second: 6 expected within 2 ms, the wait's length.
        let (mut pace, now) = paced(start, 150, RATE_SPAN, &[2, 5, 3]);
        let (deadline, target) = pace.plan(now).unwrap();
        assert_eq!(target, 5);
        assert_eq!((deadline - now).as_micros(), 2000);
    }

    #[test]
    fn a_closed_loop_of_one_writer_is_not_held() {
        // Fast writes, but each group was one write and nothing queued while it committed:
        // nobody else could join.
        let start = Instant::now();
        let (mut pace, now) = paced(start, 100, RATE_SPAN, &[1; RECENT]);
        assert_eq!(pace.plan(now), None);
    }

    #[test]
    fn the_rate_is_counted_over_spans_of_at_least_rate_span() {
        let start = Instant::now();
        let (mut pace, _) = paced(start, 40, RATE_SPAN, &[3]);
        // Before the span ends, the writes are not counted yet: no rate, no wait.
        assert_eq!(pace.plan(start + RATE_SPAN / 2), None);
        assert!(pace.plan(start + RATE_SPAN).is_some());
        // The next span starts empty: a quiet one ends the waits.
        pace.took(0);
        assert_eq!(pace.plan(start + RATE_SPAN * 3), None);
    }

    #[test]
    fn the_write_that_completes_the_group_wakes_the_waiting_writer() {
        let bell = std::sync::Arc::new(Doorbell::new());
        let (done, woken) = std::sync::mpsc::channel();
        let waiting = std::sync::Arc::clone(&bell);
        let writer = std::thread::spawn(move || {
            waiting.writer_started();
            // Far past the test's own wait below: only the second write can end it in time.
            waiting.wait(2, 0, Instant::now() + Duration::from_secs(600));
            let _ = done.send(waiting.sent());
        });
        bell.wrote();
        bell.wrote();
        assert_eq!(woken.recv_timeout(Duration::from_secs(60)), Ok(2));
        writer.join().unwrap();
    }

    #[test]
    fn a_read_ends_the_wait() {
        let bell = std::sync::Arc::new(Doorbell::new());
        let (done, woken) = std::sync::mpsc::channel();
        let waiting = std::sync::Arc::clone(&bell);
        let writer = std::thread::spawn(move || {
            waiting.writer_started();
            // Far past the test's own wait below: only the read can end it in time, whether it
            // comes before the writer waits or while it does.
            waiting.wait(5, 0, Instant::now() + Duration::from_secs(600));
            let _ = done.send(());
        });
        bell.read();
        assert_eq!(woken.recv_timeout(Duration::from_secs(60)), Ok(()));
        writer.join().unwrap();
    }
}
