//! The task that runs the live tournaments (docs/tournaments.md sections 3 to 5): on each tick
//! it reads the live tournaments from the store and steps each one this node is the runner of
//! (`Lobby::runs_here`, docs/architecture.md section 5.3): it starts an arena at its time,
//! records the results of its finished matches, pairs an arena's waiting players, or a Swiss's or
//! tables' next round once the last one's games are all over (the first at the start time), into
//! new matches, and ends it once its time is up, or its rounds are played, and its last game is
//! over.
//!
//! Results are read from the store (a match's outcome is written in the transaction that ends
//! it), so a result is never missed, even one that came while no runner ran. What the matches
//! say is gathered first and then applied to the tournament over the version read
//! (`Tournaments::change_from`: a join that came in between is kept, and a game another runner
//! recorded meanwhile is not recorded twice). A pairing is written with its matches' ids before
//! the matches are made, and making one again does nothing, so a runner that stops between the
//! two, or two runners at once, make one match per game.

use std::sync::Weak;
use std::time::Duration;

use futures_util::StreamExt;

use super::state::{GameMatch, Live, Tournaments, rules_ms};
use plateau_lobby::lobby::{NewMatch, new_match_id};
use plateau_lobby::model::{ApiError, Code, SeatSpec, Status, unix_ms};
use plateau_lobby::players::{Player, PlayerId, PlayerKind};
use plateau_match::tokens::new_token;
use plateau_store::tournaments::TournamentStatus;
use plateau_tournament::{GameId, GameResult, Kind, Seat, TournamentError};

