//! The legal decisions of the side to act (rules/chakart.md sections 5 and 8; rulings 1, 5,
//! 12): the moves of sub-turn 1 and Daisy's move, the shell, the promotion choice, King Boo's
//! swap and Toadette's drop.

use super::{Phase, Pos, pawn_passable, slide_through};
use crate::action::Action;
use crate::board::{
    BANANA, BOMB, HIDDEN, JUMPS, Kind, PIECE, RAY, Side, Square, is_item, is_own, is_piece,
    is_visible_enemy, kind, kind_of, looks_empty, side_bits, side_of,
};

/// The kinds a pawn may promote to by its own step, in the order they are listed.
const STEP_PROMOTIONS: [Kind; 5] = [
    Kind::Rook,
    Kind::Knight,
    Kind::Bishop,
    Kind::Queen,
    Kind::King,
];

/// The kinds of a promotion choice after an item effect (ruling 12), in byte order of `=x`.
const CHOICE_PROMOTIONS: [Kind; 5] = [
    Kind::Bishop,
    Kind::King,
    Kind::Knight,
    Kind::Queen,
    Kind::Rook,
];

impl Pos {
    /// Calls `f` with every legal decision of the side to act, stopping when `f` returns false.
    /// Returns false if stopped.
    pub fn for_each_legal<F: FnMut(Action) -> bool>(&self, f: &mut F) -> bool {
        let side = self.turn;
        match self.phase {
            Phase::Move => {
                let mut movers = self.movers(side);
                while movers != 0 {
                    let sq = Square::lowest(movers);
                    movers &= movers - 1;
                    if !self.piece_moves(sq, f) {
                        return false;
                    }
                }
                true
            }
            Phase::Daisy { at } => self.piece_moves(at, f),
            Phase::Promote { .. } => CHOICE_PROMOTIONS.into_iter().all(|k| f(Action::Promote(k))),
            Phase::Swap { at } => Square::all()
                .filter(|&sq| self.swap_ok(at, sq))
                .all(|with| f(Action::Swap { with })),
            Phase::Toadette => {
                for k in Kind::ALL {
                    if self.pools[side.index()][k as usize] == 0 {
                        continue;
                    }
                    for to in Square::all() {
                        if self.drop_ok(k, to) && !f(Action::Drop { kind: k, to }) {
                            return false;
                        }
                    }
                }
                true
            }
            _ => true,
        }
    }

    /// The squares of `side`'s kings that the other side could capture with one move of sub-turn
    /// 1 (a piece's move or the shell, sections 5 and 8) if it were to move now, the pieces
    /// standing as they are: what losing the last king (ruling 8) is one move away from. Items on
    /// the way count as the moves see them (a move ending on an item is listed, whatever the
    /// redirect then does), frozen pieces do not move, a hidden queen is passed through by the
    /// enemy and does not move itself. As a square set.
    #[must_use]
    pub fn kings_within_reach(&self, side: Side) -> u64 {
        let kings = self.mask(PIECE | 0xF, PIECE | Kind::King as u8 | side_bits(side));
        if kings == 0 {
            return 0;
        }
        let mut reply = *self;
        reply.turn = side.other();
        reply.phase = Phase::Move;
        let mut found = 0;
        reply.for_each_legal(&mut |a| {
            if let Action::Move { to, .. } | Action::Shell { to, .. } = a {
                found |= kings & to.bit();
            }
            true
        });
        found
    }

    /// Whether King Boo may swap the piece on `at` with the piece on `sq` (ruling 1).
    fn swap_ok(&self, at: Square, sq: Square) -> bool {
        let o = self.at(sq);
        if sq == at || !is_piece(o) || o & HIDDEN != 0 {
            return false;
        }
        let m = self.at(at);
        let pawn_bad = |c: u8, to: Square| {
            kind_of(c) == Kind::Pawn as u8 && to.rank() == side_of(c).last_rank()
        };
        !pawn_bad(m, sq) && !pawn_bad(o, at)
    }

