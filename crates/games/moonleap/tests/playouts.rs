//! Seeded random games: the engine's conformance kit (10,000 games per player count), and a second
//! run of 10,000 games per player count in which every step is compared with the independent model
//! of tests/reference (same legal list, same next position) and every final score is recounted
//! from the final position text.

mod reference;

use plateau_engine::testkit::{Options, check_playouts};
use plateau_engine::{Actor, Game, ToAct};
use plateau_moonleap::{Config, DEFAULT_BOARD_JSON, MoonLeap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{RefBoard, RefState};

const GAMES: usize = 10_000;
/// No game can last this long: each roll moves an astronaut forward or is one of at most a few
/// forfeits in a row, and the track is finite.
const MAX_ACTIONS: usize = 2_000;

fn kit(mercenaries: bool, seats: usize, games: usize, seed: u64) {
    let config = Config {
        mercenaries,
        ..Config::default()
    };
    let options = Options {
        games,
        seed,
        max_actions: MAX_ACTIONS,
        deep_every: 25,
    };
    let report = check_playouts::<MoonLeap>(&config, seats, &options);
    assert_eq!(report.games, games);
    assert_eq!(report.endings.get("score"), Some(&games), "every game ends by the rules");
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

/// Plays `games` random games, comparing every step with the reference model.
fn against_reference(mercenaries: bool, seats: usize, games: usize, seed: u64) {
    let config = Config {
        mercenaries,
        ..Config::default()
    };
    let board = RefBoard::standard();
    let json: serde_json::Value = serde_json::from_str(DEFAULT_BOARD_JSON).unwrap();
    let values: Vec<i64> = json["track_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let start = MoonLeap::new(&config, seats).unwrap();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for game in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + game as u64);
        let mut state = start.clone();
        let mut model = RefState::parse(&board, mercenaries, &state.format_position());
        let mut steps = 0;
        loop {
            let before = state.format_position();
            let step = steps;
            let ctx = || format!("game {game}, step {step}: {before}");
            let expected = model.actions();
            let (actor, action) = match state.to_act() {
                ToAct::Terminal => {
                    assert!(expected.is_empty(), "{}: the model plays on", ctx());
                    break;
                }
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    let i = rng.random_range(0..outcomes.len());
                    (Actor::Chance, outcomes[i].0)
                }
                ToAct::Player(seat) => {
                    state.legal_actions(seat, &mut legal);
                    let mut texts: Vec<String> = legal.iter().map(|a| state.format_action(a)).collect();
                    texts.sort();
                    assert_eq!(texts, expected, "{}", ctx());
                    if state.roll() == Some(plateau_moonleap::Face::STAR) {
                        // Rules case 19: a star always has at least three single moves.
                        assert!(legal.len() >= 3, "{}", ctx());
                    }
                    (Actor::Seat(seat), legal[rng.random_range(0..legal.len())])
                }
                ToAct::Simultaneous(_) => unreachable!(),
            };
            let text = state.format_action(&action);
            state.apply(actor, &action).unwrap();
            model = model.after(&text);
            assert_eq!(state.format_position(), model.text(), "{} after {text}", ctx());
            steps += 1;
            assert!(steps < MAX_ACTIONS, "{}: endless game", ctx());
        }
        let outcome = state.outcome().expect("finished");
        let recount = model.scores(&values);
        let scores: Vec<i64> = outcome.scores.iter().map(|s| *s as i64).collect();
        assert_eq!(scores, recount, "game {game}: scores differ from the recount");
        let best = *recount.iter().max().unwrap();
        for (seat, score) in recount.iter().enumerate() {
            assert_eq!(outcome.ranks[seat] == 1, *score == best, "game {game}: winners");
        }
    }
}

#[test]
fn reference_2_players() {
    against_reference(false, 2, GAMES, 1_000_000);
}

#[test]
fn reference_3_players() {
    against_reference(false, 3, GAMES, 2_000_000);
}

#[test]
fn reference_4_players() {
    against_reference(false, 4, GAMES, 3_000_000);
}

#[test]
fn reference_mercenaries() {
    for seats in 2..=4 {
        against_reference(true, seats, 2_000, 4_000_000 + seats as u64 * 10_000);
    }
}
