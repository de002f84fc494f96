//! What each viewer sees (rulings 9 and 17): observations, the terminal board, the vchess-style
//! SAN of the move list (section 11), and the resampling of a hidden queen for `determinize`.

use plateau_engine::Viewer;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::action::{Action, Effect};
use crate::board::{
    BANANA, BOMB, EGG, EMPTY, FROZEN, HIDDEN, Kind, MUSHROOM, NONE, WHITE, color, file, is_piece,
    kind, square_name,
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
}

/// The observation of `viewer`.
#[must_use]
pub fn observe(pos: &Pos, viewer: Viewer) -> Observation {
    let hide_from = match viewer {
        Viewer::Seat(s) => s.0,
        // No side has colour 2: every hidden queen is hidden.
        Viewer::Spectator => 2,
    };
    let chance = match pos.phase {
        Phase::Setup { .. } => Some("setup".to_owned()),
        Phase::Redirect { at, .. } => Some(format!("redirect {}", square_name(at))),
        Phase::Egg { at } => Some(format!("egg {}", square_name(at))),
        Phase::Flip { luigi, .. } => Some(if luigi { "luigi" } else { "waluigi" }.to_owned()),
        Phase::ItemDrop { at } => Some(format!("drop {}", square_name(at))),
        _ => None,
    };
    let hidden = pos.board.iter().any(|&c| c & HIDDEN != 0);
    Observation {
        board: board_text(pos, Some(hide_from)),
        turn: if pos.turn == WHITE { 'w' } else { 'b' },
        moves: pos.moves,
        flags: flags_text(pos),
        captured: pools_text(&pos.pools),
        pending: pending_text(pos),
        chance,
        stealth_from: (hidden && pos.stealth_from != NONE).then(|| square_name(pos.stealth_from)),
    }
}

/// For `determinize`: when `viewer`'s opponent has a hidden queen, its square and a square drawn
/// uniformly among those the viewer cannot rule out (ruling 17).
pub fn resample_queen<R: Rng + ?Sized>(pos: &Pos, viewer: u8, rng: &mut R) -> Option<(u8, u8)> {
    let q = (0..64u8).find(|&s| {
        let c = pos.board[s as usize];
        c & HIDDEN != 0 && color(c) != viewer
    })?;
    let mut cands = pos.hidden | 1u64 << q;
    for s in 0..64u8 {
        if s != q && pos.board[s as usize] != EMPTY {
            cands &= !(1u64 << s);
        }
    }
    let n = cands.count_ones();
    let mut pick = rng.random_range(0..n);
    for s in 0..64u8 {
        if cands & 1u64 << s != 0 {
            if pick == 0 {
                return Some((q, s));
            }
            pick -= 1;
        }
    }
    None
}

/// Moves the hidden queen from `from` to the empty square `to`.
pub fn move_queen(pos: &mut Pos, from: u8, to: u8) {
    if from != to {
        pos.board[to as usize] = pos.board[from as usize];
        pos.board[from as usize] = EMPTY;
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
                let takes = if pos.board[to as usize] == EMPTY {
                    ""
                } else {
                    "x"
                };
                return format!("Q??{takes}{}", square_name(to));
            }
            let p = pos.board[from as usize];
            let target = pos.board[to as usize];
            let takes = target != EMPTY;
            let mut s = String::new();
            if is_piece(p) && kind(p) == Kind::Pawn {
                if takes {
                    s.push((b'a' + file(from)) as char);
                    s.push('x');
                }
            } else {
                s.push(upper(kind(p)));
                if takes {
                    s.push('x');
                }
            }
            s.push_str(&square_name(to));
            if let Some(k) = promote {
                s.push('=');
                s.push(upper(k));
            }
            s
        }
        Action::Shell { to, .. } => format!("Kx{}", square_name(to)),
        Action::Swap { with } => match pos.phase {
            Phase::Swap { at } => square_name(at) + &square_name(with),
            _ => action.text(),
        },
        Action::Drop { kind: k, to } => {
            let letter = if k == Kind::Pawn {
                String::new()
            } else {
                upper(k).to_string()
            };
            format!("{letter}@{}", square_name(to))
        }
        Action::Promote(k) => format!("={}", upper(k)),
        Action::Egg(e) => {
            let mut s = format!("*{}", e.letter());
            if matches!(e, Effect::Luigi | Effect::Waluigi) {
                // A forced target has no node of its own: name it here.
                let mut after = *pos;
                after.play(*action);
                if !matches!(after.phase, Phase::Flip { .. })
                    && let Some(sq) = flipped_square(pos, &after)
                {
                    s.push_str(&square_name(sq));
                }
            }
            s
        }
        Action::Flip { target, .. } => square_name(target),
        Action::Redirect(_) | Action::ItemDrop { .. } | Action::Setup(_) => action.text(),
    }
}

