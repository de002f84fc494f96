//! Seeded random games: the engine's conformance kit (10,000 games per player count), and a second
//! run of 10,000 games per player count in which every step is compared with the independent model
//! of tests/reference (same legal list, same next position) and every final score is recounted
//! from the final position text.

use crate::compare::against_reference;
use plateau_moonleap::{Config, DEFAULT_BOARD_JSON, DEFAULT_PLY_LIMIT, MoonLeap};
use plateau_testkit::{Options, check_playouts};

const GAMES: usize = 10_000;
/// Random games end long before this: every decision but `pass` moves an astronaut forward (at
/// most 25 astronauts x 37 cells of moves in all), and a `pass` needs the named astronaut blocked in
/// the end zone.
const MAX_ACTIONS: usize = 2_000;

fn config(mercenaries: bool) -> Config {
    Config {
        mercenaries,
        ..Config::default()
    }
}

fn kit(mercenaries: bool, seats: usize, games: usize, seed: u64) {
    let config = config(mercenaries);
    let options = Options {
        games,
        seed,
        max_actions: MAX_ACTIONS,
        deep_every: 25,
        determinizations: 4,
    };
    let report = check_playouts::<MoonLeap>(&config, seats, &options);
    assert_eq!(report.games, games);
    assert_eq!(
        report.endings.get("score"),
        Some(&games),
        "every game ends by the rules"
    );
    // The default ply limit (docs/rulings.md Moon Leap 11) stands far above every random game.
    eprintln!(
        "{seats} seats, mercenaries {mercenaries}: the longest of {games} random games has {} plies",
        report.longest
    );
    assert!(
        report.longest * 4 < DEFAULT_PLY_LIMIT as usize,
        "{report:?}"
    );
    // Every game has a winner (a shared win counts for each), so wins add up to at least `games`.
    assert!(report.wins.iter().sum::<usize>() >= games);
    assert!(report.chance_events > report.decisions / 2);
}

#[test]
fn kit_2_players() {
    kit(false, 2, GAMES, 0);
}

#[test]
fn kit_3_players() {
    kit(false, 3, GAMES, 100_000);
}

#[test]
fn kit_4_players() {
    kit(false, 4, GAMES, 200_000);
}

#[test]
fn kit_mercenaries() {
    for seats in 2..=4 {
        kit(true, seats, 2_000, 300_000 + seats as u64 * 10_000);
    }
}

#[test]
fn reference_2_players() {
    against_reference(&config(false), DEFAULT_BOARD_JSON, 2, GAMES, 1_000_000);
}

#[test]
fn reference_3_players() {
    against_reference(&config(false), DEFAULT_BOARD_JSON, 3, GAMES, 2_000_000);
}

#[test]
fn reference_4_players() {
    against_reference(&config(false), DEFAULT_BOARD_JSON, 4, GAMES, 3_000_000);
}

#[test]
fn reference_mercenaries() {
    for seats in 2..=4 {
        against_reference(
            &config(true),
            DEFAULT_BOARD_JSON,
            seats,
            2_000,
            4_000_000 + seats as u64 * 10_000,
        );
    }
}
