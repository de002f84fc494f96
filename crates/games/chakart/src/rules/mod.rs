//! The rules: the position, legal actions, chance outcomes and how every action plays
//! (rules/chakart.md sections 4-10 with the rulings of section 0).
//!
//! A turn is a small state machine (`Phase`): the move, then the chance nodes of its item chain
//! (redirects, the egg, a flip target, a rook's or bishop's drop), then the follow-up decisions
//! (promotion `=x`, King Boo swap, Toadette drop, Daisy move), in the order of ruling 13.
//!
//! - this module: the position (`Pos`), its phases and the scans shared by the others;
//! - `moves`: the legal decisions (sections 5 and 8, rulings 1, 5, 12);
//! - `outcomes`: the chance nodes' outcomes (sections 6 and 7, rulings 4, 6, 13, 15);
//! - `play`: how every action changes the position, the item chain and the end of a turn;
//! - `setup`: the random initial rows of options 1 and 2 (section 4, ruling 19).

mod moves;
mod outcomes;
mod play;
mod setup;

use serde::{Deserialize, Serialize};

use crate::board::{
    EGG, EMPTY, Kind, MUSHROOM, PIECE, SIDE_MASK, Side, Square, is_enemy_hidden, is_item, is_piece,
    kind_of, piece, side_bits, side_of,
};

pub use setup::SETUP_ORDER;

/// The most pieces a game has, on the board and in the pools together: 16 a side at the start
/// (section 4). A piece changes kind (promotion) or side (Luigi, Waluigi), goes to its owner's
/// pool when captured and comes back by a drop, but is never made, so the count never grows;
/// positions with more are impossible, and the fixed-size lists of this module rely on it.
pub const MAX_PIECES: usize = 32;

/// The bonus that follows a promotion choice (ruling 12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bonus {
    /// The turn ends after the choice.
    None,
    /// King Boo's swap follows.
    KingBoo,
    /// Daisy's move follows.
    Daisy,
    /// Toadette's drop follows.
    Toadette,
}

/// Which part of a turn an item chain belongs to: it decides drops and eggs (rulings 2, 5, 14).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ctx {
    /// Sub-turn 1: pawns and knights drop, rooks and bishops drop, eggs have effects.
    Main,
    /// Daisy's move: pawns and knights drop, eggs vanish.
    Daisy,
    /// A Toadette drop's chain: nothing drops, eggs vanish.
    Toadette,
}

/// Where the turn stands: who acts next and what is pending.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Chance: the random initial row of `side` (ruling 19); `files[..n]` holds the files already
    /// given to the first `n` entries of `SETUP_ORDER`.
    Setup {
        /// The side whose row is drawn.
        side: Side,
        /// Entries placed (0 to 6).
        n: u8,
        /// Their files (0 to 7).
        files: [u8; 7],
    },
    /// Decision: the side to move plays its move.
    Move,
    /// Chance: the piece on `at` entered a banana or a bomb.
    Redirect {
        /// The piece's square.
        at: Square,
        /// A bomb (diagonal) rather than a banana (orthogonal).
        bomb: bool,
    },
    /// Chance: the piece on `at` reached an egg in sub-turn 1.
    Egg {
        /// The egg square.
        at: Square,
    },
    /// Chance: the piece Luigi or Waluigi flips; the moved piece stands on `at`.
    Flip {
        /// The egg square.
        at: Square,
        /// Luigi rather than Waluigi.
        luigi: bool,
    },
    /// Chance: where the rook or bishop on `at` drops its banana or bomb.
    ItemDrop {
        /// The piece's square.
        at: Square,
    },
    /// Decision: the pawn on `at` promotes, then `then` follows.
    Promote {
        /// The pawn's square.
        at: Square,
        /// The bonus after the choice.
        then: Bonus,
    },
    /// Decision: King Boo's swap of the piece on `at`.
    Swap {
        /// The moved piece's square.
        at: Square,
    },
    /// Decision: Toadette's drop.
    Toadette,
    /// Decision: Daisy's move of the piece on `at`.
    Daisy {
        /// The piece's square.
        at: Square,
    },
    /// The game is over.
    Over,
}

/// How a game ended (the `Outcome::kind` strings).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// A side has no king left (ruling 8).
    KingCaptured,
    /// The side to move has no legal action (ruling 8).
    NoMove,
    /// The configured turn limit was reached: a draw (our ruling, `Config::turn_limit`).
    TurnLimit,
    /// A side resigned.
    Resign,
    /// A side ran out of time.
    Timeout,
    /// Both sides agreed to stop: a draw.
    Agreement,
}

