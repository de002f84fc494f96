//! Which of a match socket's quiet sources woke its task: its queue (the actor's messages) and
//! what closes it besides the client (`session`). Most wakes of a socket's task are the client's
//! frames, pings above all; the task looks at a quiet source only when that source's own waker
//! fired since it last looked, so a ping touches one small flag word here rather than the
//! queue's shared parts and the closing future's.
//!
//! Each source is polled with a waker of its own, which sets the source's flag and then wakes
//! the task. The task's waker is kept there, woken without being taken, and registered again
//! only when the task's waker changes (never, in a tokio task): a ping only reads the flags.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Wake, Waker};

/// One of the sources: a flag of `Woken`.
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// The connection's queue: the actor queued a message, or let the connection go.
    Queue = 1,
    /// The shutdown, the eviction, a ban, the idle timer.
    Closing = 2,
}

/// The flags and the task's waker, shared by the sources' wakers.
struct Flags {
    /// `Source` bits set by their wakers, cleared by the task as it polls the source.
    set: AtomicU8,
    /// The task's waker; a source's wake leaves it in place.
    task: Mutex<Option<Waker>>,
}

/// A source's waker: sets its flag, then wakes the task.
struct Flagger {
    flags: Arc<Flags>,
    bit: u8,
}

impl Wake for Flagger {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.flags.set.fetch_or(self.bit, Ordering::AcqRel);
        let task = self.flags.task.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(task) = &*task {
            task.wake_by_ref();
        }
    }
}

/// The flags of a socket's quiet sources and their wakers. Every flag starts set: each source
/// is polled once, which registers its waker.
pub(super) struct Woken {
    flags: Arc<Flags>,
    queue: Waker,
    closing: Waker,
    /// The task's waker as last registered, kept here to tell a new one without reading
    /// `flags`.
    task: Option<Waker>,
}

impl Woken {
    pub(super) fn new() -> Woken {
        let flags = Arc::new(Flags {
            set: AtomicU8::new(Source::Queue as u8 | Source::Closing as u8),
            task: Mutex::new(None),
        });
        let waker = |source: Source| {
            Waker::from(Arc::new(Flagger {
                flags: flags.clone(),
                bit: source as u8,
            }))
        };
        let (queue, closing) = (waker(Source::Queue), waker(Source::Closing));
        Woken {
            flags,
            queue,
            closing,
            task: None,
        }
    }

    /// Registers the task's waker if it is not the one registered: called at every poll of the
    /// task, before it looks at the flags.
    pub(super) fn register(&mut self, cx: &Context<'_>) {
        if self.task.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            return;
        }
        let mut task = self.flags.task.lock().unwrap_or_else(|e| e.into_inner());
        *task = Some(cx.waker().clone());
        self.task = Some(cx.waker().clone());
    }

    /// Whether `source` woke since the task last polled it (or was marked by `again`).
    pub(super) fn is_set(&self, source: Source) -> bool {
        self.flags.set.load(Ordering::Acquire) & source as u8 != 0
    }

    /// Clears `source`'s flag if set, saying whether it was: the task then polls the source with
    /// `context(source)`, so a wake from now on sets the flag again.
    pub(super) fn take(&self, source: Source) -> bool {
        self.is_set(source)
            && self.flags.set.fetch_and(!(source as u8), Ordering::AcqRel) & source as u8 != 0
    }

    /// Sets `source`'s flag: the source is ready and may have more (a queue that gave a
    /// message), so it is polled again at the next turn.
    pub(super) fn again(&self, source: Source) {
        self.flags.set.fetch_or(source as u8, Ordering::Relaxed);
    }

    /// The context to poll `source` with: its waker sets its flag.
    pub(super) fn context(&self, source: Source) -> Context<'_> {
        Context::from_waker(match source {
            Source::Queue => &self.queue,
            Source::Closing => &self.closing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// A source's wake sets its flag only, and wakes the task's registered waker (at every
    /// wake); a flag taken is clear until the next wake.
    #[test]
    fn a_source_s_wake_sets_its_flag_and_wakes_the_task() {
        let mut woken = Woken::new();
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(count.clone());
        woken.register(&Context::from_waker(&task));
        assert!(woken.take(Source::Queue) && woken.take(Source::Closing));
        assert!(!woken.take(Source::Queue) && !woken.is_set(Source::Closing));
        woken.context(Source::Closing).waker().wake_by_ref();
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        assert!(!woken.is_set(Source::Queue));
        assert!(woken.take(Source::Closing));
        assert!(!woken.is_set(Source::Closing));
        // The task's waker stays registered after a wake.
        woken.context(Source::Queue).waker().wake_by_ref();
        assert_eq!(count.0.load(Ordering::SeqCst), 2);
        assert!(woken.is_set(Source::Queue) && !woken.is_set(Source::Closing));
        woken.again(Source::Closing);
        assert!(woken.take(Source::Closing) && woken.take(Source::Queue));
    }
}
