//! Seeded random four-bot games through the engine's conformance kit (docs/architecture.md section 7): every game ends
//! with exactly one winner.

use plateau_naval::{Config, Naval};
use plateau_testkit::{Options, check_playouts};

fn run(games: usize, seed: u64, deep_every: usize) {
    let options = Options {
        games,
        seed,
        max_actions: 20_000,
        deep_every,
        determinizations: 4,
    };
    let report = check_playouts::<Naval>(&Config::default(), 4, &options);
    assert_eq!(report.games, games);
    assert_eq!(
        report.endings.get("last_fleet"),
        Some(&games),
        "endings: {:?}",
        report.endings
    );
    assert_eq!(
        report.wins.iter().sum::<usize>(),
        games,
        "one winner per game"
    );
    println!("{report:?}");
}

#[test]
fn a_few_games_with_every_check_at_every_step() {
    run(2, 1, 1);
}

/// 5,000 games in ten chunks that print as they finish; run with
/// `cargo test --release -p plateau-naval --test naval playouts:: -- --ignored --nocapture`.
#[test]
#[ignore = "long: about half an hour on one core in release"]
fn five_thousand_games() {
    for chunk in 0..10 {
        run(500, 1000 + 500 * chunk, 400);
    }
}
