//! Who is here now: the players with an open socket, the human seats connected to each match, and
//! whose turn it is in correspondence matches. The match actors and the sockets report to it; the
//! lobby list, the lobby WebSocket's counts and its "your turn" messages read from it. Nothing here
//! is stored: after a restart everyone is away until they reconnect.
//!
//! Several nodes on one database (docs/architecture.md section 5.3) tell each other their counts
//! and "your turn" announcements (`lobby::notices`): the counts shown are this node's
//! plus the others' latest, and an announcement reaches the player's lobby socket on any node.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, mpsc, watch};

use crate::players::PlayerId;
pub use plateau_match::MatchPresence;

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
}

/// How long another node's counts count without news from it.
const REMOTE_FRESH: Duration = Duration::from_secs(5);

#[derive(Default)]
struct Inner {
    sockets: HashMap<PlayerId, usize>,
    matches: HashMap<String, MatchPresence>,
    /// How many of `matches` are `playing`, kept up to date by each change so that a report
    /// costs the same whatever the number of matches.
    playing: usize,
    /// The other nodes' latest counts, and when they came.
    remote: HashMap<String, (Counts, Instant)>,
    /// Per player, the lobby sockets that hear its "your turn" messages: (connection, its queue of
    /// messages to send).
    listeners: HashMap<PlayerId, Vec<(u64, mpsc::Sender<String>)>>,
}

impl Inner {
    /// The queues of `player`'s lobby sockets.
    fn listeners_of(&self, player: PlayerId) -> Vec<mpsc::Sender<String>> {
        queues(&self.listeners, player)
    }

    /// Forgets match `id`'s presence, keeping `playing` up to date.
    fn remove(&mut self, id: &str) {
        if let Some(old) = self.matches.remove(id) {
            self.playing -= usize::from(old.playing());
        }
    }
}

/// The queues of `player`'s lobby sockets in `listeners`.
fn queues(
    listeners: &HashMap<PlayerId, Vec<(u64, mpsc::Sender<String>)>>,
    player: PlayerId,
) -> Vec<mpsc::Sender<String>> {
    let list = listeners.get(&player).into_iter().flatten();
    list.map(|(_, out)| out.clone()).collect()
}

/// Sends the `turn` message (docs/protocol.md section 7.6) to the queues `outs` of the event's
/// player's lobby sockets. A socket whose queue is full or closed misses it: the lobby list still
/// shows the match waiting.
fn send_turn(event: &TurnEvent, outs: Vec<mpsc::Sender<String>>) {
    if outs.is_empty() {
        return;
    }
    let turn = plateau_protocol::server::LobbyMessage::Turn {
        id: &event.id,
        game: event.game,
    };
    let message = serde_json::to_string(&turn).unwrap_or_default();
    for out in outs {
        let _ = out.try_send(message.clone());
    }
}

/// The registry of who is here. Cheap to share (`Arc<Presence>`).
pub struct Presence {
    inner: Mutex<Inner>,
    counts: watch::Sender<Counts>,
    /// This node's own announcements, for the other nodes (`lobby::notices`). The lobby
    /// sockets do not read it: each hears only its player's turns (`listen`), so a turn costs
    /// the same whatever the number of lobby sockets open.
    turns: broadcast::Sender<TurnEvent>,
    /// Where each player came from lately, for the rule that players of one address play no
    /// rated game together (`ratings::Unrated::SameAddress`).
    pub whence: Whence,
    /// Told when a match here stops being live (it finished): the tournaments' runner wakes on
    /// it rather than wait for its tick, so a round's last result and the next pairing come at
    /// once. One permit is kept, so a burst of endings wakes it once or twice, not per match.
    pub ended: tokio::sync::Notify,
}

impl Default for Presence {
    fn default() -> Presence {
        Presence {
            inner: Mutex::new(Inner::default()),
            counts: watch::channel(Counts::default()).0,
            turns: broadcast::channel(256).0,
            whence: Whence::default(),
            ended: tokio::sync::Notify::new(),
        }
    }
}

/// How long an address a player came from is remembered.
pub const WHENCE_KEPT: Duration = Duration::from_secs(24 * 3600);

/// Addresses kept per player: the latest.
const WHENCE_PER_PLAYER: usize = 8;

/// The addresses (`limits::address_key`) each player's sessions and seat connections came from
/// in the last `WHENCE_KEPT`, at most `WHENCE_PER_PLAYER` each, in memory only (a restart
/// forgets them, as it forgets who is online).
#[derive(Default)]
pub struct Whence {
    seen: Mutex<Seen>,
}

/// Per player, its addresses with when each was last seen; and the notes taken so far.
#[derive(Default)]
struct Seen {
    players: HashMap<PlayerId, Vec<(String, Instant)>>,
    notes: u64,
}

