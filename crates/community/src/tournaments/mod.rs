//! Tournaments the server runs (docs/tournaments.md; HTTP in docs/protocol.md section 7.9): any
//! account creates an arena; players join and withdraw; `run` starts it at its time, pairs the
//! waiting players into ordinary matches as their games end, records each match's result and
//! ends it when its time is up. The store (`tournaments` table) is the one truth, shared by the
//! nodes of a database (docs/architecture.md section 5.3): every operation reads the row, changes
//! it and writes it back only over the version it read (`Tournaments::change_from`, again over a
//! fresh read when another node or task wrote first), before anyone is told of it. Each node's
//! task runs the live tournaments it is the runner of (`Lobby::runs_here`); a pairing is written
//! with its matches' ids before they are made, and making one again does nothing, so a restart
//! or a second runner never makes two matches for one game. `follow` keeps what this node's
//! lobby sockets follow (`feed`) current: told of every write made here, and looking at the
//! stored versions each second for the writes of other nodes. `create` makes a new one.
//!
//! The rules (pairing, points, standings) are the crate `plateau-tournament`'s; this module is
//! their host: settings and limits, names, matches, the clock.

mod create;
mod feed;
mod follow;
mod run;
mod schedule;
mod state;
#[cfg(test)]
mod tests;
mod view;

use std::sync::Arc;

pub use create::{CreateTournament, KindWord, MAX_START_SECONDS, NAME_CHARS};
pub use feed::{Followed, Latest};
use plateau_lobby::lobby::Lobby;
use plateau_lobby::model::{ApiError, Code, unix_ms};
use plateau_lobby::players::{Player, PlayerId, PlayerKind};
use plateau_protocol::server::{
    PlayerTournament, PlayerTournaments, TournamentDetail, Tournaments as TournamentList,
};
use plateau_store::ratings::Rating;
use plateau_store::tournaments::{StoredTournament, TournamentStatus};
use plateau_tournament::TournamentError;
pub use state::Tournaments;
use state::{Live, Member};

/// Tournaments `GET /api/players/{name}/tournaments` lists.
const PLAYER_LISTED: u32 = 50;
/// Finished tournaments `GET /api/tournaments` lists.
const FINISHED_LISTED: usize = 20;
/// Finished tournaments it reads to find them, the empty ones left out: scheduled tournaments
/// nobody joined end empty, a few an hour (read back only up to the 20th shown).
const FINISHED_READ: u32 = 100;
/// Times a change of a tournament is tried, each over a fresh read, while other writers (other
/// players' joins, the runner) change it first; then `limit/busy`. A try fails only when another
/// write was committed since its read, so this many fail only under 15 other writes at once.
const ATTEMPTS: usize = 16;

impl Tournaments {
    /// The tournaments of `lobby`'s store, with the task that runs the live ones this node is
    /// the runner of, and with `Options::scheduled_tournaments` the one that keeps the server's
    /// own scheduled (`schedule`), until the service shuts down.
    ///
    /// # Panics
    /// Outside a tokio runtime.
    #[must_use]
    pub fn new(lobby: Arc<Lobby>) -> Arc<Tournaments> {
        let scheduled = lobby.options().scheduled_tournaments;
        let tournaments = Arc::new(Tournaments {
            lobby,
            feed: Arc::default(),
        });
        tokio::spawn(run::run(Arc::downgrade(&tournaments)));
        tokio::spawn(follow::run(Arc::downgrade(&tournaments)));
        if scheduled {
            tokio::spawn(schedule::run(Arc::downgrade(&tournaments)));
        }
        tournaments
    }

    /// `player` joins tournament `id` (or comes back to it after withdrawing).
    ///
    /// # Errors
    /// `tournament/not_found`; `tournament/closed` once it is over or for a player already in
    /// it; `tournament/rating` below its minimum; `tournament/full`; `auth/required` for a bot;
    /// `limit/busy` when it changed `ATTEMPTS` times in a row while this was tried.
    pub async fn join(&self, player: &Player, id: &str) -> Result<TournamentDetail, ApiError> {
        if player.kind == PlayerKind::Bot {
            return Err(ApiError::new(
                Code::AuthRequired,
                "bots do not join tournaments",
            ));
        }
        let first = self.read(id).await?;
        if first.finished {
            return Err(over(id));
        }
        let game = first.setup.game.clone();
        let rating = self.rating(player.id, &game).await?;
        if let Some(min) = first.setup.min_rating
            && rating < min
        {
            return Err(ApiError::new(
                Code::TournamentRating,
                format!("this tournament needs a rating of {min} in {game}; yours is {rating}"),
            ));
        }
        let minute = self.lobby.options().limits.tournament_minute;
        let players = self.lobby.options().limits.tournament_players;
        let member = Member {
            name: player.name.clone(),
            kind: player.kind.as_str().to_owned(),
            created_at: player.created_at,
        };
        let one = self
            .change_from(first, |one| {
                let known = one.state.members.contains_key(&player.id.0);
                if !known && one.state.members.len() >= players {
                    return Err(ApiError::new(
                        Code::TournamentFull,
                        format!("this tournament has {players} players, as many as one may"),
                    ));
                }
                one.state
                    .tournament
                    .join(
                        plateau_tournament::PlayerId(player.id.0),
                        i32::try_from(rating).unwrap_or(i32::MAX),
                        state::rules_ms(unix_ms(), minute),
                    )
                    .map_err(closed)?;
                one.state.members.insert(player.id.0, member.clone());
                one.entrant = Some(player.id);
                Ok(true)
            })
            .await?;
        Ok(self.view(&one))
    }

