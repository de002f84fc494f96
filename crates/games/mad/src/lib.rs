//! MAD (Motion, Attack, Defense), as specified in rules/mad.md.
//!
//! Two sides, Red (seat 0, moves first) and Blue (seat 1), each with 8 ships coded by their sails,
//! cannons and shields (111 to 222), on a board of 4 columns (a-d) by 6 rows (1-6). A turn is one
//! movement, permutation or rotation (section 4), with two exceptions: the bonus move (a 1-cell
//! movement onto the last row followed by a shift of the arrived ship, section 6) and the optional
//! positioning turn (section 7, `MadConfig::positioning_turn`).
//!
//! # Modules
//! - [`action`]: cells, ship kinds and the action notation of section 9.
//! - `state`: the [`Mad`] state, move generation, playing a turn and the end checks.
//! - `position`: the position text, the [`Observation`] and the terminal board.
//! - `eval`: [`Mad::evaluation`], a heuristic value of a running game for bots.
//!
//! # Outcome kinds
//! | kind | when | ranks | scores (winner, loser) |
//! |------|------|-------|------------------------|
//! | `"corvette"` | a 111 is exiled (by the enemy, or by its owner's own shift): full victory (8.1) | 1, 2 | 1.0, 0.0 |
//! | `"tiebreak"` | `tiebreak_limit` turns in a row without an expulsion: semi-victory of the last expeller, else Blue (8.2) | 1, 2 | 0.5, 0.0 |
//! | `"agreement"` | both players agree to stop (`Ending::Agreement`): same winner rule as the tie-break | 1, 2 | 0.5, 0.0 |
//! | `"timeout"` | `Ending::Timeout(seat)`: the other side wins | 1, 2 | 1.0, 0.0 |
//! | `"resign"` | `Ending::Resign(seat)`: the other side wins | 1, 2 | 1.0, 0.0 |
//!
//! There are no draws. After the end every `apply` and `end` returns `IllegalAction::GameOver`.
//!
//! # Speed
//! [`Mad`] is `Copy` (fixed arrays and bit sets, no heap). `legal_actions` writes into the
//! caller's `Vec` without allocating once it has grown, `apply_legal` plays without checks, and
//! `apply` checks membership in the generated list and otherwise explains the refusal.
//!
//! # Tests
//! `tests/rules.rs` holds the 50 cases of rules/mad.md section 10; `tests/data/perft.txt` the perft
//! table, whose counts come from the independent brute-force checker in `tests/brute` (it tries
//! every syntactically possible action text against a plain reading of the rules);
//! `tests/playouts.rs` runs the engine's conformance kit; `tests/data/playthrough.txt` is the
//! golden playthrough.
//!
//! # Example
//! ```
//! use plateau_engine::{Actor, Game, Seat};
//! use plateau_mad::{Mad, MadConfig};
//!
//! let mut game = Mad::new(&MadConfig::default(), 2).unwrap();
//! let action = game.parse_action("c2-c4").unwrap();
//! game.apply(Actor::Seat(Seat(0)), &action).unwrap();
//! assert_eq!(
//!     game.format_position(),
//!     "B221B111B222B212/B121B122B211B112/2R2111/4/R121R1221R112/R221R111R222R212 b 1 1 -"
//! );
//! ```

pub mod action;
mod eval;
mod position;
mod state;

use plateau_engine::{
    ActionInfo, Actor, Ending, Game, GameInfo, IllegalAction, Outcome, ParseError, Seat,
    SetupError, ToAct, Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub use action::{Action, Cell, Kind, Shift, Step};
pub use position::{LastMove, Observation};
pub use state::{EndKind, Mad};

/// A side: Red (seat 0, moves first, back row 1) or Blue (seat 1, back row 6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Red, seat 0.
    Red = 0,
    /// Blue, seat 1.
    Blue = 1,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// The seat playing this side.
    #[must_use]
    pub const fn seat(self) -> Seat {
        Seat(self as u8)
    }

    /// The side of a seat (0 = Red, 1 = Blue), if it has one.
    #[must_use]
    pub const fn of_seat(seat: Seat) -> Option<Side> {
        match seat.0 {
            0 => Some(Side::Red),
            1 => Some(Side::Blue),
            _ => None,
        }
    }

    /// `'r'` or `'b'`, as in the position text.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::Red => 'r',
            Side::Blue => 'b',
        }
    }

    /// `'R'` or `'B'`, as in ship tokens.
    #[must_use]
    pub const fn token_letter(self) -> char {
        match self {
            Side::Red => 'R',
            Side::Blue => 'B',
        }
    }

    /// `"Red"` or `"Blue"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
        }
    }
}

/// Options of a MAD game. JSON: `{"positioning_turn": false, "tiebreak_limit": 40}`, each field
/// optional; an unknown field is refused (its name is in the error).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MadConfig {
    /// The optional positioning turn (rules/mad.md section 7): on each side's first turn, no
    /// movement, and passing is allowed. Default off.
    pub positioning_turn: bool,
    /// Turns (plies) without an expulsion after which the tie-break ends the game (section 8.2).
    /// Default 40; must be at least 1.
    pub tiebreak_limit: u16,
}

impl Default for MadConfig {
    fn default() -> Self {
        MadConfig {
            positioning_turn: false,
            tiebreak_limit: 40,
        }
    }
}

impl MadConfig {
    /// Checks the fields.
    ///
    /// # Errors
    /// A message naming the bad field.
    pub fn check(&self) -> Result<(), String> {
        if self.tiebreak_limit == 0 {
            return Err("tiebreak_limit must be at least 1".into());
        }
        Ok(())
    }
}

