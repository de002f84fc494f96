//! The rules of rules/moonleap.md on a compact state: movement ("Turn"), splits ("Splitting"),
//! runs and extra rolls ("Runs & extra rolls"), the end and the scores ("End & scoring"), and the
//! Mercenaries variant.
//!
//! Cells are bits of a `u64` (cell `c`, 1-based, is bit `c - 1`), so "the next empty cell ahead"
//! is one mask and one `trailing_zeros`. Astronaut positions are bytes: 0 off the board, else the
//! cell. Everything else (the milestone, the end) is derived from the positions, so the position
//! text is the whole state.

use std::sync::Arc;

use plateau_engine::{IllegalAction, Seat};

use crate::action::{Action, Face, Piece, split_pairs};
use crate::board::Board;

/// Astronauts per colour, numbered 1 to 5 (rules section "Components").
pub const ASTRONAUTS: usize = 5;

/// An astronaut colour: a seat's own (`a` to `d` for seats 1 to 4) or the mercenaries' (`m`,
/// the Mercenaries variant).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Colour(u8);

impl Colour {
    /// The mercenaries, a neutral colour any player may move (Mercenaries variant).
    pub const MERCENARIES: Colour = Colour(4);

    /// The colour of `seat`.
    ///
    /// # Panics
    /// If `seat` is not one of the four seats of the game.
    #[must_use]
    pub const fn of(seat: Seat) -> Colour {
        assert!(seat.0 < 4, "Moon Leap seats four players at most");
        Colour(seat.0)
    }

    /// The seat this colour belongs to; `None` for the mercenaries.
    #[must_use]
    pub const fn seat(self) -> Option<Seat> {
        if self.0 < 4 { Some(Seat(self.0)) } else { None }
    }

    /// The index into per-colour arrays: seats 0 to 3, then the mercenaries (4).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter of the position text: `a` to `d`, or `m`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self.seat() {
            Some(seat) => (b'a' + seat.0) as char,
            None => 'm',
        }
    }
}

/// A Moon Leap game in progress: the board, the variant, every astronaut's cell, who acts and the
/// face waiting for a decision.
#[derive(Clone, Debug)]
pub struct MoonLeap {
    pub(crate) board: Arc<Board>,
    pub(crate) mercenaries: bool,
    pub(crate) seats: u8,
    /// The seat to move, or the seat that ended the game.
    pub(crate) to_move: Seat,
    /// The face rolled and awaiting a decision; `None` when the die must be rolled (or at the end).
    pub(crate) roll: Option<Face>,
    /// Per colour (`Colour::index`), per astronaut number - 1: 0 off board, else the cell.
    pub(crate) cells: [[u8; ASTRONAUTS]; 5],
    /// Occupied cells.
    pub(crate) occupied: u64,
    /// Copies of the board masks the hot path needs: all cells, end cells, cells beyond the
    /// milestone line for this player count.
    pub(crate) full: u64,
    pub(crate) end: u64,
    pub(crate) beyond: u64,
    /// The seat whose resignation ended the game (`Game::end`, our ruling), if one did.
    pub(crate) resigned: Option<Seat>,
    /// Plies played since the start, or since the position text this state was read from.
    pub(crate) plies: u32,
    /// The game ends when `plies` reaches this (`Config::ply_limit`, docs/rulings.md Moon Leap 11).
    pub(crate) ply_limit: u32,
}

impl MoonLeap {
    /// An empty track for `seats` seats, `first` to roll.
    pub(crate) fn empty(
        board: Arc<Board>,
        mercenaries: bool,
        seats: usize,
        first: Seat,
    ) -> MoonLeap {
        MoonLeap {
            full: board.full_mask(),
            end: board.end_mask(),
            beyond: board.beyond_mask(seats),
            board,
            mercenaries,
            seats: seats as u8,
            to_move: first,
            roll: None,
            cells: [[0; ASTRONAUTS]; 5],
            occupied: 0,
            resigned: None,
            plies: 0,
            ply_limit: crate::DEFAULT_PLY_LIMIT,
        }
    }

    /// The board in use.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the Mercenaries variant is on.
    #[must_use]
    pub fn mercenaries(&self) -> bool {
        self.mercenaries
    }

