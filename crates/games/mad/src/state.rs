//! The MAD state and its rules: geometry, legal move generation, playing a turn, end checks
//! (rules/mad.md sections 3 to 8).

use serde::{Deserialize, Serialize};

use crate::action::{
    Action, CELLS, COLUMNS, CORVETTE, Kind, ROTATIONS, Shift, Step, cannons, cell_name, kind_code,
    sails, shields,
};
use crate::{MadConfig, Side};

/// The position of an exiled ship in `Mad::pos`.
pub(crate) const EXILE: u8 = u8::MAX;

/// Most actions a position can have, with margin: 8 ships x 12 targets (4 one-cell, 4 straight and
/// 4 L-shaped two-cell) = 96 movements, 8 shifts, and at most 4 one-cell bonus steps x 3 shifts for
/// each of the 8 ships (96).
pub(crate) const MAX_ACTIONS: usize = 96 + 8 + 96;

/// Cell geometry computed at compile time: orthogonal neighbours, straight two-cell targets with
/// their middle cell, and L-shaped two-cell targets with their two possible middle cells.
struct Geometry {
    near: [[u8; 4]; CELLS],
    near_len: [u8; CELLS],
    straight: [[(u8, u8); 4]; CELLS],
    straight_len: [u8; CELLS],
    corner: [[(u8, u8, u8); 4]; CELLS],
    corner_len: [u8; CELLS],
}

const fn cell_at(column: i32, row: i32) -> Option<u8> {
    if column >= 0 && column < COLUMNS as i32 && row >= 0 && row < (CELLS / COLUMNS) as i32 {
        Some((row * COLUMNS as i32 + column) as u8)
    } else {
        None
    }
}

const fn geometry() -> Geometry {
    let mut g = Geometry {
        near: [[0; 4]; CELLS],
        near_len: [0; CELLS],
        straight: [[(0, 0); 4]; CELLS],
        straight_len: [0; CELLS],
        corner: [[(0, 0, 0); 4]; CELLS],
        corner_len: [0; CELLS],
    };
    let dirs: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut cell = 0;
    while cell < CELLS {
        let (c, r) = ((cell % COLUMNS) as i32, (cell / COLUMNS) as i32);
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = dirs[d];
            if let Some(n) = cell_at(c + dc, r + dr) {
                g.near[cell][g.near_len[cell] as usize] = n;
                g.near_len[cell] += 1;
                if let Some(t) = cell_at(c + 2 * dc, r + 2 * dr) {
                    g.straight[cell][g.straight_len[cell] as usize] = (t, n);
                    g.straight_len[cell] += 1;
                }
            }
            d += 1;
        }
        let diags: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = diags[d];
            if let (Some(t), Some(via_column), Some(via_row)) = (
                cell_at(c + dc, r + dr),
                cell_at(c + dc, r),
                cell_at(c, r + dr),
            ) {
                g.corner[cell][g.corner_len[cell] as usize] = (t, via_column, via_row);
                g.corner_len[cell] += 1;
            }
            d += 1;
        }
        cell += 1;
    }
    g
}