impl EndKind {
    /// The `Outcome::kind` text.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            EndKind::KingCaptured => "king_captured",
            EndKind::NoMove => "no_move",
            EndKind::TurnLimit => "turn_limit",
            EndKind::Resign => "resign",
            EndKind::Timeout => "timeout",
            EndKind::Agreement => "agreement",
        }
    }
}

/// The result of a game that is over: the winning side, or `None` for a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub kind: EndKind,
}

/// The whole rules state: the vchess FEN fields plus what a turn in progress must remember
/// (ruling 10: the start square S for Koopa, the chain context, the drop to cancel).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    /// The 64 cells (see `board`), by square index.
    pub board: [u8; 64],
    /// The side to move.
    pub turn: Side,
    /// The vchess moves count: +1 each time the turn passes.
    pub moves: u32,
    /// Bit 0 White shell, bit 1 White stealth, bit 2 Black shell, bit 3 Black stealth (1 = unused).
    pub flags: u8,
    /// Captured pools by side and kind: each side's own pieces removed from the board.
    pub pools: [[u8; 6]; 2],
    /// What is pending.
    pub phase: Phase,
    /// The context of the chain in progress.
    pub ctx: Ctx,
    /// The move's start square S (for Koopa), during a turn.
    pub start: Option<Square>,
    /// The moved piece's cell before the move (Koopa puts it back; Chomp counts its kind).
    pub pre_form: u8,
    /// The square of this move's pawn or knight drop (Koopa and Chomp cancel it), if any.
    pub drop_sq: Option<Square>,
    /// The square of the piece Bowser froze this turn, if any (ruling 16).
    pub bowser: Option<Square>,
    /// Squares where the opponent of a hidden queen's owner may still believe it stands
    /// (ruling 17, for `determinize`), as a square set. Meaningful only while a hidden queen is
    /// on the board.
    pub hidden: u64,
    /// The square a hidden queen made its stealth move from, if any.
    pub stealth_from: Option<Square>,
    /// The turn limit (0: none); see `Config::turn_limit`.
    pub turn_limit: u32,
    /// The initial-position option (0, 1 or 2, section 4): option 1 copies White's row for Black.
    pub option: u8,
    /// The result once the game is over.
    pub result: Option<GameResult>,
}

/// The bit of the shell flag of `side`.
#[inline]
const fn shell_bit(side: Side) -> u8 {
    1 << (side.index() * 2)
}

/// The bit of the stealth flag of `side`.
#[inline]
const fn stealth_bit(side: Side) -> u8 {
    2 << (side.index() * 2)
}

/// What a pawn may step onto straight ahead: empty, an item or the enemy's hidden queen.
#[inline]
const fn pawn_passable(c: u8, side: Side) -> bool {
    c == EMPTY || is_item(c) || is_enemy_hidden(c, side)
}

/// What a slider may pass through: empty, an egg, a mushroom or the enemy's hidden queen.
#[inline]
const fn slide_through(c: u8, side: Side) -> bool {
    c == EMPTY || c == EGG || c == MUSHROOM || is_enemy_hidden(c, side)
}

impl Pos {
    /// An empty position with White to move, flags `1111` and empty pools.
    #[must_use]
    pub fn empty() -> Pos {
        Pos {
            board: [EMPTY; 64],
            turn: Side::White,
            moves: 0,
            flags: 0b1111,
            pools: [[0; 6]; 2],
            phase: Phase::Move,
            ctx: Ctx::Main,
            start: None,
            pre_form: EMPTY,
            drop_sq: None,
            bowser: None,
            hidden: 0,
            stealth_from: None,
            turn_limit: 0,
            option: 0,
            result: None,
        }
    }

    /// The orthodox position of option 0 (section 4).
    #[must_use]
    pub fn orthodox() -> Pos {
        let mut p = Pos::empty();
        let row = [
            Kind::Rook,
            Kind::Knight,
            Kind::Bishop,
            Kind::Queen,
            Kind::King,
            Kind::Bishop,
            Kind::Knight,
            Kind::Rook,
        ];
        for (f, &k) in row.iter().enumerate() {
            p.board[f] = piece(Side::White, k);
            p.board[8 + f] = piece(Side::White, Kind::Pawn);
            p.board[48 + f] = piece(Side::Black, Kind::Pawn);
            p.board[56 + f] = piece(Side::Black, k);
        }
        p
    }

    /// The cell on `sq`.
    #[inline]
    #[must_use]
    pub const fn at(&self, sq: Square) -> u8 {
        self.board[sq.index()]
    }

    /// Whether `side`'s shell is unused.
    #[must_use]
    pub const fn has_shell(&self, side: Side) -> bool {
        self.flags & shell_bit(side) != 0
    }

    /// Whether `side`'s stealth move is unused.
    #[must_use]
    pub const fn has_stealth(&self, side: Side) -> bool {
        self.flags & stealth_bit(side) != 0
    }

