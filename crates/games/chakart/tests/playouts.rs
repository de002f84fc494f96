//! Seeded random games through the engine's conformance kit (docs/architecture.md section 7), from random
//! initial positions (option 2, ruling 19) and from the orthodox one, with the default turn limit
//! (docs/rulings.md Chakart 1), which no random game reaches.

use plateau_chakart::{Chakart, Config, DEFAULT_TURN_LIMIT};
use plateau_engine::Game;
use plateau_engine::driver::Driver;
use plateau_testkit::{Options, check_playouts};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn run(randomness: u8, games: usize, seed: u64, deep_every: usize) {
    let config = Config {
        randomness,
        ..Config::default()
    };
    let mut options = Options::new(games, 40 * DEFAULT_TURN_LIMIT as usize);
    options.seed = seed;
    options.deep_every = deep_every;
    let report = check_playouts::<Chakart>(&config, 2, &options);
    assert_eq!(report.games, games);
    eprintln!("{report:?}");
    assert_eq!(report.endings.get("turn_limit"), None, "{report:?}");
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

/// The longest of 10,000 random games from each kind of start, in moves (plies): the default turn
/// limit must stand far above it, so that only a game nobody can finish reaches it.
#[test]
fn the_longest_random_game_is_under_half_the_turn_limit() {
    let mut legal = Vec::new();
    for randomness in [0, 2] {
        let config = Config {
            randomness,
            ..Config::default()
        };
        let mut longest = 0;
        for seed in 0..10_000 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = Chakart::new(&config, 2).unwrap();
            let mut driver = Driver::trusted();
            while driver.random_step(&mut game, &mut legal, &mut rng) {}
            assert!(game.outcome().is_some());
            longest = longest.max(game.pos().moves);
        }
        eprintln!(
            "randomness {randomness}: the longest of 10,000 random games has {longest} moves"
        );
        assert!(longest * 2 < DEFAULT_TURN_LIMIT, "{longest} moves");
    }
}