/// Runs the live tournaments every tick, as soon as a match of this node ends, and at the start
/// time of the next one to start, until the service shuts down or the tournaments are dropped.
pub(super) async fn run(tournaments: Weak<Tournaments>) {
    let Some(t) = tournaments.upgrade() else {
        return;
    };
    let mut shutdown = t.lobby.shutdown_signal();
    let presence = t.lobby.presence().clone();
    // A sixtieth of a minute: a second, less in tests that shorten the minute.
    let tick = (t.lobby.options().limits.tournament_minute / 60)
        .clamp(Duration::from_millis(20), Duration::from_secs(1));
    drop(t);
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut next_start: Option<i64> = None;
    loop {
        // A millisecond past the start, so that the step finds it due.
        let start = next_start.map(|at| {
            let wait = u64::try_from(at + 1 - unix_ms()).unwrap_or(0);
            tokio::time::Instant::now() + Duration::from_millis(wait)
        });
        tokio::select! {
            _ = interval.tick() => {}
            () = presence.ended.notified() => {}
            () = async {
                match start {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            return;
        }
        let Some(t) = tournaments.upgrade() else {
            return;
        };
        next_start = t.tick().await;
    }
}

/// What a game's match says: its result, and the players who did not come to it (withdrawn).
struct Ended {
    game: GameId,
    match_id: String,
    ranks: Vec<u8>,
    absent: Vec<PlayerId>,
}

/// Whether game `game` of `one` is still to be recorded, with `match_id` as its match.
fn running_with(one: &Live, game: GameId, match_id: &str) -> bool {
    one.state.tournament.running().any(|g| g.id == game)
        && one
            .state
            .matches
            .get(game.0 as usize)
            .is_some_and(|m| m.id == match_id)
}

impl Tournaments {
    /// One step of every live tournament this node runs.
    /// Answers the earliest start still to come (Unix ms) of the live tournaments this node runs.
    async fn tick(&self) -> Option<i64> {
        let limit = u32::try_from(self.lobby.options().limits.live_tournaments).unwrap_or(u32::MAX);
        let rows = match self
            .lobby
            .store()
            .tournaments(TournamentStatus::Live, limit)
            .await
        {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!("tournaments: cannot read the live ones: {e}");
                return None;
            }
        };
        let now = unix_ms();
        let mut next_start: Option<i64> = None;
        for row in rows {
            if !self.lobby.runs_here(&row.id) {
                continue;
            }
            if row.starts_at_ms > now {
                next_start = Some(next_start.map_or(row.starts_at_ms, |n| n.min(row.starts_at_ms)));
                continue;
            }
            let one = match Live::from_row(&row) {
                Ok(one) => one,
                Err(e) => {
                    tracing::error!("tournament {}: cannot read it back: {e}", row.id);
                    continue;
                }
            };
            if let Err(e) = self.step(one).await {
                tracing::warn!("tournament {}: {}", row.id, e.message);
            }
        }
        next_start
    }

    /// Starts `one` at its time, records its finished games, ends it or pairs its waiting
    /// players, then makes the matches of the games paired. Each change is written before
    /// anything is done on it; a failed write is tried again on the next tick.
    async fn step(&self, one: Live) -> Result<(), ApiError> {
        let now = unix_ms();
        if one.state.tournament.arena_end_ms().is_none() && now < one.starts_at {
            return Ok(());
        }
        let ended = self.ended(&one, now).await?;
        let minute = self.lobby.options().limits.tournament_minute;
        let written = self
            .change_from(one, |t| apply(t, &ended, now, rules_ms(now, minute)))
            .await?;
        self.make_matches(written).await
    }

    /// What the made matches of `one`'s running games say at `now` (Unix ms): finished ones
    /// give their result; one still open past the no-show time is called off, the absent
    /// losing it (a draw if nobody came); a made one gone from the store was called off before
    /// its result was written, and nobody is blamed.
    async fn ended(&self, one: &Live, now: i64) -> Result<Vec<Ended>, ApiError> {
        let no_show = self.lobby.options().limits.no_show;
        let no_show_ms = i64::try_from(no_show.as_millis()).unwrap_or(i64::MAX);
        let mut ended = Vec::new();
        for game in one.state.tournament.running() {
            let Some(GameMatch { id, made: true }) = one.state.matches.get(game.id.0 as usize)
            else {
                continue;
            };
            let stored = self
                .lobby
                .store()
                .get(id, false)
                .await
                .map_err(ApiError::store)?;
            let (ranks, absent) = match stored {
                // The engine ranks from 1; `competition` gives the tournament's ranks.
                Some(m) if m.status == Status::Finished && m.outcome.is_some() => (
                    m.outcome.map(|o| competition(&o.ranks)).unwrap_or_default(),
                    Vec::new(),
                ),
                Some(m) if m.status == Status::Open && now - m.created_at > no_show_ms => {
                    // A player did not come: the match is called off, as quick pairing's.
                    let absent = self.lobby.call_off(id).await;
                    if absent.is_empty() {
                        continue;
                    }
                    // The absent behind those who came (a bot always comes).
                    let gone =
                        |s: &Seat| s.player().is_some_and(|p| absent.contains(&PlayerId(p.0)));
                    let ranks: Vec<u8> = game.seats.iter().map(|s| u8::from(gone(s))).collect();
                    (competition(&ranks), absent)
                }
                None => (vec![0; game.seats.len()], Vec::new()),
                Some(_) => continue,
            };
            ended.push(Ended {
                game: game.id,
                match_id: id.clone(),
                ranks,
                absent,
            });
        }
        Ok(ended)
    }

    /// Makes the matches of `one`'s running games not yet made, then writes them made. A
    /// match made for a game that is no longer running by then (another runner saw it through
    /// while this one stalled) is called off: nobody is to play it.
    async fn make_matches(&self, one: Live) -> Result<(), ApiError> {
        let unmade: Vec<(GameId, String)> = one
            .state
            .tournament
            .running()
            .filter_map(|g| {
                let m = one.state.matches.get(g.id.0 as usize)?;
                (!m.made).then(|| (g.id, m.id.clone()))
            })
            .collect();
        // A round of a large Swiss makes hundreds at once: several in flight, so the store's
        // commits overlap.
        let made: Vec<(GameId, String)> = futures_util::stream::iter(unmade)
            .map(|(game, id)| {
                let one = &one;
                async move {
                    match self.make_match(one, game, &id).await {
                        Ok(()) => Some((game, id)),
                        Err(e) => {
                            tracing::warn!("tournament {}: a game's match: {}", one.id, e.message);
                            None
                        }
                    }
                }
            })
            .buffer_unordered(MAKING_AT_ONCE)
            .filter_map(std::future::ready)
            .collect()
            .await;
        if made.is_empty() {
            return Ok(());
        }
        let marked = self
            .change_from(one, |t| {
                let mut changed = false;
                for (game, id) in &made {
                    if running_with(t, *game, id)
                        && let Some(m) = t.state.matches.get_mut(game.0 as usize)
                        && !m.made
                    {
                        m.made = true;
                        changed = true;
                    }
                }
                Ok(changed)
            })
            .await;
        let stray: Vec<&String> = match &marked {
            Ok(t) => made
                .iter()
                .filter(|(game, id)| !running_with(t, *game, id))
                .map(|(_, id)| id)
                .collect(),
            Err(e) if e.code == Code::TournamentClosed => made.iter().map(|(_, id)| id).collect(),
            Err(_) => Vec::new(),
        };
        for id in stray {
            self.lobby.call_off(id).await;
        }
        marked.map(|_| ())
    }

    /// Makes the match of `game` under `id` (nothing if it is made), every player's seat taken
    /// (they open it with their session: no seat token is given out), a bot of `BOT` in each
    /// seat a bot fills.
    async fn make_match(&self, one: &Live, game: GameId, id: &str) -> Result<(), ApiError> {
        let seats = &one.state.tournament.game(game).map_err(internal)?.seats;
        let mut seated = Vec::with_capacity(seats.len());
        let mut specs = Vec::with_capacity(seats.len());
        for seat in seats {
            let Seat::Player(p) = seat else {
                specs.push(SeatSpec::Bot {
                    bot: BOT.to_owned(),
                    level: None,
                });
                seated.push(None);
                continue;
            };
            specs.push(SeatSpec::Human);
            let member = one
                .state
                .members
                .get(&p.0)
                .ok_or_else(|| internal("a player without a name"))?;
            let player = Player {
                id: PlayerId(p.0),
                name: member.name.clone(),
                kind: PlayerKind::parse(&member.kind).unwrap_or(PlayerKind::Guest),
                created_at: member.created_at,
            };
            seated.push(Some((new_token().1, player)));
        }
        self.lobby
            .create_match(NewMatch {
                id: Some(id.to_owned()),
                game: one.setup.game.clone(),
                config: serde_json::Value::Null,
                seats: specs,
                time_control: one.setup.time_control,
                seated,
                seed: None,
                rated: one.setup.rated,
                creator: None,
            })
            .await
            .map(|_| ())
    }
}

/// Matches a runner makes at once.
const MAKING_AT_ONCE: usize = 8;

/// The bot that fills a table's empty seats (docs/bots.md: the lobby's middle level).
pub(super) const BOT: &str = "club";

/// `ranks` (any numbers, lower is better) as the tournament's ranks: each seat's the number of
/// seats strictly better (0 for first, ties shared, the ranks below them skipped), so that an
/// engine's ranks from 1, or a no-show's (the absent behind the present), always fit.
fn competition(ranks: &[u8]) -> Vec<u8> {
    ranks
        .iter()
        .map(|r| u8::try_from(ranks.iter().filter(|o| *o < r).count()).unwrap_or(u8::MAX))
        .collect()
}

/// Applies to `t` (a tournament as read, `now` real and `rules_now` rules' ms) its start at its
/// time, the results in `ended` of the games still running with the same match, its end, or a
/// pairing: an arena's waiting players, a Swiss's or tables' next round once the last one is
/// over (each new game's match id chosen now). A round that cannot be paired (too few players
/// left, no pairing without a rematch) ends the tournament. Answers whether `t` changed.
fn apply(t: &mut Live, ended: &[Ended], now: i64, rules_now: u64) -> Result<bool, ApiError> {
    let arena = matches!(t.state.tournament.settings().kind, Kind::Arena { .. });
    let mut changed = false;
    if now < t.starts_at && (!arena || t.state.tournament.arena_end_ms().is_none()) {
        return Ok(false);
    }
    if arena && t.state.tournament.arena_end_ms().is_none() {
        t.state.tournament.start(rules_now).map_err(internal)?;
        changed = true;
    }
    for e in ended {
        if !running_with(t, e.game, &e.match_id) {
            continue;
        }
        for p in &e.absent {
            // One withdrawn already stays so.
            let _ = t
                .state
                .tournament
                .withdraw(plateau_tournament::PlayerId(p.0));
        }
        t.state
            .tournament
            .record(
                e.game,
                GameResult {
                    ranks: e.ranks.clone(),
                },
            )
            .map_err(internal)?;
        changed = true;
    }
    if t.state.tournament.is_over(rules_now) {
        t.finished = true;
        return Ok(true);
    }
    let before = t.state.tournament.games().len();
    if arena {
        let end = t.state.tournament.arena_end_ms().unwrap_or(0);
        if rules_now < end {
            t.state
                .tournament
                .pair_waiting(rules_now)
                .map_err(internal)?;
        }
    } else if t.state.tournament.running().next().is_none() {
        match t.state.tournament.pair_next_round() {
            Ok(_) => {}
            Err(
                TournamentError::NotEnoughPlayers { .. }
                | TournamentError::NoTables { .. }
                | TournamentError::NoPairing,
            ) => {
                t.finished = true;
                return Ok(true);
            }
            Err(e) => return Err(internal(e)),
        }
    }
    let games = t.state.tournament.games().len();
    if games > before {
        t.state.matches.resize_with(games, || GameMatch {
            id: new_match_id(),
            made: false,
        });
        changed = true;
    }
    Ok(changed)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(Code::Internal, e.to_string())
}
