//! Tournaments followed live over the lobby's WebSocket (docs/protocol.md section 7.9): a change
//! is read from the store once per node, however many sockets follow it, and published in the
//! node's `feed`.
//!
//! With several nodes on one database (docs/architecture.md section 5.3) the runner of a
//! tournament may be another node than the socket's. So each second a node with followers reads
//! the versions of the live tournaments (one query, without their state) and reads again those
//! that changed; a change made on this node (the runner's step, a join, a creation, a deleted
//! player's new name) wakes it at once. Reads are at least `COALESCE` apart, so a burst of
//! changes makes one message.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Weak};
use std::time::Duration;

use plateau_protocol::server::{LobbyMessage, TournamentDetail, Tournaments as TournamentList};
use plateau_store::tournaments::TournamentStatus;

use super::feed::{Followed, Latest, Seen};
use super::state::Tournaments;
use plateau_lobby::model::ApiError;

/// How often a node with followers looks for changes made on other nodes.
pub const POLL_EVERY: Duration = Duration::from_secs(1);
/// The shortest time between two reads of the followed tournaments: changes within it are sent
/// as one message.
const COALESCE: Duration = Duration::from_millis(100);

impl Tournaments {
    /// Follows `what` for a lobby socket: its latest message, current when this returns (read
    /// now if no socket of this node followed it; else the one message kept for all, so a
    /// crowd opening a tournament's page costs one read), until the receiver is dropped. A
    /// change made on this node once this runs is sent to it at once, even one made
    /// while it is read (`Feed::follow`).
    ///
    /// # Errors
    /// `tournament/not_found`; the store's.
    pub async fn follow(&self, what: Followed) -> Result<Latest, ApiError> {
        self.feed.follow(&what, self.message(&what, None)).await
    }

    /// `what` read now, as its message and what it was made from (`versions`: the live ones',
    /// when just read).
    pub(super) async fn message(
        &self,
        what: &Followed,
        versions: Option<&[(String, i64)]>,
    ) -> Result<(Seen, String), ApiError> {
        Ok(match what {
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
        })
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
    pub(super) async fn refresh(&self, poll: bool) {
        let (wanted, changed) = self.feed.wanted();
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
                // The digest is of the live ones: a finished one changed here (a deleted
                // player's new name) changes the list too.
                (Followed::List, Some(v)) => !changed.is_empty() || seen != Some(digest(v)),
                (Followed::List, None) => true,
                (Followed::One(id), _) if changed.contains(id) => true,
                // Not live: over (or gone), which is read once.
                (Followed::One(id), Some(_)) => match live.get(id.as_str()) {
                    Some(v) => seen != Some((*v, false)),
                    None => !seen.is_some_and(|(_, over)| over),
                },
                (Followed::One(_), None) => false,
            };
            if stale
                && let Err(e) = self
                    .feed
                    .reread(&what, self.message(&what, versions.as_deref()))
                    .await
            {
                tracing::warn!("tournaments followed: {}", e.message);
            }
        }
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
            () = feed.woken() => false,
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
fn digest(versions: &[(String, i64)]) -> Seen {
    let mut h = DefaultHasher::new();
    versions.hash(&mut h);
    (i64::from_ne_bytes(h.finish().to_ne_bytes()), false)
}