static GEO: Geometry = geometry();

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
/// configuration. Small and `Copy` (about 90 bytes).
///
/// Cells are indexed `(row - 1) * 4 + column` (a = 0). `cells` holds 0 for an empty cell or
/// `1 + side * 8 + kind`; `pos[side][kind]` is the ship's cell or `EXILE`. Both always agree.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Mad {
    pub(crate) config: MadConfig,
    pub(crate) cells: [u8; CELLS],
    pub(crate) pos: [[u8; 8]; 2],
    pub(crate) side: Side,
    pub(crate) ply: u16,
    pub(crate) since: u16,
    pub(crate) last: Option<Side>,
    pub(crate) result: Option<(Side, EndKind)>,
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
            side: Side::Red,
            ply: 0,
            since: 0,
            last: None,
            result: None,
        }
    }

    /// Puts a ship on an empty cell (setup only).
    pub(crate) fn put(&mut self, side: Side, kind: Kind, cell: u8) {
        self.cells[cell as usize] = token(side, kind);
        self.pos[side as usize][kind as usize] = cell;
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

    /// Whether `shift` is legal for `side` as a turn of its own: a permutation needs one ship of
    /// the pair on the board, a rotation two ships of its pool (sections 5.2, 5.3).
    fn shift_legal(&self, side: Side, shift: Shift) -> bool {
        let pos = &self.pos[side as usize];
        match shift {
            Shift::Permute(p) => pos[p as usize] != EXILE || pos[7 - p as usize] != EXILE,
            Shift::Rotate(r) => {
                ROTATIONS[r as usize]
                    .iter()
                    .filter(|k| pos[**k as usize] != EXILE)
                    .count()
                    >= 2
            }
        }
    }

    /// Whether the mover of `kind` (cannons) may land on `cell`: empty, or an enemy it can expel.
    /// Returns `Some(capture)`.
    #[inline]
    fn landing(&self, side: Side, kind: Kind, cell: u8) -> Option<bool> {
        let t = self.cells[cell as usize];
        if t == 0 {
            return Some(false);
        }
        let (owner, target) = untoken(t)?;
        (owner != side && shields(target) <= cannons(kind)).then_some(true)
    }

    /// Writes the legal actions of the side to move into `out` (cleared first), in the order of
    /// rules/mad.md section 9: movements, permutations, rotations, bonus composites; or, in the
    /// positioning turn, `pass` then the shifts. Nothing once the game is over.
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
        for kind in 0..8u8 {
            let from = self.pos[me][kind as usize];
            if from == EXILE {
                continue;
            }
            let f = from as usize;
            for &to in &GEO.near[f][..GEO.near_len[f] as usize] {
                if let Some(capture) = self.landing(side, kind, to) {
                    out.push(Action::Move(Step { from, to, capture }));
                }
            }
            if sails(kind) == 2 {
                for &(to, mid) in &GEO.straight[f][..GEO.straight_len[f] as usize] {
                    if self.cells[mid as usize] == 0
                        && let Some(capture) = self.landing(side, kind, to)
                    {
                        out.push(Action::Move(Step { from, to, capture }));
                    }
                }
                for &(to, a, b) in &GEO.corner[f][..GEO.corner_len[f] as usize] {
                    if (self.cells[a as usize] == 0 || self.cells[b as usize] == 0)
                        && let Some(capture) = self.landing(side, kind, to)
                    {
                        out.push(Action::Move(Step { from, to, capture }));
                    }
                }
            }
        }
        self.push_shifts(side, out);
        // Bonus composites (section 6): a 1-cell step onto the last row that does not expel the
        // enemy corvette, then every shift involving the moved ship that is legal afterwards. The
        // step changes no other own ship, so a shift's legality after it is easy to read here.
        let last_row = Self::last_row(side);
        for kind in 0..8u8 {
            let from = self.pos[me][kind as usize];
            if from == EXILE {
                continue;
            }
            let f = from as usize;
            for &to in &GEO.near[f][..GEO.near_len[f] as usize] {
                if to / COLUMNS as u8 != last_row {
                    continue;
                }
                let Some(capture) = self.landing(side, kind, to) else {
                    continue;
                };
                if capture && self.cells[to as usize] == token(side.other(), CORVETTE) {
                    continue;
                }
                let step = Step { from, to, capture };
                let pair = kind.min(7 - kind);
                out.push(Action::Bonus(step, Shift::Permute(pair)));
                let rotations = match kind.count_ones() {
                    1 => [0, 1],
                    2 => [2, 3],
                    _ => continue,
                };
                let pool = ROTATIONS[rotations[0]];
                let others_on_board = pool
                    .iter()
                    .filter(|k| **k != kind && self.pos[me][**k as usize] != EXILE)
                    .count();
                if others_on_board >= 1 {
                    for r in rotations {
                        out.push(Action::Bonus(step, Shift::Rotate(r as u8)));
                    }
                }
            }
        }
    }

    fn push_shifts(&self, side: Side, out: &mut Vec<Action>) {
        for shift in Shift::ALL {
            if self.shift_legal(side, shift) {
                out.push(Action::Shift(shift));
            }
        }
    }

    /// Plays a legal action: no checks (the fast path of `Game::apply_legal`).
    pub(crate) fn play(&mut self, action: Action) {
        let side = self.side;
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
        self.ply += 1;
        if expelled {
            self.since = 0;
            self.last = Some(side);
        } else {
            self.since += 1;
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
        let mover = self.cells[step.from as usize];
        let target = self.cells[step.to as usize];
        let expelled = target != 0;
        if let Some((owner, kind)) = untoken(target) {
            self.pos[owner as usize][kind as usize] = EXILE;
        }
        self.cells[step.to as usize] = mover;
        self.cells[step.from as usize] = 0;
        let kind = (mover - 1) & 7;
        self.pos[side as usize][kind as usize] = step.to;
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
    }

    /// Why `action` is not legal for the side to move (called only when it is not in the legal
    /// list): one sentence starting with the action's text and citing the rule.
    pub(crate) fn why_illegal(&self, action: Action) -> String {
        let text = action.text();
        let reason = self.reason(action);
        format!("{text}: {reason}")
    }

    fn reason(&self, action: Action) -> String {
        let side = self.side;
        if self.positioning_now() && matches!(action, Action::Move(_) | Action::Bonus(..)) {
            return "no movement in the positioning turn: permute, rotate or pass \
                    (rules/mad.md section 7)"
                .into();
        }
        match action {
            Action::Pass => "passing is allowed only in the positioning turn (rules/mad.md \
                             sections 4 and 7)"
                .into(),
            Action::Shift(shift) => self.shift_reason(side, shift),
            Action::Move(step) => self
                .step_reason(step)
                .unwrap_or_else(|| "not a legal movement here".into()),
            Action::Bonus(step, shift) => {
                if let Some(r) = self.step_reason(step) {
                    return r;
                }
                let (fc, fr) = (step.from % 4, step.from / 4);
                let (tc, tr) = (step.to % 4, step.to / 4);
                if fc.abs_diff(tc) + fr.abs_diff(tr) != 1 {
                    return "a bonus follows only a 1-cell movement (rules/mad.md section 6)"
                        .into();
                }
                let row = Self::last_row(side) + 1;
                if tr + 1 != row {
                    return format!(
                        "a bonus needs a movement onto your last row, row {row} (rules/mad.md \
                         section 6)"
                    );
                }
                if step.capture && self.cells[step.to as usize] == token(side.other(), CORVETTE) {
                    return "expelling the enemy corvette ends the game: no bonus follows \
                            (rules/mad.md section 6)"
                        .into();
                }
                let kind = (self.cells[step.from as usize] - 1) & 7;
                if !shift.involves(kind) {
                    return format!(
                        "the bonus shift must involve the ship that moved ({}) (rules/mad.md \
                         section 6)",
                        kind_code(kind)
                    );
                }
                let mut after = *self;
                after.do_step(side, step);
                after.shift_reason(side, shift)
            }
        }
    }

    fn shift_reason(&self, side: Side, shift: Shift) -> String {
        match shift {
            Shift::Permute(_) => {
                "both ships of the pair are in exile; a permutation needs one on the board \
                 (rules/mad.md section 5.2)"
                    .into()
            }
            Shift::Rotate(_) => {
                let _ = side;
                "a rotation needs at least two of its three ships on the board (rules/mad.md \
                 section 5.3)"
                    .into()
            }
        }
    }

    /// Why a movement is illegal, if the movement rules (section 5.1) say so.
    fn step_reason(&self, step: Step) -> Option<String> {
        let side = self.side;
        let (from, to) = (step.from, step.to);
        let Some((owner, kind)) = untoken(self.cells[from as usize]) else {
            return Some(format!("there is no ship on {}", cell_name(from)));
        };
        if owner != side {
            return Some(format!(
                "the ship on {} is not yours (rules/mad.md section 5.1)",
                cell_name(from)
            ));
        }
        if from == to {
            return Some(
                "a movement must end on a different cell (rules/mad.md section 5.1)".into(),
            );
        }
        let (fc, fr) = (from % 4, from / 4);
        let (tc, tr) = (to % 4, to / 4);
        let dist = fc.abs_diff(tc) + fr.abs_diff(tr);
        let s = sails(kind);
        if dist > s {
            let unit = if s == 1 { "cell" } else { "cells" };
            let sail = if s == 1 { "sail" } else { "sails" };
            return Some(format!(
                "a ship with {s} {sail} moves at most {s} {unit} (rules/mad.md section 5.1)"
            ));
        }
        let code = kind_code(kind);
        match untoken(self.cells[to as usize]) {
            Some((o, _)) if o == side => {
                return Some(format!(
                    "{} holds your own ship (rules/mad.md section 5.1)",
                    cell_name(to)
                ));
            }
            Some((_, target)) if shields(target) > cannons(kind) => {
                return Some(format!(
                    "{code} has {} cannon(s) and cannot expel {} with {} shields (rules/mad.md \
                     section 2)",
                    cannons(kind),
                    kind_code(target),
                    shields(target)
                ));
            }
            Some((_, target)) if !step.capture => {
                return Some(format!(
                    "the movement expels {} on {}: write {}x{}",
                    kind_code(target),
                    cell_name(to),
                    cell_name(from),
                    cell_name(to)
                ));
            }
            None if step.capture => {
                return Some(format!(
                    "{} is empty, nothing to expel: write {}-{}",
                    cell_name(to),
                    cell_name(from),
                    cell_name(to)
                ));
            }
            _ => {}
        }
        if dist == 2 {
            let free = |c: u8| self.cells[c as usize] == 0;
            if fc == tc || fr == tr {
                let mid = (from + to) / 2;
                if !free(mid) {
                    return Some(format!(
                        "the path through {} is blocked (rules/mad.md section 5.1)",
                        cell_name(mid)
                    ));
                }
            } else {
                let a = fr * 4 + tc;
                let b = tr * 4 + fc;
                if !free(a) && !free(b) {
                    return Some(format!(
                        "both paths, through {} and through {}, are blocked (rules/mad.md \
                         section 5.1)",
                        cell_name(a),
                        cell_name(b)
                    ));
                }
            }
        }
        None
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