    /// Writes a non-empty cell. Whatever stands there is gone, so the hidden queen is known not to
    /// be there (or has just been taken): the square leaves the `hidden` candidates.
    #[inline]
    fn put(&mut self, sq: Square, c: u8) {
        self.board[sq.index()] = c;
        self.hidden &= !sq.bit();
    }

    /// Empties a square.
    #[inline]
    fn clear(&mut self, sq: Square) {
        self.board[sq.index()] = EMPTY;
    }

    /// Adds a captured piece to its owner's pool as its base kind (ruling 7, 16). The pools
    /// never pass `MAX_PIECES` in all, so a count cannot overflow.
    #[inline]
    fn capture(&mut self, c: u8) {
        let slot = &mut self.pools[side_of(c).index()][kind_of(c) as usize];
        *slot = slot.saturating_add(1);
    }

    /// The squares whose cell `c` has `c & m == v`, as a square set: a branch-free scan of the
    /// board eight cells at a time (SWAR).
    #[inline]
    fn mask(&self, m: u8, v: u8) -> u64 {
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const ONES: u64 = 0x0101_0101_0101_0101;
        // Gathers the low bit of each byte into one byte, byte i to bit i.
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let (mm, vv) = (ONES * u64::from(m), ONES * u64::from(v));
        let mut out = 0u64;
        for (k, chunk) in self.board.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            let y = (word & mm) ^ vv;
            // 0x80 in each byte of y that is zero, 0 elsewhere (no carry crosses a byte).
            let zero = !(((y & LOW7) + LOW7) | y | LOW7);
            out |= (((zero >> 7).wrapping_mul(GATHER)) >> 56) << (8 * k);
        }
        out
    }

    /// Whether the side to act has at least one legal decision.
    #[must_use]
    pub fn has_legal(&self) -> bool {
        !self.for_each_legal(&mut |_| false)
    }

    /// Whether a chance node is pending.
    #[must_use]
    pub const fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Setup { .. }
                | Phase::Redirect { .. }
                | Phase::Egg { .. }
                | Phase::Flip { .. }
                | Phase::ItemDrop { .. }
        )
    }

    /// Counts the kings (`k`/`l`) of each side.
    #[must_use]
    pub fn kings(&self) -> [u32; 2] {
        const KING: u8 = PIECE | Kind::King as u8;
        let white = self.mask(PIECE | 0xF, KING | side_bits(Side::White));
        let black = self.mask(PIECE | 0xF, KING | side_bits(Side::Black));
        [white.count_ones(), black.count_ones()]
    }

    /// The pieces on the board and in the pools together (at most `MAX_PIECES` in any position
    /// the rules reach).
    #[must_use]
    pub fn piece_count(&self) -> usize {
        let on_board = self.board.iter().filter(|&&c| is_piece(c)).count();
        let pooled: usize = self.pools.iter().flatten().map(|&n| usize::from(n)).sum();
        on_board + pooled
    }

    /// The squares of `side`'s pieces that are neither frozen nor hidden (the movers of
    /// sub-turn 1), as a square set.
    #[inline]
    fn movers(&self, side: Side) -> u64 {
        use crate::board::{FROZEN, HIDDEN};
        self.mask(PIECE | FROZEN | HIDDEN | SIDE_MASK, PIECE | side_bits(side))
    }
}

/// Sorts squares by the byte order of their names.
fn sort_squares(s: &mut [Square]) {
    s.sort_unstable_by_key(|q| q.name_order());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BANANA, FROZEN, HIDDEN};

    #[test]
    fn masks_match_a_plain_scan() {
        let mut p = Pos::orthodox();
        p.board[20] = piece(Side::White, Kind::Queen) | HIDDEN;
        p.board[33] = piece(Side::Black, Kind::King) | FROZEN;
        p.board[40] = BANANA;
        for (m, v) in [
            (PIECE | FROZEN | HIDDEN | 8, PIECE),
            (PIECE | FROZEN | HIDDEN | 8, PIECE | 8),
            (PIECE | 0xF, PIECE | 5),
            (PIECE | 0xF, PIECE | 13),
            (PIECE | HIDDEN | 8, PIECE | HIDDEN),
            (0xFF, BANANA),
            (0xFF, EMPTY),
        ] {
            let plain = (0..64)
                .filter(|&i| p.board[i] & m == v)
                .fold(0u64, |a, i| a | 1 << i);
            assert_eq!(p.mask(m, v), plain, "{m:#x} {v:#x}");
        }
        assert_eq!(p.kings(), [1, 2]);
        assert_eq!(Pos::orthodox().piece_count(), 32);
        assert_eq!(p.piece_count(), 34);
    }
}
