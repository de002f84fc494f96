//! Tournaments followed live over the lobby's WebSocket (docs/protocol.md section 7.9): each
//! node keeps, per tournament its sockets follow (and for the list, if followed), the last
//! message made of it, which every following socket reads from a `watch` channel: a change is
//! read from the store once per node, however many sockets follow it, and a socket that is
//! slow to send skips to the latest.
//!
//! With several nodes on one database (docs/architecture.md section 5.3) the runner of a
//! tournament may be another node than the socket's. So each second a node with followers reads
//! the versions of the live tournaments (one query, without their state) and reads again those
//! that changed; a change made on this node (the runner's step, a join, a creation) wakes it at
//! once. Reads are at least `COALESCE` apart, so a burst of changes makes one message.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use plateau_protocol::server::{LobbyMessage, TournamentDetail, Tournaments as TournamentList};
use plateau_store::tournaments::TournamentStatus;
use tokio::sync::{Notify, watch};

use super::state::Tournaments;
use crate::model::ApiError;

/// How often a node with followers looks for changes made on other nodes.
pub const POLL_EVERY: Duration = Duration::from_secs(1);
/// The shortest time between two reads of the followed tournaments: changes within it are sent
/// as one message.
const COALESCE: Duration = Duration::from_millis(100);

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

/// One followed thing: its channel, and what its last message was made from.
struct Entry {
    out: watch::Sender<Option<Arc<str>>>,
    /// A tournament's version when read, and whether it was over; for the list, a digest of the
    /// live tournaments' versions.
    seen: Option<(i64, bool)>,
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
    fn followed(&self, what: &Followed) -> Option<Latest> {
        self.with(|i| {
            let entry = i.followed.get(what)?;
            entry.out.borrow().is_some().then(|| entry.out.subscribe())
        })
    }

    /// Publishes `text`, made of what `seen` says, as `what`'s latest, unless what is published
    /// was made of a later version of the tournament.
    fn publish(&self, what: &Followed, seen: (i64, bool), text: String) {
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

/// The `tournament` message of `detail`.
fn one_message(detail: &TournamentDetail) -> String {
    serde_json::to_string(&LobbyMessage::Tournament(detail)).unwrap_or_default()
}

/// The `tournaments` message of `list`.
fn list_message(list: &TournamentList) -> String {
    serde_json::to_string(&LobbyMessage::Tournaments(list)).unwrap_or_default()
}

/// A digest of the live tournaments' versions: the list changes only when it does (a new one,
/// one changed, one over).
fn digest(versions: &[(String, i64)]) -> (i64, bool) {
    let mut h = DefaultHasher::new();
    versions.hash(&mut h);
    (i64::from_ne_bytes(h.finish().to_ne_bytes()), false)
}

impl Tournaments {
    /// Follows `what` for a lobby socket: its latest message, current when this returns (read
    /// now if no socket of this node followed it; else the one message kept for all, so a
    /// crowd opening a tournament's page costs one read), until the receiver is dropped.
    ///
    /// # Errors
    /// `tournament/not_found`; the store's.
    pub async fn follow(&self, what: Followed) -> Result<Latest, ApiError> {
        if let Some(latest) = self.feed.followed(&what) {
            return Ok(latest);
        }
        let (seen, text) = match &what {
            Followed::One(id) => {
                let one = self.read(id).await?;
                ((one.version, one.finished), one_message(&self.view(&one)))
            }
            Followed::List => {
                let versions = self.live_versions().await?;
                (digest(&versions), list_message(&self.list().await?))
            }
        };
        let latest = self.feed.with(|i| {
            i.followed
                .entry(what.clone())
                .or_insert_with(|| Entry {
                    out: watch::channel(None).0,
                    seen: None,
                })
                .out
                .subscribe()
        });
        self.feed.publish(&what, seen, text);
        Ok(latest)
    }

    /// The id and version of every live tournament.
    async fn live_versions(&self) -> Result<Vec<(String, i64)>, ApiError> {
        let cap = u32::try_from(self.lobby.options().limits.live_tournaments).unwrap_or(u32::MAX);
        self.lobby
            .store()
            .tournament_versions(TournamentStatus::Live, cap)
            .await
            .map_err(ApiError::store)
    }

    /// Reads again what the sockets of this node follow and changed: what changed here, and
    /// when `poll`, what the store's versions say changed elsewhere. Forgets what no socket
    /// follows any more.
    async fn refresh(&self, poll: bool) {
        let (wanted, changed) = self.feed.with(|i| {
            i.followed.retain(|_, e| e.out.receiver_count() > 0);
            let wanted: Vec<(Followed, Option<(i64, bool)>)> = i
                .followed
                .iter()
                .map(|(k, e)| (k.clone(), e.seen))
                .collect();
            (wanted, std::mem::take(&mut i.changed))
        });
        if wanted.is_empty() || (!poll && changed.is_empty()) {
            return;
        }
        let versions = if poll {
            match self.live_versions().await {
                Ok(v) => Some(v),
                Err(e) => {
                    tracing::warn!("tournaments followed: {}", e.message);
                    return;
                }
            }
        } else {
            None
        };
        let live: HashMap<&str, i64> = versions
            .iter()
            .flatten()
            .map(|(id, v)| (id.as_str(), *v))
            .collect();
        for (what, seen) in wanted {
            let stale = match (&what, &versions) {
                (Followed::List, Some(v)) => seen != Some(digest(v)),
                (Followed::List, None) => true,
                (Followed::One(id), _) if changed.contains(id) => true,
                // Not live: over (or gone), which is read once.
                (Followed::One(id), Some(_)) => match live.get(id.as_str()) {
                    Some(v) => seen != Some((*v, false)),
                    None => !seen.is_some_and(|(_, over)| over),
                },
                (Followed::One(_), None) => false,
            };
            if stale && let Err(e) = self.reread(&what, versions.as_deref()).await {
                tracing::warn!("tournaments followed: {}", e.message);
            }
        }
    }

    /// Reads `what` again and publishes it (`versions`: the live ones', when just read).
    async fn reread(
        &self,
        what: &Followed,
        versions: Option<&[(String, i64)]>,
    ) -> Result<(), ApiError> {
        let (seen, text) = match what {
            Followed::One(id) => {
                let one = self.read(id).await?;
                ((one.version, one.finished), one_message(&self.view(&one)))
            }
            Followed::List => {
                let seen = match versions {
                    Some(v) => digest(v),
                    None => digest(&self.live_versions().await?),
                };
                (seen, list_message(&self.list().await?))
            }
        };
        self.feed.publish(what, seen, text);
        Ok(())
    }
}

/// Keeps the followed tournaments of this node current until the service shuts down or the
/// tournaments are dropped: a look at the versions every `POLL_EVERY`, and a read at once of
/// what changes here.
pub(super) async fn run(tournaments: Weak<Tournaments>) {
    let Some(t) = tournaments.upgrade() else {
        return;
    };
    let mut shutdown = t.lobby.shutdown_signal();
    let feed = Arc::clone(&t.feed);
    drop(t);
    let mut interval = tokio::time::interval(POLL_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let poll = tokio::select! {
            _ = interval.tick() => true,
            () = feed.wake.notified() => false,
            _ = shutdown.changed() => false,
        };
        if *shutdown.borrow() {
            return;
        }
        let Some(t) = tournaments.upgrade() else {
            return;
        };
        t.refresh(poll).await;
        drop(t);
        tokio::time::sleep(COALESCE).await;
    }
}
