//! Moon Leap (rules/moonleap.md): 2 to 4 players race five numbered astronauts each along a shared
//! track; the die names the astronaut, which jumps to the next empty cell; at the end each astronaut
//! scores its number times its cell's value.
//!
//! - `board`: the track as data (values, milestone lines, end cells), default `boards/default.json`.
//! - `action`: die faces, astronauts and actions with their canonical text.
//! - `state`: the rules on a compact state (`MoonLeap`).
//! - `position`: the canonical position text, which is also the serialized form.
//! - `render`: the terminal drawing shown by `plateau play`.
//! - `eval`: `MoonLeap::evaluation`, a heuristic value of a running game for bots.
//!
//! The die is an explicit chance node (`ToAct::Chance`, six faces of 1/6). The game has perfect
//! information: the observation is the full public state and `determinize` is a clone.
//!
//! ```
//! use plateau_engine::{Actor, Game, Seat, ToAct};
//! use plateau_moonleap::{Action, Config, MoonLeap};
//!
//! let mut game = MoonLeap::new(&Config::default(), 2).unwrap();
//! assert_eq!(game.to_act(), ToAct::Chance);
//! let roll = game.parse_action("r5").unwrap();
//! game.apply(Actor::Chance, &roll).unwrap();
//! let mut legal = Vec::new();
//! game.legal_actions(Seat(0), &mut legal);
//! assert_eq!(legal.len(), 1); // only entering astronaut 5: no split before the milestone
//! game.apply(Actor::Seat(Seat(0)), &legal[0]).unwrap();
//! assert!(game.format_position().starts_with("a5...."));
//! assert!(game.format_position().ends_with(" 2 b -"));
//! ```

mod action;
mod board;
mod eval;
mod observation;
mod position;
mod render;
mod state;

use std::sync::Arc;

use plateau_engine::{
    ActionInfo, Actor, Ending, Game, GameInfo, IllegalAction, ObservationJson, Outcome, ParseError,
    Seat, SetupError, ToAct, Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub use action::{Action, Face, Piece, parse_action, split_pairs};
pub use board::{Board, BoardDesc, DEFAULT_BOARD_JSON, MAX_CELLS};
pub use observation::Observation;
pub use state::{ASTRONAUTS, Colour, MoonLeap};

/// Game options. The default is the standard game on the embedded board, seat 1 first, with the
/// ply limit `DEFAULT_PLY_LIMIT`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The board description to play on; `None` (JSON `null`) is the embedded default board
    /// (`boards/default.json`, rules/moonleap.md "Proposed layout").
    pub board: Option<BoardDesc>,
    /// The Mercenaries variant (rules/moonleap.md "Mercenaries variant", our rulings): a neutral
    /// colour `m` any player may move instead of their own.
    pub mercenaries: bool,
    /// The seat (0-based) that rolls first (rules "Setup" step 3: an input in software).
    pub first_seat: u8,
    /// The game's maximum length in plies, every roll and every decision counting one (our
    /// ruling, docs/rulings.md Moon Leap 11): reaching it ends the game, scored as it stands
    /// (kind `ply_limit`). At least 1; the default is `DEFAULT_PLY_LIMIT`.
    pub ply_limit: u32,
}

/// The default `Config::ply_limit`: far above any game played on the default board (the longest of
/// 10,000 random games per table size is under 400 plies, docs/rulings.md Moon Leap 11), so only a
/// game that stalls (every astronaut blocked on a custom board) or an endless run of unusable rolls
/// reaches it.
pub const DEFAULT_PLY_LIMIT: u32 = 5_000;

impl Default for Config {
    fn default() -> Config {
        Config {
            board: None,
            mercenaries: false,
            first_seat: 0,
            ply_limit: DEFAULT_PLY_LIMIT,
        }
    }
}

impl Config {
    /// The board this config selects, validated.
    ///
    /// # Errors
    /// `SetupError::Config` naming the bad board field.
    pub fn board(&self) -> Result<Arc<Board>, SetupError> {
        match &self.board {
            None => Ok(Board::standard()),
            Some(desc) => Board::new(desc.clone())
                .map(Arc::new)
                .map_err(|e| SetupError::Config(format!("board: {e}"))),
        }
    }