/// The square whose piece changed colour between two positions.
fn flipped_square(before: &Pos, after: &Pos) -> Option<u8> {
    (0..64u8).find(|&s| {
        let (a, b) = (before.board[s as usize], after.board[s as usize]);
        is_piece(a) && is_piece(b) && a ^ b == 8
    })
}

/// The board for a terminal, as `viewer` sees it: Unicode pieces, item symbols, immobilized
/// pieces marked `°`, the owner's hidden queen marked `?`, then the pools, the side to move and
/// what is pending. `color` adds ANSI square colours.
#[must_use]
pub fn render(pos: &Pos, viewer: Viewer, color_on: bool) -> String {
    let me = match viewer {
        Viewer::Seat(s) => s.0,
        Viewer::Spectator => 2,
    };
    let mut out = String::new();
    out.push_str("   a  b  c  d  e  f  g  h\n");
    for r in (0..8u8).rev() {
        out.push_str(&format!("{} ", r + 1));
        for f in 0..8u8 {
            let c = pos.board[(r * 8 + f) as usize];
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
    for (side, name) in [(0usize, "White"), (1, "Black")] {
        let items: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| pos.pools[side][**k as usize] > 0)
            .map(|k| {
                format!(
                    "{}x{}",
                    piece_symbol(side as u8, *k),
                    pos.pools[side][*k as usize]
                )
            })
            .collect();
        let shell = if pos.has_shell(side as u8) {
            "shell"
        } else {
            "-"
        };
        let stealth = if pos.has_stealth(side as u8) {
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
    let side = if pos.turn == WHITE { "White" } else { "Black" };
    match (pos.result, pos.phase) {
        (Some(r), _) => {
            let who = match r.winner {
                Some(0) => "White wins",
                Some(_) => "Black wins",
                None => "Draw",
            };
            out.push_str(&format!("{who} ({})\n", r.kind.text()));
        }
        (None, Phase::Move) => out.push_str(&format!("{side} to move (move {})\n", pos.moves)),
        (None, Phase::Swap { at }) => out.push_str(&format!(
            "{side}: King Boo, swap the piece on {} (S@<sq>)\n",
            square_name(at)
        )),
        (None, Phase::Daisy { at }) => out.push_str(&format!(
            "{side}: Daisy, move the piece on {} again\n",
            square_name(at)
        )),
        (None, Phase::Toadette) => {
            out.push_str(&format!("{side}: Toadette, drop a captured piece (R@d5)\n"))
        }
        (None, Phase::Promote { at, .. }) => out.push_str(&format!(
            "{side}: promote the pawn on {} (=q =r =n =b =k)\n",
            square_name(at)
        )),
        (None, _) => out.push_str("chance to act\n"),
    }
    out
}

fn piece_symbol(side: u8, k: Kind) -> char {
    let white = ['♙', '♖', '♘', '♗', '♕', '♔'];
    let black = ['♟', '♜', '♞', '♝', '♛', '♚'];
    if side == WHITE {
        white[k as usize]
    } else {
        black[k as usize]
    }
}

/// Three columns per square.
fn cell_symbol(c: u8, viewer: u8) -> String {
    match c {
        EMPTY => " · ".to_owned(),
        MUSHROOM => " m ".to_owned(),
        EGG => " e ".to_owned(),
        BANANA => " d ".to_owned(),
        BOMB => " w ".to_owned(),
        _ => {
            if c & HIDDEN != 0 && color(c) != viewer {
                return " · ".to_owned();
            }
            let mark = if c & HIDDEN != 0 {
                '?'
            } else if c & FROZEN != 0 {
                '°'
            } else {
                ' '
            };
            format!(" {}{mark}", piece_symbol(color(c), kind(c)))
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
