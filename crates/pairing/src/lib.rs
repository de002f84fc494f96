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

mod host;
mod tables;
#[cfg(test)]
mod tests;
mod views;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use plateau_match::model::{ApiError, Code, unix_ms};
use plateau_store::ratings::Rating;

pub use host::{Host, NewTable};

use tables::{NoShows, Pools, Seeker, Waits, pair_all};
pub use tables::{WINDOW_PER_SECOND, WINDOW_START};
pub use views::{PoolInfo, PoolKey, PoolView, SeekRequest, SeekerId, SeekerView, Seeking};

/// Shortest and longest wait a seeker may choose before bots fill the table, in seconds.
pub const BOTS_AFTER: std::ops::RangeInclusive<u32> = 1..=600;

/// Pools one player may seek in at once (every lobby message lists the pools, so a stranger
/// must not be able to make thousands).
pub const SEEKS_PER_PLAYER: usize = 4;

/// Seekers of a pool listed in the lobby, the longest waiting first.
pub const SEEKERS_SHOWN: usize = 20;

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
    /// Starts the pairing actor over `lobby` (it creates the matches). A paired match whose
    /// players did not all open it within `no_show` is called off, and those players may not
    /// seek for `no_show_wait` (the server's `Limits::no_show` and `no_show_wait`).
    #[must_use]
    pub fn start(lobby: Arc<impl Host>, no_show: Duration, no_show_wait: Duration) -> Arc<Pairing> {
        let (tx, rx) = mpsc::unbounded_channel();
        let (pools_tx, pools) = watch::channel(Vec::new());
        let no_shows = NoShows::new(no_show_wait);
        tokio::spawn(run(lobby, rx, pools_tx, (no_show, no_shows)));
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

async fn run(
    lobby: Arc<impl Host>,
    mut rx: mpsc::UnboundedReceiver<PairCommand>,
    views: watch::Sender<Vec<PoolView>>,
    (no_show, mut no_shows): (Duration, NoShows),
) {
    let mut pools: Pools = BTreeMap::new();
    let mut waits = Waits::default();
    let mut next_seek = 1;
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            command = rx.recv() => match command {
                None => return,
                Some(PairCommand::Seek { who, request, out, reply }) => {
                    let answer = match no_shows.allowed(who.player.id) {
                        Ok(()) => add(&*lobby, &mut pools, (next_seek, who), request, out).await,
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
        let paired = pair_all(&*lobby, &mut pools, &mut waits).await;
        let due = Instant::now() + no_show;
        no_shows
            .pending
            .extend(paired.into_iter().map(|id| (due, id)));
        no_shows.check(&*lobby).await;
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
    lobby: &impl Host,
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
        blocks,
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
        blocks,
    });
    Ok(Seeking {
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
