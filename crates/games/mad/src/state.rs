//! The MAD state and its rules: geometry, legal move generation, playing a turn, end checks
//! (rules/mad.md sections 3 to 8).

use serde::{Deserialize, Serialize};

use crate::action::{
    Action, CELLS, COLUMNS, CORVETTE, Cell, Kind, ROTATIONS, Shift, Step, cannons, cell_name,
    kind_code, sails, shields,
};
use crate::{MadConfig, Side};

mod refusal;

/// The position of an exiled ship in `Mad::pos`.
pub(crate) const EXILE: u8 = u8::MAX;

/// Most actions a position can have, with margin: 8 ships x 12 targets (4 one-cell, 4 straight and
/// 4 L-shaped two-cell) = 96 movements, 8 shifts, and at most 4 one-cell bonus steps x 3 shifts for
/// each of the 8 ships (96).
pub(crate) const MAX_ACTIONS: usize = 96 + 8 + 96;

/// Orthogonal neighbours of each cell as a bit set over the 24 cells (bit i = cell i), computed
/// at compile time.
static NEAR: [u32; CELLS] = near();

const fn near() -> [u32; CELLS] {
    let mut near = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (c, r) = (cell % COLUMNS, cell / COLUMNS);
        if c > 0 {
            near[cell] |= 1 << (cell - 1);
        }
        if c + 1 < COLUMNS {
            near[cell] |= 1 << (cell + 1);
        }
        if r > 0 {
            near[cell] |= 1 << (cell - COLUMNS);
        }
        if r + 1 < CELLS / COLUMNS {
            near[cell] |= 1 << (cell + COLUMNS);
        }
        cell += 1;
    }
    near
}

/// The cells of a side's last row (section 3): row 6 for Red, row 1 for Blue.
const LAST_ROW: [u32; 2] = [0xf << 20, 0xf];

/// The cells from which a 1-cell step can reach a side's last row: that row and the one before.
const BONUS_ZONE: [u32; 2] = [0xff << 16, 0xff];

/// Kinds of the two rotation pools as bit sets over kinds: frigates {112, 121, 211} and
/// destroyers {122, 212, 221}.
const FRIGATES: u8 = 0b0001_0110;
const DESTROYERS: u8 = 0b0110_1000;

/// How a finished game ended (the `kind` of its `Outcome`, see the crate doc).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// A corvette was exiled (section 8.1): full victory.
    Corvette,
    /// The tie-break counter reached its limit (section 8.2): semi-victory.
    Tiebreak,
    /// Both players agreed to stop (section 8.2): semi-victory by the tie-break winner rule.
    Agreement,
    /// The loser ran out of time.
    Timeout,
    /// The loser resigned.
    Resign,
}

impl EndKind {
    /// The stable `Outcome::kind` string.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Corvette => "corvette",
            EndKind::Tiebreak => "tiebreak",
            EndKind::Agreement => "agreement",
            EndKind::Timeout => "timeout",
            EndKind::Resign => "resign",
        }
    }
}

/// A MAD game in progress: the board, both fleets, the counters of rules/mad.md section 9 and the
/// configuration. Small and `Copy` (about 70 bytes).
///
/// Cells are indexed `(row - 1) * 4 + column` (a = 0). `cells` holds 0 for an empty cell or
/// `1 + side * 8 + kind`; `pos[side][kind]` is the ship's cell or `EXILE`; `occupied[side]` and
/// `armoured[side]` are bit sets (bit i = cell i) of the side's ships and of those with 2 shields.
/// All four always agree.
/// Serialized as its config, position text and result (the `position` module), read back
/// checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mad {
    pub(crate) config: MadConfig,
    pub(crate) cells: [u8; CELLS],
    pub(crate) pos: [[u8; 8]; 2],
    pub(crate) occupied: [u32; 2],
    pub(crate) armoured: [u32; 2],
    pub(crate) side: Side,
    pub(crate) ply: u16,
    pub(crate) since: u16,
    pub(crate) last: Option<Side>,
    pub(crate) result: Option<(Side, EndKind)>,
    /// The movement of the last turn (rules/mad.md section 5.1, a bonus's included), `None`
    /// when that turn moved no ship (a shift or a pass) and before the first; for the
    /// observation's `last_move`. The position text does not hold it.
    pub(crate) last_step: Option<Step>,
}

/// The start layout of rules/mad.md section 3, by kind: the cell of each Red ship. Blue's layout
/// mirrors it across the middle line (same column, row 7 - r).
const RED_START: [u8; 8] = [
    1, // 111 on b1
    7, // 112 on d2
    4, // 121 on a2
    5, // 122 on b2
    6, // 211 on c2
    3, // 212 on d1
    0, // 221 on a1
    2, // 222 on c1
];

