//! Forming tables: the seekers of a pool paired by rating, the window widening with the wait,
//! bots filling the empty seats when due, and the no-shows kept out for a while.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use rand::seq::SliceRandom;
use tokio::sync::mpsc;
use tokio::time::Instant;

use plateau_protocol::server::LobbyMessage;

use plateau_match::model::{ApiError, Code, SeatSpec};
use plateau_match::tokens::new_token;
use plateau_store::players::{Player, PlayerId};

use super::views::{PoolKey, SeekerView};
use crate::host::{Host, NewTable};

pub(super) struct Seeker {
    /// The seek's number, unique in the process.
    pub(super) seek: u64,
    /// The seek this one accepted: the two are paired whatever their ratings.
    pub(super) partner: Option<u64>,
    pub(super) conn: u64,
    pub(super) player: Player,
    /// The key of the seeker's address when the limits per address apply to it: a table that
    /// bots fill counts as a match this address created (docs/protocol.md section 6).
    pub(super) address: Option<String>,
    /// The shown rating in the pool's game.
    pub(super) rating: f64,
    pub(super) since: Instant,
    /// The same instant as unix ms, as the lobby shows it.
    pub(super) since_ms: i64,
    pub(super) bots_after: Option<Duration>,
    pub(super) bot: String,
    pub(super) out: mpsc::Sender<String>,
    /// The players it blocks (docs/protocol.md section 7.8).
    pub(super) blocks: Vec<PlayerId>,
}

impl Seeker {
    /// Whether one of `self` and `other` blocks the other: they never sit at one table.
    pub(super) fn shuns(&self, other: &Seeker) -> bool {
        self.blocks.contains(&other.player.id) || other.blocks.contains(&self.player.id)
    }

    pub(super) fn window(&self, now: Instant) -> f64 {
        WINDOW_START + WINDOW_PER_SECOND * now.duration_since(self.since).as_secs_f64()
    }

    /// Whether `self` and `other` may sit at one table now: one accepted the other's seek, or
    /// their ratings are inside both windows.
    pub(super) fn close_to(&self, other: &Seeker, now: Instant) -> bool {
        if self.partner == Some(other.seek) || other.partner == Some(self.seek) {
            return true;
        }
        let gap = (self.rating - other.rating).abs();
        gap <= self.window(now) && gap <= other.window(now)
    }

    pub(super) fn view(&self) -> SeekerView {
        SeekerView {
            seek: self.seek,
            name: self.player.name.clone(),
            kind: self.player.kind,
            rating: self.rating as i64,
            since: self.since_ms,
            bots_after_seconds: self.bots_after.map(|d| d.as_secs()),
        }
    }

    pub(super) fn bots_due(&self, now: Instant) -> bool {
        self.bots_after.is_some_and(|d| now >= self.since + d)
    }
}

pub(super) type Pools = BTreeMap<PoolKey, Vec<Seeker>>;

/// Shown rating points two seekers may differ by when they arrive.
pub const WINDOW_START: f64 = 200.0;
/// Shown rating points the window widens by per second of waiting.
pub const WINDOW_PER_SECOND: f64 = 50.0;
/// Waits remembered per pool for the estimate.
pub(super) const WAITS_KEPT: usize = 15;

/// Per pool, how long its last seekers waited until seated, the latest last.
#[derive(Default)]
pub(super) struct Waits(BTreeMap<PoolKey, VecDeque<Duration>>);

impl Waits {
    pub(super) fn record(&mut self, key: &PoolKey, waited: Duration) {
        let kept = self.0.entry(key.clone()).or_default();
        if kept.len() == WAITS_KEPT {
            kept.pop_front();
        }
        kept.push_back(waited);
    }

    /// The median of the pool's recent waits, in whole seconds (rounded up).
    pub(super) fn estimate(&self, key: &PoolKey) -> Option<u64> {
        let mut waits: Vec<Duration> = self.0.get(key)?.iter().copied().collect();
        waits.sort_unstable();
        let middle = *waits.get(waits.len() / 2)?;
        Some(middle.as_millis().div_ceil(1000) as u64)
    }
}

/// The paired matches not yet known to have started, by when each is due to be checked, and the
/// players who did not come to one, each with the time it may seek again (after `wait`).
pub(super) struct NoShows {
    pub(super) pending: Vec<(Instant, String)>,
    pub(super) waiting: BTreeMap<PlayerId, Instant>,
    wait: Duration,
}

impl NoShows {
    /// None yet; a player who does not come waits `wait` before seeking again.
    pub(super) fn new(wait: Duration) -> NoShows {
        NoShows {
            pending: Vec::new(),
            waiting: BTreeMap::new(),
            wait,
        }
    }

    /// Calls off the paired matches due whose players did not all come, and makes those
    /// players wait (`Limits::no_show_wait`).
    pub(super) async fn check(&mut self, lobby: &impl Host) {
        let wait = self.wait;
        let now = Instant::now();
        self.waiting.retain(|_, until| *until > now);
        let (due, later) = self.pending.drain(..).partition(|(at, _)| *at <= now);
        self.pending = later;
        for (_, id) in due {
            for player in lobby.call_off(&id).await {
                self.waiting.insert(player, now + wait);
            }
        }
    }

