//! How every action changes the position (rules/chakart.md sections 5-10; rulings 1-18): moves
//! and their drops, the item chain, egg effects, follow-up decisions, and the end of a turn and
//! of the game.

use super::{
    Bonus, Ctx, EndKind, GameResult, Phase, Pos, pawn_passable, shell_bit, slide_through,
    stealth_bit,
};
use crate::action::{Action, Effect};
use crate::board::{
    BANANA, BOMB, DIAG, EGG, EMPTY, FROZEN, HIDDEN, Kind, MUSHROOM, ORTHO, PIECE, RAY, SIDE_MASK,
    Side, Square, is_enemy_hidden, is_item, is_own, is_piece, kind, kind_of, looks_empty, piece,
    side_bits, with_other_side,
};

impl Pos {
    /// Plays a legal action (a decision of the side to act or an outcome of the pending node).
    /// The caller has checked legality.
    pub fn play(&mut self, a: Action) {
        match a {
            Action::Move {
                from,
                to,
                promote,
                stealth,
            } => {
                if matches!(self.phase, Phase::Daisy { .. }) {
                    self.ctx = Ctx::Daisy;
                }
                self.play_move(from, to, promote, stealth);
            }
            Action::Shell { from: _, to } => {
                let c = self.at(to);
                if is_piece(c) {
                    self.capture(c);
                }
                self.clear(to);
                self.flags &= !shell_bit(self.turn);
                self.end_turn();
            }
            Action::Swap { with } => {
                if let Phase::Swap { at } = self.phase {
                    self.board.swap(at.index(), with.index());
                }
                self.end_turn();
            }
            Action::Drop { kind: k, to } => {
                let slot = &mut self.pools[self.turn.index()][k as usize];
                *slot = slot.saturating_sub(1);
                self.ctx = Ctx::Toadette;
                let x = self.land(to, piece(self.turn, k));
                self.chain(to, x, (0, 0));
            }
            Action::Promote(k) => {
                if let Phase::Promote { at, then } = self.phase {
                    let frozen = self.at(at) & FROZEN;
                    self.board[at.index()] = piece(self.turn, k) | frozen;
                    self.start_bonus(at, then);
                }
            }
            Action::Redirect(t) => {
                if let Phase::Redirect { at, .. } = self.phase {
                    self.redirect(at, t);
                }
            }
            Action::Egg(e) => {
                if let Phase::Egg { at } = self.phase {
                    self.egg(at, e);
                }
            }
            Action::Flip { target, .. } => {
                if let Phase::Flip { at, .. } = self.phase {
                    self.board[target.index()] = with_other_side(self.at(target));
                    self.after_chain(at, Bonus::None);
                }
            }
            Action::ItemDrop { bomb, to } => {
                if let Phase::ItemDrop { at } = self.phase {
                    self.put(to, if bomb { BOMB } else { BANANA });
                    self.after_chain(at, Bonus::None);
                }
            }
            Action::Setup(fl) => self.setup(fl),
        }
    }

    /// A move of sub-turn 1 or of Daisy (sections 5, 6 and 8).
    fn play_move(&mut self, from: Square, to: Square, promote: Option<Kind>, stealth: bool) {
        let side = self.turn;
        let p = self.at(from);
        if stealth {
            // The opponent learns the start square; the queen may be on any square its stealth
            // move could reach (ruling 17).
            self.hidden = self.stealth_targets(from);
            self.stealth_from = Some(from);
            let x = self.at(to);
            if is_piece(x) {
                self.capture(x);
            }
            self.clear(from);
            self.board[to.index()] = p | HIDDEN;
            self.flags &= !stealth_bit(side);
            self.end_turn();
            return;
        }
        self.start = Some(from);
        self.pre_form = p;
        self.drop_sq = None;
        let mover = match promote {
            Some(k) => piece(side, k),
            None => p,
        };
        self.clear(from);
        let x = self.land(to, mover);
        let d = from.delta(to);
        // Segment-1 drops of pawns and knights (section 5; sub-turn 1 and Daisy moves).
        if kind_of(p) == Kind::Pawn as u8 && promote.is_none() {
            if d.1.abs() == 2 {
                let mid = between(from, 0, d.1 / 2);
                if is_enemy_hidden(self.at(mid), side) {
                    // Ruling 7: no mushroom over the hidden queen; the opponent now knows.
                    self.hidden = mid.bit();
                } else {
                    self.put(mid, MUSHROOM);
                    self.drop_sq = Some(mid);
                }
            } else {
                self.put(from, MUSHROOM);
                self.drop_sq = Some(from);
            }
        } else if kind_of(mover) == Kind::Knight as u8 {
            let egg_sq = if promote.is_some() {
                from
            } else {
                let leg = if d.0.abs() == 2 {
                    between(from, d.0.signum(), 0)
                } else {
                    between(from, 0, d.1.signum())
                };
                let lc = self.at(leg);
                if lc == EMPTY || is_item(lc) {
                    leg
                } else {
                    if is_enemy_hidden(lc, side) {
                        self.hidden = leg.bit();
                    }
                    from
                }
            };
            self.put(egg_sq, EGG);
            self.drop_sq = Some(egg_sq);
        }
        self.chain(to, x, d);
    }

