//! Seeded random games through the engine's conformance kit (docs/architecture.md section 7), from random
//! initial positions (option 2, ruling 19) and from the orthodox one.

use plateau_chakart::{Chakart, Config};
use plateau_engine::testkit::{Options, check_playouts};

/// Our ruling: a random game is cut at 1,000 moves-count (a draw, `turn_limit`); the rules
/// themselves set no bound (ruling 8 leaves repetition to the game service).
const LIMIT: u32 = 1000;

fn run(randomness: u8, games: usize, seed: u64, deep_every: usize) {
    let config = Config {
        randomness,
        turn_limit: LIMIT,
    };
    let mut options = Options::new(games, 40 * LIMIT as usize);
    options.seed = seed;
    options.deep_every = deep_every;
    let report = check_playouts::<Chakart>(&config, 2, &options);
    assert_eq!(report.games, games);
    eprintln!("{report:?}");
    // Random play ends almost every game by the rules long before the limit.
    let cut = report.endings.get("turn_limit").copied().unwrap_or(0);
    assert!(
        cut * 100 <= games,
        "{cut} of {games} games hit the turn limit"
    );
}

#[test]
fn ten_thousand_random_games() {
    run(2, 10_000, 0, 16);
}

#[test]
fn mirrored_and_orthodox_starts() {
    run(1, 300, 1_000_000, 1);
    run(0, 300, 2_000_000, 1);
}
