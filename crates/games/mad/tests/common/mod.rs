//! Helpers shared by the MAD integration tests: building positions from ship lists, listing and
//! playing actions by text.
#![allow(dead_code)]

use plateau_engine::{Actor, Game, Seat};
use plateau_mad::{Mad, MadConfig};

/// A position text from `(token, cell)` pairs such as `("R211", "c3")`, the side to move and the
/// counters. The corvettes default to a1 (Red) and d6 (Blue) when not listed.
pub fn text_of(ships: &[(&str, &str)], counters: &str) -> String {
    let mut grid: [[Option<String>; 4]; 6] = Default::default();
    let mut place = |token: &str, cell: &str| {
        let b = cell.as_bytes();
        let (column, row) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
        assert!(
            grid[row][column].is_none(),
            "{cell} used twice in a test setup"
        );
        grid[row][column] = Some(token.to_owned());
    };
    for (token, cell) in ships {
        place(token, cell);
    }
    if !ships.iter().any(|(t, _)| *t == "R111") {
        place("R111", "a1");
    }
    if !ships.iter().any(|(t, _)| *t == "B111") {
        place("B111", "d6");
    }
    let rows: Vec<String> = (0..6)
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in &grid[row] {
                match cell {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(t);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} {counters}", rows.join("/"))
}

/// A running position with Red to move (ply 20, 5 turns since Blue's last expulsion).
pub fn red(ships: &[(&str, &str)]) -> Mad {
    at(&text_of(ships, "r 20 5 b"))
}

/// A running position with Blue to move (ply 21, 5 turns since Red's last expulsion).
pub fn blue(ships: &[(&str, &str)]) -> Mad {
    at(&text_of(ships, "b 21 5 r"))
}

/// Parses a position under the default config, panicking with the error if it is bad.
pub fn at(text: &str) -> Mad {
    Mad::parse_position(&MadConfig::default(), text)
        .unwrap_or_else(|e| panic!("test position `{text}` does not parse: {e}"))
}

/// The start position, with the positioning rule on or off.
pub fn start(positioning_turn: bool) -> Mad {
    let config = MadConfig {
        positioning_turn,
        ..MadConfig::default()
    };
    Mad::new(&config, 2).expect("two seats")
}

/// The legal actions of the side to move, as sorted canonical texts.
pub fn legal(state: &Mad) -> Vec<String> {
    let mut out = Vec::new();
    state.legal_actions(state.side().seat(), &mut out);
    let mut texts: Vec<String> = out.iter().map(|a| state.format_action(a)).collect();
    texts.sort();
    texts
}

/// Whether `text` is among the legal actions.
pub fn is_legal(state: &Mad, text: &str) -> bool {
    let action = state.parse_action(text).expect("test actions parse");
    let mut out = Vec::new();
    state.legal_actions(state.side().seat(), &mut out);
    out.contains(&action)
}

/// Plays `text` for the side to move; on refusal returns the reason and checks nothing changed.
pub fn play(state: &mut Mad, text: &str) -> Result<(), String> {
    let action = state.parse_action(text).map_err(|e| e.to_string())?;
    let before = *state;
    let seat = Seat(state.side() as u8);
    let r = state
        .apply(Actor::Seat(seat), &action)
        .map_err(|e| e.to_string());
    if r.is_err() {
        assert_eq!(*state, before, "a refused action changed the state");
    }
    r
}

/// Plays `text`, panicking if it is refused.
pub fn must_play(state: &mut Mad, text: &str) {
    if let Err(e) = play(state, text) {
        panic!("`{text}` refused in {}: {e}", state.format_position());
    }
}

/// The token on `cell` (e.g. `"c3"`), if any.
pub fn on(state: &Mad, cell: &str) -> Option<String> {
    let index = plateau_mad::action::parse_cell(cell).expect("test cells parse");
    state.ship_at(index.index()).map(|(side, kind)| {
        format!(
            "{}{}",
            side.token_letter(),
            plateau_mad::action::kind_code(kind)
        )
    })
}
