//! The engine's conformance kit on seeded random MAD games (rules/mad.md section 8.3: every game
//! ends within 600 plies).

use plateau_mad::{Mad, MadConfig};
use plateau_testkit::{Options, Report, check_playouts};

/// The bound of rules/mad.md section 8.3: 15 expulsions, each followed by at most 40 turns.
const MAX_PLIES: usize = 600;

fn check(report: &Report, games: usize) {
    assert_eq!(report.games, games);
    assert_eq!(report.endings.values().sum::<usize>(), games);
    assert_eq!(
        report.wins.iter().sum::<usize>(),
        games,
        "one winner per game"
    );
    assert!(report.longest <= MAX_PLIES);
    assert!(
        report
            .endings
            .keys()
            .all(|k| k == "corvette" || k == "tiebreak"),
        "{:?}",
        report.endings
    );
    assert!(
        report.endings.get("corvette").copied().unwrap_or(0) > 0,
        "{:?}",
        report.endings
    );
    assert!(
        report.endings.get("tiebreak").copied().unwrap_or(0) > 0,
        "{:?}",
        report.endings
    );
}

#[test]
fn a_thousand_random_games_keep_the_contract() {
    let options = Options {
        games: 1000,
        seed: 0,
        max_actions: MAX_PLIES,
        deep_every: 3,
        determinizations: 4,
    };
    let report = check_playouts::<Mad>(&MadConfig::default(), 2, &options);
    check(&report, 1000);
}

#[test]
fn random_games_with_the_positioning_turn_keep_the_contract() {
    let config = MadConfig {
        positioning_turn: true,
        ..MadConfig::default()
    };
    let options = Options {
        games: 300,
        seed: 10_000,
        max_actions: MAX_PLIES,
        deep_every: 3,
        determinizations: 4,
    };
    let report = check_playouts::<Mad>(&config, 2, &options);
    check(&report, 300);
}