    /// The seat to move, or the seat that ended the game.
    #[must_use]
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The face waiting for a decision; `None` when the die is to be rolled or the game is over.
    #[must_use]
    pub fn roll(&self) -> Option<Face> {
        self.roll
    }

    /// The cell (1-based) of astronaut `number` (1 to 5) of `colour`; `None` while it is off
    /// the board.
    ///
    /// # Panics
    /// If `number` is not 1 to 5.
    #[must_use]
    pub fn cell_of(&self, colour: Colour, number: u8) -> Option<u8> {
        match self.cells[colour.index()][usize::from(number) - 1] {
            0 => None,
            c => Some(c),
        }
    }

    /// Whether the game is over: every end cell is occupied (rules section "End & scoring"), a
    /// seat resigned, or the ply limit was reached (docs/rulings.md Moon Leap 11).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.occupied & self.end == self.end
            || self.resigned.is_some()
            || self.plies >= self.ply_limit
    }

    /// Plies played since the start (or since the position text this state was read from).
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Whether the game ended at the ply limit rather than by the rules' end or a resignation.
    #[must_use]
    pub fn ended_by_ply_limit(&self) -> bool {
        self.plies >= self.ply_limit
            && self.occupied & self.end != self.end
            && self.resigned.is_none()
    }

    /// Counts one ply played; at the limit the game is over and no face waits any more (a
    /// finished game is written with roll `-`, rules/moonleap.md "Canonical notation").
    pub(crate) fn count_ply(&mut self) {
        self.plies = self.plies.saturating_add(1);
        if self.plies >= self.ply_limit {
            self.roll = None;
        }
    }

    /// The seat whose resignation ended the game, if one did.
    #[must_use]
    pub fn resigned(&self) -> Option<Seat> {
        self.resigned
    }

    /// Ends the game on `seat`'s resignation (our ruling; the rules have none): the track stays as
    /// it is, no face waits any more, and `outcome` ranks `seat` last.
    pub(crate) fn resign(&mut self, seat: Seat) {
        self.resigned = Some(seat);
        self.roll = None;
    }

    /// Whether the milestone for this player count has been passed: some astronaut stands beyond
    /// its line. Astronauts never move back, so this never reverts (rules section "Turn").
    #[must_use]
    pub fn milestone_passed(&self) -> bool {
        self.occupied & self.beyond != 0
    }

    /// Each seat's score now (rules section "End & scoring"): the sum over its astronauts of
    /// number × cell value, or number × the off-board multiplier (−5) for one never entered.
    /// Mercenaries score for no one.
    #[must_use]
    pub fn scores(&self) -> Vec<i32> {
        Seat::all(usize::from(self.seats))
            .map(|seat| self.score(seat))
            .collect()
    }

    /// `seat`'s score now (`scores`).
    pub(crate) fn score(&self, seat: Seat) -> i32 {
        (1..=ASTRONAUTS as u8)
            .map(|n| {
                let factor = match self.cell_of(Colour::of(seat), n) {
                    Some(c) => self.board.value(c),
                    None => self.board.offboard_multiplier(),
                };
                i32::from(n) * factor
            })
            .sum()
    }

    // ---- movement (rules section "Turn", definitions) ----

    /// Where an astronaut now at `from` (0 = off board) would land with the track occupied as
    /// `occupied`: the lowest empty cell ahead of it (from cell 1 when entering), or `None` if it
    /// is blocked.
    #[inline]
    fn target(&self, from: u8, occupied: u64) -> Option<u8> {
        // Cells above `from` are bits `from..`: cell `from` itself is bit `from - 1`.
        let ahead = self.full & !occupied & (u64::MAX << from);
        if ahead == 0 {
            None
        } else {
            Some(ahead.trailing_zeros() as u8 + 1)
        }
    }

    /// The colour a piece of the seat to move stands for.
    #[inline]
    pub(crate) fn colour(&self, piece: Piece) -> Colour {
        self.group(piece.mercenary)
    }

    /// The colour the seat to move plays with: its own, or the mercenaries.
    #[inline]
    fn group(&self, mercenary: bool) -> Colour {
        if mercenary {
            Colour::MERCENARIES
        } else {
            Colour::of(self.to_move)
        }
    }

    /// Moves astronaut `number` of `colour` (enter or advance) to its target; returns the new
    /// cell, or `None`, changing nothing, if it is blocked.
    #[inline]
    pub(crate) fn step(&mut self, colour: Colour, number: u8) -> Option<u8> {
        let slot = usize::from(number) - 1;
        let from = self.cells[colour.index()][slot];
        let to = self.target(from, self.occupied)?;
        if from != 0 {
            self.occupied &= !(1u64 << (from - 1));
        }
        self.occupied |= 1u64 << (to - 1);
        self.cells[colour.index()][slot] = to;
        Some(to)
    }

    // ---- legality (rules sections "Turn" step 2 and "Splitting") ----

    /// Whether the single move of `piece` is legal for `face`.
    fn single_ok(&self, face: Face, piece: Piece) -> bool {
        (face.is_star() || face.astronaut() == Some(piece.number))
            && (!piece.mercenary || self.mercenaries)
            && self
                .target(
                    self.cells[self.colour(piece).index()][usize::from(piece.number) - 1],
                    self.occupied,
                )
                .is_some()
    }

    /// Whether the split `first` then `second` is legal for `face`: the milestone is passed, the
    /// pair is in the table for the face, `first` can move now and `second` can move on the track
    /// as it stands after `first`'s move (the sequential check).
    fn split_ok(&self, face: Face, first: Piece, second: Piece) -> bool {
        let pair = (
            first.number.min(second.number),
            first.number.max(second.number),
        );
        if !self.milestone_passed()
            || first.mercenary != second.mercenary
            || (first.mercenary && !self.mercenaries)
            || !split_pairs(face).contains(&pair)
        {
            return false;
        }
        let colour = self.colour(first);
        self.split_order_ok(colour, first.number, second.number)
    }

    #[inline]
    fn split_order_ok(&self, colour: Colour, first: u8, second: u8) -> bool {
        let row = &self.cells[colour.index()];
        let Some(to) = self.target(row[usize::from(first) - 1], self.occupied) else {
            return false;
        };
        let from = row[usize::from(first) - 1];
        let mut after = self.occupied | (1u64 << (to - 1));
        if from != 0 {
            after &= !(1u64 << (from - 1));
        }
        self.target(row[usize::from(second) - 1], after).is_some()
    }

    /// Writes the decisions open for `face` to `out` (cleared first): the single moves and splits
    /// of the player's own colour, then of the mercenaries; `pass` alone if there is none.
    pub(crate) fn decisions(&self, face: Face, out: &mut Vec<Action>) {
        out.clear();
        // Own astronauts first, then (variant) the mercenaries; an action never mixes the two.
        let groups: &[bool] = if self.mercenaries {
            &[false, true]
        } else {
            &[false]
        };
        let passed = self.milestone_passed();
        for &mercenary in groups {
            let colour = self.group(mercenary);
            let row = &self.cells[colour.index()];
            let piece = |number| Piece { mercenary, number };
            match face.astronaut() {
                None => {
                    for n in 1..=ASTRONAUTS as u8 {
                        if self
                            .target(row[usize::from(n) - 1], self.occupied)
                            .is_some()
                        {
                            out.push(Action::Move(piece(n)));
                        }
                    }
                }
                Some(n) => {
                    if self
                        .target(row[usize::from(n) - 1], self.occupied)
                        .is_some()
                    {
                        out.push(Action::Move(piece(n)));
                    }
                    if passed {
                        for &(x, y) in split_pairs(face) {
                            if self.split_order_ok(colour, x, y) {
                                out.push(Action::Split(piece(x), piece(y)));
                            }
                            if self.split_order_ok(colour, y, x) {
                                out.push(Action::Split(piece(y), piece(x)));
                            }
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// Whether any decision other than `pass` exists for `face`.
    fn any_move(&self, face: Face) -> bool {
        let mut out = Vec::with_capacity(16);
        self.decisions(face, &mut out);
        out[0] != Action::Pass
    }

    /// Why `action` is not a legal decision now, or `Ok` if it is.
    pub(crate) fn check_decision(&self, face: Face, action: &Action) -> Result<(), IllegalAction> {
        // Pieces built through the API or serde rather than parsed text may carry any number.
        let numbered = |p: &Piece| (1..=ASTRONAUTS as u8).contains(&p.number);
        let bad = match action {
            Action::Move(p) => Some(p).filter(|p| !numbered(p)),
            Action::Split(a, b) => [a, b].into_iter().find(|p| !numbered(p)),
            _ => None,
        };
        if let Some(p) = bad {
            return Err(IllegalAction::rule(format!(
                "astronaut {p}: astronauts are numbered 1 to 5"
            )));
        }
        let ok = match *action {
            Action::Roll(_) => {
                return Err(IllegalAction::rule(format!(
                    "the die already shows {face}: choose a move, not a roll"
                )));
            }
            Action::Move(p) => self.single_ok(face, p),
            Action::Split(a, b) => self.split_ok(face, a, b),
            Action::Pass => !self.any_move(face),
        };
        if ok {
            return Ok(());
        }
        Err(IllegalAction::rule(match *action {
            Action::Move(p) if p.mercenary && !self.mercenaries => {
                "mercenaries are not in play".to_owned()
            }
            Action::Move(p) if !face.is_star() && face.astronaut() != Some(p.number) => {
                format!("the die shows {face}: it moves astronaut {face}, not {p}")
            }
            Action::Move(p) => format!("astronaut {p} has no empty cell ahead of it"),
            Action::Split(a, b) if (a.mercenary || b.mercenary) && !self.mercenaries => {
                "mercenaries are not in play".to_owned()
            }
            Action::Split(a, b) if a.mercenary != b.mercenary => {
                "a split never mixes own and mercenary astronauts".to_owned()
            }
            Action::Split(..) if face.is_star() || face.astronaut().unwrap_or(0) < 3 => {
                format!("a {face} never splits (only 3, 4 and 5 do)")
            }
            Action::Split(..) if !self.milestone_passed() => format!(
                "no split before the milestone is passed (line after cell {})",
                self.board.milestone_after(usize::from(self.seats))
            ),
            Action::Split(a, b)
                if !split_pairs(face)
                    .contains(&(a.number.min(b.number), a.number.max(b.number))) =>
            {
                format!(
                    "{a}+{b} does not split the {face} rolled (3 = 1+2, 4 = 1+3, 5 = 1+4 or 2+3)"
                )
            }
            Action::Split(a, b) => {
                format!(
                    "{a}+{b}: {a} must be able to move and then {b} (rules: both halves must be playable)"
                )
            }
            _ => format!("a move is possible with the {face} rolled, so the roll cannot be passed"),
        }))
    }

    // ---- applying (rules sections "Turn" steps 3-5, "Runs & extra rolls", "End & scoring") ----

    /// Plays a decision already known to be legal for the face rolled, then hands the die on:
    /// the end is checked after every astronaut moved; if the game goes on, an extra roll is due
    /// when a run of the player's colour contains an astronaut of that colour moved by this action.
    pub(crate) fn play_decision(&mut self, action: &Action) {
        let seat = self.to_move;
        self.roll = None;
        let (pieces, count) = match *action {
            Action::Move(p) => ([p, p], 1),
            Action::Split(a, b) => ([a, b], 2),
            Action::Pass | Action::Roll(_) => ([Piece::own(1); 2], 0),
        };
        // Cells where the player's own astronauts landed (mercenaries never make runs).
        let mut moved = 0u64;
        for piece in &pieces[..count] {
            let Some(to) = self.step(self.colour(*piece), piece.number) else {
                return;
            };
            // Rules "Turn" step 4: the end is checked after each astronaut, so it can cut a split.
            if self.is_over() {
                return;
            }
            if !piece.mercenary {
                moved |= 1u64 << (to - 1);
            }
        }
        if moved != 0 && self.new_run(seat, moved) {
            return; // the same player rolls again
        }
        self.to_move = Seat((self.to_move.0 + 1) % self.seats);
    }

    /// Whether a run (≥ 3 consecutive cells of `seat`'s colour) contains one of the `moved` cells.
    #[inline]
    fn new_run(&self, seat: Seat, moved: u64) -> bool {
        let own = self.cells[Colour::of(seat).index()]
            .iter()
            .filter(|c| **c != 0)
            .fold(0u64, |m, c| m | (1u64 << (c - 1)));
        // Bit i of `triples`: cells i, i+1, i+2 (0-based bits) are all own.
        let triples = own & (own >> 1) & (own >> 2);
        // A moved cell at bit p lies in a run iff a triple starts at p-2, p-1 or p.
        let starts = moved | (moved >> 1) | (moved >> 2);
        triples & starts != 0
    }
}
