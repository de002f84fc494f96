//! Quick pairing (docs/protocol.md section 7.6): players seek a game in a pool (game, table size,
//! time control, rated or casual), and a small actor pairs them into an ordinary match as soon as
//! enough of them are there, preferring close ratings. A seeker may let bots fill the empty seats
//! after a wait it chooses, or at once when it asks (`fill`). Every seek is shown in the lobby as
//! an open challenge another player may accept, whatever the ratings. A seek lives as long as its
//! lobby socket: leaving is instant.
//!
//! One task holds every pool, so a seek, a cancel and a pairing never race; it wakes on each
//! command and twice a second (the rating window widens with the wait, and bots come in time).
//! It also keeps, per pool, how long its last seekers waited, for the estimate shown to the next.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::lobby::{Lobby, NewMatch};
use crate::model::{ApiError, Code, SeatSpec, TimeControl, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
use crate::ratings::Rating;
use crate::tokens::new_token;

/// Shown rating points two seekers may differ by when they arrive.
pub const WINDOW_START: f64 = 200.0;
/// Shown rating points the window widens by per second of waiting.
pub const WINDOW_PER_SECOND: f64 = 50.0;
/// Shortest and longest wait a seeker may choose before bots fill the table, in seconds.
pub const BOTS_AFTER: std::ops::RangeInclusive<u32> = 1..=600;
/// Pools one player may seek in at once (every lobby message lists the pools, so a stranger
/// must not be able to make thousands).
pub const SEEKS_PER_PLAYER: usize = 4;
/// Seekers of a pool listed in the lobby, the longest waiting first.
pub const SEEKERS_SHOWN: usize = 20;
/// Waits remembered per pool for the estimate.
const WAITS_KEPT: usize = 15;

/// A seek as the lobby WebSocket receives it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The message type, `"seek"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    #[serde(default)]
    pub time_control: TimeControl,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// Seconds after which bots may fill the empty seats (`None`: wait for people).
    #[serde(default)]
    pub bots_after_seconds: Option<u32>,
    /// The bots' level, a catalogue bot name (default `club`).
    #[serde(default)]
    pub bot: Option<String>,
}

/// A pool: seekers in one share everything but their ratings.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
pub struct PoolKey {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock, as JSON (so the key orders and hashes).
    pub time_control: String,
    /// Rated or casual.
    pub rated: bool,
}

/// One pool as the lobby shows it.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PoolView {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    pub time_control: serde_json::Value,
    /// Rated or casual.
    pub rated: bool,
    /// Seekers waiting now.
    pub waiting: usize,
    /// Its seekers as open challenges, the longest waiting first, at most `SEEKERS_SHOWN`.
    pub seekers: Vec<SeekerView>,
    /// How long a seeker of this pool waited lately, in seconds (the median of the last
    /// pairings); `None` before any.
    pub estimate_seconds: Option<u64>,
}

/// A seek as the lobby shows it: an open challenge (`accept` takes it).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeekerView {
    /// The seek's number, for `accept`.
    pub seek: u64,
    /// Who seeks.
    pub name: String,
    /// `"guest"` or `"account"`.
    pub kind: PlayerKind,
    /// Their shown rating in the pool's game.
    pub rating: i64,
    /// Unix ms since when they wait.
    pub since: i64,
    /// After how many seconds of waiting bots may fill their table (`None`: people only).
    pub bots_after_seconds: Option<u64>,
}

/// The answer to a seek or an accepted challenge (docs/protocol.md section 7.6).
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Seeking {
    /// `"seeking"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The pool entered.
    pub pool: PoolInfo,
    /// The seek's number.
    pub seek: u64,
    /// The pool's recent wait (`PoolView::estimate_seconds`).
    pub estimate_seconds: Option<u64>,
}

/// A pool named in a `seeking` answer.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PoolInfo {
    /// Registry name of the game.
    pub game: String,
    /// Table size.
    pub seats: u8,
    /// The clock.
    pub time_control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
}

/// This connection's seek was paired: its seat and token in the new match.
#[derive(Serialize)]
struct Paired<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    seat: usize,
    token: &'a str,
    url: String,
}

/// A pool's match could not be created.
#[derive(Serialize)]
struct Failed<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    code: &'static str,
    message: &'a str,
}

