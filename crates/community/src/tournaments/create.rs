//! A new tournament (docs/protocol.md section 7.9): what `POST /api/tournaments` asks for, checked
//! against the game and the limits, and stored; the server's schedule stores its own the same way.

use plateau_protocol::server::TournamentDetail;
use plateau_store::tournaments::{StoredTournament, TournamentStatus};
use plateau_tournament::{Fill, Kind, Settings, Tournament, TournamentError};
use serde::Deserialize;

use super::state::{Live, Setup, Tournaments};
use plateau_lobby::model::{ApiError, Code, TimeControl, unix_ms};
use plateau_lobby::players::{Player, PlayerId, PlayerKind};

/// Longest name of a tournament, in characters.
pub const NAME_CHARS: usize = 60;
/// Latest start of a new tournament, in seconds from its creation (a week).
pub const MAX_START_SECONDS: u32 = 7 * 24 * 3600;
/// The range of a tournament's `min_rating`, in shown rating points (docs/protocol.md section
/// 7.3): no rating falls below the ratings' floor, and none comes near 4,000 (a mean of 67
/// where a newcomer's is 25).
pub const MIN_RATING_LOW: i64 = plateau_store::ratings::FLOOR as i64;
/// See `MIN_RATING_LOW`.
pub const MIN_RATING_HIGH: i64 = 4_000;
/// A day, in milliseconds: the window of `Limits::tournaments_per_day`.
const DAY_MS: i64 = 24 * 3600 * 1000;
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
    /// Its name: 1 to `NAME_CHARS` characters, no control characters and none that change the
    /// direction of the text.
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
    /// The shown rating in the game a player needs to join: `MIN_RATING_LOW` to
    /// `MIN_RATING_HIGH`.
    #[serde(default)]
    pub min_rating: Option<i64>,
    /// The seed of its draws (docs/tournaments.md section 2.2), for tests only: refused with
    /// `seed/not_allowed` unless the server runs with `Options::test_seeds`.
    #[serde(default)]
    pub seed: Option<u64>,
}

impl Tournaments {
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
            || plateau_match::model::turns_text(&name)
        {
            return Err(invalid(format!(
                "name: 1 to {NAME_CHARS} characters, no control characters and none that \
                 change the direction of the text"
            )));
        }
        if let Some(min) = request.min_rating
            && !(MIN_RATING_LOW..=MIN_RATING_HIGH).contains(&min)
        {
            return Err(invalid(format!(
                "min_rating: {MIN_RATING_LOW} to {MIN_RATING_HIGH}, a shown rating"
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
    pub(super) async fn insert(
        &self,
        one: &Live,
        creator: PlayerId,
        now: i64,
    ) -> Result<(), plateau_store::StoreError> {
        let text = |v: Result<String, serde_json::Error>| {
            v.map_err(|e| plateau_store::StoreError::Corrupt(e.to_string()))
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