impl Mad {
    /// The start position of rules/mad.md section 3 under `config`.
    pub(crate) fn start(config: MadConfig) -> Mad {
        let mut state = Mad::empty(config);
        for kind in 0..8u8 {
            let cell = RED_START[kind as usize];
            state.put(Side::Red, kind, cell);
            state.put(Side::Blue, kind, mirror(cell));
        }
        state
    }

    /// A board with every ship exiled, Red to move, counters at 0.
    pub(crate) fn empty(config: MadConfig) -> Mad {
        Mad {
            config,
            cells: [0; CELLS],
            pos: [[EXILE; 8]; 2],
            occupied: [0; 2],
            armoured: [0; 2],
            side: Side::Red,
            ply: 0,
            since: 0,
            last: None,
            result: None,
            last_step: None,
        }
    }

    /// Puts a ship on an empty cell (setup only).
    pub(crate) fn put(&mut self, side: Side, kind: Kind, cell: u8) {
        self.cells[cell as usize] = token(side, kind);
        self.pos[side as usize][kind as usize] = cell;
        self.occupied[side as usize] |= 1 << cell;
        self.armoured[side as usize] |= u32::from(kind & 1) << cell;
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &MadConfig {
        &self.config
    }

    /// The side to move (after the end: the side that would have moved next).
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Turns already played (0 at the start).
    #[must_use]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// Turns since the last expulsion, or since the start (the tie-break counter, section 8.2).
    #[must_use]
    pub fn since(&self) -> u16 {
        self.since
    }

    /// The last side that expelled an enemy ship, if any.
    #[must_use]
    pub fn last_expeller(&self) -> Option<Side> {
        self.last
    }

    /// The winner and how the game ended, once it has.
    #[must_use]
    pub fn result(&self) -> Option<(Side, EndKind)> {
        self.result
    }

    /// The ship on `cell` (index `(row - 1) * 4 + column`) as (side, kind), if any.
    ///
    /// # Panics
    /// If `cell` is 24 or more.
    #[must_use]
    pub fn ship_at(&self, cell: u8) -> Option<(Side, Kind)> {
        untoken(self.cells[cell as usize])
    }

    /// Where the ship `(side, kind)` stands, or `None` if it is exiled.
    #[must_use]
    pub fn position_of(&self, side: Side, kind: Kind) -> Option<u8> {
        let cell = self.pos[side as usize][kind as usize & 7];
        (cell != EXILE).then_some(cell)
    }

    /// Whether the positioning-turn restriction (section 7) applies to the side to move now: the
    /// rule is on and this is that side's first turn (plies 0 and 1).
    #[must_use]
    pub fn positioning_now(&self) -> bool {
        self.config.positioning_turn && self.ply < 2 && self.result.is_none()
    }

    /// The last row of `side`: the enemy's back row (row 6 for Red, row 1 for Blue), as the row
    /// index 0..6.
    const fn last_row(side: Side) -> u8 {
        match side {
            Side::Red => 5,
            Side::Blue => 0,
        }
    }

    /// Writes the legal actions of the side to move into `out` (cleared first), in the order of
    /// rules/mad.md section 9: movements, permutations, rotations, bonus composites; or, in the
    /// positioning turn, `pass` then the shifts. Nothing once the game is over.
    ///
    /// Movements use bit sets: the targets of a ship are its neighbours and, with 2 sails, the
    /// neighbours of its empty neighbours other than itself. On a grid a neighbour's neighbour is
    /// at distance 0 or 2, so this is exactly the 2-cell paths (straight or L) with a free middle
    /// cell, without U-turns (section 5.1).
    pub(crate) fn generate(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let side = self.side;
        let me = side as usize;
        if self.positioning_now() {
            out.push(Action::Pass);
            self.push_shifts(side, out);
            return;
        }
        let (occupied, armoured) = (self.occupied, self.armoured);
        let enemy = occupied[1 - me];
        for kind in 0..8u8 {
            let from = self.pos[me][kind as usize];
            if from == EXILE {
                continue;
            }
            let mut targets = self.reach(me, kind, from);
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let capture = enemy & (1 << to) != 0;
                out.push(Action::Move(Step {
                    from: Cell(from),
                    to: Cell(to),
                    capture,
                }));
            }
        }
        self.push_shifts(side, out);
        // Bonus composites (section 6): a 1-cell step onto the last row that does not expel the
        // enemy corvette, then every shift involving the moved ship that is legal afterwards. The
        // step changes no other own ship, so the shifts' legality reads off the fleet as it is.
        let enemy_corvette = match self.pos[1 - me][CORVETTE as usize] {
            EXILE => 0,
            cell => 1u32 << cell,
        };
        let on_board = self.on_board(side);
        let mut near_last_row = occupied[me] & BONUS_ZONE[me];
        while near_last_row != 0 {
            let from = near_last_row.trailing_zeros() as u8;
            near_last_row &= near_last_row - 1;
            let kind = (self.cells[from as usize] - 1) & 7;
            let mut targets = NEAR[from as usize] & LAST_ROW[me] & !occupied[me] & !enemy_corvette;
            if cannons(kind) == 1 {
                targets &= !armoured[1 - me];
            }
            let pool = match kind.count_ones() {
                1 => FRIGATES,
                2 => DESTROYERS,
                _ => 0,
            };
            let rotations: &[u8] = if (on_board & pool & !(1 << kind)) != 0 {
                if pool == FRIGATES { &[0, 1] } else { &[2, 3] }
            } else {
                &[]
            };
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let step = Step {
                    from: Cell(from),
                    to: Cell(to),
                    capture: enemy & (1 << to) != 0,
                };
                out.push(Action::Bonus(step, Shift::Permute(kind.min(7 - kind))));
                for &r in rotations {
                    out.push(Action::Bonus(step, Shift::Rotate(r)));
                }
            }
        }
    }

    /// The cells the ship `kind` of side index `me`, standing on `from`, may move to in one
    /// movement (section 5.1), as a bit set over cells: empty cells and the enemy ships it may
    /// expel (ships with 2 shields only by 2-cannon ships).
    #[inline]
    pub(crate) fn reach(&self, me: usize, kind: Kind, from: u8) -> u32 {
        let empty = !(self.occupied[0] | self.occupied[1]);
        let mut targets = NEAR[from as usize];
        if sails(kind) == 2 {
            let mut middles = targets & empty;
            while middles != 0 {
                targets |= NEAR[middles.trailing_zeros() as usize];
                middles &= middles - 1;
            }
            targets &= !(1 << from);
        }
        targets &= !self.occupied[me];
        if cannons(kind) == 1 {
            targets &= !self.armoured[1 - me];
        }
        targets
    }

    /// The kinds of `side` on the board, as a bit set over kinds.
    fn on_board(&self, side: Side) -> u8 {
        let mut set = 0;
        for kind in 0..8 {
            if self.pos[side as usize][kind] != EXILE {
                set |= 1 << kind;
            }
        }
        set
    }

    fn push_shifts(&self, side: Side, out: &mut Vec<Action>) {
        let on_board = self.on_board(side);
        for p in 0..4u8 {
            if on_board & (1 << p | 1 << (7 - p)) != 0 {
                out.push(Action::Shift(Shift::Permute(p)));
            }
        }
        for (r, pool) in [(0, FRIGATES), (2, DESTROYERS)] {
            if (on_board & pool).count_ones() >= 2 {
                out.push(Action::Shift(Shift::Rotate(r)));
                out.push(Action::Shift(Shift::Rotate(r + 1)));
            }
        }
    }

    /// Plays a legal action: no checks (the fast path of `Game::apply_legal`).
    pub(crate) fn play(&mut self, action: Action) {
        let side = self.side;
        self.last_step = match action {
            Action::Move(step) | Action::Bonus(step, _) => Some(step),
            Action::Shift(_) | Action::Pass => None,
        };
        let expelled = match action {
            Action::Move(step) => self.do_step(side, step),
            Action::Shift(shift) => {
                self.do_shift(side, shift);
                false
            }
            Action::Bonus(step, shift) => {
                let expelled = self.do_step(side, step);
                self.do_shift(side, shift);
                expelled
            }
            Action::Pass => false,
        };
        self.ply = self.ply.saturating_add(1);
        if expelled {
            self.since = 0;
            self.last = Some(side);
        } else {
            self.since = self.since.saturating_add(1);
        }
        self.side = side.other();
        self.check_end();
    }

    /// The end checks of section 8 in the order of Q6: a corvette in exile, then the counter.
    pub(crate) fn check_end(&mut self) {
        let red_out = self.pos[0][CORVETTE as usize] == EXILE;
        let blue_out = self.pos[1][CORVETTE as usize] == EXILE;
        self.result = if red_out {
            Some((Side::Blue, EndKind::Corvette))
        } else if blue_out {
            Some((Side::Red, EndKind::Corvette))
        } else if self.since >= self.config.tiebreak_limit {
            Some((self.tiebreak_winner(), EndKind::Tiebreak))
        } else {
            None
        };
    }

    /// The winner of a tie-break or agreed stop: the last side that expelled, else Blue (8.2).
    pub(crate) fn tiebreak_winner(&self) -> Side {
        self.last.unwrap_or(Side::Blue)
    }

    /// Moves a ship, expelling the enemy on the destination if any. Returns whether it expelled.
    fn do_step(&mut self, side: Side, step: Step) -> bool {
        let (from, to) = (step.from.index(), step.to.index());
        let mover = self.cells[from as usize];
        let target = self.cells[to as usize];
        let expelled = target != 0;
        let (from_bit, to_bit) = (1u32 << from, 1u32 << to);
        if let Some((owner, kind)) = untoken(target) {
            self.pos[owner as usize][kind as usize] = EXILE;
            self.occupied[owner as usize] &= !to_bit;
            self.armoured[owner as usize] &= !to_bit;
        }
        self.cells[to as usize] = mover;
        self.cells[from as usize] = 0;
        let kind = (mover - 1) & 7;
        let me = side as usize;
        self.pos[me][kind as usize] = to;
        self.occupied[me] ^= from_bit | to_bit;
        if kind & 1 == 1 {
            self.armoured[me] ^= from_bit | to_bit;
        }
        expelled
    }

    /// Permutes or rotates `side`'s ships; an exiled ship enters where its partner stood and the
    /// partner goes into exile.
    fn do_shift(&mut self, side: Side, shift: Shift) {
        let me = side as usize;
        match shift {
            Shift::Permute(p) => {
                let (a, b) = (p as usize, 7 - p as usize);
                self.pos[me].swap(a, b);
            }
            Shift::Rotate(r) => {
                let [x, y, z] = ROTATIONS[r as usize].map(usize::from);
                let old = self.pos[me];
                self.pos[me][x] = old[y];
                self.pos[me][y] = old[z];
                self.pos[me][z] = old[x];
            }
        }
        let kinds: &[Kind] = match shift {
            Shift::Permute(p) => &[p, 7 - p],
            Shift::Rotate(r) => &ROTATIONS[r as usize],
        };
        for &kind in kinds {
            let cell = self.pos[me][kind as usize];
            if cell != EXILE {
                self.cells[cell as usize] = token(side, kind);
            }
        }
        // The set of occupied cells is unchanged unless a ship entered from or left for exile.
        let (mut occupied, mut armoured) = (0, 0);
        for (kind, &cell) in self.pos[me].iter().enumerate() {
            if cell != EXILE {
                occupied |= 1 << cell;
                armoured |= ((kind & 1) as u32) << cell;
            }
        }
        self.occupied[me] = occupied;
        self.armoured[me] = armoured;
    }
}

