//! The vchess FEN (rules/chakart.md section 2) with the project's 6th field (ruling 10).
//!
//! `<board> <turn> <movesCount> <flags> <captured> [<pending>]`, for example
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 1111 000000000000`.
//!
//! Reading one checks the position as ruling 10 says, and that it can arise at all: both kings on
//! the board between turns, no pawn on its last rank but one waiting for its promotion, an invisible queen only
//! of the side that just moved and only once its stealth flag is spent, at most `MAX_PIECES`
//! pieces on the board and in the pools together (docs/architecture.md section 2.2).

use plateau_engine::SetupError;

use crate::board::{
    FROZEN, HIDDEN, Kind, Side, Square, cell_letter, is_king_of, is_own, is_piece, kind,
    letter_cell, side_of,
};
use crate::rules::{Bonus, MAX_PIECES, Phase, Pos};

/// Writes the board field: rank 8 first, digits for runs of empty squares. With `hide_from`
/// = `Some(viewer)`, every hidden queen the viewer does not own is written as an empty square:
/// its opponent's for a side, every one for a spectator (`Some(None)`).
#[must_use]
pub fn board_text(pos: &Pos, hide_from: Option<Option<Side>>) -> String {
    let mut s = String::with_capacity(72);
    for r in (0..8u8).rev() {
        let mut run = 0;
        for f in 0..8u8 {
            let c = pos.at(Square::at(f, r));
            let shown = match hide_from {
                Some(viewer) if c & HIDDEN != 0 && Some(side_of(c)) != viewer => None,
                _ => cell_letter(c),
            };
            match shown {
                None => run += 1,
                Some(ch) => {
                    if run > 0 {
                        s.push((b'0' + run) as char);
                        run = 0;
                    }
                    s.push(ch);
                }
            }
        }
        if run > 0 {
            s.push((b'0' + run) as char);
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

/// Writes the captured field: 12 digits, or 12 comma-separated numbers when a count exceeds 9.
#[must_use]
pub fn pools_text(pools: &[[u8; 6]; 2]) -> String {
    let all = pools.iter().flatten();
    if pools.iter().flatten().all(|&n| n <= 9) {
        all.map(|n| char::from(b'0' + n)).collect()
    } else {
        all.map(u8::to_string).collect::<Vec<_>>().join(",")
    }
}

/// Writes the flags field: White shell, White stealth, Black shell, Black stealth.
#[must_use]
pub fn flags_text(pos: &Pos) -> String {
    [
        pos.has_shell(Side::White),
        pos.has_stealth(Side::White),
        pos.has_shell(Side::Black),
        pos.has_stealth(Side::Black),
    ]
    .iter()
    .map(|&b| if b { '1' } else { '0' })
    .collect()
}

/// The 6th field of a turn half-way through, or `None` between turns (ruling 10).
#[must_use]
pub fn pending_text(pos: &Pos) -> Option<String> {
    Some(match pos.phase {
        Phase::Swap { at } => format!("B:{at}"),
        Phase::Daisy { at } => format!("D:{at}"),
        Phase::Toadette => "T".to_owned(),
        Phase::Promote { at, then } => {
            let tail = match then {
                Bonus::None => "",
                Bonus::KingBoo => ",B",
                Bonus::Daisy => ",D",
                Bonus::Toadette => ",T",
            };
            format!("=:{at}{tail}")
        }
        _ => return None,
    })
}

/// The FEN of a position where no chance event is pending (5 fields, or 6 half-way through).
#[must_use]
pub fn format(pos: &Pos) -> String {
    let mut s = format!(
        "{} {} {} {} {}",
        board_text(pos, None),
        pos.turn.letter(),
        pos.moves,
        flags_text(pos),
        pools_text(&pos.pools)
    );
    if let Some(p) = pending_text(pos) {
        s.push(' ');
        s.push_str(&p);
    }
    s
}

fn bad(token: &str, msg: impl Into<String>) -> SetupError {
    SetupError::position(token, msg)
}

fn impossible(token: &str, msg: impl Into<String>) -> SetupError {
    SetupError::impossible(token, msg)
}

/// Reads a FEN of a game in play, checked (module doc). A turn half-way through gets its pending
/// decision. Whether the game is already over is left to the caller.
///
/// # Errors
/// `SetupError::Position` naming the field and the token that does not read;
/// `SetupError::Impossible` naming the field of a position the rules cannot reach.
pub fn parse(text: &str) -> Result<Pos, SetupError> {
    read(text, false)
}

/// Reads the FEN of a finished game, as a stored state holds it: as `parse`, but a side may have
/// lost its last king and a pawn may stand on its last rank (a game resigned half-way through a
/// turn).
///
/// # Errors
/// As `parse`.
pub fn parse_finished(text: &str) -> Result<Pos, SetupError> {
    read(text, true)
}

fn read(text: &str, finished: bool) -> Result<Pos, SetupError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let names = ["board", "turn", "moves count", "flags", "captured pool"];
    if fields.len() < 5 {
        return Err(bad(
            text,
            format!(
                "a Chakart FEN has 5 fields (board, turn, moves count, flags, captured pool); \
                 the {} field is missing",
                names[fields.len()]
            ),
        ));
    }
    if fields.len() > 6 {
        return Err(bad(fields[6], "a Chakart FEN has at most 6 fields"));
    }
    let mut pos = Pos::empty();
    parse_board(fields[0], &mut pos)?;
    pos.turn = match fields[1] {
        "w" => Side::White,
        "b" => Side::Black,
        t => return Err(bad(t, "turn field: expected `w` or `b`")),
    };
    pos.moves = fields[2]
        .parse()
        .map_err(|_| bad(fields[2], "moves count field: expected a whole number"))?;
    let flags = fields[3].as_bytes();
    if flags.len() != 4 || flags.iter().any(|b| *b != b'0' && *b != b'1') {
        return Err(bad(fields[3], "flags field: expected 4 digits 0 or 1"));
    }
    pos.flags = flags
        .iter()
        .enumerate()
        .map(|(i, b)| u8::from(*b == b'1') << i)
        .sum();
    pos.pools = parse_pools(fields[4])?;
    let pending = fields.get(5).copied().unwrap_or("-");
    pos.phase = parse_pending(pending, &pos)?;
    if let Phase::Promote { at, then } = pos.phase
        && pos.at(at) & FROZEN != 0
    {
        // Only Bowser freezes a piece half-way through a turn, and then no bonus follows.
        if then != Bonus::None {
            return Err(impossible(
                pending,
                "pending field: an immobilized pawn waits for its promotion only when no bonus follows",
            ));
        }
        pos.bowser = Some(at);
    }
    check(&pos, &fields, finished)?;
    Ok(pos)
}

fn parse_board(board: &str, pos: &mut Pos) -> Result<(), SetupError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(bad(
            board,
            format!(
                "board field: expected 8 ranks separated by `/`, found {}",
                ranks.len()
            ),
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let r = 7 - i as u8;
        let mut f = 0u32;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(bad(
                        text,
                        format!(
                            "board field: bad empty-square count `{ch}` in rank {}",
                            r + 1
                        ),
                    ));
                }
                f += d;
            } else {
                let cell = letter_cell(ch).ok_or_else(|| {
                    bad(
                        &ch.to_string(),
                        format!("board field: unknown letter in rank {} (`{text}`)", r + 1),
                    )
                })?;
                if f < 8 {
                    pos.board[Square::at(f as u8, r).index()] = cell;
                }
                f += 1;
            }
            if f > 8 {
                break;
            }
        }
        if f != 8 {
            return Err(bad(
                text,
                format!("board field: rank {} covers {f} squares, not 8", r + 1),
            ));
        }
    }
    Ok(())
}

fn parse_pools(text: &str) -> Result<[[u8; 6]; 2], SetupError> {
    let nums: Vec<u8> = if text.contains(',') {
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() != 12 {
            return Err(bad(
                text,
                format!(
                    "captured pool field: the comma form holds 12 numbers, not {}",
                    parts.len()
                ),
            ));
        }
        parts
            .iter()
            .map(|p| {
                p.parse::<u8>().map_err(|_| {
                    bad(
                        p,
                        format!("captured pool field: expected a count from 0 to {MAX_PIECES}"),
                    )
                })
            })
            .collect::<Result<_, _>>()?
    } else {
        if text.len() != 12 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(
                text,
                format!(
                    "captured pool field: expected 12 digits (or 12 comma-separated numbers), found {} characters",
                    text.chars().count()
                ),
            ));
        }
        text.bytes().map(|b| b - b'0').collect()
    };
    let mut pools = [[0u8; 6]; 2];
    for (i, n) in nums.into_iter().enumerate() {
        pools[i / 6][i % 6] = n;
    }
    Ok(pools)
}

fn parse_pending(text: &str, pos: &Pos) -> Result<Phase, SetupError> {
    let side = pos.turn;
    let square = |t: &str| {
        Square::parse(t).ok_or_else(|| bad(text, format!("pending field: `{t}` is not a square")))
    };
    let movable = |sq: Square| {
        let c = pos.at(sq);
        is_own(c, side) && c & (FROZEN | HIDDEN) == 0
    };
    let phase = match text {
        "-" => Phase::Move,
        "T" => Phase::Toadette,
        _ => {
            if let Some(sq) = text.strip_prefix("B:") {
                let at = square(sq)?;
                if !movable(at) {
                    return Err(impossible(
                        text,
                        "pending field: `B:` names no movable piece of the side to move",
                    ));
                }
                Phase::Swap { at }
            } else if let Some(sq) = text.strip_prefix("D:") {
                let at = square(sq)?;
                if !movable(at) {
                    return Err(impossible(
                        text,
                        "pending field: `D:` names no movable piece of the side to move",
                    ));
                }
                Phase::Daisy { at }
            } else if let Some(rest) = text.strip_prefix("=:") {
                let (sq, then) = match rest.split_once(',') {
                    None => (rest, Bonus::None),
                    Some((sq, "B")) => (sq, Bonus::KingBoo),
                    Some((sq, "D")) => (sq, Bonus::Daisy),
                    Some((sq, "T")) => (sq, Bonus::Toadette),
                    Some(_) => {
                        return Err(bad(text, "pending field: a promotion bonus is B, D or T"));
                    }
                };
                let at = square(sq)?;
                let c = pos.at(at);
                if !(is_own(c, side)
                    && c & HIDDEN == 0
                    && kind(c) == Kind::Pawn
                    && at.rank() == side.last_rank())
                {
                    return Err(impossible(
                        text,
                        "pending field: `=:` names no pawn of the side to move on its last rank",
                    ));
                }
                Phase::Promote { at, then }
            } else {
                return Err(bad(
                    text,
                    "pending field: expected -, B:<sq>, T, D:<sq>, =:<sq> or =:<sq>,B|D|T",
                ));
            }
        }
    };
    let toadette = matches!(
        phase,
        Phase::Toadette
            | Phase::Promote {
                then: Bonus::Toadette,
                ..
            }
    );
    if toadette && pos.pools[side.index()].iter().all(|&n| n == 0) {
        return Err(impossible(
            text,
            "pending field: Toadette with an empty pool",
        ));
    }
    Ok(phase)
}

/// The position checks of ruling 10 that concern the board, and the count of pieces; a finished
/// game may lack a king and keep a pawn on its last rank.
fn check(pos: &Pos, fields: &[&str], finished: bool) -> Result<(), SetupError> {
    let (board, flags) = (fields[0], fields[3]);
    let promoting = match pos.phase {
        Phase::Promote { at, .. } => Some(at),
        _ => None,
    };
    let mut hidden = [0u32; 2];
    for sq in Square::all() {
        let c = pos.at(sq);
        if !is_piece(c) {
            continue;
        }
        if kind(c) == Kind::Pawn
            && sq.rank() == side_of(c).last_rank()
            && Some(sq) != promoting
            && !finished
        {
            return Err(impossible(
                board,
                format!("board field: a pawn stands on its last rank at {sq}"),
            ));
        }
        if c & HIDDEN != 0 {
            hidden[side_of(c).index()] += 1;
        }
    }
    for side in Side::ALL {
        let name = side.name();
        if hidden[side.index()] > 0 {
            if side == pos.turn {
                return Err(impossible(
                    board,
                    format!(
                        "board field: the invisible queen belongs to the side to move ({name})"
                    ),
                ));
            }
            if hidden[side.index()] > 1 {
                return Err(impossible(
                    board,
                    format!("board field: {name} has two invisible queens"),
                ));
            }
            if pos.has_stealth(side) {
                return Err(impossible(
                    flags,
                    format!(
                        "flags field: {name} has an invisible queen but its stealth flag is still 1"
                    ),
                ));
            }
        }
        // Kings are counted between turns (ruling 8): one taken this turn is missing until the
        // turn ends, so a position half-way through a turn may lack it.
        let between_turns = pos.phase == Phase::Move;
        if between_turns && !finished && !Square::all().any(|sq| is_king_of(pos.at(sq), side)) {
            return Err(impossible(
                board,
                format!("board field: {name} has no king (k or l) on the board"),
            ));
        }
    }
    let pieces = pos.piece_count();
    if pieces > MAX_PIECES {
        let part = if pos.pools.iter().flatten().any(|&n| n > 0) {
            fields[4]
        } else {
            board
        };
        return Err(impossible(
            part,
            format!(
                "{pieces} pieces on the board and in the pools: a game has {MAX_PIECES} at most \
                 (pieces change kind and side, none is ever made)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
