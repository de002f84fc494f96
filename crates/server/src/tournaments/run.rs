//! The task that runs the live tournaments (docs/tournaments.md section 3): on each tick it
//! starts an arena at its time, records the results of its finished matches, pairs its waiting
//! players into new matches, and ends it once its time is up and its last game is over.
//!
//! Results are read from the store (a match's outcome is written in the transaction that ends
//! it), so a result is never missed, even one that came while the server was down. A pairing is
//! written before its match is made: a restart between the two makes the match on the next tick.

use std::collections::BTreeMap;
use std::sync::Weak;
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;

use super::state::{Live, State, Tournaments, rules_ms};
use crate::lobby::NewMatch;
use crate::model::{ApiError, Code, SeatSpec, Status, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
use plateau_match::tokens::new_token;
use plateau_store::tournaments::TournamentStatus;
use plateau_tournament::{GameId, GameResult, Seat};

/// Loads the live tournaments into `guard`, then runs them every tick until the service shuts
/// down or the tournaments are dropped.
pub(super) async fn run(
    tournaments: Weak<Tournaments>,
    mut guard: OwnedMutexGuard<BTreeMap<String, Live>>,
) {
    let Some(t) = tournaments.upgrade() else {
        return;
    };
    t.load(&mut guard).await;
    drop(guard);
    let mut shutdown = t.lobby.shutdown_signal();
    // A sixtieth of a minute: a second, less in tests that shorten the minute.
    let tick = (t.lobby.options().limits.tournament_minute / 60)
        .clamp(Duration::from_millis(20), Duration::from_secs(1));
    drop(t);
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            return;
        }
        let Some(t) = tournaments.upgrade() else {
            return;
        };
        t.tick().await;
    }
}