    /// The squares a stealth move from `from` could end on: the squares of the queen's lines that
    /// look empty to the mover (ruling 17), as a square set.
    fn stealth_targets(&self, from: Square) -> u64 {
        let mut m = 0u64;
        for ray in &RAY {
            let mut t = ray[from.index()];
            while let Some(sq) = t {
                let tc = self.at(sq);
                if looks_empty(tc, self.turn) {
                    m |= sq.bit();
                }
                if !slide_through(tc, self.turn) {
                    break;
                }
                t = ray[sq.index()];
            }
        }
        m
    }

    /// Puts `p` on `sq`, capturing a piece there; returns what was there.
    #[inline]
    fn land(&mut self, sq: Square, p: u8) -> u8 {
        let x = self.at(sq);
        if is_piece(x) {
            self.capture(x);
        }
        self.put(sq, p);
        x
    }

    /// A banana or bomb sends the piece on `at` to `t`.
    fn redirect(&mut self, at: Square, t: Square) {
        let p = self.at(at);
        self.clear(at);
        let x = self.land(t, p);
        self.chain(t, x, at.delta(t));
    }

    /// The item chain (section 6 with rulings 3, 4, 7 and 17): the piece stands on `sq`, where it
    /// found `x`, having moved by `d`. Runs until the chain stops or a chance node is pending.
    fn chain(&mut self, mut sq: Square, mut x: u8, mut d: (i8, i8)) {
        let side = self.turn;
        loop {
            let next = match x {
                BANANA | BOMB => {
                    let targets = self.redirect_squares(sq, x == BOMB);
                    match targets.as_slice() {
                        [] => None,
                        [only] => Some(*only),
                        _ => {
                            self.phase = Phase::Redirect {
                                at: sq,
                                bomb: x == BOMB,
                            };
                            return;
                        }
                    }
                }
                MUSHROOM if d != (0, 0) => match kind(self.at(sq)) {
                    Kind::Pawn | Kind::Knight | Kind::King => sq
                        .offset(d.0, d.1)
                        .filter(|&t| pawn_passable(self.at(t), side)),
                    _ => {
                        // A slider jumps the piece beyond the mushroom (section 6).
                        let u = (d.0.signum(), d.1.signum());
                        let jump = sq.offset(u.0, u.1).and_then(|over| {
                            let c = self.at(over);
                            (is_piece(c) && !is_enemy_hidden(c, side))
                                .then(|| over.offset(u.0, u.1))
                                .flatten()
                        });
                        let jump = jump.filter(|&b| !is_own(self.at(b), side));
                        if jump.is_some() {
                            d = (2 * u.0, 2 * u.1);
                        }
                        jump
                    }
                },
                EGG if self.ctx == Ctx::Main => {
                    self.phase = Phase::Egg { at: sq };
                    return;
                }
                _ => None,
            };
            let Some(next) = next else {
                break;
            };
            if x == BANANA || x == BOMB {
                d = sq.delta(next);
            }
            let p = self.at(sq);
            self.clear(sq);
            x = self.land(next, p);
            sq = next;
        }
        // The chain has stopped on `sq`: a rook's or bishop's drop in sub-turn 1 (section 5,
        // ruling 14), then the promotion check.
        let p = self.at(sq);
        if self.ctx == Ctx::Main && (kind(p) == Kind::Rook || kind(p) == Kind::Bishop) {
            let targets = self.item_drop_squares(sq);
            // What the opponent of a hidden queen learns from the drop (ruling 17's leak).
            self.learn_from_drop(sq);
            match targets.as_slice() {
                [] => {}
                [only] => self.put(*only, if kind(p) == Kind::Rook { BANANA } else { BOMB }),
                _ => {
                    self.phase = Phase::ItemDrop { at: sq };
                    return;
                }
            }
        }
        self.after_chain(sq, Bonus::None);
    }

    /// A rook's or bishop's drop never lands on the hidden queen: if the queen is next to the
    /// piece, the drop's outcomes show where it is; if not, the squares next to it are cleared.
    fn learn_from_drop(&mut self, sq: Square) {
        if self.hidden == 0 {
            return;
        }
        let rook = kind(self.at(sq)) == Kind::Rook;
        let dirs = if rook { &DIAG } else { &ORTHO };
        let mut near = 0u64;
        let mut queen = None;
        for &(df, dr) in dirs {
            let Some(t) = sq.offset(df, dr) else {
                continue;
            };
            let c = self.at(t);
            if c & HIDDEN != 0 {
                queen = Some(t);
            } else if c == EMPTY || is_item(c) {
                near |= t.bit();
            }
        }
        match queen {
            Some(q) => self.hidden = q.bit(),
            None => self.hidden &= !near,
        }
    }