impl Game for Mad {
    type Action = Action;
    type Observation = Observation;
    type Config = MadConfig;

    const INFO: GameInfo = GameInfo {
        name: "mad",
        title: "MAD",
        min_seats: 2,
        max_seats: 2,
        default_seats: 2,
        chance: false,
        hidden_information: false,
        simultaneous: false,
    };

    fn new(config: &MadConfig, seats: usize) -> Result<Self, SetupError> {
        SetupError::check_seats(&Self::INFO, seats)?;
        config.check().map_err(SetupError::Config)?;
        Ok(Mad::start(*config))
    }

    fn parse_position(config: &MadConfig, text: &str) -> Result<Self, SetupError> {
        Mad::parse_position_text(*config, text)
    }

    fn format_position(&self) -> String {
        self.position_text()
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if self.result.is_some() {
            ToAct::Terminal
        } else {
            ToAct::Player(self.side.seat())
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat == self.side.seat() {
            self.generate(out);
        } else {
            out.clear();
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }

    /// Checks that `actor` is the side to move and that `action` is in the legal list, then plays
    /// it. The reason of a refusal starts with the action's text, e.g.
    /// `"c2-c5: a ship with 2 sails moves at most 2 cells (rules/mad.md section 5.1)"`.
    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), IllegalAction> {
        if self.result.is_some() {
            return Err(IllegalAction::GameOver);
        }
        if actor != Actor::Seat(self.side.seat()) {
            return Err(IllegalAction::NotToAct { actor });
        }
        let mut legal = Vec::with_capacity(state::MAX_ACTIONS);
        self.generate(&mut legal);
        if !legal.contains(action) {
            return Err(IllegalAction::rule(self.why_illegal(*action)));
        }
        self.play(*action);
        Ok(())
    }

    fn apply_legal(&mut self, _actor: Actor, action: &Action) {
        self.play(*action);
    }

    fn outcome(&self) -> Option<Outcome> {
        let (winner, kind) = self.result?;
        let seat = winner.seat();
        Some(match kind {
            EndKind::Corvette | EndKind::Timeout | EndKind::Resign => {
                Outcome::single_winner(2, seat, kind.name())
            }
            EndKind::Tiebreak | EndKind::Agreement => {
                let mut outcome = Outcome::single_winner(2, seat, kind.name());
                outcome.scores[seat.index()] = 0.5;
                outcome
            }
        })
    }

    fn observe(&self, _viewer: Viewer) -> Observation {
        self.observation()
    }

    fn determinize<R: Rng + ?Sized>(&self, _viewer: Seat, _rng: &mut R) -> Self {
        *self
    }

    fn format_action(&self, action: &Action) -> String {
        action.text()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    /// A movement is `move` (from, to, the ship and any ship it expels), a permutation
    /// `permute` and a rotation `rotate` (the ships in their notation's order and the cells of
    /// those on the board), a bonus the movement `then` the shift, `pass` a pass
    /// (rules/mad.md sections 5 to 7).
    fn action_info(&self, action: &Action) -> ActionInfo {
        let shift = |shift: Shift| {
            let (kind, ships) = match shift {
                Shift::Permute(p) => ("permute", vec![p, 7 - p]),
                Shift::Rotate(r) => ("rotate", action::ROTATIONS[r as usize & 3].to_vec()),
            };
            ActionInfo {
                cells: ships
                    .iter()
                    .filter_map(|&k| self.position_of(self.side(), k))
                    .map(|c| Cell(c).to_string())
                    .collect(),
                pieces: ships
                    .iter()
                    .map(|&k| action::kind_code(k).to_owned())
                    .collect(),
                ..ActionInfo::new(kind)
            }
        };
        let step = |step: Step| ActionInfo {
            from: Some(step.from.to_string()),
            to: Some(step.to.to_string()),
            pieces: [step.from, step.to]
                .iter()
                .filter_map(|c| self.ship_at(c.index()))
                .map(|(_, k)| action::kind_code(k).to_owned())
                .collect(),
            ..ActionInfo::new("move")
        };
        match *action {
            Action::Move(s) => step(s),
            Action::Shift(s) => shift(s),
            Action::Bonus(s, b) => ActionInfo {
                then: Some(Box::new(shift(b))),
                ..step(s)
            },
            Action::Pass => ActionInfo::new("pass"),
        }
    }

    fn render_text(&self, _viewer: Viewer, color: bool) -> String {
        self.board_text(color)
    }

    /// Timeout and resignation lose for `seat`; an agreed stop goes to the tie-break winner.
    ///
    /// # Errors
    /// `GameOver` after the end; `Rule` for a seat other than 0 or 1 (the state is unchanged).
    fn end(&mut self, ending: Ending) -> Result<(), IllegalAction> {
        if self.result.is_some() {
            return Err(IllegalAction::GameOver);
        }
        let loser = |seat: Seat| {
            Side::of_seat(seat)
                .ok_or_else(|| IllegalAction::rule(format!("MAD has no seat {seat}")))
        };
        self.result = Some(match ending {
            Ending::Timeout(seat) => (loser(seat)?.other(), EndKind::Timeout),
            Ending::Resign(seat) => (loser(seat)?.other(), EndKind::Resign),
            Ending::Agreement => (self.tiebreak_winner(), EndKind::Agreement),
        });
        Ok(())
    }
}