    /// `seek/no_show` while `player` must wait.
    pub(super) fn allowed(&self, player: PlayerId) -> Result<(), ApiError> {
        match self.waiting.get(&player) {
            Some(until) if *until > Instant::now() => Err(ApiError::new(
                Code::SeekNoShow,
                format!(
                    "you did not come to your last paired match: you may seek again in {} s",
                    until.duration_since(Instant::now()).as_secs() + 1
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// Pairs what can be paired in every pool now, remembering how long the seated waited. A player
/// seated in one pool leaves the others. Returns the matches made.
pub(super) async fn pair_all(
    lobby: &impl Host,
    pools: &mut Pools,
    waits: &mut Waits,
) -> Vec<String> {
    let now = Instant::now();
    let mut seated: Vec<PlayerId> = Vec::new();
    let mut made = Vec::new();
    for (key, seekers) in pools.iter_mut() {
        seekers.retain(|s| !s.out.is_closed() && !seated.contains(&s.player.id));
        while let Some(group) = next_table(seekers, usize::from(key.seats), now) {
            let mut table = Vec::with_capacity(group.conns.len());
            for conn in &group.conns {
                if let Some(i) = seekers.iter().position(|s| s.conn == *conn) {
                    table.push(seekers.remove(i));
                }
            }
            seated.extend(table.iter().map(|s| s.player.id));
            for s in &table {
                waits.record(key, now.duration_since(s.since));
            }
            made.extend(seat(lobby, key, table, group.bots, group.bot).await);
        }
    }
    if !seated.is_empty() {
        for seekers in pools.values_mut() {
            seekers.retain(|s| !seated.contains(&s.player.id));
        }
    }
    made
}

pub(super) struct Table {
    pub(super) conns: Vec<u64>,
    pub(super) bots: usize,
    pub(super) bot: String,
}

/// The next table to seat in a pool: the longest-waiting seeker with the closest others inside
/// everyone's window (a seeker whose seek it accepted, or who accepted its, first), or, once its
/// wait for bots is over, with those of them that accept bots and bots for the rest.
pub(super) fn next_table(seekers: &[Seeker], size: usize, now: Instant) -> Option<Table> {
    let mut order: Vec<&Seeker> = seekers.iter().collect();
    order.sort_by_key(|s| s.since);
    for first in &order {
        let mut near: Vec<&Seeker> = order
            .iter()
            .filter(|s| s.conn != first.conn && s.player.id != first.player.id)
            .filter(|s| first.close_to(s, now) && !first.shuns(s))
            .copied()
            .collect();
        let partnered = |s: &Seeker| s.partner == Some(first.seek) || first.partner == Some(s.seek);
        near.sort_by(|a, b| {
            partnered(b).cmp(&partnered(a)).then(
                (a.rating - first.rating)
                    .abs()
                    .total_cmp(&(b.rating - first.rating).abs()),
            )
        });
        // At a bigger table, nobody sits with a player who blocks it or whom it blocks: the
        // closest that shun none of those already taken.
        let mut kept: Vec<&Seeker> = Vec::with_capacity(near.len());
        for s in near {
            if !kept.iter().any(|k| k.shuns(s)) {
                kept.push(s);
            }
        }
        let near = kept;
        if near.len() + 1 >= size {
            let conns = std::iter::once(first.conn)
                .chain(near.iter().take(size - 1).map(|s| s.conn))
                .collect();
            return Some(Table {
                conns,
                bots: 0,
                bot: first.bot.clone(),
            });
        }
        if first.bots_due(now) {
            let with: Vec<u64> = near
                .iter()
                .filter(|s| s.bots_after.is_some())
                .take(size - 1)
                .map(|s| s.conn)
                .collect();
            let people = with.len() + 1;
            return Some(Table {
                conns: std::iter::once(first.conn).chain(with).collect(),
                bots: size - people,
                bot: first.bot.clone(),
            });
        }
    }
    None
}

/// Creates the match of a paired table (seats in random order) and tells each seeker its seat;
/// returns its id.
pub(super) async fn seat(
    lobby: &impl Host,
    key: &PoolKey,
    table: Vec<Seeker>,
    bots: usize,
    bot: String,
) -> Option<String> {
    let mut places: Vec<Option<usize>> = (0..table.len())
        .map(Some)
        .chain((0..bots).map(|_| None))
        .collect();
    places.shuffle(&mut rand::rng());
    let mut seats = Vec::with_capacity(places.len());
    let mut seated = Vec::with_capacity(places.len());
    let mut tokens = vec![None; table.len()];
    for (i, place) in places.iter().enumerate() {
        match place {
            Some(k) => {
                let (token, hash) = new_token();
                seats.push(SeatSpec::Human);
                seated.push(Some((hash, table[*k].player.clone())));
                tokens[*k] = Some((i, token));
            }
            None => {
                seats.push(SeatSpec::bot(bot.as_str()));
                seated.push(None);
            }
        }
    }
    let created = lobby
        .create_table(NewTable {
            game: key.game.clone(),
            seats,
            time_control: serde_json::from_str(&key.time_control).unwrap_or_default(),
            seated,
            rated: key.rated,
            // A table of people alone was asked for by none of them more than the others.
            creator: (bots > 0)
                .then(|| table.iter().find_map(|s| s.address.clone()))
                .flatten(),
        })
        .await;
    for (k, seeker) in table.iter().enumerate() {
        let message = match (&created, &tokens[k]) {
            (Ok(id), Some((seat, token))) => serde_json::to_string(&LobbyMessage::Paired {
                id,
                seat: *seat,
                token,
                url: format!("/m/{id}"),
            }),
            (Err(e), _) => serde_json::to_string(&LobbyMessage::Error(e.body())),
            (Ok(_), None) => continue,
        };
        if let Ok(message) = message {
            let _ = seeker.out.try_send(message);
        }
    }
    created.ok()
}
