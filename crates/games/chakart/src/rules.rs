//! The rules: the position, legal actions, chance outcomes and how every action plays
//! (rules/chakart.md sections 5-10 with the rulings of section 0).
//!
//! A turn is a small state machine (`Phase`): the move, then the chance nodes of its item chain
//! (redirects, the egg, a flip target, a rook's or bishop's drop), then the follow-up decisions
//! (promotion `=x`, King Boo swap, Toadette drop, Daisy move), in the order of ruling 13.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Effect};
use crate::board::{
    BANANA, BLACK, BOMB, DIAG, EGG, EMPTY, FROZEN, HIDDEN, JUMPS, Kind, MUSHROOM, NONE, ORTHO,
    PIECE, RAY, WHITE, board_serde, color, file, first_rank, forward, is_enemy_hidden, is_item,
    is_own, is_piece, is_visible_enemy, kind, kind_of, last_rank, looks_empty, name_order, offset,
    piece, rank,
};

/// The piece list of the random initial row, placed in this order (ruling 19).
pub const SETUP_ORDER: [Kind; 8] = [
    Kind::Bishop,
    Kind::Bishop,
    Kind::Rook,
    Kind::Rook,
    Kind::Knight,
    Kind::Knight,
    Kind::King,
    Kind::Queen,
];

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
        side: u8,
        /// Entries placed.
        n: u8,
        /// Their files.
        files: [u8; 7],
    },
    /// Decision: the side to move plays its move.
    Move,
    /// Chance: the piece on `at` entered a banana or a bomb.
    Redirect {
        /// The piece's square.
        at: u8,
        /// A bomb (diagonal) rather than a banana (orthogonal).
        bomb: bool,
    },
    /// Chance: the piece on `at` reached an egg in sub-turn 1.
    Egg {
        /// The egg square.
        at: u8,
    },
    /// Chance: the piece Luigi or Waluigi flips; the moved piece stands on `at`.
    Flip {
        /// The egg square.
        at: u8,
        /// Luigi rather than Waluigi.
        luigi: bool,
    },
    /// Chance: where the rook or bishop on `at` drops its banana or bomb.
    ItemDrop {
        /// The piece's square.
        at: u8,
    },
    /// Decision: the pawn on `at` promotes, then `then` follows.
    Promote {
        /// The pawn's square.
        at: u8,
        /// The bonus after the choice.
        then: Bonus,
    },
    /// Decision: King Boo's swap of the piece on `at`.
    Swap {
        /// The moved piece's square.
        at: u8,
    },
    /// Decision: Toadette's drop.
    Toadette,
    /// Decision: Daisy's move of the piece on `at`.
    Daisy {
        /// The piece's square.
        at: u8,
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
    /// `Some(WHITE)`, `Some(BLACK)` or `None` (draw).
    pub winner: Option<u8>,
    /// How it ended.
    pub kind: EndKind,
}

/// The whole rules state: the vchess FEN fields plus what a turn in progress must remember
/// (ruling 10: the start square S for Koopa, the chain context, the drop to cancel).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Pos {
    /// The 64 cells (see `board`).
    #[serde(with = "board_serde")]
    pub board: [u8; 64],
    /// The side to move (`WHITE` or `BLACK`).
    pub turn: u8,
    /// The vchess moves count: +1 each time the turn passes.
    pub moves: u32,
    /// Bit 0 White shell, bit 1 White stealth, bit 2 Black shell, bit 3 Black stealth (1 = unused).
    pub flags: u8,
    /// Captured pools `[side][kind]`: each side's own pieces removed from the board.
    pub pools: [[u8; 6]; 2],
    /// What is pending.
    pub phase: Phase,
    /// The context of the chain in progress.
    pub ctx: Ctx,
    /// The move's start square S (for Koopa), or `NONE`.
    pub start: u8,
    /// The moved piece's cell before the move (Koopa puts it back; Chomp counts its kind).
    pub pre_form: u8,
    /// The square of this move's pawn or knight drop (Koopa and Chomp cancel it), or `NONE`.
    pub drop_sq: u8,
    /// The square of the piece Bowser froze this turn, or `NONE` (ruling 16).
    pub bowser: u8,
    /// Squares where the opponent of a hidden queen's owner may still believe it stands
    /// (ruling 17, for `determinize`). Meaningful only while a hidden queen is on the board.
    pub hidden: u64,
    /// The square a hidden queen made its stealth move from, or `NONE`.
    pub stealth_from: u8,
    /// The turn limit (0: none); see `Config::turn_limit`.
    pub turn_limit: u32,
    /// The initial-position option (0, 1 or 2, section 4): option 1 copies White's row for Black.
    pub option: u8,
    /// The result once the game is over.
    pub result: Option<GameResult>,
}

