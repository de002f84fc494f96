//! Who is here now: the players with an open socket, the human seats connected to each match, and
//! whose turn it is in correspondence matches. The match actors and the sockets report to it; the
//! lobby list, the lobby WebSocket's counts and its "your turn" messages read from it. Nothing here
//! is stored: after a restart everyone is away until they reconnect.
//!
//! Several nodes on one database (docs/architecture.md section 5.3) tell each other their counts
//! and "your turn" announcements (`cluster::share_presence`): the counts shown are this node's
//! plus the others' latest, and an announcement reaches the player's lobby socket on any node.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, watch};

use crate::players::PlayerId;

/// The counts the lobby shows live (docs/protocol.md section 7.6).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Counts {
    /// Players with at least one open socket (lobby or match).
    pub online: usize,
    /// Live matches with a person at the table (a human seat connected).
    pub playing: usize,
}

/// A correspondence match now waits for `player`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnEvent {
    /// Whose turn it is.
    pub player: PlayerId,
    /// The match.
    pub id: String,
    /// Its game's registry name.
    pub game: &'static str,
    /// Announced by another node (so not to be passed on again).
    pub remote: bool,
}

/// How long another node's counts count without news from it.
const REMOTE_FRESH: Duration = Duration::from_secs(5);

/// One match as its actor last reported it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MatchPresence {
    /// Whether the match is live.
    pub live: bool,
    /// Per seat: a human seat with an open socket (bots: false).
    pub connected: Vec<bool>,
    /// The people whose seat is to act now.
    pub to_act: Vec<PlayerId>,
    /// A match without a clock, played across visits: its turns are announced.
    pub correspondence: bool,
    /// The game's registry name.
    pub game: &'static str,
    /// The version spectators are shown (secret actions not counted).
    pub public_version: u64,
}

impl MatchPresence {
    /// Whether a person sits at the table now.
    #[must_use]
    pub fn someone_here(&self) -> bool {
        self.connected.iter().any(|c| *c)
    }

    /// Whether it counts among the matches being played: live, with a person at the table.
    fn playing(&self) -> bool {
        self.live && self.someone_here()
    }
}

#[derive(Default)]
struct Inner {
    sockets: HashMap<PlayerId, usize>,
    matches: HashMap<String, MatchPresence>,
    /// How many of `matches` are `playing`, kept up to date by each change so that a report
    /// costs the same whatever the number of matches.
    playing: usize,
    /// The other nodes' latest counts, and when they came.
    remote: HashMap<String, (Counts, Instant)>,
}

impl Inner {
    /// Puts `now` (or nothing) as match `id`'s presence, keeping `playing` up to date.
    fn set(&mut self, id: &str, now: Option<MatchPresence>) -> Option<MatchPresence> {
        let adds = now.as_ref().is_some_and(MatchPresence::playing);
        let old = match now {
            Some(m) => self.matches.insert(id.to_owned(), m),
            None => self.matches.remove(id),
        };
        let removes = old.as_ref().is_some_and(MatchPresence::playing);
        self.playing = self.playing + usize::from(adds) - usize::from(removes);
        old
    }
}

/// The registry of who is here. Cheap to share (`Arc<Presence>`).
pub struct Presence {
    inner: Mutex<Inner>,
    counts: watch::Sender<Counts>,
    turns: broadcast::Sender<TurnEvent>,
}

impl Default for Presence {
    fn default() -> Presence {
        Presence {
            inner: Mutex::new(Inner::default()),
            counts: watch::channel(Counts::default()).0,
            turns: broadcast::channel(256).0,
        }
    }
}

