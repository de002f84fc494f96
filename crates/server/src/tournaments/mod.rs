//! Tournaments the server runs (docs/tournaments.md; HTTP in docs/protocol.md section 7.9): any
//! account creates an arena; players join and withdraw; `run` starts it at its time, pairs the
//! waiting players into ordinary matches as their games end, records each match's result and
//! ends it when its time is up. Each tournament lives in memory here while it is not over, and
//! every change is written to the store (`tournaments` table) before anyone is told of it: after
//! a restart `Tournaments::new` loads the live ones back and carries on, and a pairing written
//! before its match was made gets its match then.
//!
//! The rules (pairing, points, standings) are the crate `plateau-tournament`'s; this module is
//! their host: settings and limits, names, matches, the clock.

mod run;
mod state;
mod view;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use tokio::sync::Mutex;

use crate::lobby::Lobby;
use crate::model::{ApiError, Code, TimeControl, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
use plateau_protocol::server::{TournamentDetail, Tournaments as TournamentList};
use plateau_store::ratings::Rating;
use plateau_store::tournaments::{StoredTournament, TournamentStatus};
use plateau_tournament::{Kind, Settings, Tournament, TournamentError};
pub use state::Tournaments;
use state::{Live, Member, Setup, State};

/// Longest name of a tournament, in characters.
pub const NAME_CHARS: usize = 60;
/// Latest start of a new tournament, in seconds from its creation (a week).
pub const MAX_START_SECONDS: u32 = 7 * 24 * 3600;
/// Finished tournaments `GET /api/tournaments` lists.
const FINISHED_LISTED: u32 = 20;
/// A day, in milliseconds: the window of `Limits::tournaments_per_day`.
const DAY_MS: i64 = 24 * 3600 * 1000;

/// `POST /api/tournaments` (docs/protocol.md section 7.9): an arena of a two-seat game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Its name: 1 to `NAME_CHARS` characters, no control characters.
    pub name: String,
    /// Registry name of a game played by two.
    pub game: String,
    /// Every game's clock (validated as a match's).
    pub time_control: TimeControl,
    /// Seconds from now to its start, 0 to `MAX_START_SECONDS`.
    pub starts_in_seconds: u32,
    /// Its length in minutes, 1 to `plateau_tournament::MAX_ARENA_MINUTES`.
    pub minutes: u32,
    /// Whether its games change ratings.
    #[serde(default)]
    pub rated: bool,
    /// The shown rating in the game a player needs to join.
    #[serde(default)]
    pub min_rating: Option<i64>,
}

impl Tournaments {
    /// The tournaments of `lobby`'s store: the live ones are loaded (by a task, before any
    /// request is answered) and run from then on, until the service shuts down.
    ///
    /// # Panics
    /// Outside a tokio runtime.
    #[must_use]
    pub fn new(lobby: Arc<Lobby>) -> Arc<Tournaments> {
        let live = Arc::new(Mutex::new(BTreeMap::new()));
        let guard = live.clone().try_lock_owned().expect("a new lock is free");
        let tournaments = Arc::new(Tournaments { lobby, live });
        tokio::spawn(run::run(Arc::downgrade(&tournaments), guard));
        tournaments
    }

