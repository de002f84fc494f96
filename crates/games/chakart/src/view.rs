//! What each viewer sees (rulings 9 and 17): observations, the terminal board, the vchess-style
//! SAN of the move list (section 11), and the resampling of a hidden queen for `determinize`.

use plateau_engine::Viewer;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::action::{Action, Effect};
use crate::board::{
    BANANA, BOMB, EGG, EMPTY, FROZEN, HIDDEN, Kind, MUSHROOM, Side, Square, is_piece, kind,
    side_of, with_other_side,
};
use crate::fen::{board_text, flags_text, pending_text, pools_text};
use crate::rules::{Phase, Pos};

/// What one viewer may know of a Chakart state.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Observation {
    /// The FEN board field as the viewer sees it: the opponent's hidden queen (every hidden queen
    /// for a spectator) is an empty square.
    pub board: String,
    /// `w` or `b`: the side to move.
    pub turn: char,
    /// The moves count.
    pub moves: u32,
    /// The four flags: White shell, White stealth, Black shell, Black stealth.
    pub flags: String,
    /// The captured pools, FEN field 5.
    pub captured: String,
    /// The pending decision (FEN field 6: `B:e3`, `T`, `D:e3`, `=:e8,B`), if any.
    pub pending: Option<String>,
    /// The pending chance event, if any: `setup`, `redirect e4`, `egg e3`, `luigi`, `waluigi`,
    /// `drop c6`.
    pub chance: Option<String>,
    /// While a queen is hidden: the square its stealth move started from (`a1??s`), if known.
    pub stealth_from: Option<String>,
    /// The last move or shell shot played, as this viewer may see it; `None` before the first
    /// (and in a state read from a position text, which does not hold it).
    #[serde(default)]
    pub last_move: Option<SeenMove>,
    /// The squares of kings their opponent could capture with its next move
    /// (`Pos::kings_within_reach`), judged on the board as this viewer sees it, so a hidden queen
    /// it cannot see neither threatens nor blocks: a seat is told of its own kings, a spectator of
    /// both sides'. Sorted; empty once the game is over.
    #[serde(default)]
    pub kings_in_danger: Vec<String>,
    /// The pieces of `board`, read from the same viewer-filtered board so they tell no more than
    /// the FEN field (rules/chakart.md section 3; ruling 17): an opponent's hidden queen is
    /// absent, the viewer's own is `hidden`. Shape `[{"square": "e1", "side": "white", "kind":
    /// "king", "frozen": false, "hidden": false}]`, a1 to h8 by rank.
    #[serde(default)]
    pub pieces: Vec<SeenPiece>,
    /// The items of `board` (rules/chakart.md section 3): `[{"square": "d4", "item": "banana"}]`.
    #[serde(default)]
    pub items: Vec<SeenItem>,
    /// The captured pools of `captured` (rules/chakart.md section 2, FEN field 5) by side and
    /// kind: `{"white": {"pawn": 0, "rook": 0, "knight": 0, "bishop": 1, "queen": 0, "king": 0},
    /// "black": {...}}`.
    #[serde(default)]
    pub pools: Pools,
    /// The one-time powers of `flags` (section 8) by side: `{"white": {"shell": true, "stealth":
    /// false}, "black": {...}}`, `true` while the power is still to be used.
    #[serde(default)]
    pub powers: Powers,
    /// The decision of `pending` in a word, so a page explains it without reading the FEN
    /// field: `swap` (King Boo), `daisy` (one more move), `drop` (Toadette), `promote`; `None`
    /// between turns.
    #[serde(default)]
    pub waiting: Option<String>,
}

/// One piece of the observation's `pieces`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenPiece {
    /// Where it stands, `a1` to `h8`.
    pub square: String,
    /// Whose it is.
    pub side: Side,
    /// What it moves as (an immobilized or hidden piece keeps its kind).
    pub kind: Kind,
    /// Immobilized by Bowser until its side's next turn is over (rules/chakart.md section 7).
    pub frozen: bool,
    /// The viewer's own queen after its stealth move, which no one else sees (section 8).
    pub hidden: bool,
}

