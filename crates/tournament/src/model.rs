//! The values a tournament is made of (docs/tournaments.md section 2): its settings, its players,
//! its games and rounds, and the results of games. Every one is plain data that serializes with
//! serde, so the whole tournament is one value the server stores and reads back.

use serde::{Deserialize, Serialize};

use crate::TournamentError;

/// A player as the server knows them (the store's player id). Bots are no players of a
/// tournament: they only fill seats of tables ([`Seat::Bot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PlayerId(pub i64);

/// A game of the tournament: its index in [`crate::Tournament::games`], given in creation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameId(pub u32);

/// The three kinds of tournament (docs/tournaments.md section 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Kind {
    /// Two seats; players are paired again as soon as their game ends, until `minutes` after
    /// the start (lichess's arena, section 3).
    Arena {
        /// The arena's length, in minutes (1 to [`MAX_ARENA_MINUTES`]).
        minutes: u32,
    },
    /// Two seats; `rounds` rounds paired by the Dutch system (FIDE C.04.3, section 4).
    Swiss {
        /// Rounds to play (1 to [`MAX_ROUNDS`]).
        rounds: u32,
    },
    /// Three or more seats; each round seats players by score into tables of the game's size
    /// (Board Game Arena's way, section 5).
    Tables {
        /// Rounds to play (1 to [`MAX_ROUNDS`]).
        rounds: u32,
        /// What happens to seats left over when the players do not fill whole tables.
        fill: Fill,
    },
}

/// How rounds of tables seat players when their number is not a multiple of the table's size
/// (docs/tournaments.md section 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fill {
    /// The lowest tables get one bot each, so every table is full.
    Bots,
    /// The lowest tables play one seat short (the game must be playable by one seat fewer).
    ShortTables,
}

/// Longest arena, in minutes (a day).
pub const MAX_ARENA_MINUTES: u32 = 24 * 60;
/// Most rounds a Swiss or a tournament of tables may have.
pub const MAX_ROUNDS: u32 = 100;
/// Most seats a table may have.
pub const MAX_SEATS: u8 = 8;

/// A tournament's settings, fixed when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Arena, Swiss or tables, with their lengths.
    pub kind: Kind,
    /// Seats of the game played: 2 for an arena or a Swiss, 3 to [`MAX_SEATS`] for tables.
    pub seats: u8,
    /// Whether the games change ratings (the server's business; kept here so the tournament's
    /// value says everything about it).
    pub rated: bool,
    /// Seed of the draws the rules leave to chance (the first round's colours, ties among equal
    /// waiting players): the same seed and the same calls give the same tournament.
    pub seed: u64,
}

impl Settings {
    /// Checks the settings' limits: the seat count fits the kind, lengths are in range.
    ///
    /// # Errors
    /// [`TournamentError::Settings`] naming the field at fault.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |why: &'static str| Err(TournamentError::Settings(why));
        match self.kind {
            Kind::Arena { minutes } => {
                if self.seats != 2 {
                    return bad("seats: an arena is for two-seat games");
                }
                if minutes == 0 || minutes > MAX_ARENA_MINUTES {
                    return bad("minutes: out of range");
                }
            }
            Kind::Swiss { rounds } => {
                if self.seats != 2 {
                    return bad("seats: a Swiss is for two-seat games");
                }
                if rounds == 0 || rounds > MAX_ROUNDS {
                    return bad("rounds: out of range");
                }
            }
            Kind::Tables { rounds, .. } => {
                if !(3..=MAX_SEATS).contains(&self.seats) {
                    return bad("seats: tables are for games of three seats or more");
                }
                if rounds == 0 || rounds > MAX_ROUNDS {
                    return bad("rounds: out of range");
                }
            }
        }
        Ok(())
    }
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Who.
    pub id: PlayerId,
    /// Rating when they joined, in shown points; orders the seeding (pairing numbers).
    pub rating: i32,
    /// False once they withdrew: they are paired no more, their results stay.
    pub active: bool,
    /// The number of rounds already paired when they joined (0 for those there from the start);
    /// the rounds before count as unplayed.
    pub joined_round: u32,
}

/// Who sits in a seat of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// A player of the tournament.
    Player(PlayerId),
    /// A bot filling a table (rounds of tables with [`Fill::Bots`] only).
    Bot,
}

impl Seat {
    /// The player in the seat, if it is not a bot.
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Seat::Player(id) => Some(id),
            Seat::Bot => None,
        }
    }
}

/// A game's result: per seat a rank, 0 for first, ties sharing a rank and skipping the ranks
/// below them ("standard competition" ranking: 0, 0, 2). A two-seat game is a win (0, 1), a
/// loss (1, 0) or a draw (0, 0) for the first seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Rank per seat, in seat order.
    pub ranks: Vec<u8>,
}

impl GameResult {
    /// A two-seat game won by `seat`: 0 for the first seat, anything else for the second.
    pub fn win(seat: usize) -> Self {
        GameResult {
            ranks: if seat == 0 { vec![0, 1] } else { vec![1, 0] },
        }
    }

    /// A two-seat draw.
    pub fn draw() -> Self {
        GameResult { ranks: vec![0, 0] }
    }

    /// Checks the ranks for a game of `seats` seats: one per seat, and each rank equal to the
    /// number of seats ranked strictly better.
    ///
    /// # Errors
    /// [`TournamentError::BadResult`] saying what is wrong.
    pub fn check(&self, seats: usize) -> Result<(), TournamentError> {
        if self.ranks.len() != seats {
            return Err(TournamentError::BadResult("one rank per seat"));
        }
        for &rank in &self.ranks {
            let better = self.ranks.iter().filter(|&&other| other < rank).count();
            if usize::from(rank) != better {
                return Err(TournamentError::BadResult(
                    "ranks must be 0 for first, ties shared",
                ));
            }
        }
        Ok(())
    }

    /// Points of the seat `seat`, in half points: 2 for every seat it outranks and 1 for
    /// every other seat it ties with (a two-seat game: 2 a win, 1 a draw, 0 a loss;
    /// docs/tournaments.md section 2.3).
    ///
    /// # Panics
    /// If `seat` is not a seat of the result (the ranks were checked against the game).
    pub fn points(&self, seat: usize) -> u32 {
        let mine = self.ranks[seat];
        let mut points = 0;
        for (other, &rank) in self.ranks.iter().enumerate() {
            if other != seat {
                points += match rank.cmp(&mine) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                };
            }
        }
        points
    }
}

/// One game of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Its id (its index among the tournament's games).
    pub id: GameId,
    /// The round it belongs to (1-based), or `None` in an arena.
    pub round: Option<u32>,
    /// Who sits where; in a two-seat game seat 0 has the first move ("white").
    pub seats: Vec<Seat>,
    /// The result, once recorded.
    pub result: Option<GameResult>,
    /// In an arena, the order in which results came (0 for the first recorded): a player's
    /// streak follows the order their games ended.
    pub finished_order: Option<u32>,
}

impl Game {
    /// The seat of `player` in this game, if they play in it.
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats
            .iter()
            .position(|&seat| seat == Seat::Player(player))
    }

    /// The players of the game, bots left out.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.seats.iter().filter_map(|seat| seat.player())
    }
}

/// A paired round of a Swiss or of tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Its number, from 1.
    pub number: u32,
    /// Its games, board 1 first (the highest scores).
    pub games: Vec<GameId>,
    /// In a Swiss, the player given the pairing-allocated bye (a win without a game), if the
    /// number of players was odd.
    pub bye: Option<PlayerId>,
}