struct Seeker {
    /// The seek's number, unique in the process.
    seek: u64,
    /// The seek this one accepted: the two are paired whatever their ratings.
    partner: Option<u64>,
    conn: u64,
    player: Player,
    /// The key of the seeker's address when the limits per address apply to it: a table that
    /// bots fill counts as a match this address created (docs/protocol.md section 6).
    address: Option<String>,
    /// The shown rating in the pool's game.
    rating: f64,
    since: Instant,
    /// The same instant as unix ms, as the lobby shows it.
    since_ms: i64,
    bots_after: Option<Duration>,
    bot: String,
    out: mpsc::Sender<String>,
}

impl Seeker {
    fn window(&self, now: Instant) -> f64 {
        WINDOW_START + WINDOW_PER_SECOND * now.duration_since(self.since).as_secs_f64()
    }

    /// Whether `self` and `other` may sit at one table now: one accepted the other's seek, or
    /// their ratings are inside both windows.
    fn close_to(&self, other: &Seeker, now: Instant) -> bool {
        if self.partner == Some(other.seek) || other.partner == Some(self.seek) {
            return true;
        }
        let gap = (self.rating - other.rating).abs();
        gap <= self.window(now) && gap <= other.window(now)
    }

    fn view(&self) -> SeekerView {
        SeekerView {
            seek: self.seek,
            name: self.player.name.clone(),
            kind: self.player.kind,
            rating: self.rating as i64,
            since: self.since_ms,
            bots_after_seconds: self.bots_after.map(|d| d.as_secs()),
        }
    }

    fn bots_due(&self, now: Instant) -> bool {
        self.bots_after.is_some_and(|d| now >= self.since + d)
    }
}

/// Who seeks, from where, and whose seek it accepts, if any.
pub struct SeekerId {
    /// The lobby connection.
    pub conn: u64,
    /// Its player.
    pub player: Player,
    /// The key of its address where the limits per address apply (a table bots may fill
    /// counts as a match this address created, docs/protocol.md section 6).
    pub address: Option<String>,
    /// The seek accepted (`accept`), if any.
    pub partner: Option<u64>,
}

enum PairCommand {
    Seek {
        who: SeekerId,
        request: SeekRequest,
        out: mpsc::Sender<String>,
        reply: oneshot::Sender<Result<Seeking, ApiError>>,
    },
    Fill {
        conn: u64,
        address: Option<String>,
        reply: oneshot::Sender<bool>,
    },
    Cancel {
        conn: u64,
    },
}

/// The pairing actor's handle.
pub struct Pairing {
    tx: mpsc::UnboundedSender<PairCommand>,
    pools: watch::Receiver<Vec<PoolView>>,
}

impl Pairing {
    /// Starts the pairing actor over `lobby` (it creates the matches).
    #[must_use]
    pub fn start(lobby: Arc<Lobby>) -> Arc<Pairing> {
        let (tx, rx) = mpsc::unbounded_channel();
        let (pools_tx, pools) = watch::channel(Vec::new());
        tokio::spawn(run(lobby, rx, pools_tx));
        Arc::new(Pairing { tx, pools })
    }

    /// Adds the seek of `who` (its connection and player; for a seek that bots may fill, the
    /// key of its address, where the limits per address apply; the seek it accepts, if any);
    /// paired, the match goes to `out` as a `paired` message. Returns the `seeking` answer.
    ///
    /// # Errors
    /// `seek/duplicate`, `seek/not_found` (the seek accepted is gone, or is the player's own),
    /// `limit/seeks`, `game/unknown`, `config/invalid`, `time_control/invalid`, `bot/unknown`,
    /// `request/malformed`.
    pub async fn seek(
        &self,
        who: SeekerId,
        request: SeekRequest,
        out: mpsc::Sender<String>,
    ) -> Result<Seeking, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(PairCommand::Seek {
                who,
                request,
                out,
                reply,
            })
            .map_err(|_| ApiError::new(Code::ShuttingDown, "the server is stopping"))?;
        answer
            .await
            .map_err(|_| ApiError::new(Code::ShuttingDown, "the server is stopping"))?
    }

    /// Lets bots fill the tables of connection `conn`'s seeks now, with the seekers of their
    /// pools who accept bots (`address`: as for a seek that bots may fill). Whether it had a seek.
    pub async fn fill(&self, conn: u64, address: Option<String>) -> bool {
        let (reply, answer) = oneshot::channel();
        let sent = self.tx.send(PairCommand::Fill {
            conn,
            address,
            reply,
        });
        sent.is_ok() && answer.await.unwrap_or(false)
    }

    /// Removes every seek of connection `conn`, at once.
    pub fn cancel(&self, conn: u64) {
        let _ = self.tx.send(PairCommand::Cancel { conn });
    }

    /// The pools and their seekers, changing as they change.
    #[must_use]
    pub fn pools(&self) -> watch::Receiver<Vec<PoolView>> {
        self.pools.clone()
    }
}