    /// `player` creates an arena.
    ///
    /// # Errors
    /// `auth/required` for a player without an account; `game/unknown`; `tournament/invalid`
    /// naming the setting at fault; a time control's errors; `limit/tournaments`.
    pub async fn create(
        &self,
        player: &Player,
        request: CreateTournament,
    ) -> Result<TournamentDetail, ApiError> {
        if player.kind != PlayerKind::Account {
            return Err(ApiError::new(
                Code::AuthRequired,
                "create an account first: tournaments are created by accounts",
            ));
        }
        let invalid = |why: String| ApiError::new(Code::TournamentInvalid, why);
        let name = request.name.trim().to_owned();
        if name.is_empty()
            || name.chars().count() > NAME_CHARS
            || name.chars().any(char::is_control)
        {
            return Err(invalid(format!(
                "name: 1 to {NAME_CHARS} characters, no control characters"
            )));
        }
        let entry = self.lobby.catalogue().game(&request.game).ok_or_else(|| {
            ApiError::new(
                Code::GameUnknown,
                format!("unknown game {:?}", request.game),
            )
        })?;
        if !(entry.info.min_seats..=entry.info.max_seats).contains(&2) {
            return Err(invalid(format!(
                "game: an arena is for games of two, and {} is played by {} to {}",
                entry.info.title, entry.info.min_seats, entry.info.max_seats
            )));
        }
        request.time_control.validate(entry.rule_clock)?;
        if request.starts_in_seconds > MAX_START_SECONDS {
            return Err(invalid(format!(
                "starts_in_seconds: at most {MAX_START_SECONDS} (a week)"
            )));
        }
        let tournament = Tournament::new(Settings {
            kind: Kind::Arena {
                minutes: request.minutes,
            },
            seats: 2,
            rated: request.rated,
            seed: rand::random(),
        })
        .map_err(|e| invalid(e.to_string()))?;
        let limits = &self.lobby.options().limits;
        let now = unix_ms();
        let store = self.lobby.store();
        let mut live = self.live.lock().await;
        if live.len() >= limits.live_tournaments {
            return Err(ApiError::new(
                Code::LimitTournaments,
                "the server runs as many tournaments as it may: try again later",
            ));
        }
        let made = store
            .tournaments_created(player.id, now - DAY_MS)
            .await
            .map_err(ApiError::store)?;
        if made >= limits.tournaments_per_day {
            return Err(ApiError::new(
                Code::LimitTournaments,
                format!("you created {made} tournaments in the last day, as many as one may"),
            ));
        }
        let setup = Setup {
            name,
            game: entry.info.name.to_owned(),
            time_control: request.time_control,
            minutes: request.minutes,
            rated: request.rated,
            min_rating: request.min_rating,
            creator: player.name.clone(),
        };
        let one = Live {
            id: plateau_match::tokens::new_token()
                .0
                .chars()
                .take(12)
                .collect(),
            setup,
            state: State {
                tournament,
                matches: Vec::new(),
                members: BTreeMap::new(),
            },
            starts_at: now + i64::from(request.starts_in_seconds) * 1000,
            finished: false,
        };
        let text = |v: Result<String, serde_json::Error>| {
            v.map_err(|e| ApiError::new(Code::Internal, e.to_string()))
        };
        store
            .create_tournament(StoredTournament {
                id: one.id.clone(),
                creator: player.id,
                status: TournamentStatus::Live,
                starts_at_ms: one.starts_at,
                created_at_ms: now,
                settings: text(serde_json::to_string(&one.setup))?,
                state: text(serde_json::to_string(&one.state))?,
            })
            .await
            .map_err(ApiError::store)?;
        let detail = self.view(&one);
        live.insert(one.id.clone(), one);
        Ok(detail)
    }

    /// `player` joins tournament `id` (or comes back to it after withdrawing).
    ///
    /// # Errors
    /// `tournament/not_found`; `tournament/closed` once it is over or for a player already in
    /// it; `tournament/rating` below its minimum; `tournament/full`; `auth/required` for a bot.
    pub async fn join(&self, player: &Player, id: &str) -> Result<TournamentDetail, ApiError> {
        if player.kind == PlayerKind::Bot {
            return Err(ApiError::new(
                Code::AuthRequired,
                "bots do not join tournaments",
            ));
        }
        let Ok(game) = self.with_live(id, |t| t.setup.game.clone()).await else {
            return Err(self.gone(id).await);
        };
        let rating = self.rating(player.id, &game).await?;
        let minute = self.lobby.options().limits.tournament_minute;
        let players = self.lobby.options().limits.tournament_players;
        let mut live = self.live.lock().await;
        let one = live.get_mut(id).ok_or_else(|| not_found(id))?;
        if let Some(min) = one.setup.min_rating
            && rating < min
        {
            return Err(ApiError::new(
                Code::TournamentRating,
                format!("this tournament needs a rating of {min} in {game}; yours is {rating}"),
            ));
        }
        let known = one.state.members.contains_key(&player.id.0);
        if !known && one.state.members.len() >= players {
            return Err(ApiError::new(
                Code::TournamentFull,
                format!("this tournament has {players} players, as many as one may"),
            ));
        }
        let before = one.state.clone();
        one.state
            .tournament
            .join(
                plateau_tournament::PlayerId(player.id.0),
                i32::try_from(rating).unwrap_or(i32::MAX),
                state::rules_ms(unix_ms(), minute),
            )
            .map_err(closed)?;
        one.state.members.insert(
            player.id.0,
            Member {
                name: player.name.clone(),
                kind: player.kind.as_str().to_owned(),
                created_at: player.created_at,
            },
        );
        if let Err(e) = one.save(&self.lobby).await {
            one.state = before;
            return Err(e);
        }
        Ok(self.view(one))
    }