/// An item on the board (rules/chakart.md section 3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// `d`, dropped by rooks.
    Banana,
    /// `w`, dropped by bishops.
    Bomb,
    /// `m`, dropped by pawns.
    Mushroom,
    /// `e`, dropped by knights.
    Egg,
}

/// One item of the observation's `items`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenItem {
    /// Where it lies.
    pub square: String,
    /// Which item.
    pub item: Item,
}

/// The pieces a side has lost (its captured pool, rules/chakart.md section 2), by kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Pool {
    pub pawn: u8,
    pub rook: u8,
    pub knight: u8,
    pub bishop: u8,
    pub queen: u8,
    pub king: u8,
}

impl Pool {
    fn of(counts: &[u8; 6]) -> Pool {
        let [pawn, rook, knight, bishop, queen, king] = *counts;
        Pool {
            pawn,
            rook,
            knight,
            bishop,
            queen,
            king,
        }
    }
}

/// Both captured pools (the observation's `pools`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Pools {
    /// The pieces White has lost.
    pub white: Pool,
    /// The pieces Black has lost.
    pub black: Pool,
}

/// One side's one-time powers (section 8), `true` while unused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Power {
    /// The king's shell shot.
    pub shell: bool,
    /// The queen's stealth move.
    pub stealth: bool,
}

/// Both sides' powers (the observation's `powers`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Powers {
    /// White's.
    pub white: Power,
    /// Black's.
    pub black: Power,
}

/// A move's squares as a viewer sees them (the observation's `last_move`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeenMove {
    /// The square the piece left.
    pub from: String,
    /// The square it was sent to (before any redirect), `None` for a stealth move seen by anyone
    /// but its mover (ruling 17: the others see `a1??s`).
    pub to: Option<String>,
}

/// The last move or shell shot of a game (`Chakart` keeps it for the observation).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LastMove {
    /// The square the piece left.
    pub from: Square,
    /// The square it was sent to.
    pub to: Square,
    /// Who played it.
    pub by: Side,
    /// A stealth move (section 8), whose destination only its mover knows.
    pub stealth: bool,
}

/// The observation of `viewer`; `last` is the game's last move, if known.
#[must_use]
pub fn observe(pos: &Pos, last: Option<LastMove>, viewer: Viewer) -> Observation {
    let hide_from = viewer_side(viewer);
    let last_move = last.map(|m| SeenMove {
        from: m.from.name().to_owned(),
        to: (!m.stealth || hide_from == Some(m.by)).then(|| m.to.name().to_owned()),
    });
    let chance = match pos.phase {
        Phase::Setup { .. } => Some("setup".to_owned()),
        Phase::Redirect { at, .. } => Some(format!("redirect {at}")),
        Phase::Egg { at } => Some(format!("egg {at}")),
        Phase::Flip { luigi, .. } => Some(if luigi { "luigi" } else { "waluigi" }.to_owned()),
        Phase::ItemDrop { at } => Some(format!("drop {at}")),
        _ => None,
    };
    let hidden = pos.board.iter().any(|&c| c & HIDDEN != 0);
    let (pieces, items) = board_contents(pos, hide_from);
    Observation {
        board: board_text(pos, Some(hide_from)),
        turn: pos.turn.letter(),
        moves: pos.moves,
        flags: flags_text(pos),
        captured: pools_text(&pos.pools),
        pending: pending_text(pos),
        chance,
        stealth_from: pos
            .stealth_from
            .filter(|_| hidden)
            .map(|sq| sq.name().to_owned()),
        last_move,
        kings_in_danger: kings_in_danger(pos, hide_from),
        pieces,
        items,
        pools: Pools {
            white: Pool::of(&pos.pools[Side::White.index()]),
            black: Pool::of(&pos.pools[Side::Black.index()]),
        },
        powers: Powers {
            white: Power {
                shell: pos.has_shell(Side::White),
                stealth: pos.has_stealth(Side::White),
            },
            black: Power {
                shell: pos.has_shell(Side::Black),
                stealth: pos.has_stealth(Side::Black),
            },
        },
        waiting: match pos.phase {
            Phase::Swap { .. } => Some("swap"),
            Phase::Daisy { .. } => Some("daisy"),
            Phase::Toadette => Some("drop"),
            Phase::Promote { .. } => Some("promote"),
            _ => None,
        }
        .map(str::to_owned),
    }
}