    /// `player` withdraws from tournament `id`: paired no more; a game it plays goes on.
    ///
    /// # Errors
    /// `tournament/not_found`; `tournament/closed` once it is over or for a player not in it;
    /// `limit/busy`.
    pub async fn withdraw(&self, player: &Player, id: &str) -> Result<TournamentDetail, ApiError> {
        let first = self.read(id).await?;
        let one = self
            .change_from(first, |one| {
                one.state
                    .tournament
                    .withdraw(plateau_tournament::PlayerId(player.id.0))
                    .map_err(closed)?;
                Ok(true)
            })
            .await?;
        Ok(self.view(&one))
    }

    /// The live tournaments and the last finished ones (those that ended without players, as
    /// scheduled ones nobody joined do, left out).
    ///
    /// # Errors
    /// The store's.
    pub async fn list(&self) -> Result<TournamentList, ApiError> {
        let store = self.lobby.store();
        let cap = u32::try_from(self.lobby.options().limits.live_tournaments).unwrap_or(u32::MAX);
        let shown = |rows: Vec<StoredTournament>| {
            rows.iter()
                .filter_map(|row| Live::from_row(row).ok())
                .map(|t| self.view(&t).tournament)
                .collect()
        };
        let live = store
            .tournaments(TournamentStatus::Live, cap)
            .await
            .map_err(ApiError::store)?;
        let finished = store
            .tournaments(TournamentStatus::Finished, FINISHED_READ)
            .await
            .map_err(ApiError::store)?
            .iter()
            .filter_map(|row| Live::from_row(row).ok())
            .filter(|t| !t.state.tournament.players().is_empty())
            .take(FINISHED_LISTED)
            .map(|t| self.view(&t).tournament)
            .collect();
        Ok(TournamentList {
            live: shown(live),
            finished,
        })
    }