impl Whence {
    /// `player` came from the address whose key is `key`, now.
    pub fn came_from(&self, player: PlayerId, key: String) {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        // Every 1,024 notes, whoever was not seen for the whole time is forgotten.
        seen.notes += 1;
        if seen.notes.is_multiple_of(1024) {
            seen.players
                .retain(|_, list| list.iter().any(|(_, at)| now - *at < WHENCE_KEPT));
        }
        let list = seen.players.entry(player).or_default();
        list.retain(|(k, at)| *k != key && now - *at < WHENCE_KEPT);
        list.push((key, now));
        if list.len() > WHENCE_PER_PLAYER {
            list.remove(0);
        }
    }

    /// Whether two of `players` came from one address within `WHENCE_KEPT`.
    #[must_use]
    pub fn shared(&self, players: &[PlayerId]) -> bool {
        let now = Instant::now();
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let recent = |p: &PlayerId| -> Vec<&str> {
            seen.players.get(p).map_or_else(Vec::new, |list| {
                list.iter()
                    .filter(|(_, at)| now - *at < WHENCE_KEPT)
                    .map(|(k, _)| k.as_str())
                    .collect()
            })
        };
        players.iter().enumerate().any(|(i, a)| {
            let mine = recent(a);
            players[i + 1..]
                .iter()
                .any(|b| a != b && recent(b).iter().any(|k| mine.contains(k)))
        })
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
    /// players who became to act since its last report. Its first report (the match loaded into
    /// memory, by anyone who asks for it) announces nothing: nothing was played.
    pub fn report(&self, id: &str, now: MatchPresence) {
        let game = now.game;
        // The fresh players and their lobby sockets, under the one lock the report takes anyway.
        let mut ended = false;
        // Another node hears this node's announcements only when it listens (several nodes).
        let others = self.turns.receiver_count() > 0;
        let fresh: Vec<(PlayerId, Vec<mpsc::Sender<String>>)> = self.with(|i| {
            // One lookup of the id, copied only for a match new here.
            let Some(before) = i.matches.get_mut(id) else {
                i.playing += usize::from(now.playing());
                i.matches.insert(id.to_owned(), now);
                return Vec::new();
            };
            ended = before.live && !now.live;
            // A player nobody would hear of (no lobby socket here, no other node) is skipped
            // before its announcement is made.
            let fresh = if now.live && now.correspondence {
                now.to_act
                    .iter()
                    .filter(|p| !before.to_act.contains(p))
                    .map(|&p| (p, queues(&i.listeners, p)))
                    .filter(|(_, outs)| others || !outs.is_empty())
                    .collect()
            } else {
                Vec::new()
            };
            i.playing = i.playing + usize::from(now.playing()) - usize::from(before.playing());
            *before = now;
            fresh
        });
        if ended {
            self.ended.notify_one();
        }
        for (player, outs) in fresh {
            let event = TurnEvent {
                player,
                id: id.to_owned(),
                game,
            };
            send_turn(&event, outs);
            // No receiver (a single node) is not an error.
            let _ = self.turns.send(event);
        }
    }

    /// Lobby socket `conn` of `player` hears its "your turn" messages on `out` until
    /// `unlisten(player, conn)`.
    pub fn listen(&self, player: PlayerId, conn: u64, out: mpsc::Sender<String>) {
        self.with(|i| i.listeners.entry(player).or_default().push((conn, out)));
    }

    /// Queues `message` for every lobby socket of `player` on this node (its challenges, its
    /// friends), as its "your turn" messages are; a socket whose queue is full misses it.
    pub fn tell(&self, player: PlayerId, message: &str) {
        for out in self.with(|i| i.listeners_of(player)) {
            let _ = out.try_send(message.to_owned());
        }
    }

    /// For each of `players`: whether it has a socket open here (lobby or match), and a live
    /// match where it sits with its socket open (`MatchPresence::here`; the greatest id when
    /// several, so the same one each time). One pass over the matches, under one lock, however
    /// many players are asked about.
    #[must_use]
    pub fn whereabouts(&self, players: &[PlayerId]) -> Vec<(bool, Option<String>)> {
        self.with(|i| {
            let mut out: Vec<(bool, Option<String>)> = players
                .iter()
                .map(|p| (i.sockets.contains_key(p), None))
                .collect();
            for (id, m) in i.matches.iter().filter(|(_, m)| m.live) {
                for here in &m.here {
                    for (k, p) in players.iter().enumerate() {
                        if p == here && out[k].1.as_ref().is_none_or(|known| known < id) {
                            out[k].1 = Some(id.clone());
                        }
                    }
                }
            }
            out
        })
    }

    /// Lobby socket `conn` of `player` closed; unknown sockets are ignored.
    pub fn unlisten(&self, player: PlayerId, conn: u64) {
        self.with(|i| {
            if let Some(list) = i.listeners.get_mut(&player) {
                list.retain(|(c, _)| *c != conn);
                if list.is_empty() {
                    i.listeners.remove(&player);
                }
            }
        });
    }

    /// Match `id` left memory (finished and idle, or the service stops).
    pub fn forget(&self, id: &str) {
        self.with(|i| i.remove(id));
    }

    /// Match `id` as last reported.
    #[must_use]
    pub fn of_match(&self, id: &str) -> Option<MatchPresence> {
        self.with(|i| i.matches.get(id).cloned())
    }

    /// How many matches here are live (started, not finished).
    #[must_use]
    pub fn live_matches(&self) -> usize {
        self.with(|i| i.matches.values().filter(|m| m.live).count())
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
    pub fn announce(&self, event: &TurnEvent) {
        send_turn(event, self.with(|i| i.listeners_of(event.player)));
    }

    /// The counts, changing as they change.
    #[must_use]
    pub fn counts(&self) -> watch::Receiver<Counts> {
        self.counts.subscribe()
    }

    /// This node's own "your turn" announcements from now on (not those `announce` passes on).
    #[must_use]
    pub fn turns(&self) -> broadcast::Receiver<TurnEvent> {
        self.turns.subscribe()
    }
}

/// What the match actors report and ask (`plateau_match::Attendance`): the match's side of
/// this registry and of `Whence`.
impl plateau_match::Attendance for Presence {
    fn report(&self, id: &str, now: MatchPresence) {
        Presence::report(self, id, now);
    }

    fn forget(&self, id: &str) {
        Presence::forget(self, id);
    }

    fn came_from(&self, player: PlayerId, key: String) {
        self.whence.came_from(player, key);
    }

    fn shared_address(&self, players: &[PlayerId]) -> bool {
        self.whence.shared(players)
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
            here: Vec::new(),
            connected,
            to_act,
            correspondence: true,
            game: "mad",
            public_version: 0,
        };
        p.report("m", table(vec![false, false], vec![PlayerId(1)]));
        assert_eq!(counts.borrow().playing, 0, "nobody at the table");
        assert!(turns.try_recv().is_err(), "loaded: nothing was played");
        p.report("m", table(vec![true, false], vec![PlayerId(2)]));
        assert_eq!(counts.borrow().playing, 1);
        assert_eq!(turns.try_recv().unwrap().player, PlayerId(2));
        p.report("m", table(vec![true, false], vec![PlayerId(2)]));
        assert!(
            turns.try_recv().is_err(),
            "announced once while it stays to act"
        );
        assert_eq!(p.waiting_for(PlayerId(2)), ["m"]);
        // Unloaded and loaded again (a spectator opened it): still nothing new to announce.
        p.forget("m");
        p.report("m", table(vec![false, false], vec![PlayerId(2)]));
        assert!(turns.try_recv().is_err(), "a reload announces nothing");
        p.report("m", table(vec![true, false], vec![PlayerId(2)]));
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

    #[test]
    fn a_turn_reaches_only_its_players_lobby_sockets() {
        let p = Presence::default();
        let (bob_out, mut bob) = mpsc::channel(4);
        let (carol_out, mut carol) = mpsc::channel(4);
        p.listen(PlayerId(2), 7, bob_out);
        p.listen(PlayerId(3), 8, carol_out);
        let waiting_for = |player| MatchPresence {
            live: true,
            here: Vec::new(),
            connected: vec![true, false],
            to_act: vec![PlayerId(player)],
            correspondence: true,
            game: "mad",
            public_version: 0,
        };
        p.report("m", waiting_for(3));
        assert!(carol.try_recv().is_err(), "the match was only loaded");
        p.report("m", waiting_for(2));
        let message: serde_json::Value = serde_json::from_str(&bob.try_recv().unwrap()).unwrap();
        assert_eq!(
            message,
            serde_json::json!({"type": "turn", "id": "m", "game": "mad"})
        );
        assert!(
            carol.try_recv().is_err(),
            "another player's turn is not sent"
        );
        // Another node's announcement reaches the player's socket here too.
        p.announce(&TurnEvent {
            player: PlayerId(3),
            id: "n".into(),
            game: "chakart",
        });
        assert!(carol.try_recv().unwrap().contains(r#""id":"n""#));
        // Once the socket closed, nothing more is queued for it.
        p.unlisten(PlayerId(2), 7);
        p.report("m", waiting_for(3));
        p.report("m", waiting_for(2));
        assert!(bob.try_recv().is_err());
        assert!(carol.try_recv().unwrap().contains(r#""id":"m""#));
    }

    #[test]
    fn whereabouts_name_the_socket_and_the_greatest_live_table_of_each_player() {
        let p = Presence::default();
        let at = |live: bool, here: Vec<i64>| MatchPresence {
            live,
            connected: vec![true, true],
            here: here.into_iter().map(PlayerId).collect(),
            to_act: Vec::new(),
            correspondence: false,
            game: "mad",
            public_version: 0,
        };
        p.socket_opened(PlayerId(1));
        p.report("a", at(true, vec![1, 2]));
        p.report("b", at(true, vec![1]));
        p.report("c", at(false, vec![3]));
        assert_eq!(
            p.whereabouts(&[PlayerId(1), PlayerId(2), PlayerId(3), PlayerId(4)]),
            [
                (true, Some("b".to_owned())),
                (false, Some("a".to_owned())),
                (false, None),
                (false, None),
            ]
        );
    }
}