    /// After the chain and any egg effect: a pawn of the mover on its last rank promotes
    /// (ruling 12), then the bonus.
    fn after_chain(&mut self, sq: Square, bonus: Bonus) {
        let p = self.at(sq);
        if is_own(p, self.turn) && kind(p) == Kind::Pawn && sq.rank() == self.turn.last_rank() {
            self.phase = Phase::Promote {
                at: sq,
                then: bonus,
            };
            return;
        }
        self.start_bonus(sq, bonus);
    }

    /// Starts a bonus decision; one with no legal action is skipped (ruling 13).
    fn start_bonus(&mut self, sq: Square, bonus: Bonus) {
        self.phase = match bonus {
            Bonus::None => return self.end_turn(),
            Bonus::KingBoo => Phase::Swap { at: sq },
            Bonus::Daisy => Phase::Daisy { at: sq },
            Bonus::Toadette => Phase::Toadette,
        };
        if !self.has_legal() {
            self.end_turn();
        }
    }

    /// The egg effect `e` on the piece standing on the egg square `at` (section 7, rulings 1-18).
    fn egg(&mut self, at: Square, e: Effect) {
        match e {
            Effect::Koopa | Effect::Chomp => {
                self.clear(at);
                if let Some(d) = self.drop_sq {
                    self.clear(d);
                }
                if e == Effect::Chomp {
                    self.capture(self.pre_form);
                } else if let Some(start) = self.start {
                    // An egg takes effect in sub-turn 1 only, after a move: `start` is set.
                    self.put(start, self.pre_form);
                }
                self.end_turn();
            }
            Effect::Bowser => {
                self.board[at.index()] |= FROZEN;
                self.bowser = Some(at);
                self.after_chain(at, Bonus::None);
            }
            Effect::KingBoo => self.after_chain(at, Bonus::KingBoo),
            Effect::Daisy => self.after_chain(at, Bonus::Daisy),
            Effect::Toadette => self.after_chain(at, Bonus::Toadette),
            Effect::Luigi | Effect::Waluigi => {
                let luigi = e == Effect::Luigi;
                match self.flip_targets(luigi).as_slice() {
                    [only] => {
                        self.board[only.index()] = with_other_side(self.at(*only));
                        self.after_chain(at, Bonus::None);
                    }
                    _ => self.phase = Phase::Flip { at, luigi },
                }
            }
        }
    }

    /// The end of a complete turn (ruling 13 step 7): frozen pieces of the mover thaw but Bowser's
    /// (ruling 16), the opponent's hidden queen shows (ruling 17), the turn passes and the end of
    /// the game is checked (ruling 8).
    pub fn end_turn(&mut self) {
        let mover = self.turn;
        // Frozen pieces of the mover and hidden queens of the other side are rare: find them
        // with one branch-free scan, then fix those squares.
        let mut special = self.mask(
            PIECE | FROZEN | SIDE_MASK,
            PIECE | FROZEN | side_bits(mover),
        ) | self.mask(
            PIECE | HIDDEN | SIDE_MASK,
            PIECE | HIDDEN | side_bits(mover.other()),
        );
        if let Some(b) = self.bowser {
            special &= !b.bit();
        }
        while special != 0 {
            let sq = Square::lowest(special);
            special &= special - 1;
            self.board[sq.index()] &= !(FROZEN | HIDDEN);
        }
        let kings = self.kings();
        self.ctx = Ctx::Main;
        self.start = None;
        self.pre_form = EMPTY;
        self.drop_sq = None;
        self.bowser = None;
        self.turn = mover.other();
        self.moves = self.moves.saturating_add(1);
        self.phase = Phase::Move;
        self.check_end(kings);
    }

    /// Sets the result if the game is over between turns (ruling 8, and the turn limit).
    pub fn check_end(&mut self, kings: [u32; 2]) {
        let result = if kings[Side::White.index()] == 0 {
            Some((Some(Side::Black), EndKind::KingCaptured))
        } else if kings[Side::Black.index()] == 0 {
            Some((Some(Side::White), EndKind::KingCaptured))
        } else if !self.has_legal() {
            Some((Some(self.turn.other()), EndKind::NoMove))
        } else if self.turn_limit > 0 && self.moves >= self.turn_limit {
            Some((None, EndKind::TurnLimit))
        } else {
            None
        };
        if let Some((winner, kind)) = result {
            self.finish(winner, kind);
        }
    }

    /// Ends the game.
    pub fn finish(&mut self, winner: Option<Side>, kind: EndKind) {
        self.phase = Phase::Over;
        self.result = Some(GameResult { winner, kind });
    }
}

/// The square `(df, dr)` from `from`, on the path of a move whose destination is on the board
/// (a pawn's double step, a knight's leg), so always on the board itself.
fn between(from: Square, df: i8, dr: i8) -> Square {
    from.offset(df, dr)
        .expect("a square between two squares of the board is on the board")
}