/// The observation's `pieces` and `items`: the board as `side` sees it (`None`: a spectator),
/// with the same rule as `board_text`'s (ruling 17): a hidden queen not the viewer's is left out.
fn board_contents(pos: &Pos, side: Option<Side>) -> (Vec<SeenPiece>, Vec<SeenItem>) {
    let mut pieces = Vec::new();
    let mut items = Vec::new();
    for sq in Square::all() {
        let c = pos.at(sq);
        let item = match c {
            EMPTY => continue,
            BANANA => Item::Banana,
            BOMB => Item::Bomb,
            MUSHROOM => Item::Mushroom,
            EGG => Item::Egg,
            _ if c & HIDDEN != 0 && Some(side_of(c)) != side => continue,
            _ => {
                pieces.push(SeenPiece {
                    square: sq.name().to_owned(),
                    side: side_of(c),
                    kind: kind(c),
                    frozen: c & FROZEN != 0,
                    hidden: c & HIDDEN != 0,
                });
                continue;
            }
        };
        items.push(SeenItem {
            square: sq.name().to_owned(),
            item,
        });
    }
    (pieces, items)
}

/// The observation's `kings_in_danger`: on the board as `side` sees it (`None`: a spectator, who
/// sees no hidden queen), the kings of `side` (of both sides for a spectator) that the opponent
/// could capture next.
fn kings_in_danger(pos: &Pos, side: Option<Side>) -> Vec<String> {
    if pos.phase == Phase::Over {
        return Vec::new();
    }
    let mut seen = *pos;
    for cell in &mut seen.board {
        if *cell & HIDDEN != 0 && Some(side_of(*cell)) != side {
            *cell = EMPTY;
        }
    }
    let sides = match side {
        Some(s) => vec![s],
        None => Side::ALL.to_vec(),
    };
    let reach = sides
        .into_iter()
        .fold(0u64, |m, s| m | seen.kings_within_reach(s));
    let mut squares: Vec<Square> = Square::all().filter(|s| reach & s.bit() != 0).collect();
    squares.sort_unstable_by_key(|s| s.name_order());
    squares.into_iter().map(|s| s.name().to_owned()).collect()
}

/// The side a viewer plays, `None` for a spectator (who sees no hidden queen at all).
fn viewer_side(viewer: Viewer) -> Option<Side> {
    match viewer {
        Viewer::Seat(s) => Side::of_seat(s),
        Viewer::Spectator => None,
    }
}

/// For `determinize`: when `viewer`'s opponent has a hidden queen, its square and a square drawn
/// uniformly among those the viewer cannot rule out (ruling 17).
pub fn resample_queen<R: Rng + ?Sized>(
    pos: &Pos,
    viewer: Side,
    rng: &mut R,
) -> Option<(Square, Square)> {
    let q = Square::all().find(|&s| {
        let c = pos.at(s);
        c & HIDDEN != 0 && side_of(c) != viewer
    })?;
    let mut cands = pos.hidden | q.bit();
    for s in Square::all() {
        if s != q && pos.at(s) != EMPTY {
            cands &= !s.bit();
        }
    }
    let n = cands.count_ones();
    let mut pick = rng.random_range(0..n);
    for s in Square::all() {
        if cands & s.bit() != 0 {
            if pick == 0 {
                return Some((q, s));
            }
            pick -= 1;
        }
    }
    None
}

/// Moves the hidden queen from `from` to the empty square `to`.
pub fn move_queen(pos: &mut Pos, from: Square, to: Square) {
    if from != to {
        pos.board[to.index()] = pos.at(from);
        pos.board[from.index()] = EMPTY;
    }
}

