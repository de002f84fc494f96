//! Plateau's tournaments as pure logic (docs/tournaments.md): an arena for two-seat games
//! (lichess's), a Swiss paired by the Dutch system (FIDE C.04.3), and rounds of tables for
//! three seats or more (Board Game Arena's). No I/O and no clock: the server says what happened
//! (a player joins, a game ends, the time now) and asks what to do next (which games to start,
//! who leads).
//!
//! The whole tournament is one [`Tournament`] value that serializes with serde: the server
//! stores it as durably as a match and reads it back after a restart, with standings and
//! results intact. Every operation either succeeds or returns a [`TournamentError`] and
//! changes nothing; none panics on bad input. Where the rules leave something to chance (the
//! first round's colours, the order of equal waiting players) the draw comes from
//! [`Settings::seed`], so the same calls give the same tournament.

mod arena;
mod error;
mod matching;
mod model;
mod sheet;
mod standings;
mod stored;
mod swiss;
mod tables;

use serde::{Deserialize, Serialize};

pub use error::TournamentError;
pub use model::{
    Fill, Game, GameId, GameResult, Kind, MAX_ARENA_MINUTES, MAX_ROUNDS, MAX_SEATS, Player,
    PlayerId, Round, Seat, Settings,
};
pub use standings::{Standing, TieBreaks};
pub use swiss::Colour;
pub use tables::table_sizes;

/// A tournament: its settings, players, games, rounds and the arena's clock.
///
/// It serializes with serde as a plain record of those fields. Reading one back checks that it
/// holds together as the operations build it (ids in place, players known, ranks that fit the
/// seats, one game per player per round...): a value that does not is refused with
/// [`TournamentError::Stored`] naming the part at fault.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "stored::Stored")]
pub struct Tournament {
    settings: Settings,
    players: Vec<Player>,
    games: Vec<Game>,
    rounds: Vec<Round>,
    /// When the arena started, in milliseconds of the server's clock.
    started_ms: Option<u64>,
    /// How many results were recorded (the next one's `finished_order`).
    recorded: u32,
}

impl Tournament {
    /// A new tournament with nobody in it.
    ///
    /// # Errors
    /// [`TournamentError::Settings`] if the settings break a limit ([`Settings::check`]).
    pub fn new(settings: Settings) -> Result<Self, TournamentError> {
        settings.check()?;
        Ok(Tournament {
            settings,
            players: Vec::new(),
            games: Vec::new(),
            rounds: Vec::new(),
            started_ms: None,
            recorded: 0,
        })
    }

    /// The settings it was created with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Its players, in the order they first joined (withdrawn ones included).
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Its games, in creation order (`games()[id.0]` is game `id`).
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// One game.
    ///
    /// # Errors
    /// [`TournamentError::UnknownGame`].
    pub fn game(&self, id: GameId) -> Result<&Game, TournamentError> {
        self.games
            .get(id.0 as usize)
            .ok_or(TournamentError::UnknownGame(id))
    }

    /// The rounds paired so far (a Swiss or tables; empty for an arena).
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The games started and not finished.
    pub fn running(&self) -> impl Iterator<Item = &Game> {
        self.games.iter().filter(|game| game.result.is_none())
    }

    /// Whether the tournament is over: every round played (a Swiss, tables), or the arena's
    /// time up at `now_ms` with every game it started finished.
    pub fn is_over(&self, now_ms: u64) -> bool {
        let all_in = self.running().next().is_none();
        match self.settings.kind {
            Kind::Arena { .. } => self.arena_end_ms().is_some_and(|end| now_ms >= end) && all_in,
            Kind::Swiss { rounds } | Kind::Tables { rounds, .. } => {
                self.rounds.len() as u32 >= rounds && all_in
            }
        }
    }

    fn closed(&self) -> bool {
        match self.settings.kind {
            Kind::Arena { .. } => false,
            Kind::Swiss { rounds } | Kind::Tables { rounds, .. } => {
                self.rounds.len() as u32 >= rounds
            }
        }
    }

    /// When the arena ends, in the server's milliseconds, once started.
    pub fn arena_end_ms(&self) -> Option<u64> {
        match self.settings.kind {
            Kind::Arena { minutes } => self
                .started_ms
                .map(|start| start + u64::from(minutes) * 60_000),
            _ => None,
        }
    }

    /// A player joins, with their rating now. A player who withdrew comes back with their
    /// results (lichess's arena does the same); one joining a Swiss or tables after rounds
    /// were paired counts those rounds as unplayed (no points).
    ///
    /// # Errors
    /// [`TournamentError::AlreadyJoined`]; [`TournamentError::Finished`] once every round is
    /// paired or the arena's time is up (at `now_ms`).
    pub fn join(&mut self, id: PlayerId, rating: i32, now_ms: u64) -> Result<(), TournamentError> {
        if self.closed() || self.arena_end_ms().is_some_and(|end| now_ms >= end) {
            return Err(TournamentError::Finished);
        }
        match self.players.iter_mut().find(|p| p.id == id) {
            Some(player) if player.active => Err(TournamentError::AlreadyJoined(id)),
            Some(player) => {
                player.active = true;
                Ok(())
            }
            None => {
                let joined_round = self.rounds.len() as u32;
                self.players.push(Player {
                    id,
                    rating,
                    active: true,
                    joined_round,
                });
                Ok(())
            }
        }
    }