/// The bit of the shell flag of `side`.
#[inline]
const fn shell_bit(side: u8) -> u8 {
    1 << (side * 2)
}

/// The bit of the stealth flag of `side`.
#[inline]
const fn stealth_bit(side: u8) -> u8 {
    2 << (side * 2)
}

/// What a pawn may step onto straight ahead: empty, an item or the enemy's hidden queen.
#[inline]
const fn pawn_passable(c: u8, side: u8) -> bool {
    c == EMPTY || is_item(c) || is_enemy_hidden(c, side)
}

/// What a slider may pass through: empty, an egg, a mushroom or the enemy's hidden queen.
#[inline]
const fn slide_through(c: u8, side: u8) -> bool {
    c == EMPTY || c == EGG || c == MUSHROOM || is_enemy_hidden(c, side)
}

impl Pos {
    /// An empty position with White to move, flags `1111` and empty pools.
    #[must_use]
    pub fn empty() -> Pos {
        Pos {
            board: [EMPTY; 64],
            turn: WHITE,
            moves: 0,
            flags: 0b1111,
            pools: [[0; 6]; 2],
            phase: Phase::Move,
            ctx: Ctx::Main,
            start: NONE,
            pre_form: EMPTY,
            drop_sq: NONE,
            bowser: NONE,
            hidden: 0,
            stealth_from: NONE,
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
        for f in 0..8u8 {
            p.board[f as usize] = piece(WHITE, row[f as usize]);
            p.board[(8 + f) as usize] = piece(WHITE, Kind::Pawn);
            p.board[(48 + f) as usize] = piece(BLACK, Kind::Pawn);
            p.board[(56 + f) as usize] = piece(BLACK, row[f as usize]);
        }
        p
    }

    /// Whether `side`'s shell is unused.
    #[must_use]
    pub const fn has_shell(&self, side: u8) -> bool {
        self.flags & shell_bit(side) != 0
    }

    /// Whether `side`'s stealth move is unused.
    #[must_use]
    pub const fn has_stealth(&self, side: u8) -> bool {
        self.flags & stealth_bit(side) != 0
    }

    /// Writes a non-empty cell. Whatever stands there is gone, so the hidden queen is known not to
    /// be there (or has just been taken): the square leaves the `hidden` candidates.
    #[inline]
    fn put(&mut self, sq: u8, c: u8) {
        self.board[sq as usize] = c;
        self.hidden &= !(1u64 << sq);
    }

    /// Adds a captured piece to its owner's pool as its base kind (ruling 7, 16).
    #[inline]
    fn capture(&mut self, c: u8) {
        let slot = &mut self.pools[color(c) as usize][kind_of(c) as usize];
        *slot = slot.saturating_add(1);
    }

    // ---------------------------------------------------------------------------------------
    // Legal actions

    /// Calls `f` with every legal decision of the side to act, stopping when `f` returns false.
    /// Returns false if stopped.
    pub fn for_each_legal<F: FnMut(Action) -> bool>(&self, f: &mut F) -> bool {
        let side = self.turn;
        match self.phase {
            Phase::Move => {
                let mut movers = self.mask(PIECE | FROZEN | HIDDEN | 8, PIECE | (side << 3));
                while movers != 0 {
                    let sq = movers.trailing_zeros() as u8;
                    movers &= movers - 1;
                    if !self.piece_moves(sq, f) {
                        return false;
                    }
                }
                true
            }
            Phase::Daisy { at } => self.piece_moves(at, f),
            Phase::Promote { .. } => {
                for k in [
                    Kind::Bishop,
                    Kind::King,
                    Kind::Knight,
                    Kind::Queen,
                    Kind::Rook,
                ] {
                    if !f(Action::Promote(k)) {
                        return false;
                    }
                }
                true
            }
            Phase::Swap { at } => {
                for sq in 0..64u8 {
                    if self.swap_ok(at, sq) && !f(Action::Swap { with: sq }) {
                        return false;
                    }
                }
                true
            }
            Phase::Toadette => {
                for k in Kind::ALL {
                    if self.pools[side as usize][k as usize] == 0 {
                        continue;
                    }
                    for sq in 0..64u8 {
                        if self.drop_ok(k, sq) && !f(Action::Drop { kind: k, to: sq }) {
                            return false;
                        }
                    }
                }
                true
            }
            _ => true,
        }
    }

    /// The squares whose cell `c` has `c & m == v`, as a bit set: a branch-free scan of the
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

    /// Whether King Boo may swap the piece on `at` with the piece on `sq` (ruling 1).
    fn swap_ok(&self, at: u8, sq: u8) -> bool {
        let o = self.board[sq as usize];
        if sq == at || !is_piece(o) || o & HIDDEN != 0 {
            return false;
        }
        let m = self.board[at as usize];
        let pawn_bad =
            |c: u8, to: u8| kind_of(c) == Kind::Pawn as u8 && rank(to) == last_rank(color(c));
        !pawn_bad(m, sq) && !pawn_bad(o, at)
    }

    /// Whether Toadette may drop a `k` on `sq` (ruling 5).
    fn drop_ok(&self, k: Kind, sq: u8) -> bool {
        let c = self.board[sq as usize];
        (looks_empty(c, self.turn) || is_item(c))
            && !(k == Kind::Pawn && rank(sq) == last_rank(self.turn))
    }

    /// The moves of the piece on `sq` (section 5, section 8 powers). Returns false if `f` stopped.
    fn piece_moves<F: FnMut(Action) -> bool>(&self, sq: u8, f: &mut F) -> bool {
        let side = self.turn;
        let c = self.board[sq as usize];
        let mv = |to: u8| Action::Move {
            from: sq,
            to,
            promote: None,
            stealth: false,
        };
        match kind(c) {
            Kind::Pawn => {
                let fw = forward(side);
                let mut targets = [NONE; 4];
                let one = offset(sq, 0, fw);
                if one != NONE && pawn_passable(self.board[one as usize], side) {
                    targets[0] = one;
                    let r = rank(sq) as i8;
                    let first = first_rank(side) as i8;
                    if r == first || r == first + fw {
                        let two = offset(one, 0, fw);
                        if two != NONE && pawn_passable(self.board[two as usize], side) {
                            targets[1] = two;
                        }
                    }
                }
                for (i, df) in [-1i8, 1].into_iter().enumerate() {
                    let t = offset(sq, df, fw);
                    if t != NONE {
                        let tc = self.board[t as usize];
                        if is_item(tc) || is_visible_enemy(tc, side) {
                            targets[2 + i] = t;
                        }
                    }
                }
                for to in targets {
                    if to == NONE {
                        continue;
                    }
                    if rank(to) == last_rank(side) {
                        for k in [
                            Kind::Rook,
                            Kind::Knight,
                            Kind::Bishop,
                            Kind::Queen,
                            Kind::King,
                        ] {
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
                for to in JUMPS[sq as usize] {
                    if to == NONE {
                        break;
                    }
                    if !is_own(self.board[to as usize], side) && !f(mv(to)) {
                        return false;
                    }
                }
                true
            }
            Kind::King => {
                for ray in &RAY {
                    let to = ray[sq as usize];
                    if to != NONE && !is_own(self.board[to as usize], side) && !f(mv(to)) {
                        return false;
                    }
                }
                if self.has_shell(side) {
                    for ray in &RAY {
                        let mut t = ray[sq as usize];
                        while t != NONE {
                            let tc = self.board[t as usize];
                            if slide_through(tc, side) {
                                t = ray[t as usize];
                                continue;
                            }
                            if (is_visible_enemy(tc, side) || tc == BANANA || tc == BOMB)
                                && !f(Action::Shell { from: sq, to: t })
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
                    let mut t = ray[sq as usize];
                    while t != NONE {
                        let tc = self.board[t as usize];
                        if is_own(tc, side) {
                            break;
                        }
                        if !f(mv(t)) {
                            return false;
                        }
                        if stealth
                            && looks_empty(tc, side)
                            && !f(Action::Move {
                                from: sq,
                                to: t,
                                promote: None,
                                stealth: true,
                            })
                        {
                            return false;
                        }
                        if !slide_through(tc, side) {
                            break;
                        }
                        t = ray[t as usize];
                    }
                }
                true
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Chance outcomes

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
                let (sqs, n) = self.redirect_squares(at, bomb);
                for &s in &sqs[..n] {
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
                let (sqs, n) = self.flip_targets(luigi);
                for &s in &sqs[..n] {
                    f(Action::Flip { luigi, target: s });
                }
            }
            Phase::ItemDrop { at } => {
                let bomb = kind_of(self.board[at as usize]) == Kind::Bishop as u8;
                let (sqs, n) = self.item_drop_squares(at);
                for &s in &sqs[..n] {
                    f(Action::ItemDrop { bomb, to: s });
                }
            }
            _ => {}
        }
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

    /// The squares a banana (orthogonal) or bomb (diagonal) on `at` may send the mover's piece to:
    /// on the board and not holding a piece of the mover (ruling 4); sorted in name order.
    fn redirect_squares(&self, at: u8, bomb: bool) -> ([u8; 4], usize) {
        let dirs = if bomb { &DIAG } else { &ORTHO };
        let mut out = [NONE; 4];
        let mut n = 0;
        for &(df, dr) in dirs {
            let t = offset(at, df, dr);
            if t != NONE && !is_own(self.board[t as usize], self.turn) {
                out[n] = t;
                n += 1;
            }
        }
        sort_squares(&mut out[..n]);
        (out, n)
    }

    /// The squares where the rook (banana, diagonal) or bishop (bomb, orthogonal) on `at` may drop
    /// its item: empty or holding an item, never a piece or the hidden queen (section 5, ruling 7).
    fn item_drop_squares(&self, at: u8) -> ([u8; 4], usize) {
        let rook = kind_of(self.board[at as usize]) == Kind::Rook as u8;
        let dirs = if rook { &DIAG } else { &ORTHO };
        let mut out = [NONE; 4];
        let mut n = 0;
        for &(df, dr) in dirs {
            let t = offset(at, df, dr);
            if t != NONE {
                let c = self.board[t as usize];
                if c == EMPTY || is_item(c) {
                    out[n] = t;
                    n += 1;
                }
            }
        }
        sort_squares(&mut out[..n]);
        (out, n)
    }

    /// Luigi's targets (enemy pieces but kings, the hidden queen and enemy pawns on the mover's last
    /// rank) or Waluigi's (own pieces but kings and own pawns on the mover's first rank), ruling 15.
    fn flip_targets(&self, luigi: bool) -> ([u8; 32], usize) {
        let side = self.turn;
        let mut out = [NONE; 32];
        let mut n = 0;
        // Name order: file-major.
        for f in 0..8u8 {
            for r in 0..8u8 {
                let sq = r * 8 + f;
                if self.flip_ok(sq, side, luigi) && n < 32 {
                    out[n] = sq;
                    n += 1;
                }
            }
        }
        (out, n)
    }

    fn flip_ok(&self, sq: u8, side: u8, luigi: bool) -> bool {
        let c = self.board[sq as usize];
        if !is_piece(c) || c & HIDDEN != 0 || kind_of(c) == Kind::King as u8 {
            return false;
        }
        let pawn = kind_of(c) == Kind::Pawn as u8;
        if luigi {
            color(c) != side && !(pawn && rank(sq) == last_rank(side))
        } else {
            color(c) == side && !(pawn && rank(sq) == first_rank(side))
        }
    }

    fn any_flip_target(&self, luigi: bool) -> bool {
        (0..64u8).any(|sq| self.flip_ok(sq, self.turn, luigi))
    }

    /// Whether the egg effect `e` applies (ruling 6).
    fn effect_applies(&self, e: Effect) -> bool {
        match e {
            Effect::Toadette => self.pools[self.turn as usize].iter().any(|&n| n > 0),
            Effect::Luigi => self.any_flip_target(true),
            Effect::Waluigi => self.any_flip_target(false),
            _ => true,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Playing

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
                let c = self.board[to as usize];
                if is_piece(c) {
                    self.capture(c);
                }
                self.board[to as usize] = EMPTY;
                self.flags &= !shell_bit(self.turn);
                self.end_turn();
            }
            Action::Swap { with } => {
                if let Phase::Swap { at } = self.phase {
                    self.board.swap(at as usize, with as usize);
                }
                self.end_turn();
            }
            Action::Drop { kind: k, to } => {
                let slot = &mut self.pools[self.turn as usize][k as usize];
                *slot = slot.saturating_sub(1);
                self.ctx = Ctx::Toadette;
                let x = self.land(to, piece(self.turn, k));
                self.chain(to, x, (0, 0));
            }
            Action::Promote(k) => {
                if let Phase::Promote { at, then } = self.phase {
                    let frozen = self.board[at as usize] & FROZEN;
                    self.board[at as usize] = piece(self.turn, k) | frozen;
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
                    self.board[target as usize] ^= 8;
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
    fn play_move(&mut self, from: u8, to: u8, promote: Option<Kind>, stealth: bool) {
        let side = self.turn;
        let p = self.board[from as usize];
        if stealth {
            // The opponent learns the start square; the queen may be on any square its stealth
            // move could reach (ruling 17).
            self.hidden = self.stealth_targets(from);
            self.stealth_from = from;
            let x = self.board[to as usize];
            if is_piece(x) {
                self.capture(x);
            }
            self.board[from as usize] = EMPTY;
            self.board[to as usize] = p | HIDDEN;
            self.flags &= !stealth_bit(side);
            self.end_turn();
            return;
        }
        self.start = from;
        self.pre_form = p;
        self.drop_sq = NONE;
        let mover = match promote {
            Some(k) => piece(side, k),
            None => p,
        };
        self.board[from as usize] = EMPTY;
        let x = self.land(to, mover);
        let d = (
            file(to) as i8 - file(from) as i8,
            rank(to) as i8 - rank(from) as i8,
        );
        // Segment-1 drops of pawns and knights (section 5; sub-turn 1 and Daisy moves).
        if kind_of(p) == Kind::Pawn as u8 && promote.is_none() {
            if d.1.abs() == 2 {
                let mid = offset(from, 0, d.1 / 2);
                if is_enemy_hidden(self.board[mid as usize], side) {
                    // Ruling 7: no mushroom over the hidden queen; the opponent now knows.
                    self.hidden = 1u64 << mid;
                } else {
                    self.put(mid, MUSHROOM);
                    self.drop_sq = mid;
                }
            } else {
                self.put(from, MUSHROOM);
                self.drop_sq = from;
            }
        } else if kind_of(mover) == Kind::Knight as u8 {
            let egg_sq = if promote.is_some() {
                from
            } else {
                let leg = if d.0.abs() == 2 {
                    offset(from, d.0.signum(), 0)
                } else {
                    offset(from, 0, d.1.signum())
                };
                let lc = self.board[leg as usize];
                if lc == EMPTY || is_item(lc) {
                    leg
                } else {
                    if is_enemy_hidden(lc, side) {
                        self.hidden = 1u64 << leg;
                    }
                    from
                }
            };
            self.put(egg_sq, EGG);
            self.drop_sq = egg_sq;
        }
        self.chain(to, x, d);
    }

    /// The squares a stealth move from `from` could end on: the squares of the queen's lines that
    /// look empty to the mover (ruling 17).
    fn stealth_targets(&self, from: u8) -> u64 {
        let mut m = 0u64;
        for ray in &RAY {
            let mut t = ray[from as usize];
            while t != NONE {
                let tc = self.board[t as usize];
                if looks_empty(tc, self.turn) {
                    m |= 1u64 << t;
                }
                if !slide_through(tc, self.turn) {
                    break;
                }
                t = ray[t as usize];
            }
        }
        m
    }

    /// Puts `p` on `sq`, capturing a piece there; returns what was there.
    #[inline]
    fn land(&mut self, sq: u8, p: u8) -> u8 {
        let x = self.board[sq as usize];
        if is_piece(x) {
            self.capture(x);
        }
        self.put(sq, p);
        x
    }

    /// A banana or bomb sends the piece on `at` to `t`.
    fn redirect(&mut self, at: u8, t: u8) {
        let p = self.board[at as usize];
        self.board[at as usize] = EMPTY;
        let x = self.land(t, p);
        let d = (
            file(t) as i8 - file(at) as i8,
            rank(t) as i8 - rank(at) as i8,
        );
        self.chain(t, x, d);
    }

    /// The item chain (section 6 with rulings 3, 4, 7 and 17): the piece stands on `sq`, where it
    /// found `x`, having moved by `d`. Runs until the chain stops or a chance node is pending.
    fn chain(&mut self, mut sq: u8, mut x: u8, mut d: (i8, i8)) {
        let side = self.turn;
        loop {
            let next = match x {
                BANANA | BOMB => {
                    let (sqs, n) = self.redirect_squares(sq, x == BOMB);
                    match n {
                        0 => NONE,
                        1 => sqs[0],
                        _ => {
                            self.phase = Phase::Redirect {
                                at: sq,
                                bomb: x == BOMB,
                            };
                            return;
                        }
                    }
                }
                MUSHROOM if d != (0, 0) => {
                    let p = self.board[sq as usize];
                    match kind(p) {
                        Kind::Pawn | Kind::Knight | Kind::King => {
                            let t = offset(sq, d.0, d.1);
                            if t != NONE && pawn_passable(self.board[t as usize], side) {
                                t
                            } else {
                                NONE
                            }
                        }
                        _ => {
                            let u = (d.0.signum(), d.1.signum());
                            let a = offset(sq, u.0, u.1);
                            let b = if a == NONE { NONE } else { offset(a, u.0, u.1) };
                            let over = if a == NONE {
                                EMPTY
                            } else {
                                self.board[a as usize]
                            };
                            if b != NONE
                                && is_piece(over)
                                && !is_enemy_hidden(over, side)
                                && !is_own(self.board[b as usize], side)
                            {
                                d = (2 * u.0, 2 * u.1);
                                b
                            } else {
                                NONE
                            }
                        }
                    }
                }
                EGG if self.ctx == Ctx::Main => {
                    self.phase = Phase::Egg { at: sq };
                    return;
                }
                _ => NONE,
            };
            if next == NONE {
                break;
            }
            if x == BANANA || x == BOMB {
                d = (
                    file(next) as i8 - file(sq) as i8,
                    rank(next) as i8 - rank(sq) as i8,
                );
            }
            let p = self.board[sq as usize];
            self.board[sq as usize] = EMPTY;
            x = self.land(next, p);
            sq = next;
        }
        // The chain has stopped on `sq`: a rook's or bishop's drop in sub-turn 1 (section 5,
        // ruling 14), then the promotion check.
        let p = self.board[sq as usize];
        if self.ctx == Ctx::Main && (kind(p) == Kind::Rook || kind(p) == Kind::Bishop) {
            let (sqs, n) = self.item_drop_squares(sq);
            // What the opponent of a hidden queen learns from the drop (ruling 17's leak).
            self.learn_from_drop(sq);
            match n {
                0 => {}
                1 => self.put(sqs[0], if kind(p) == Kind::Rook { BANANA } else { BOMB }),
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
    fn learn_from_drop(&mut self, sq: u8) {
        if self.hidden == 0 {
            return;
        }
        let rook = kind(self.board[sq as usize]) == Kind::Rook;
        let dirs = if rook { &DIAG } else { &ORTHO };
        let mut near = 0u64;
        let mut queen = NONE;
        for &(df, dr) in dirs {
            let t = offset(sq, df, dr);
            if t == NONE {
                continue;
            }
            let c = self.board[t as usize];
            if c & HIDDEN != 0 {
                queen = t;
            } else if c == EMPTY || is_item(c) {
                near |= 1u64 << t;
            }
        }
        if queen != NONE {
            self.hidden = 1u64 << queen;
        } else {
            self.hidden &= !near;
        }
    }

    /// After the chain and any egg effect: a pawn of the mover on its last rank promotes
    /// (ruling 12), then the bonus.
    fn after_chain(&mut self, sq: u8, bonus: Bonus) {
        let p = self.board[sq as usize];
        if is_own(p, self.turn) && kind(p) == Kind::Pawn && rank(sq) == last_rank(self.turn) {
            self.phase = Phase::Promote {
                at: sq,
                then: bonus,
            };
            return;
        }
        self.start_bonus(sq, bonus);
    }

    /// Starts a bonus decision; one with no legal action is skipped (ruling 13).
    fn start_bonus(&mut self, sq: u8, bonus: Bonus) {
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
    fn egg(&mut self, at: u8, e: Effect) {
        match e {
            Effect::Koopa | Effect::Chomp => {
                self.board[at as usize] = EMPTY;
                if self.drop_sq != NONE {
                    self.board[self.drop_sq as usize] = EMPTY;
                }
                if e == Effect::Koopa {
                    self.put(self.start, self.pre_form);
                } else {
                    self.capture(self.pre_form);
                }
                self.end_turn();
            }
            Effect::Bowser => {
                self.board[at as usize] |= FROZEN;
                self.bowser = at;
                self.after_chain(at, Bonus::None);
            }
            Effect::KingBoo => self.after_chain(at, Bonus::KingBoo),
            Effect::Daisy => self.after_chain(at, Bonus::Daisy),
            Effect::Toadette => self.after_chain(at, Bonus::Toadette),
            Effect::Luigi | Effect::Waluigi => {
                let luigi = e == Effect::Luigi;
                let (sqs, n) = self.flip_targets(luigi);
                if n == 1 {
                    self.board[sqs[0] as usize] ^= 8;
                    self.after_chain(at, Bonus::None);
                } else {
                    self.phase = Phase::Flip { at, luigi };
                }
            }
        }
    }

    /// The end of a complete turn (ruling 13 step 7): frozen pieces of the mover thaw but Bowser's
    /// (ruling 16), the opponent's hidden queen shows (ruling 17), the turn passes and the end of
    /// the game is checked (ruling 8).
    pub fn end_turn(&mut self) {
        let c = self.turn;
        // Frozen pieces of the mover and hidden queens of the other side are rare: find them
        // with one branch-free scan, then fix those squares.
        let mut special = self.mask(PIECE | FROZEN | 8, PIECE | FROZEN | (c << 3))
            | self.mask(PIECE | HIDDEN | 8, PIECE | HIDDEN | ((c ^ 1) << 3));
        if self.bowser != NONE {
            special &= !(1u64 << self.bowser);
        }
        while special != 0 {
            let sq = special.trailing_zeros() as usize;
            special &= special - 1;
            self.board[sq] &= !(FROZEN | HIDDEN);
        }
        let kings = self.kings();
        self.ctx = Ctx::Main;
        self.start = NONE;
        self.pre_form = EMPTY;
        self.drop_sq = NONE;
        self.bowser = NONE;
        self.turn ^= 1;
        self.moves = self.moves.saturating_add(1);
        self.phase = Phase::Move;
        self.check_end(kings);
    }

    /// Sets the result if the game is over between turns (ruling 8, and the turn limit).
    pub fn check_end(&mut self, kings: [u32; 2]) {
        let result = if kings[WHITE as usize] == 0 {
            Some((Some(BLACK), EndKind::KingCaptured))
        } else if kings[BLACK as usize] == 0 {
            Some((Some(WHITE), EndKind::KingCaptured))
        } else if !self.has_legal() {
            Some((Some(self.turn ^ 1), EndKind::NoMove))
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
    pub fn finish(&mut self, winner: Option<u8>, kind: EndKind) {
        self.phase = Phase::Over;
        self.result = Some(GameResult { winner, kind });
    }

    /// Counts the kings (`k`/`l`) of each side.
    #[must_use]
    pub fn kings(&self) -> [u32; 2] {
        const KING: u8 = PIECE | Kind::King as u8;
        let white = self.mask(PIECE | 0xF, KING);
        let black = self.mask(PIECE | 0xF, KING | 8);
        [white.count_ones(), black.count_ones()]
    }

    // ---------------------------------------------------------------------------------------
    // Random initial rows (section 4, ruling 19)

    /// The back rank row of `side` for the files given to the entries of `SETUP_ORDER`, with the
    /// bishop fix applied: cells by file.
    #[must_use]
    pub fn setup_row(files: &[u8; 8]) -> [Kind; 8] {
        let mut row = [Kind::Pawn; 8];
        let mut f = *files;
        if f[0] % 2 == f[1] % 2 {
            // The second bishop changes places with the first later entry on the other colour.
            if let Some(j) = (2..8).find(|&j| f[j] % 2 != f[1] % 2) {
                f.swap(1, j);
            }
        }
        for (i, &fl) in f.iter().enumerate() {
            row[fl as usize] = SETUP_ORDER[i];
        }
        row
    }

    fn setup(&mut self, fl: u8) {
        let Phase::Setup {
            side,
            mut n,
            mut files,
        } = self.phase
        else {
            return;
        };
        let rank_base = first_rank(side) * 8;
        files[n as usize] = fl;
        self.board[(rank_base + fl) as usize] = piece(side, SETUP_ORDER[n as usize]);
        n += 1;
        if n < 7 {
            self.phase = Phase::Setup { side, n, files };
            return;
        }
        let last = (0..8u8).find(|x| !files.contains(x)).unwrap_or(0);
        let all = [
            files[0], files[1], files[2], files[3], files[4], files[5], files[6], last,
        ];
        let row = Pos::setup_row(&all);
        for (fl, k) in row.iter().enumerate() {
            self.board[rank_base as usize + fl] = piece(side, *k);
        }
        if side == WHITE && self.option == 1 {
            for (fl, k) in row.iter().enumerate() {
                self.board[56 + fl] = piece(BLACK, *k);
            }
        }
        if side == WHITE && self.option != 1 {
            self.phase = Phase::Setup {
                side: BLACK,
                n: 0,
                files: [0; 7],
            };
        } else {
            self.phase = Phase::Move;
        }
    }

    /// The position before the setup nodes of option 1 or 2: pawns only.
    #[must_use]
    pub fn before_setup(option: u8) -> Pos {
        let mut p = Pos::empty();
        for f in 0..8usize {
            p.board[8 + f] = piece(WHITE, Kind::Pawn);
            p.board[48 + f] = piece(BLACK, Kind::Pawn);
        }
        p.phase = Phase::Setup {
            side: WHITE,
            n: 0,
            files: [0; 7],
        };
        p.option = option;
        p
    }
}

/// Sorts squares by the byte order of their names.
fn sort_squares(s: &mut [u8]) {
    s.sort_unstable_by_key(|&q| name_order(q));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_a_plain_scan() {
        let mut p = Pos::orthodox();
        p.board[20] = piece(WHITE, Kind::Queen) | HIDDEN;
        p.board[33] = piece(BLACK, Kind::King) | FROZEN;
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
    }
}