/// The vchess-style SAN of `action` in `pos`, computed before it is played (section 11):
/// `Bxe4`, `exd5`, `e8=Q`, `Q??`, `Kxh1`, `S@` swaps as `e3e1`, drops as `R@d5` (`@a7` for a
/// pawn), `=Q`, egg effects as the suffix `*W` (with the flipped square when it is forced), a
/// flip target as its square (so the pieces join into `Rxf6*Wg8`). Redirects, item drops and
/// setup draws have no vchess notation and keep their canonical text.
///
/// A stealth move is `Q??` unless `owner` (the mover's own list, ruling 17): then `Q??` followed by
/// the destination, `Q??a2`, with `x` when it lands on the opponent's hidden queen (`Q??xa2`).
#[must_use]
pub fn san(pos: &Pos, action: &Action, owner: bool) -> String {
    let upper = |k: Kind| k.letter().to_ascii_uppercase();
    match *action {
        Action::Move {
            from,
            to,
            promote,
            stealth,
        } => {
            if stealth {
                if !owner {
                    return "Q??".to_owned();
                }
                let takes = if pos.at(to) == EMPTY { "" } else { "x" };
                return format!("Q??{takes}{to}");
            }
            let p = pos.at(from);
            let target = pos.at(to);
            let takes = target != EMPTY;
            let mut s = String::new();
            if is_piece(p) && kind(p) == Kind::Pawn {
                if takes {
                    s.push((b'a' + from.file()) as char);
                    s.push('x');
                }
            } else {
                s.push(upper(kind(p)));
                if takes {
                    s.push('x');
                }
            }
            s.push_str(to.name());
            if let Some(k) = promote {
                s.push('=');
                s.push(upper(k));
            }
            s
        }
        Action::Shell { to, .. } => format!("Kx{to}"),
        Action::Swap { with } => match pos.phase {
            Phase::Swap { at } => format!("{at}{with}"),
            _ => action.text(),
        },
        Action::Drop { kind: k, to } => {
            let letter = if k == Kind::Pawn {
                String::new()
            } else {
                upper(k).to_string()
            };
            format!("{letter}@{to}")
        }
        Action::Promote(k) => format!("={}", upper(k)),
        Action::Egg(e) => {
            let mut s = format!("*{}", e.letter());
            if matches!(e, Effect::Luigi | Effect::Waluigi)
                && let Some(sq) = forced_flip(pos, action)
            {
                s.push_str(sq.name());
            }
            s
        }
        Action::Flip { target, .. } => target.name().to_owned(),
        Action::Redirect(_) | Action::ItemDrop { .. } | Action::Setup(_) => action.text(),
    }
}

/// The square a Luigi or Waluigi egg draw flipped when its target was forced (it then has no
/// node of its own, so the move list names it with the draw); `None` when a choice follows.
pub(crate) fn forced_flip(pos: &Pos, action: &Action) -> Option<Square> {
    let mut after = *pos;
    after.play(*action);
    if matches!(after.phase, Phase::Flip { .. }) {
        return None;
    }
    flipped_square(pos, &after)
}

/// The square whose piece changed side between two positions.
fn flipped_square(before: &Pos, after: &Pos) -> Option<Square> {
    Square::all().find(|&s| {
        let (a, b) = (before.at(s), after.at(s));
        is_piece(a) && with_other_side(a) == b
    })
}

