//! Friends and blocks (docs/protocol.md section 7.8): the players each player follows, kept in
//! memory while it has a lobby socket open (loaded from the store at the first, dropped with the
//! last), with who of them is online and playing as presence knows it; and the store's blocks,
//! which refuse challenges, chat and pairing between two players.
//!
//! A followed player who blocks the follower shows to it as offline and playing nothing: a
//! block is never told to the blocked player beyond a refusal that reads as any other.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

use plateau_lobby::model::ApiError;
use plateau_lobby::players::{Player, PlayerId, Relation};
use plateau_lobby::presence::Presence;
use plateau_protocol::server::FriendView;
use plateau_store::Store;

/// Players one player may follow, and block, each.
pub const RELATIONS_PER_PLAYER: usize = 200;

/// A followed player, and whether it blocks its follower (then it shows offline).
#[derive(Clone)]
struct Followed {
    player: Player,
    hides: bool,
}

/// A player's lobby sockets here, and whom it follows.
struct Entry {
    sockets: usize,
    follows: Vec<Followed>,
}

/// The friend lists of the players with a lobby socket open here.
pub struct Friends {
    inner: Mutex<HashMap<PlayerId, Entry>>,
    /// One more at every change of a list, so the lobby sockets draw theirs again.
    changed: watch::Sender<u64>,
}

impl Default for Friends {
    fn default() -> Friends {
        Friends {
            inner: Mutex::new(HashMap::new()),
            changed: watch::channel(0).0,
        }
    }
}

/// Whom `player` follows, read from the store.
async fn load(store: &dyn Store, player: PlayerId) -> Result<Vec<Followed>, ApiError> {
    let mut follows = Vec::new();
    for (relation, other) in store.relations(player).await.map_err(ApiError::store)? {
        if relation == Relation::Follow {
            let (hides, _) = store
                .blocks_between(other.id, player)
                .await
                .map_err(ApiError::store)?;
            follows.push(Followed {
                player: other,
                hides,
            });
        }
    }
    Ok(follows)
}

impl Friends {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<PlayerId, Entry>) -> T) -> T {
        f(&mut self.inner.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A lobby socket of `player` opened: its list is loaded at the first.
    ///
    /// # Errors
    /// `store/unavailable` (the socket then shows no friends until the list changes).
    pub async fn opened(&self, store: &dyn Store, player: PlayerId) -> Result<(), ApiError> {
        let first = self.with(|map| {
            let entry = map.entry(player).or_insert(Entry {
                sockets: 0,
                follows: Vec::new(),
            });
            entry.sockets += 1;
            entry.sockets == 1
        });
        if first {
            self.reload(store, player).await?;
        }
        Ok(())
    }

    /// A lobby socket of `player` closed: its list goes with the last.
    pub fn closed(&self, player: PlayerId) {
        self.with(|map| {
            if let Some(entry) = map.get_mut(&player) {
                entry.sockets -= 1;
                if entry.sockets == 0 {
                    map.remove(&player);
                }
            }
        });
    }

    /// Reads `player`'s list from the store again if it has a lobby socket open here.
    ///
    /// # Errors
    /// `store/unavailable`.
    pub async fn reload(&self, store: &dyn Store, player: PlayerId) -> Result<(), ApiError> {
        if !self.with(|map| map.contains_key(&player)) {
            return Ok(());
        }
        let follows = load(store, player).await?;
        self.with(|map| {
            if let Some(entry) = map.get_mut(&player) {
                entry.follows = follows;
            }
        });
        self.changed.send_modify(|n| *n += 1);
        Ok(())
    }

    /// Changes of any list from now on.
    #[must_use]
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// `player`'s friend list as its lobby shows it: by name, with who is online and playing
    /// (`None` while it has no lobby socket here).
    #[must_use]
    pub fn view(&self, presence: &Presence, player: PlayerId) -> Option<Vec<FriendView>> {
        let follows = self.with(|map| map.get(&player).map(|e| e.follows.clone()))?;
        let ids: Vec<PlayerId> = follows.iter().map(|f| f.player.id).collect();
        let where_ = presence.whereabouts(&ids);
        Some(
            follows
                .into_iter()
                .zip(where_)
                .map(|(f, (online, playing))| FriendView {
                    name: f.player.name,
                    kind: f.player.kind,
                    online: online && !f.hides,
                    playing: playing.filter(|_| !f.hides),
                })
                .collect(),
        )
    }
}
