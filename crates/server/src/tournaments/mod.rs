//! Tournaments the server runs (docs/tournaments.md; HTTP in docs/protocol.md section 7.9): any
//! account creates an arena; players join and withdraw; `run` starts it at its time, pairs the
//! waiting players into ordinary matches as their games end, records each match's result and
//! ends it when its time is up. The store (`tournaments` table) is the one truth, shared by the
//! nodes of a database (docs/architecture.md section 5.3): every operation reads the row, changes
//! it and writes it back only over the version it read (`Tournaments::change_from`, again over a
//! fresh read when another node or task wrote first), before anyone is told of it. Each node's
//! task runs the live tournaments it is the runner of (`Lobby::runs_here`); a pairing is written
//! with its matches' ids before they are made, and making one again does nothing, so a restart
//! or a second runner never makes two matches for one game. `feed` keeps what this node's lobby
//! sockets follow current: told of every write made here, and looking at the stored versions
//! each second for the writes of other nodes.
//!
//! The rules (pairing, points, standings) are the crate `plateau-tournament`'s; this module is
//! their host: settings and limits, names, matches, the clock.

mod feed;
mod run;
mod schedule;
mod state;
mod view;

use std::sync::Arc;

use serde::Deserialize;

use crate::lobby::Lobby;
use crate::model::{ApiError, Code, TimeControl, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
pub use feed::{Followed, Latest};
use plateau_protocol::server::{
    PlayerTournament, PlayerTournaments, TournamentDetail, Tournaments as TournamentList,
};
use plateau_store::ratings::Rating;
use plateau_store::tournaments::{StoredTournament, TournamentStatus};
use plateau_tournament::{Fill, Kind, Settings, Tournament, TournamentError};
pub use state::Tournaments;
use state::{Live, Member, Setup};

/// Longest name of a tournament, in characters.
pub const NAME_CHARS: usize = 60;
/// Latest start of a new tournament, in seconds from its creation (a week).
pub const MAX_START_SECONDS: u32 = 7 * 24 * 3600;
/// Tournaments `GET /api/players/{name}/tournaments` lists.
const PLAYER_LISTED: u32 = 50;
/// Finished tournaments `GET /api/tournaments` lists.
const FINISHED_LISTED: usize = 20;
/// Finished tournaments it reads to find them, the empty ones left out: scheduled tournaments
/// nobody joined end empty, a few an hour (read back only up to the 20th shown).
const FINISHED_READ: u32 = 100;
/// A day, in milliseconds: the window of `Limits::tournaments_per_day`.
const DAY_MS: i64 = 24 * 3600 * 1000;
/// Times a change of a tournament is tried, each over a fresh read, while other writers (other
/// players' joins, the runner) change it first; then `limit/busy`. A try fails only when another
/// write was committed since its read, so this many fail only under 15 other writes at once.
const ATTEMPTS: usize = 16;

/// The kind of tournament `POST /api/tournaments` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KindWord {
    /// An arena (docs/tournaments.md section 3), the default.
    #[default]
    Arena,
    /// A Swiss (section 4).
    Swiss,
    /// Rounds of tables (section 5).
    Tables,
}

