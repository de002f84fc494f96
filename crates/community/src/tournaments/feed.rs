//! What this node's lobby sockets follow of the tournaments (docs/protocol.md section 7.9): per
//! tournament they follow (and for the list, if followed), the last message made of it, which
//! every following socket reads from a `watch` channel, so a socket that is slow to send skips
//! to the latest; and the tournaments changed here since the last read. What reads the store
//! and publishes here is `follow`'s.

use std::collections::{HashMap, HashSet};
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

/// One followed thing: its channel, and what its last message was made from.
struct Entry {
    out: watch::Sender<Option<Arc<str>>>,
    seen: Option<Seen>,
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

    /// A receiver of `what`'s latest, if a socket of this node follows it already (its message
    /// is kept current: nothing needs reading).
    pub(super) fn followed(&self, what: &Followed) -> Option<Latest> {
        self.with(|i| {
            let entry = i.followed.get(what)?;
            entry.out.borrow().is_some().then(|| entry.out.subscribe())
        })
    }

    /// A receiver of `what`'s latest, followed from now on (`None` until a message is
    /// published).
    pub(super) fn subscribe(&self, what: &Followed) -> Latest {
        self.with(|i| {
            i.followed
                .entry(what.clone())
                .or_insert_with(|| Entry {
                    out: watch::channel(None).0,
                    seen: None,
                })
                .out
                .subscribe()
        })
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

    /// Publishes `text`, made of what `seen` says, as `what`'s latest, unless what is published
    /// was made of a later version of the tournament.
    pub(super) fn publish(&self, what: &Followed, seen: Seen, text: String) {
        self.with(|i| {
            let Some(entry) = i.followed.get_mut(what) else {
                return;
            };
            if let (Followed::One(_), Some(old)) = (what, entry.seen)
                && old.0 > seen.0
            {
                return;
            }
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