    /// The ply limit, checked to be at least 1.
    ///
    /// # Errors
    /// `SetupError::Config` naming `ply_limit` when it is 0.
    pub fn ply_limit(&self) -> Result<u32, SetupError> {
        if self.ply_limit == 0 {
            return Err(SetupError::Config(
                "ply_limit: a game needs at least 1 ply (the default is 5000)".to_owned(),
            ));
        }
        Ok(self.ply_limit)
    }
}

/// Refuses a table at which the game could never end by the rules (rules/moonleap.md "End &
/// scoring"): the end is reached only when every end cell is occupied, and each astronaut holds
/// one cell, so the board may not have more end cells than there are astronauts in play (five per
/// seat, and five mercenaries in the variant).
///
/// # Errors
/// `SetupError::Config` naming `board.end_cells`.
pub fn check_can_end(board: &Board, seats: usize, mercenaries: bool) -> Result<(), SetupError> {
    let astronauts = ASTRONAUTS * (seats + usize::from(mercenaries));
    let ends = board.desc().end_cells.len();
    if ends > astronauts {
        return Err(SetupError::Config(format!(
            "board.end_cells: {ends} end cells but only {astronauts} astronauts in play \
             ({ASTRONAUTS} per seat at a table of {seats}{}): the game could never end",
            if mercenaries {
                ", and the mercenaries"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

impl Game for MoonLeap {
    type Action = Action;
    type Observation = Observation;
    type Config = Config;

    const INFO: GameInfo = GameInfo {
        name: "moonleap",
        title: "Moon Leap",
        min_seats: 2,
        max_seats: 4,
        default_seats: 2,
        chance: true,
        hidden_information: false,
        simultaneous: false,
    };

    fn new(config: &Config, seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        if usize::from(config.first_seat) >= seats {
            return Err(SetupError::Config(format!(
                "first_seat: seat {} is not at a table of {seats} (seats are 0-based)",
                config.first_seat
            )));
        }
        let board = config.board()?;
        check_can_end(&board, seats, config.mercenaries)?;
        let mut state = MoonLeap::empty(board, config.mercenaries, seats, Seat(config.first_seat));
        state.ply_limit = config.ply_limit()?;
        Ok(state)
    }

    /// A position text starts the ply count at 0: the text holds no counter.
    fn parse_position(config: &Config, text: &str) -> Result<Self, SetupError> {
        let mut state = MoonLeap::from_text(config.board()?, config.mercenaries, text)?;
        state.ply_limit = config.ply_limit()?;
        Ok(state)
    }

    fn format_position(&self) -> String {
        self.position_text()
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    fn to_act(&self) -> ToAct {
        if self.is_over() {
            ToAct::Terminal
        } else if self.roll.is_none() {
            ToAct::Chance
        } else {
            ToAct::Player(self.to_move)
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if let ToAct::Player(s) = self.to_act()
            && s == seat
            && let Some(face) = self.roll
        {
            self.decisions(face, out);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.to_act() == ToAct::Chance {
            out.extend(Face::ALL.iter().map(|f| (Action::Roll(*f), 1.0 / 6.0)));
        }
    }

    /// Out of time, the seat's compulsory move is made for it: its first legal action in the
    /// rules' order (docs/rulings.md, Moon Leap 9).
    fn timeout_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        let mut out = Vec::new();
        self.legal_actions(seat, &mut out);
        out.truncate(1);
        Some(out)
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), IllegalAction> {
        let to_act = self.to_act();
        if to_act == ToAct::Terminal {
            return Err(IllegalAction::GameOver);
        }
        if !to_act.allows(actor) {
            return Err(IllegalAction::NotToAct { actor });
        }
        match (self.roll, action) {
            (None, Action::Roll(_)) => {}
            (None, other) => {
                return Err(IllegalAction::rule(format!(
                    "the die must be rolled first, `{other}` is not a roll"
                )));
            }
            (Some(face), action) => self.check_decision(face, action)?,
        }
        self.apply_legal(actor, action);
        Ok(())
    }

    fn apply_legal(&mut self, actor: Actor, action: &Action) {
        let _ = actor;
        match action {
            Action::Roll(face) => self.roll = Some(*face),
            decision => self.play_decision(decision),
        }
        self.count_ply();
    }

    /// Ranks by score (rules "End & scoring"), kind `score`; a game ended by the ply limit ranks
    /// the same way, kind `ply_limit` (docs/rulings.md Moon Leap 11). After a resignation (kind
    /// `resign`) the resigning seat ranks last and the others rank by their scores as they stand;
    /// `scores` are everyone's points either way.
    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let scores: Vec<f64> = self.scores().into_iter().map(f64::from).collect();
        Some(match self.resigned {
            None if self.ended_by_ply_limit() => Outcome::ranked_by_score(scores, "ply_limit"),
            None => Outcome::ranked_by_score(scores, "score"),
            Some(seat) => {
                let mut ranking = scores.clone();
                ranking[seat.index()] = f64::NEG_INFINITY;
                Outcome {
                    ranks: Outcome::ranked_by_score(ranking, "resign").ranks,
                    scores,
                    kind: "resign".to_owned(),
                }
            }
        })
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        let _ = viewer; // perfect information: everyone sees everything
        self.observation()
    }

    fn observation_json(&self, viewer: Viewer) -> ObservationJson {
        let _ = viewer;
        self.observation_written()
    }

    fn determinize<R: Rng + ?Sized>(&self, viewer: Seat, rng: &mut R) -> Self {
        let _ = (viewer, rng); // perfect information
        self.clone()
    }

    fn format_action(&self, action: &Action) -> String {
        action.text()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseError> {
        action::parse_action(text, self.mercenaries)
    }

    /// A roll is `roll` (the face as `choice`), a move `move` and a split `split`: the astronaut
    /// (`pieces`), the crater it leaves (`from`, none when it enters) and the one it lands on
    /// (`to`), the split's second astronaut `then`; `pass` a forfeited roll. Craters are numbered
    /// from 1 along the track, as the board shows them (rules sections "Turn" and "Splitting").
    fn action_info(&self, action: &Action) -> ActionInfo {
        let mut after = self.clone();
        let mut leap = |piece: Piece| {
            let colour = after.colour(piece);
            let from = after.cell_of(colour, piece.number);
            let to = after.step(colour, piece.number);
            ActionInfo {
                from: from.map(|c| c.to_string()),
                to: to.map(|c| c.to_string()),
                pieces: vec![piece.text()],
                ..ActionInfo::new("move")
            }
        };
        match *action {
            Action::Roll(face) => ActionInfo {
                choice: Some(String::from(face.symbol())),
                ..ActionInfo::new("roll")
            },
            Action::Move(p) => leap(p),
            Action::Split(a, b) => {
                let first = leap(a);
                ActionInfo {
                    then: Some(Box::new(leap(b))),
                    ..ActionInfo {
                        kind: "split",
                        ..first
                    }
                }
            }
            Action::Pass => ActionInfo::new("pass"),
        }
    }

    fn render_text(&self, viewer: Viewer, color: bool) -> String {
        let _ = viewer;
        render::render(self, color)
    }

    /// Resignation, our ruling (the rules have none; docs/rulings.md, Moon Leap): any seat may
    /// resign at any time and the game ends at once, the resigning seat last and the others ranked
    /// by their scores as they stand, so in a two-player game the other seat wins. The game does
    /// not go on without the seat: its astronauts would block craters for the others, and the
    /// rules do not say how to take them off (docs/rulings.md, Moon Leap 10).
    /// A timeout is no ending here (`timeout_actions`), nor is an agreed stop.
    ///
    /// # Errors
    /// `GameOver` after the end; a rule error for a seat not at the table; `Unsupported` for the
    /// other endings.
    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::GameOver);
        }
        match ending {
            Ending::Resign(seat) if seat.index() < usize::from(self.seats) => {
                self.resign(seat);
                Ok(())
            }
            Ending::Resign(seat) => Err(IllegalAction::rule(format!(
                "seat {seat} is not at this table of {} seats",
                self.seats
            ))),
            other => Err(IllegalAction::Unsupported {
                what: other.to_string(),
            }),
        }
    }
}
