//! The chance nodes' outcomes (rules/chakart.md sections 4, 6 and 7; rulings 4, 6, 13, 15, 19):
//! where a banana or bomb sends a piece, which egg effects apply, whom Luigi or Waluigi flips,
//! where a rook or bishop drops its item, the files of a random initial row. Every outcome of a
//! node is equally likely, listed in byte order of its text (ruling 13).

use super::{MAX_PIECES, Phase, Pos, sort_squares};
use crate::action::{Action, Effect};
use crate::board::{
    DIAG, EMPTY, HIDDEN, Kind, ORTHO, Side, Square, is_item, is_own, is_piece, kind_of, side_of,
};

/// A short list of squares with a capacity fixed by the rules: at most 4 neighbours of a square,
/// at most `MAX_PIECES` pieces to flip. Pushing past it is a defect of the rules code, so it
/// panics rather than drop a square.
#[derive(Clone, Copy)]
pub(super) struct Squares<const N: usize> {
    items: [Square; N],
    len: usize,
}

impl<const N: usize> Squares<N> {
    fn new() -> Self {
        Squares {
            items: [Square::at(0, 0); N],
            len: 0,
        }
    }

    fn push(&mut self, sq: Square) {
        assert!(
            self.len < N,
            "more than {N} squares: the rules allow at most {N}"
        );
        self.items[self.len] = sq;
        self.len += 1;
    }

    /// The squares, in the order they were put (after `sort`: name order).
    pub(super) fn as_slice(&self) -> &[Square] {
        &self.items[..self.len]
    }

    fn sort(&mut self) {
        sort_squares(&mut self.items[..self.len]);
    }
}

impl Pos {
    /// Calls `f` with every outcome of the pending chance node, in byte order of their text
    /// (ruling 13); each outcome is equally likely. Calls nothing at a decision.
    pub fn for_each_outcome(&self, f: &mut impl FnMut(Action)) {
        match self.phase {
            Phase::Setup { n, files, .. } => {
                for fl in 0..8u8 {
                    if !files[..n as usize].contains(&fl) {
                        f(Action::Setup(fl));
                    }
                }
            }
            Phase::Redirect { at, bomb } => {
                for &s in self.redirect_squares(at, bomb).as_slice() {
                    f(Action::Redirect(s));
                }
            }
            Phase::Egg { .. } => {
                for e in Effect::ALL {
                    if self.effect_applies(e) {
                        f(Action::Egg(e));
                    }
                }
            }
            Phase::Flip { luigi, .. } => {
                for &target in self.flip_targets(luigi).as_slice() {
                    f(Action::Flip { luigi, target });
                }
            }
            Phase::ItemDrop { at } => {
                let bomb = kind_of(self.at(at)) == Kind::Bishop as u8;
                for &to in self.item_drop_squares(at).as_slice() {
                    f(Action::ItemDrop { bomb, to });
                }
            }
            _ => {}
        }
    }

    /// The squares a banana (orthogonal) or bomb (diagonal) on `at` may send the mover's piece to:
    /// on the board and not holding a piece of the mover (ruling 4); sorted in name order.
    pub(super) fn redirect_squares(&self, at: Square, bomb: bool) -> Squares<4> {
        let dirs = if bomb { &DIAG } else { &ORTHO };
        let mut out = Squares::new();
        for &(df, dr) in dirs {
            if let Some(t) = at.offset(df, dr)
                && !is_own(self.at(t), self.turn)
            {
                out.push(t);
            }
        }
        out.sort();
        out
    }

    /// The squares where the rook (banana, diagonal) or bishop (bomb, orthogonal) on `at` may drop
    /// its item: empty or holding an item, never a piece or the hidden queen (section 5, ruling 7).
    pub(super) fn item_drop_squares(&self, at: Square) -> Squares<4> {
        let rook = kind_of(self.at(at)) == Kind::Rook as u8;
        let dirs = if rook { &DIAG } else { &ORTHO };
        let mut out = Squares::new();
        for &(df, dr) in dirs {
            if let Some(t) = at.offset(df, dr) {
                let c = self.at(t);
                if c == EMPTY || is_item(c) {
                    out.push(t);
                }
            }
        }
        out.sort();
        out
    }

    /// Luigi's targets (enemy pieces but kings, the hidden queen and enemy pawns on the mover's last
    /// rank) or Waluigi's (own pieces but kings and own pawns on the mover's first rank), ruling 15;
    /// in name order (file-major).
    pub(super) fn flip_targets(&self, luigi: bool) -> Squares<MAX_PIECES> {
        let side = self.turn;
        let mut out = Squares::new();
        for f in 0..8u8 {
            for r in 0..8u8 {
                let sq = Square::at(f, r);
                if self.flip_ok(sq, side, luigi) {
                    out.push(sq);
                }
            }
        }
        out
    }

    fn flip_ok(&self, sq: Square, side: Side, luigi: bool) -> bool {
        let c = self.at(sq);
        if !is_piece(c) || c & HIDDEN != 0 || kind_of(c) == Kind::King as u8 {
            return false;
        }
        let pawn = kind_of(c) == Kind::Pawn as u8;
        if luigi {
            side_of(c) != side && !(pawn && sq.rank() == side.last_rank())
        } else {
            side_of(c) == side && !(pawn && sq.rank() == side.first_rank())
        }
    }

    fn any_flip_target(&self, luigi: bool) -> bool {
        Square::all().any(|sq| self.flip_ok(sq, self.turn, luigi))
    }

    /// Whether the egg effect `e` applies (ruling 6).
    fn effect_applies(&self, e: Effect) -> bool {
        match e {
            Effect::Toadette => self.pools[self.turn.index()].iter().any(|&n| n > 0),
            Effect::Luigi => self.any_flip_target(true),
            Effect::Waluigi => self.any_flip_target(false),
            _ => true,
        }
    }
}
