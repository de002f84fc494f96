//! Helpers shared by the integration tests: positions on the default 37-cell board written as
//! lists of `(cell, "a3")`, and one-call legal lists and moves in canonical text.
#![allow(dead_code)]

use plateau_engine::{Actor, Game, Seat, ToAct};
use plateau_moonleap::{Config, MoonLeap};

/// Cells of the default board.
pub const CELLS: usize = 37;

/// Position text on the default board: `pieces` are `(cell, token)`, the rest of the track empty.
pub fn position(players: usize, pieces: &[(usize, &str)], to_move: char, roll: char) -> String {
    let mut track = vec![".".to_owned(); CELLS];
    for (cell, token) in pieces {
        assert_eq!(
            track[cell - 1],
            ".",
            "test setup puts two astronauts on cell {cell}"
        );
        track[cell - 1] = (*token).to_owned();
    }
    format!("{} {players} {to_move} {roll}", track.concat())
}

/// `(cell, token)` for every cell of `cells`, taking tokens from `pool` in order.
pub fn fill(
    cells: std::ops::RangeInclusive<usize>,
    pool: &[&'static str],
) -> Vec<(usize, &'static str)> {
    let cells: Vec<usize> = cells.collect();
    assert!(pool.len() >= cells.len(), "pool too small");
    cells.into_iter().zip(pool.iter().copied()).collect()
}

/// The state of a position text under `config`.
pub fn state_with(config: &Config, text: &str) -> MoonLeap {
    MoonLeap::parse_position(config, text)
        .unwrap_or_else(|e| panic!("bad test position {text}: {e}"))
}

/// The state of a position text, standard game.
pub fn state(text: &str) -> MoonLeap {
    state_with(&Config::default(), text)
}

/// The legal actions (or chance outcomes) of the actor to act, as sorted text.
pub fn legal(game: &MoonLeap) -> Vec<String> {
    let mut texts: Vec<String> = match game.to_act() {
        ToAct::Player(seat) => {
            let mut out = Vec::new();
            game.legal_actions(seat, &mut out);
            out.iter().map(|a| game.format_action(a)).collect()
        }
        ToAct::Chance => {
            let mut out = Vec::new();
            game.chance_outcomes(&mut out);
            out.iter().map(|(a, _)| game.format_action(a)).collect()
        }
        _ => Vec::new(),
    };
    texts.sort();
    texts
}

/// Plays `action` (text) for whoever is to act and returns the new state.
pub fn play(game: &MoonLeap, action: &str) -> MoonLeap {
    let mut next = game.clone();
    let actor = match game.to_act() {
        ToAct::Player(seat) => Actor::Seat(seat),
        ToAct::Chance => Actor::Chance,
        other => panic!("nobody acts in {}: {other:?}", game.format_position()),
    };
    let parsed = game
        .parse_action(action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    next.apply(actor, &parsed)
        .unwrap_or_else(|e| panic!("{action} refused in {}: {e}", game.format_position()));
    next
}

/// The seat to act, for assertions.
pub fn seat_to_act(game: &MoonLeap) -> Option<Seat> {
    match game.to_act() {
        ToAct::Player(s) => Some(s),
        _ => None,
    }
}