/// `POST /api/tournaments` (docs/protocol.md section 7.9): an arena or a Swiss of a two-seat
/// game, or rounds of tables of a game of three seats or more.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Its name: 1 to `NAME_CHARS` characters, no control characters.
    pub name: String,
    /// Registry name of the game played.
    pub game: String,
    /// Every game's clock (validated as a match's).
    pub time_control: TimeControl,
    /// Seconds from now to its start, 0 to `MAX_START_SECONDS`.
    pub starts_in_seconds: u32,
    /// Arena (the default), Swiss or tables.
    #[serde(default)]
    pub kind: KindWord,
    /// An arena's length in minutes, 1 to `plateau_tournament::MAX_ARENA_MINUTES`; only for an
    /// arena.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss's or tables' rounds, 1 to `plateau_tournament::MAX_ROUNDS`; only for those.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The tables' size, 3 or more within the game's seats (default: the game's most); only
    /// for tables.
    #[serde(default)]
    pub seats: Option<u8>,
    /// Tables only: bots take the seats the players leave over (else the short tables play a
    /// seat short, which the game must allow).
    #[serde(default)]
    pub bots: bool,
    /// Whether its games change ratings.
    #[serde(default)]
    pub rated: bool,
    /// The shown rating in the game a player needs to join.
    #[serde(default)]
    pub min_rating: Option<i64>,
    /// The seed of its draws (docs/tournaments.md section 2.2), for tests only: refused with
    /// `seed/not_allowed` unless the server runs with `Options::test_seeds`.
    #[serde(default)]
    pub seed: Option<u64>,
}

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
        tokio::spawn(feed::run(Arc::downgrade(&tournaments)));
        if scheduled {
            tokio::spawn(schedule::run(Arc::downgrade(&tournaments)));
        }
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
        let entry = self.lobby.catalogue().requested(&request.game)?;
        request.time_control.validate(entry.rule_clock)?;
        if request.starts_in_seconds > MAX_START_SECONDS {
            return Err(invalid(format!(
                "starts_in_seconds: at most {MAX_START_SECONDS} (a week)"
            )));
        }
        let seed = match request.seed {
            None => rand::random(),
            Some(_) if !self.lobby.options().test_seeds => {
                return Err(ApiError::new(
                    Code::SeedNotAllowed,
                    "a fixed `seed` is accepted only by a server started with --test-seeds",
                ));
            }
            Some(seed) => seed,
        };
        let settings = settings(&request, &entry.info, seed)?;
        let tournament = Tournament::new(settings).map_err(|e| match e {
            TournamentError::Settings(why) => invalid(why.to_owned()),
            e => invalid(e.to_string()),
        })?;
        let limits = &self.lobby.options().limits;
        let now = unix_ms();
        let store = self.lobby.store();
        let cap = u32::try_from(limits.live_tournaments).unwrap_or(u32::MAX);
        let live = store
            .tournaments(TournamentStatus::Live, cap)
            .await
            .map_err(ApiError::store)?;
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
            minutes: request.minutes.unwrap_or(0),
            rated: request.rated,
            min_rating: request.min_rating,
            creator: player.name.clone(),
            scheduled: false,
        };
        let id = plateau_match::tokens::new_token()
            .0
            .chars()
            .take(12)
            .collect();
        let starts_at = now + i64::from(request.starts_in_seconds) * 1000;
        let one = Live::new(id, setup, tournament, starts_at);
        self.insert(&one, player.id, now)
            .await
            .map_err(ApiError::store)?;
        Ok(self.view(&one))
    }

    /// Stores `one`, new, as created by `creator` at `now` (Unix ms).
    ///
    /// # Errors
    /// The store's: `StoreError::Conflict` when a tournament of that id exists.
    async fn insert(
        &self,
        one: &Live,
        creator: PlayerId,
        now: i64,
    ) -> Result<(), crate::store::StoreError> {
        let text = |v: Result<String, serde_json::Error>| {
            v.map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))
        };
        self.lobby
            .store()
            .create_tournament(StoredTournament {
                id: one.id.clone(),
                creator,
                status: TournamentStatus::Live,
                starts_at_ms: one.starts_at,
                created_at_ms: now,
                settings: text(serde_json::to_string(&one.setup))?,
                state: text(serde_json::to_string(&one.state))?,
                version: 0,
            })
            .await?;
        self.feed.changed(&one.id);
        Ok(())
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
    /// standings and as their creator. Each is saved again; a save another writer beat is read
    /// and tried again.
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
            for _ in 0..16 {
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
                }
                let Some(member) = one.state.members.get_mut(&player.0) else {
                    break;
                };
                member.name = neutral.to_owned();
                if one.save(&self.lobby).await? {
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

/// The rules' settings `request` asks for in the game `game`, checked against the game: an arena
/// or a Swiss for a game played by two, tables within the game's seats (one fewer too when no
/// bots fill them), and only the fields of its kind.
///
/// # Errors
/// `tournament/invalid` naming the field at fault.
fn settings(
    request: &CreateTournament,
    game: &plateau_engine::GameInfo,
    seed: u64,
) -> Result<Settings, ApiError> {
    let invalid = |why: String| Err(ApiError::new(Code::TournamentInvalid, why));
    let two = (game.min_seats..=game.max_seats).contains(&2);
    let word = match request.kind {
        KindWord::Arena => "an arena",
        KindWord::Swiss => "a Swiss",
        KindWord::Tables => "tables",
    };
    if request.kind != KindWord::Arena && request.minutes.is_some() {
        return invalid(format!(
            "minutes: {word} has rounds, not minutes (give `rounds`)"
        ));
    }
    if request.kind == KindWord::Arena && request.rounds.is_some() {
        return invalid("rounds: an arena has minutes, not rounds (give `minutes`)".to_owned());
    }
    if request.kind != KindWord::Tables && (request.seats.is_some() || request.bots) {
        return invalid(format!(
            "seats, bots: only tables take them; {word} is for games of two"
        ));
    }
    if request.kind != KindWord::Tables && !two {
        return invalid(format!(
            "game: {word} is for games of two, and {} is played by {} to {}",
            game.title, game.min_seats, game.max_seats
        ));
    }
    let rounds = || match request.rounds {
        Some(rounds) => Ok(rounds),
        None => Err(ApiError::new(
            Code::TournamentInvalid,
            format!("rounds: {word} needs its number of rounds"),
        )),
    };
    let kind = match request.kind {
        KindWord::Arena => Kind::Arena {
            minutes: request.minutes.ok_or_else(|| {
                ApiError::new(
                    Code::TournamentInvalid,
                    "minutes: an arena needs its length in minutes",
                )
            })?,
        },
        KindWord::Swiss => Kind::Swiss { rounds: rounds()? },
        KindWord::Tables => {
            let seats = request.seats.map_or(game.max_seats, usize::from);
            if seats < 3 || !(game.min_seats..=game.max_seats).contains(&seats) {
                return invalid(format!(
                    "seats: tables of {seats} for {}, played by {} to {}; tables are of 3 or more",
                    game.title, game.min_seats, game.max_seats
                ));
            }
            if !request.bots && seats - 1 < game.min_seats {
                return invalid(format!(
                    "bots: {} needs {seats} at a table, so bots must fill the short ones",
                    game.title
                ));
            }
            Kind::Tables {
                rounds: rounds()?,
                fill: if request.bots {
                    Fill::Bots
                } else {
                    Fill::ShortTables
                },
            }
        }
    };
    Ok(Settings {
        seats: match kind {
            Kind::Tables { .. } => request
                .seats
                .unwrap_or(u8::try_from(game.max_seats).unwrap_or(plateau_tournament::MAX_SEATS)),
            _ => 2,
        },
        kind,
        rated: request.rated,
        seed,
    })
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