    /// A player withdraws: they are paired no more; their results stay and a game they are
    /// playing goes on (its result is recorded as any other).
    ///
    /// # Errors
    /// [`TournamentError::UnknownPlayer`], [`TournamentError::AlreadyWithdrawn`].
    pub fn withdraw(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        let player = self
            .players
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or(TournamentError::UnknownPlayer(id))?;
        if !player.active {
            return Err(TournamentError::AlreadyWithdrawn(id));
        }
        player.active = false;
        Ok(())
    }

    /// Starts an arena's clock at `now_ms` (the server's milliseconds).
    ///
    /// # Errors
    /// [`TournamentError::WrongKind`] for a Swiss or tables (their rounds are paired one by one);
    /// [`TournamentError::AlreadyStarted`].
    pub fn start(&mut self, now_ms: u64) -> Result<(), TournamentError> {
        if !matches!(self.settings.kind, Kind::Arena { .. }) {
            return Err(TournamentError::WrongKind(
                "only an arena is started by the clock",
            ));
        }
        if self.started_ms.is_some() {
            return Err(TournamentError::AlreadyStarted);
        }
        self.started_ms = Some(now_ms);
        Ok(())
    }

    /// Pairs the next round of a Swiss (section 4) or of tables (section 5) among the active
    /// players, and returns it. Its games are [`Tournament::running`] until their results are
    /// recorded.
    ///
    /// # Errors
    /// [`TournamentError::WrongKind`] for an arena; [`TournamentError::Finished`] when every
    /// round is paired; [`TournamentError::RoundRunning`] while a result of the last round is
    /// missing; [`TournamentError::NotEnoughPlayers`]; [`TournamentError::NoTables`] when short
    /// tables cannot seat the players; [`TournamentError::NoPairing`] when no Swiss pairing
    /// avoids a rematch (the tournament cannot go on: the server ends it).
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        if matches!(self.settings.kind, Kind::Arena { .. }) {
            return Err(TournamentError::WrongKind(
                "an arena pairs waiting players, not rounds",
            ));
        }
        if self.closed() {
            return Err(TournamentError::Finished);
        }
        if let Some(last) = self.rounds.last()
            && last
                .games
                .iter()
                .any(|&id| self.games[id.0 as usize].result.is_none())
        {
            return Err(TournamentError::RoundRunning(last.number));
        }
        let number = self.rounds.len() as u32 + 1;
        let (tables, bye) = match self.settings.kind {
            Kind::Tables { fill, .. } => (tables::seat(self, fill)?, None),
            _ => {
                let pairing = sheet::pair_swiss(self)?;
                let boards = pairing
                    .boards
                    .iter()
                    .map(|&(w, b)| vec![Seat::Player(w), Seat::Player(b)])
                    .collect();
                (boards, pairing.bye)
            }
        };
        let games = tables
            .into_iter()
            .map(|seats| self.add_game(Some(number), seats))
            .collect();
        self.rounds.push(Round { number, games, bye });
        Ok(self.rounds.last().expect("just pushed"))
    }

    /// Pairs the arena's waiting players at `now_ms` (section 3.2): every active player not in a
    /// game is paired with one of close score, never with the opponent of their last game if
    /// another is there; one left over waits for the next call. Returns the new games.
    ///
    /// # Errors
    /// [`TournamentError::WrongKind`] for a Swiss or tables; [`TournamentError::NotStarted`];
    /// [`TournamentError::Finished`] once the time is up.
    pub fn pair_waiting(&mut self, now_ms: u64) -> Result<Vec<GameId>, TournamentError> {
        if !matches!(self.settings.kind, Kind::Arena { .. }) {
            return Err(TournamentError::WrongKind(
                "only an arena pairs waiting players",
            ));
        }
        let end = self.arena_end_ms().ok_or(TournamentError::NotStarted)?;
        if now_ms >= end {
            return Err(TournamentError::Finished);
        }
        let boards = arena::pair(self);
        Ok(boards
            .into_iter()
            .map(|seats| self.add_game(None, seats))
            .collect())
    }

    fn add_game(&mut self, round: Option<u32>, seats: Vec<Seat>) -> GameId {
        let id = GameId(self.games.len() as u32);
        self.games.push(Game {
            id,
            round,
            seats,
            result: None,
            finished_order: None,
        });
        id
    }

    /// Records a game's result.
    ///
    /// # Errors
    /// [`TournamentError::UnknownGame`], [`TournamentError::AlreadyRecorded`],
    /// [`TournamentError::BadResult`] (ranks that do not fit the game's seats).
    pub fn record(&mut self, id: GameId, result: GameResult) -> Result<(), TournamentError> {
        let game = self
            .games
            .get_mut(id.0 as usize)
            .ok_or(TournamentError::UnknownGame(id))?;
        if game.result.is_some() {
            return Err(TournamentError::AlreadyRecorded(id));
        }
        result.check(game.seats.len())?;
        game.result = Some(result);
        game.finished_order = Some(self.recorded);
        self.recorded += 1;
        Ok(())
    }

    /// The standings, first place first: points and the kind's tie-breaks (section 6).
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings(self)
    }

    /// A player's entry, if they joined.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }
}