type Pools = BTreeMap<PoolKey, Vec<Seeker>>;

/// Per pool, how long its last seekers waited until seated, the latest last.
#[derive(Default)]
struct Waits(BTreeMap<PoolKey, VecDeque<Duration>>);

impl Waits {
    fn record(&mut self, key: &PoolKey, waited: Duration) {
        let kept = self.0.entry(key.clone()).or_default();
        if kept.len() == WAITS_KEPT {
            kept.pop_front();
        }
        kept.push_back(waited);
    }

    /// The median of the pool's recent waits, in whole seconds (rounded up).
    fn estimate(&self, key: &PoolKey) -> Option<u64> {
        let mut waits: Vec<Duration> = self.0.get(key)?.iter().copied().collect();
        waits.sort_unstable();
        let middle = *waits.get(waits.len() / 2)?;
        Some(middle.as_millis().div_ceil(1000) as u64)
    }
}

/// The paired matches not yet known to have started, by when each is due to be checked, and the
/// players who did not come to one, each with the time it may seek again.
#[derive(Default)]
struct NoShows {
    pending: Vec<(Instant, String)>,
    waiting: BTreeMap<PlayerId, Instant>,
}

impl NoShows {
    /// Calls off the paired matches due whose players did not all come, and makes those
    /// players wait (`Limits::no_show_wait`).
    async fn check(&mut self, lobby: &Lobby) {
        let wait = lobby.options().limits.no_show_wait;
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
    fn allowed(&self, player: PlayerId) -> Result<(), ApiError> {
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

async fn run(
    lobby: Arc<Lobby>,
    mut rx: mpsc::UnboundedReceiver<PairCommand>,
    views: watch::Sender<Vec<PoolView>>,
) {
    let mut pools: Pools = BTreeMap::new();
    let mut waits = Waits::default();
    let mut next_seek = 1;
    let mut no_shows = NoShows::default();
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            command = rx.recv() => match command {
                None => return,
                Some(PairCommand::Seek { who, request, out, reply }) => {
                    let answer = match no_shows.allowed(who.player.id) {
                        Ok(()) => add(&lobby, &mut pools, (next_seek, who), request, out).await,
                        Err(e) => Err(e),
                    };
                    let answer = answer
                        .map(|mut seeking| {
                            seeking.estimate_seconds = waits.estimate(&seeking_key(&seeking));
                            seeking
                        });
                    next_seek += 1;
                    let _ = reply.send(answer);
                }
                Some(PairCommand::Fill { conn, address, reply }) => {
                    let mut found = false;
                    for seeker in pools.values_mut().flatten().filter(|s| s.conn == conn) {
                        seeker.bots_after = Some(Duration::ZERO);
                        seeker.address = seeker.address.take().or_else(|| address.clone());
                        found = true;
                    }
                    let _ = reply.send(found);
                }
                Some(PairCommand::Cancel { conn }) => {
                    for seekers in pools.values_mut() {
                        seekers.retain(|s| s.conn != conn);
                    }
                }
            },
            _ = tick.tick() => {}
        }
        let paired = pair_all(&lobby, &mut pools, &mut waits).await;
        let due = Instant::now() + lobby.options().limits.no_show;
        no_shows
            .pending
            .extend(paired.into_iter().map(|id| (due, id)));
        no_shows.check(&lobby).await;
        pools.retain(|_, s| !s.is_empty());
        let now: Vec<PoolView> = pools
            .iter()
            .map(|(k, s)| PoolView {
                game: k.game.clone(),
                seats: k.seats,
                time_control: serde_json::from_str(&k.time_control).unwrap_or_default(),
                rated: k.rated,
                waiting: s.len(),
                // Seekers are kept in arrival order.
                seekers: s.iter().take(SEEKERS_SHOWN).map(Seeker::view).collect(),
                estimate_seconds: waits.estimate(k),
            })
            .collect();
        views.send_if_modified(|v| {
            let changed = *v != now;
            *v = now;
            changed
        });
    }
}

/// The pool a `seeking` answer names, as a key.
fn seeking_key(s: &Seeking) -> PoolKey {
    PoolKey {
        game: s.pool.game.clone(),
        seats: s.pool.seats,
        time_control: serde_json::to_string(&s.pool.time_control).unwrap_or_default(),
        rated: s.pool.rated,
    }
}

/// Checks a seek and puts it in its pool as seek number `seek`.
async fn add(
    lobby: &Lobby,
    pools: &mut Pools,
    (seek, who): (u64, SeekerId),
    r: SeekRequest,
    out: mpsc::Sender<String>,
) -> Result<Seeking, ApiError> {
    let SeekerId {
        conn,
        player,
        address,
        partner,
    } = who;
    let catalogue = lobby.catalogue();
    let entry = catalogue
        .game(&r.game)
        .ok_or_else(|| ApiError::new(Code::GameUnknown, format!("unknown game {:?}", r.game)))?;
    if !(entry.info.min_seats..=entry.info.max_seats).contains(&usize::from(r.seats)) {
        return Err(ApiError::new(
            Code::ConfigInvalid,
            format!(
                "{} is played by {} to {} players",
                entry.info.title, entry.info.min_seats, entry.info.max_seats
            ),
        ));
    }
    r.time_control.validate(entry.rule_clock)?;
    let bot = r.bot.clone().unwrap_or_else(|| "club".to_owned());
    if !catalogue.bots.contains(&bot.as_str()) {
        return Err(ApiError::new(
            Code::BotUnknown,
            format!("unknown bot {bot:?}"),
        ));
    }
    if let Some(s) = r.bots_after_seconds
        && !BOTS_AFTER.contains(&s)
    {
        return Err(ApiError::new(
            Code::RequestMalformed,
            "`bots_after_seconds` is 1 to 600, or null to wait for people",
        ));
    }
    let key = PoolKey {
        game: entry.info.name.to_owned(),
        seats: r.seats,
        time_control: serde_json::to_string(&r.time_control).unwrap_or_default(),
        rated: r.rated,
    };
    if let Some(accepted) = partner {
        let open = pools.get(&key).is_some_and(|pool| {
            pool.iter()
                .any(|s| s.seek == accepted && s.player.id != player.id && !s.out.is_closed())
        });
        if !open {
            return Err(ApiError::new(
                Code::SeekNotFound,
                "this challenge is no longer open: it was taken or withdrawn",
            ));
        }
    }
    if pools
        .get(&key)
        .is_some_and(|pool| pool.iter().any(|s| s.player.id == player.id))
    {
        return Err(ApiError::new(
            Code::SeekDuplicate,
            "you already seek a game in this pool",
        ));
    }
    let seeking = pools.values().flatten();
    if seeking.filter(|s| s.player.id == player.id).count() >= SEEKS_PER_PLAYER {
        return Err(ApiError::new(
            Code::LimitSeeks,
            format!("you already seek games in {SEEKS_PER_PLAYER} pools: cancel one first"),
        ));
    }
    let rating = lobby
        .store()
        .standings(player.id)
        .await
        .map_err(ApiError::store)?
        .into_iter()
        .find(|(g, _)| *g == key.game)
        .map_or_else(|| Rating::default().shown(), |(_, s)| s.rating.shown());
    pools.entry(key.clone()).or_default().push(Seeker {
        seek,
        partner,
        conn,
        player,
        address,
        rating: rating as f64,
        since: Instant::now(),
        since_ms: unix_ms(),
        bots_after: r
            .bots_after_seconds
            .map(|s| Duration::from_secs(u64::from(s))),
        bot,
        out,
    });
    Ok(Seeking {
        kind: "seeking",
        pool: PoolInfo {
            game: key.game,
            seats: key.seats,
            time_control: r.time_control,
            rated: key.rated,
        },
        seek,
        estimate_seconds: None,
    })
}

/// Pairs what can be paired in every pool now, remembering how long the seated waited. A player
/// seated in one pool leaves the others. Returns the matches made.
async fn pair_all(lobby: &Lobby, pools: &mut Pools, waits: &mut Waits) -> Vec<String> {
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

struct Table {
    conns: Vec<u64>,
    bots: usize,
    bot: String,
}

/// The next table to seat in a pool: the longest-waiting seeker with the closest others inside
/// everyone's window (a seeker whose seek it accepted, or who accepted its, first), or, once its
/// wait for bots is over, with those of them that accept bots and bots for the rest.
fn next_table(seekers: &[Seeker], size: usize, now: Instant) -> Option<Table> {
    let mut order: Vec<&Seeker> = seekers.iter().collect();
    order.sort_by_key(|s| s.since);
    for first in &order {
        let mut near: Vec<&Seeker> = order
            .iter()
            .filter(|s| s.conn != first.conn && s.player.id != first.player.id)
            .filter(|s| first.close_to(s, now))
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
async fn seat(
    lobby: &Lobby,
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
        .create_match(NewMatch {
            game: key.game.clone(),
            config: serde_json::Value::Null,
            seats,
            time_control: serde_json::from_str(&key.time_control).unwrap_or_default(),
            seated,
            seed: None,
            rated: key.rated,
            // A table of people alone was asked for by none of them more than the others.
            creator: (bots > 0)
                .then(|| table.iter().find_map(|s| s.address.clone()))
                .flatten(),
        })
        .await;
    for (k, seeker) in table.iter().enumerate() {
        let message = match (&created, &tokens[k]) {
            (Ok(id), Some((seat, token))) => serde_json::to_string(&Paired {
                kind: "paired",
                id,
                seat: *seat,
                token,
                url: format!("/m/{id}"),
            }),
            (Err(e), _) => serde_json::to_string(&Failed {
                kind: "error",
                code: e.code.as_str(),
                message: &e.message,
            }),
            (Ok(_), None) => continue,
        };
        if let Ok(message) = message {
            let _ = seeker.out.try_send(message);
        }
    }
    created.ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::PlayerKind;

    fn seeker(conn: u64, rating: f64, waited: u64, bots_after: Option<u64>) -> Seeker {
        let (out, _) = mpsc::channel(1);
        Seeker {
            seek: conn,
            partner: None,
            conn,
            player: Player {
                id: PlayerId(conn as i64),
                name: format!("p{conn}"),
                kind: PlayerKind::Guest,
                created_at: 0,
            },
            address: None,
            rating,
            since: Instant::now() - Duration::from_secs(waited),
            since_ms: 0,
            bots_after: bots_after.map(Duration::from_secs),
            bot: "club".into(),
            out,
        }
    }

    #[test]
    fn the_longest_waiting_seeker_gets_the_closest_ratings_within_the_window() {
        let now = Instant::now();
        // 1500 waited 10 s (window 700); 1550 and 1900 are inside it, 2400 is not.
        let pool = [
            seeker(1, 1500.0, 10, None),
            seeker(2, 2400.0, 0, None),
            seeker(3, 1900.0, 0, None),
            seeker(4, 1550.0, 0, None),
        ];
        let t = next_table(&pool, 2, now).unwrap();
        assert_eq!((t.conns, t.bots), (vec![1, 4], 0));
        // A newcomer's window is 200 points: 1500 and 1800 wait for each other.
        let apart = [seeker(1, 1500.0, 0, None), seeker(2, 1800.0, 0, None)];
        assert!(next_table(&apart, 2, now).is_none());
        // Bots fill a table once the wait is over, with the seekers that accept them.
        let few = [
            seeker(1, 1500.0, 6, Some(5)),
            seeker(2, 1500.0, 1, None),
            seeker(3, 1520.0, 1, Some(30)),
        ];
        let t = next_table(&few, 4, now).unwrap();
        assert_eq!((t.conns, t.bots), (vec![1, 3], 2));
        assert!(next_table(&few[1..], 4, now).is_none(), "no wait is over");
        // A challenge accepted pairs whatever the ratings, and before a closer seeker.
        let mut taker = seeker(3, 2400.0, 0, None);
        taker.partner = Some(2);
        let accepted = [
            seeker(1, 1500.0, 10, None),
            seeker(2, 1500.0, 5, None),
            taker,
        ];
        let t = next_table(&accepted[1..], 2, now).unwrap();
        assert_eq!(t.conns, vec![2, 3]);
        let t = next_table(&accepted, 2, now).unwrap();
        assert_eq!(
            t.conns,
            vec![1, 2],
            "the longest waiting first, with the closest"
        );
    }

    #[test]
    fn the_estimate_is_the_median_of_the_last_waits() {
        let key = PoolKey {
            game: "mad".into(),
            seats: 2,
            time_control: "{}".into(),
            rated: true,
        };
        let mut waits = Waits::default();
        assert_eq!(waits.estimate(&key), None);
        for ms in [4_000, 61_000, 9_500] {
            waits.record(&key, Duration::from_millis(ms));
        }
        assert_eq!(waits.estimate(&key), Some(10));
        for _ in 0..WAITS_KEPT {
            waits.record(&key, Duration::from_secs(2));
        }
        assert_eq!(waits.estimate(&key), Some(2), "only the last waits count");
    }
}