    /// `player` withdraws from tournament `id`: paired no more; a game it plays goes on.
    ///
    /// # Errors
    /// `tournament/not_found`; `tournament/closed` for a player not in it.
    pub async fn withdraw(&self, player: &Player, id: &str) -> Result<TournamentDetail, ApiError> {
        let mut live = self.live.lock().await;
        let Some(one) = live.get_mut(id) else {
            drop(live);
            return Err(self.gone(id).await);
        };
        let before = one.state.clone();
        one.state
            .tournament
            .withdraw(plateau_tournament::PlayerId(player.id.0))
            .map_err(closed)?;
        if let Err(e) = one.save(&self.lobby).await {
            one.state = before;
            return Err(e);
        }
        Ok(self.view(one))
    }

    /// The live tournaments and the last finished ones.
    ///
    /// # Errors
    /// The store's.
    pub async fn list(&self) -> Result<TournamentList, ApiError> {
        let live: Vec<_> = {
            let live = self.live.lock().await;
            let mut list: Vec<_> = live.values().map(|t| self.view(t).tournament).collect();
            list.sort_by(|a, b| b.starts_at.cmp(&a.starts_at).then(a.id.cmp(&b.id)));
            list
        };
        let rows = self
            .lobby
            .store()
            .tournaments(TournamentStatus::Finished, FINISHED_LISTED)
            .await
            .map_err(ApiError::store)?;
        let finished = rows
            .iter()
            .filter_map(|row| Live::from_row(row).ok())
            .map(|t| self.view(&t).tournament)
            .collect();
        Ok(TournamentList { live, finished })
    }

    /// Tournament `id`: settings, standings, games.
    ///
    /// # Errors
    /// `tournament/not_found`; the store's.
    pub async fn one(&self, id: &str) -> Result<TournamentDetail, ApiError> {
        if let Ok(detail) = self.with_live(id, |t| self.view(t)).await {
            return Ok(detail);
        }
        let row = self
            .lobby
            .store()
            .tournament(id.to_owned())
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| not_found(id))?;
        let one = Live::from_row(&row)
            .map_err(|e| ApiError::new(Code::Internal, format!("tournament {id}: {e}")))?;
        Ok(self.view(&one))
    }

    /// Why tournament `id`, not live, cannot be joined or left: `tournament/closed` once over,
    /// else `tournament/not_found`.
    async fn gone(&self, id: &str) -> ApiError {
        match self.lobby.store().tournament(id.to_owned()).await {
            Ok(Some(_)) => {
                ApiError::new(Code::TournamentClosed, format!("tournament {id:?} is over"))
            }
            Ok(None) => not_found(id),
            Err(e) => ApiError::store(e),
        }
    }

    async fn with_live<T>(&self, id: &str, f: impl FnOnce(&Live) -> T) -> Result<T, ApiError> {
        let live = self.live.lock().await;
        live.get(id).map(f).ok_or_else(|| not_found(id))
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

fn closed(e: TournamentError) -> ApiError {
    ApiError::new(Code::TournamentClosed, e.to_string())
}