/// The `cells` value of a ship.
#[inline]
pub(crate) const fn token(side: Side, kind: Kind) -> u8 {
    1 + side as u8 * 8 + kind
}

/// The ship of a `cells` value, if any.
#[inline]
pub(crate) fn untoken(t: u8) -> Option<(Side, Kind)> {
    match t {
        0 => None,
        1..=8 => Some((Side::Red, t - 1)),
        _ => Some((Side::Blue, t - 9)),
    }
}

/// The cell in the same column, mirrored across the middle line.
const fn mirror(cell: u8) -> u8 {
    let (c, r) = (cell % 4, cell / 4);
    (5 - r) * 4 + c
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `cells`, `pos`, `occupied` and `armoured` describe the same fleet.
    fn assert_consistent(state: &Mad) {
        let mut occupied = [0u32; 2];
        let mut armoured = [0u32; 2];
        for side in [Side::Red, Side::Blue] {
            for kind in 0..8u8 {
                let cell = state.pos[side as usize][kind as usize];
                if cell != EXILE {
                    assert_eq!(state.cells[cell as usize], token(side, kind));
                    occupied[side as usize] |= 1 << cell;
                    armoured[side as usize] |= u32::from(kind & 1) << cell;
                }
            }
        }
        let ships = state.cells.iter().filter(|t| **t != 0).count() as u32;
        assert_eq!(ships, occupied[0].count_ones() + occupied[1].count_ones());
        assert_eq!((state.occupied, state.armoured), (occupied, armoured));
    }

    #[test]
    fn board_views_stay_consistent_in_random_games() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut out = Vec::new();
        for _ in 0..200 {
            let mut state = Mad::start(MadConfig::default());
            while state.result.is_none() {
                assert_consistent(&state);
                state.generate(&mut out);
                state.play(out[rng.random_range(0..out.len())]);
            }
            assert_consistent(&state);
        }
    }
}