impl Presence {
    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let out = f(&mut inner);
        let counts = inner.remote.values().fold(
            Counts {
                online: inner.sockets.len(),
                playing: inner.playing,
            },
            |sum, (c, _)| Counts {
                online: sum.online + c.online,
                playing: sum.playing + c.playing,
            },
        );
        self.counts.send_if_modified(|c| {
            let changed = *c != counts;
            *c = counts;
            changed
        });
        out
    }

    /// A socket of `player` opened.
    pub fn socket_opened(&self, player: PlayerId) {
        self.with(|i| *i.sockets.entry(player).or_default() += 1);
    }

    /// A socket of `player` closed.
    pub fn socket_closed(&self, player: PlayerId) {
        self.with(|i| {
            if let Some(n) = i.sockets.get_mut(&player) {
                *n -= 1;
                if *n == 0 {
                    i.sockets.remove(&player);
                }
            }
        });
    }

    /// The actor of match `id` reports how it stands; a correspondence match announces the
    /// players who became to act.
    pub fn report(&self, id: &str, now: MatchPresence) {
        let game = now.game;
        let fresh: Vec<PlayerId> = self.with(|i| {
            let fresh = if now.live && now.correspondence {
                let before = i
                    .matches
                    .get(id)
                    .map(|m| m.to_act.as_slice())
                    .unwrap_or_default();
                now.to_act
                    .iter()
                    .filter(|p| !before.contains(p))
                    .copied()
                    .collect()
            } else {
                Vec::new()
            };
            i.set(id, Some(now));
            fresh
        });
        for player in fresh {
            let _ = self.turns.send(TurnEvent {
                player,
                id: id.to_owned(),
                game,
                remote: false,
            });
        }
    }

    /// Match `id` left memory (finished and idle, or the service stops).
    pub fn forget(&self, id: &str) {
        self.with(|i| i.set(id, None));
    }

    /// Match `id` as last reported.
    #[must_use]
    pub fn of_match(&self, id: &str) -> Option<MatchPresence> {
        self.with(|i| i.matches.get(id).cloned())
    }

    /// The ids of the live matches waiting for `player`'s move.
    #[must_use]
    pub fn waiting_for(&self, player: PlayerId) -> Vec<String> {
        self.with(|i| {
            i.matches
                .iter()
                .filter(|(_, m)| m.live && m.to_act.contains(&player))
                .map(|(id, _)| id.clone())
                .collect()
        })
    }

    /// This node's own counts (without the other nodes').
    #[must_use]
    pub fn local_counts(&self) -> Counts {
        self.with(|i| Counts {
            online: i.sockets.len(),
            playing: i.playing,
        })
    }

    /// Another node's latest counts; the counts of nodes not heard from for 5 s stop counting.
    /// Online players are summed over nodes (one with sockets on two nodes counts twice).
    pub fn remote_counts(&self, node: &str, counts: Counts) {
        self.with(|i| {
            i.remote.insert(node.to_owned(), (counts, Instant::now()));
            i.remote.retain(|_, (_, at)| at.elapsed() < REMOTE_FRESH);
        });
    }

    /// Forgets the counts of the nodes not heard from for 5 s.
    pub fn prune_remote(&self) {
        self.with(|i| i.remote.retain(|_, (_, at)| at.elapsed() < REMOTE_FRESH));
    }

    /// Passes on another node's "your turn" announcement to this node's lobby sockets.
    pub fn announce(&self, event: TurnEvent) {
        let _ = self.turns.send(event);
    }

    /// The counts, changing as they change.
    #[must_use]
    pub fn counts(&self) -> watch::Receiver<Counts> {
        self.counts.subscribe()
    }

    /// Every "your turn" announcement from now on.
    #[must_use]
    pub fn turns(&self) -> broadcast::Receiver<TurnEvent> {
        self.turns.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_sockets_and_tables_and_turns_are_announced_once() {
        let p = Presence::default();
        let counts = p.counts();
        let mut turns = p.turns();
        p.socket_opened(PlayerId(1));
        p.socket_opened(PlayerId(1));
        p.socket_opened(PlayerId(2));
        assert_eq!(counts.borrow().online, 2);
        p.socket_closed(PlayerId(1));
        assert_eq!(counts.borrow().online, 2);
        p.socket_closed(PlayerId(1));
        assert_eq!(counts.borrow().online, 1);
        let table = |connected: Vec<bool>, to_act: Vec<PlayerId>| MatchPresence {
            live: true,
            connected,
            to_act,
            correspondence: true,
            game: "mad",
            public_version: 0,
        };
        p.report("m", table(vec![false, false], vec![PlayerId(2)]));
        assert_eq!(counts.borrow().playing, 0, "nobody at the table");
        p.report("m", table(vec![true, false], vec![PlayerId(2)]));
        assert_eq!(counts.borrow().playing, 1);
        assert_eq!(turns.try_recv().unwrap().player, PlayerId(2));
        assert!(
            turns.try_recv().is_err(),
            "announced once while it stays to act"
        );
        assert_eq!(p.waiting_for(PlayerId(2)), ["m"]);
        // The count follows each table as it changes, and forgetting an unknown match is harmless.
        p.report("n", table(vec![true, true], vec![]));
        p.report("n", table(vec![false, true], vec![]));
        assert_eq!(counts.borrow().playing, 2);
        p.report("n", table(vec![false, false], vec![]));
        assert_eq!(counts.borrow().playing, 1);
        p.forget("nowhere");
        p.forget("m");
        assert_eq!(counts.borrow().playing, 0);
        p.forget("m");
        p.forget("n");
        assert_eq!(counts.borrow().playing, 0);
    }
}