    /// The tournaments the player named `name` (without regard to case) joined, latest start
    /// first, at most `PLAYER_LISTED`, with its place, points and games in each.
    ///
    /// # Errors
    /// `player/not_found`; the store's.
    pub async fn of_player(&self, name: &str) -> Result<PlayerTournaments, ApiError> {
        let (player, _) = self
            .lobby
            .store()
            .player_by_name(name.to_owned())
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| {
                ApiError::new(Code::PlayerNotFound, format!("no player named {name:?}"))
            })?;
        self.of(player).await
    }

    /// Whether `player` is in a tournament that is not over (a waiting one it may withdraw
    /// from included): its account cannot be deleted until then.
    ///
    /// # Errors
    /// `store/unavailable`.
    pub async fn in_one_not_over(&self, player: PlayerId) -> Result<bool, ApiError> {
        let rows = self
            .lobby
            .store()
            .player_tournaments(player, u32::MAX)
            .await
            .map_err(ApiError::store)?;
        Ok(rows.iter().any(|row| {
            row.status == TournamentStatus::Live
                && Live::from_row(row).is_ok_and(|one| {
                    one.state
                        .tournament
                        .players()
                        .iter()
                        .any(|p| p.id.0 == player.0 && p.active)
                })
        }))
    }

    /// `player`'s account was deleted and renamed `neutral`: the tournaments it joined (none
    /// still with it in play, `in_one_not_over`) or made name it so from now on, in their
    /// standings and as their creator. Each is saved again, its version one more (a creator's
    /// new name included, so other nodes' followers see it), and its followers on this node
    /// are sent it at once; a save another writer beat is read and tried again, at most
    /// `ATTEMPTS` times.
    ///
    /// # Errors
    /// `store/unavailable`.
    pub async fn forget_member(&self, player: PlayerId, neutral: &str) -> Result<(), ApiError> {
        let store = self.lobby.store();
        let mut ids: Vec<String> = Vec::new();
        // Those it joined, and those it made without joining (read whole: deletions are rare).
        let joined = store
            .player_tournaments(player, u32::MAX)
            .await
            .map_err(ApiError::store)?;
        for status in [TournamentStatus::Live, TournamentStatus::Finished] {
            let all = store
                .tournaments(status, u32::MAX)
                .await
                .map_err(ApiError::store)?;
            ids.extend(
                all.into_iter()
                    .filter(|t| t.creator == player)
                    .map(|t| t.id),
            );
        }
        ids.extend(joined.into_iter().map(|t| t.id));
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            // Whether the settings were written: the state's save, over the version, is still
            // owed (the settings' write leaves the version as it was).
            let mut renamed = false;
            for _ in 0..ATTEMPTS {
                let Some(row) = store
                    .tournament(id.clone())
                    .await
                    .map_err(ApiError::store)?
                else {
                    break;
                };
                let Ok(mut one) = Live::from_row(&row) else {
                    break;
                };
                if row.creator == player && one.setup.creator != neutral {
                    one.setup.creator = neutral.to_owned();
                    let settings = serde_json::to_string(&one.setup)
                        .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?;
                    store
                        .set_tournament_settings(id.clone(), settings)
                        .await
                        .map_err(ApiError::store)?;
                    self.feed.changed(&id);
                    renamed = true;
                }
                if let Some(member) = one.state.members.get_mut(&player.0) {
                    member.name = neutral.to_owned();
                    renamed = true;
                }
                if !renamed {
                    break;
                }
                if one.save(&self.lobby).await? {
                    self.feed.changed(&id);
                    break;
                }
            }
        }
        Ok(())
    }

    /// The tournaments `player` joined, with its place, points and games in each.
    ///
    /// # Errors
    /// `store/unavailable`.
    pub async fn of(&self, player: Player) -> Result<PlayerTournaments, ApiError> {
        let store = self.lobby.store();
        let rows = store
            .player_tournaments(player.id, PLAYER_LISTED)
            .await
            .map_err(ApiError::store)?;
        let me = plateau_tournament::PlayerId(player.id.0);
        let tournaments = rows
            .iter()
            .filter_map(|row| Live::from_row(row).ok())
            .filter_map(|one| {
                let line = one
                    .state
                    .tournament
                    .standings()
                    .into_iter()
                    .find(|s| s.player == me)?;
                Some(PlayerTournament {
                    tournament: self.view(&one).tournament,
                    place: line.place,
                    points: line.points,
                    games: line.games,
                })
            })
            .collect();
        Ok(PlayerTournaments {
            name: player.name,
            tournaments,
        })
    }

    /// Tournament `id`: settings, standings, games.
    ///
    /// # Errors
    /// `tournament/not_found`; the store's.
    pub async fn one(&self, id: &str) -> Result<TournamentDetail, ApiError> {
        Ok(self.view(&self.read(id).await?))
    }

    /// Tournament `id` as stored now.
    ///
    /// # Errors
    /// `tournament/not_found`; the store's; `server/internal` for a row that does not read back.
    async fn read(&self, id: &str) -> Result<Live, ApiError> {
        let row = self
            .lobby
            .store()
            .tournament(id.to_owned())
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| not_found(id))?;
        Live::from_row(&row)
            .map_err(|e| ApiError::new(Code::Internal, format!("tournament {id}: {e}")))
    }

    /// Applies `change` to `first` (tournament `id` as read) and writes the result over the
    /// version read; when another writer (a join on another node, the runner) changed the row
    /// first, reads it again and applies `change` to that, at most `ATTEMPTS` times in all.
    /// `change` answers whether there is anything to write (`false`: nothing is written) and
    /// may refuse (nothing is written). Returns the tournament as it now stands.
    ///
    /// # Errors
    /// `tournament/closed` once it is over; `change`'s; `limit/busy` after `ATTEMPTS`
    /// conflicts; the store's (`tournament/not_found` if the row is gone).
    async fn change_from(
        &self,
        first: Live,
        mut change: impl FnMut(&mut Live) -> Result<bool, ApiError>,
    ) -> Result<Live, ApiError> {
        let id = first.id.clone();
        let mut one = first;
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                one = self.read(&id).await?;
            }
            if one.finished {
                return Err(over(&id));
            }
            if !change(&mut one)? {
                return Ok(one);
            }
            if one.save(&self.lobby).await? {
                self.feed.changed(&id);
                return Ok(one);
            }
        }
        Err(ApiError::new(
            Code::LimitBusy,
            format!("tournament {id:?} changed {ATTEMPTS} times while this was tried: try again"),
        ))
    }

    /// `player`'s shown rating in `game` (the default rating's when it has none).
    async fn rating(&self, player: PlayerId, game: &str) -> Result<i64, ApiError> {
        let standings = self
            .lobby
            .store()
            .standings(player)
            .await
            .map_err(ApiError::store)?;
        Ok(standings
            .into_iter()
            .find(|(g, _)| g == game)
            .map_or_else(|| Rating::default().shown(), |(_, s)| s.rating.shown()))
    }
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(
        Code::TournamentNotFound,
        format!("no tournament {id:?} is running or waiting"),
    )
}

fn over(id: &str) -> ApiError {
    ApiError::new(Code::TournamentClosed, format!("tournament {id:?} is over"))
}

fn closed(e: TournamentError) -> ApiError {
    ApiError::new(Code::TournamentClosed, e.to_string())
}