impl Tournaments {
    /// Loads the live tournaments into `guard` (a tournament that does not read back is left in
    /// the store and logged).
    async fn load(&self, guard: &mut OwnedMutexGuard<BTreeMap<String, Live>>) {
        let limit = u32::try_from(self.lobby.options().limits.live_tournaments).unwrap_or(u32::MAX);
        let rows = match self
            .lobby
            .store()
            .tournaments(TournamentStatus::Live, limit)
            .await
        {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!("tournaments: cannot load the live ones: {e}");
                return;
            }
        };
        for row in rows {
            match Live::from_row(&row) {
                Ok(live) => {
                    guard.insert(row.id.clone(), live);
                }
                Err(e) => tracing::error!("tournament {}: cannot read it back: {e}", row.id),
            }
        }
    }

    /// One step of every live tournament; the finished ones leave memory.
    async fn tick(&self) {
        let mut live = self.live.lock().await;
        let ids: Vec<String> = live.keys().cloned().collect();
        for id in ids {
            let Some(one) = live.get_mut(&id) else {
                continue;
            };
            if let Err(e) = self.step(one).await {
                tracing::warn!("tournament {id}: {}", e.message);
            }
            if one.finished {
                live.remove(&id);
            }
        }
    }

    /// Starts `one` at its time, records its finished games, ends it or pairs its waiting
    /// players. Each change is written before the next is made; a failed write leaves `one` as
    /// stored, to be tried again on the next tick.
    async fn step(&self, one: &mut Live) -> Result<(), ApiError> {
        let limits = &self.lobby.options().limits;
        let minute = limits.tournament_minute;
        let no_show_ms = i64::try_from(limits.no_show.as_millis()).unwrap_or(i64::MAX);
        let now = unix_ms();
        let rules_now = rules_ms(now, minute);
        let before = one.state.clone();
        let mut changed = false;
        if one.state.tournament.arena_end_ms().is_none() {
            if now < one.starts_at {
                return Ok(());
            }
            one.state.tournament.start(rules_now).map_err(internal)?;
            changed = true;
        }
        let running: Vec<GameId> = one.state.tournament.running().map(|g| g.id).collect();
        for game in running {
            let Some(Some(match_id)) = one.state.matches.get(game.0 as usize).cloned() else {
                continue;
            };
            let stored = self
                .lobby
                .store()
                .get(&match_id, false)
                .await
                .map_err(ApiError::store)?;
            let ranks = match stored {
                // The engine ranks from 1, the tournament from 0.
                Some(m) if m.status == Status::Finished && m.outcome.is_some() => m
                    .outcome
                    .map(|o| o.ranks.iter().map(|r| r.saturating_sub(1)).collect())
                    .unwrap_or_default(),
                Some(m) if m.status == Status::Open && now - m.created_at > no_show_ms => {
                    // A player did not come: the match is called off, the absent lose (a
                    // draw when nobody came) and are withdrawn, as quick pairing's no-shows.
                    let absent = self.lobby.call_off(&match_id).await;
                    if absent.is_empty() {
                        continue;
                    }
                    let seats = &one.state.tournament.game(game).map_err(internal)?.seats;
                    let gone =
                        |s: &Seat| s.player().is_some_and(|p| absent.contains(&PlayerId(p.0)));
                    let all = seats.iter().all(gone);
                    let ranks = seats.iter().map(|s| u8::from(!all && gone(s))).collect();
                    for p in &absent {
                        let _ = one
                            .state
                            .tournament
                            .withdraw(plateau_tournament::PlayerId(p.0));
                    }
                    ranks
                }
                // Called off before a restart, its result unwritten: nobody is blamed.
                None => vec![0; 2],
                Some(_) => continue,
            };
            one.state
                .tournament
                .record(game, GameResult { ranks })
                .map_err(internal)?;
            changed = true;
        }
        if one.state.tournament.is_over(rules_now) {
            one.finished = true;
            return self.keep(one, before).await;
        }
        let end = one.state.tournament.arena_end_ms().unwrap_or(0);
        if rules_now < end {
            let paired = one
                .state
                .tournament
                .pair_waiting(rules_now)
                .map_err(internal)?;
            if !paired.is_empty() {
                let games = one.state.tournament.games().len();
                one.state.matches.resize(games, None);
                changed = true;
            }
        }
        if changed {
            self.keep(one, before).await?;
        }
        // The games written without their match (just now, or before a restart) get one.
        let unmade: Vec<GameId> = one
            .state
            .tournament
            .running()
            .filter(|g| {
                one.state
                    .matches
                    .get(g.id.0 as usize)
                    .is_some_and(Option::is_none)
            })
            .map(|g| g.id)
            .collect();
        if unmade.is_empty() {
            return Ok(());
        }
        let before = one.state.clone();
        for game in unmade {
            match self.make_match(one, game).await {
                Ok(id) => one.state.matches[game.0 as usize] = Some(id),
                Err(e) => tracing::warn!("tournament {}: a game's match: {}", one.id, e.message),
            }
        }
        self.keep(one, before).await
    }

    /// Writes `one`; if the write fails, `one` goes back to `before` (as stored).
    async fn keep(&self, one: &mut Live, before: State) -> Result<(), ApiError> {
        let saved = one.save(&self.lobby).await;
        if saved.is_err() {
            one.state = before;
            one.finished = false;
        }
        saved
    }

    /// Makes the match of `game`, both seats taken by its players (who open it with their
    /// session: no seat token is given out).
    async fn make_match(&self, one: &Live, game: GameId) -> Result<String, ApiError> {
        let seats = &one.state.tournament.game(game).map_err(internal)?.seats;
        let mut seated = Vec::with_capacity(seats.len());
        for seat in seats {
            let Seat::Player(id) = seat else {
                return Err(internal("a bot in an arena"));
            };
            let member = one
                .state
                .members
                .get(&id.0)
                .ok_or_else(|| internal("a player without a name"))?;
            let player = Player {
                id: PlayerId(id.0),
                name: member.name.clone(),
                kind: PlayerKind::parse(&member.kind).unwrap_or(PlayerKind::Guest),
                created_at: member.created_at,
            };
            seated.push(Some((new_token().1, player)));
        }
        self.lobby
            .create_match(NewMatch {
                game: one.setup.game.clone(),
                config: serde_json::Value::Null,
                seats: vec![SeatSpec::Human; seated.len()],
                time_control: one.setup.time_control,
                seated,
                seed: None,
                rated: one.setup.rated,
                creator: None,
            })
            .await
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(Code::Internal, e.to_string())
}
