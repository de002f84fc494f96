//! What this node's lobby sockets follow of the tournaments (docs/protocol.md section 7.9): per
//! tournament they follow (and for the list, if followed), the last message made of it, which
//! every following socket reads from a `watch` channel, so a socket that is slow to send skips
//! to the latest; and the tournaments changed here since the last read. What reads the store
//! is `follow`'s; the order of reads and publications is this module's.
//!
//! A thing is followed before it is first read: a change made here from then on marks it
//! changed, so one made while the first read is in flight is read again at once, not at the
//! next poll. And the reads of one thing take turns (`Entry::turn`): a read starts after the
//! one before it ended, so it sees a state at least as new, and a message is never replaced by
//! an older one (the list's `Seen` is a digest, with no order to compare).
//!
//! Nothing is kept for what no socket follows: a follow that fails (`tournament/not_found`, the
//! store's error) or is dropped before it is answered forgets its thing at once unless another
//! socket follows it, and a thing whose followers all went is forgotten at the next `wanted`
//! (the refresh's, every `follow::POLL_EVERY` or sooner). A socket sending follows of unknown
//! ids leaves the feed as it was.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, watch};

/// What a lobby socket follows: one tournament, or the list.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Followed {
    /// `GET /api/tournaments` as it changes.
    List,
    /// `GET /api/tournaments/{id}` as it changes.
    One(String),
}

/// The latest message of a followed thing, as JSON text (`None` for the instant before the
/// first read).
pub type Latest = watch::Receiver<Option<Arc<str>>>;

/// What a message was made from: a tournament's version when read, and whether it was over; for
/// the list, a digest of the live tournaments' versions.
pub(super) type Seen = (i64, bool);

/// One followed thing: its channel, what its last message was made from, and the turn its
/// reads take, one at a time.
struct Entry {
    out: watch::Sender<Option<Arc<str>>>,
    seen: Option<Seen>,
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            out: watch::channel(None).0,
            seen: None,
            turn: Arc::default(),
        }
    }
}

#[derive(Default)]
struct Inner {
    followed: HashMap<Followed, Entry>,
    /// Tournaments changed on this node since the last read.
    changed: HashSet<String>,
}

/// The followed tournaments of this node.
#[derive(Default)]
pub struct Feed {
    inner: Mutex<Inner>,
    wake: Notify,
}

impl Feed {
    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        f(&mut self.inner.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Tournament `id` changed on this node (written to the store): its followers here hear of
    /// it at once, without waiting for the next look at the versions.
    pub(super) fn changed(&self, id: &str) {
        let followed = self.with(|i| {
            let any = !i.followed.is_empty();
            if any {
                i.changed.insert(id.to_owned());
            }
            any
        });
        if followed {
            self.wake.notify_one();
        }
    }

    /// Follows `what` for one more socket: a receiver of its latest message, current when this
    /// returns. It is followed before anything is read, so a change made here from now on is
    /// read again (`changed`, `wanted`); then, if no message is kept yet, `read` (not started
    /// until then) reads it, in turn with the other reads of `what`, unless a read another
    /// socket started published one meanwhile: a crowd following a tournament costs one read.
    ///
    /// # Errors
    /// `read`'s: nothing is published, and `what` is forgotten unless another socket follows
    /// it (as it is when the follow is dropped before this returns).
    pub(super) async fn follow<E>(
        &self,
        what: &Followed,
        read: impl Future<Output = Result<(Seen, String), E>>,
    ) -> Result<Latest, E> {
        // Declared first, so dropped last: after the receiver, whose count it reads.
        let mut forget = Forget {
            feed: self,
            what,
            armed: true,
        };
        let (latest, turn) = self.with(|i| {
            let entry = i.followed.entry(what.clone()).or_default();
            (entry.out.subscribe(), Arc::clone(&entry.turn))
        });
        if latest.borrow().is_none() {
            let _turn = turn.lock().await;
            if latest.borrow().is_none() {
                let (seen, text) = read.await?;
                self.publish(what, &turn, seen, text);
            }
        }
        forget.armed = false;
        Ok(latest)
    }

    /// Reads `what` again with `read` (not started until then) and publishes it, in turn with
    /// the other reads of `what`; nothing, if no socket follows it, or none any more when its
    /// turn comes (a follow of an unknown id, in flight when the refresh began, refused since).
    ///
    /// # Errors
    /// `read`'s (nothing is published).
    pub(super) async fn reread<E>(
        &self,
        what: &Followed,
        read: impl Future<Output = Result<(Seen, String), E>>,
    ) -> Result<(), E> {
        let Some(turn) = self.with(|i| i.followed.get(what).map(|e| Arc::clone(&e.turn))) else {
            return Ok(());
        };
        let _turn = turn.lock().await;
        let followed = self.with(|i| {
            i.followed
                .get(what)
                .is_some_and(|e| Arc::ptr_eq(&e.turn, &turn) && e.out.receiver_count() > 0)
        });
        if !followed {
            return Ok(());
        }
        let (seen, text) = read.await?;
        self.publish(what, &turn, seen, text);
        Ok(())
    }

    /// What the sockets of this node follow, each with what its last message was made from,
    /// and the tournaments changed here since the last call. Forgets what no socket follows any
    /// more.
    pub(super) fn wanted(&self) -> (Vec<(Followed, Option<Seen>)>, HashSet<String>) {
        self.with(|i| {
            i.followed.retain(|_, e| e.out.receiver_count() > 0);
            let wanted = i
                .followed
                .iter()
                .map(|(k, e)| (k.clone(), e.seen))
                .collect();
            (wanted, std::mem::take(&mut i.changed))
        })
    }

    /// Completes when a tournament followed here changed on this node (`changed`).
    pub(super) async fn woken(&self) {
        self.wake.notified().await;
    }

    /// How many things are followed, or kept for an instant after their last follower went
    /// (until the next `wanted`).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.with(|i| i.followed.len())
    }

    /// Publishes `text`, made of what `seen` says, as `what`'s latest (the reads taking turns,
    /// the last read is the newest), if `what` is still the thing whose `turn` it was read in:
    /// not one followed anew after all its followers went.
    fn publish(
        &self,
        what: &Followed,
        turn: &Arc<tokio::sync::Mutex<()>>,
        seen: Seen,
        text: String,
    ) {
        self.with(|i| {
            let Some(entry) = i
                .followed
                .get_mut(what)
                .filter(|e| Arc::ptr_eq(&e.turn, turn))
            else {
                return;
            };
            entry.seen = Some(seen);
            entry.out.send_if_modified(|now| {
                if now.as_deref() == Some(text.as_str()) {
                    return false;
                }
                *now = Some(Arc::from(text));
                true
            });
        });
    }
}

/// Forgets, when dropped armed (a follow that failed or was dropped before its answer), the
/// thing a follow made if nobody follows it.
struct Forget<'a> {
    feed: &'a Feed,
    what: &'a Followed,
    armed: bool,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.feed.with(|i| {
                if i.followed
                    .get(self.what)
                    .is_some_and(|e| e.out.receiver_count() == 0)
                {
                    i.followed.remove(self.what);
                }
            });
        }
    }
}