/// The board for a terminal, as `viewer` sees it: Unicode pieces, item symbols, immobilized
/// pieces marked `°`, the owner's hidden queen marked `?`, then the pools, the side to move and
/// what is pending. `color` adds ANSI square colours.
#[must_use]
pub fn render(pos: &Pos, viewer: Viewer, color_on: bool) -> String {
    let me = viewer_side(viewer);
    let mut out = String::new();
    out.push_str("   a  b  c  d  e  f  g  h\n");
    for r in (0..8u8).rev() {
        out.push_str(&format!("{} ", r + 1));
        for f in 0..8u8 {
            let c = pos.at(Square::at(f, r));
            let cell = cell_symbol(c, me);
            if color_on {
                let bg = if (r + f) % 2 == 0 {
                    "\x1b[48;5;137m"
                } else {
                    "\x1b[48;5;180m"
                };
                out.push_str(&format!("{bg}\x1b[30m{cell}\x1b[0m"));
            } else {
                out.push_str(&cell);
            }
        }
        out.push_str(&format!(" {}\n", r + 1));
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    out.push_str(
        "items: m mushroom, e egg, d banana, w bomb; ° immobilized, ? your hidden queen\n",
    );
    for side in Side::ALL {
        let name = side.name();
        let pool = &pos.pools[side.index()];
        let items: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| pool[**k as usize] > 0)
            .map(|k| format!("{}x{}", piece_symbol(side, *k), pool[*k as usize]))
            .collect();
        let shell = if pos.has_shell(side) { "shell" } else { "-" };
        let stealth = if pos.has_stealth(side) {
            "stealth"
        } else {
            "-"
        };
        out.push_str(&format!(
            "{name} pool (pieces lost): {}   powers: {shell} {stealth}\n",
            if items.is_empty() {
                "none".to_owned()
            } else {
                items.join(" ")
            }
        ));
    }
    let side = pos.turn.name();
    match (pos.result, pos.phase) {
        (Some(r), _) => {
            let who = match r.winner {
                Some(Side::White) => "White wins",
                Some(Side::Black) => "Black wins",
                None => "Draw",
            };
            out.push_str(&format!("{who} ({})\n", r.kind.text()));
        }
        (None, Phase::Move) => out.push_str(&format!("{side} to move (move {})\n", pos.moves)),
        (None, Phase::Swap { at }) => out.push_str(&format!(
            "{side}: King Boo, swap the piece on {at} (S@<sq>)\n"
        )),
        (None, Phase::Daisy { at }) => {
            out.push_str(&format!("{side}: Daisy, move the piece on {at} again\n"))
        }
        (None, Phase::Toadette) => {
            out.push_str(&format!("{side}: Toadette, drop a captured piece (R@d5)\n"))
        }
        (None, Phase::Promote { at, .. }) => out.push_str(&format!(
            "{side}: promote the pawn on {at} (=q =r =n =b =k)\n"
        )),
        (None, _) => out.push_str("chance to act\n"),
    }
    out
}

fn piece_symbol(side: Side, k: Kind) -> char {
    let white = ['♙', '♖', '♘', '♗', '♕', '♔'];
    let black = ['♟', '♜', '♞', '♝', '♛', '♚'];
    match side {
        Side::White => white[k as usize],
        Side::Black => black[k as usize],
    }
}

/// Three columns per square; `viewer` sees its own hidden queen only.
fn cell_symbol(c: u8, viewer: Option<Side>) -> String {
    match c {
        EMPTY => " · ".to_owned(),
        MUSHROOM => " m ".to_owned(),
        EGG => " e ".to_owned(),
        BANANA => " d ".to_owned(),
        BOMB => " w ".to_owned(),
        _ => {
            if c & HIDDEN != 0 && Some(side_of(c)) != viewer {
                return " · ".to_owned();
            }
            let mark = if c & HIDDEN != 0 {
                '?'
            } else if c & FROZEN != 0 {
                '°'
            } else {
                ' '
            };
            format!(" {}{mark}", piece_symbol(side_of(c), kind(c)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use plateau_engine::Seat;

    #[test]
    fn the_terminal_board_marks_frozen_pieces_and_hides_the_queen() {
        let pos = fen::parse("4k3/8/8/8/4w3/8/I3O3/4K3 b 5 1010 000100000000").unwrap();
        let white = render(&pos, Viewer::Seat(Seat(0)), false);
        assert!(white.contains(" ♕?"), "{white}");
        assert!(white.contains(" ♘°"), "{white}");
        assert!(white.contains(" w "), "{white}");
        assert!(white.contains("White pool (pieces lost): ♗x1"), "{white}");
        assert!(white.contains("Black to move (move 5)"), "{white}");
        let black = render(&pos, Viewer::Seat(Seat(1)), false);
        assert!(!black.contains('♕'), "{black}");
        let spectator = render(&pos, Viewer::Spectator, true);
        assert!(
            !spectator.contains('♕') && spectator.contains("\x1b["),
            "{spectator}"
        );
    }
}