    /// Whether Toadette may drop a `k` on `sq` (ruling 5).
    fn drop_ok(&self, k: Kind, sq: Square) -> bool {
        let c = self.at(sq);
        (looks_empty(c, self.turn) || is_item(c))
            && !(k == Kind::Pawn && sq.rank() == self.turn.last_rank())
    }

    /// The moves of the piece on `sq` (section 5, section 8 powers). Returns false if `f` stopped.
    fn piece_moves<F: FnMut(Action) -> bool>(&self, sq: Square, f: &mut F) -> bool {
        let side = self.turn;
        let mv = |to: Square| Action::Move {
            from: sq,
            to,
            promote: None,
            stealth: false,
        };
        match kind(self.at(sq)) {
            Kind::Pawn => {
                let fw = side.forward();
                let mut targets = [None; 4];
                if let Some(one) = sq.offset(0, fw)
                    && pawn_passable(self.at(one), side)
                {
                    targets[0] = Some(one);
                    // A pawn on its first rank (dropped there) or its second may step two.
                    let (r, first) = (sq.rank() as i8, side.first_rank() as i8);
                    if (r == first || r == first + fw)
                        && let Some(two) = one.offset(0, fw)
                        && pawn_passable(self.at(two), side)
                    {
                        targets[1] = Some(two);
                    }
                }
                for (i, df) in [-1i8, 1].into_iter().enumerate() {
                    if let Some(t) = sq.offset(df, fw) {
                        let tc = self.at(t);
                        if is_item(tc) || is_visible_enemy(tc, side) {
                            targets[2 + i] = Some(t);
                        }
                    }
                }
                for to in targets.into_iter().flatten() {
                    if to.rank() == side.last_rank() {
                        for k in STEP_PROMOTIONS {
                            let a = Action::Move {
                                from: sq,
                                to,
                                promote: Some(k),
                                stealth: false,
                            };
                            if !f(a) {
                                return false;
                            }
                        }
                    } else if !f(mv(to)) {
                        return false;
                    }
                }
                true
            }
            Kind::Knight => {
                for to in JUMPS[sq.index()].into_iter().map_while(|t| t) {
                    if !is_own(self.at(to), side) && !f(mv(to)) {
                        return false;
                    }
                }
                true
            }
            Kind::King => {
                for ray in &RAY {
                    if let Some(to) = ray[sq.index()]
                        && !is_own(self.at(to), side)
                        && !f(mv(to))
                    {
                        return false;
                    }
                }
                if self.has_shell(side) {
                    for ray in &RAY {
                        let mut t = ray[sq.index()];
                        while let Some(to) = t {
                            let tc = self.at(to);
                            if slide_through(tc, side) {
                                t = ray[to.index()];
                                continue;
                            }
                            if (is_visible_enemy(tc, side) || tc == BANANA || tc == BOMB)
                                && !f(Action::Shell { from: sq, to })
                            {
                                return false;
                            }
                            break;
                        }
                    }
                }
                true
            }
            k => {
                let (lo, hi) = match k {
                    Kind::Rook => (0, 4),
                    Kind::Bishop => (4, 8),
                    _ => (0, 8),
                };
                let stealth = k == Kind::Queen && self.has_stealth(side);
                for ray in &RAY[lo..hi] {
                    let mut t = ray[sq.index()];
                    while let Some(to) = t {
                        let tc = self.at(to);
                        if is_own(tc, side) {
                            break;
                        }
                        if !f(mv(to)) {
                            return false;
                        }
                        if stealth
                            && looks_empty(tc, side)
                            && !f(Action::Move {
                                from: sq,
                                to,
                                promote: None,
                                stealth: true,
                            })
                        {
                            return false;
                        }
                        if !slide_through(tc, side) {
                            break;
                        }
                        t = ray[to.index()];
                    }
                }
                true
            }
        }
    }
}
