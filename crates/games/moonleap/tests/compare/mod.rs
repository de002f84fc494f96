//! Random games compared step by step with the independent model of tests/reference: the same
//! legal list (sorted text) and the same next position at every step, and at the end the crate's
//! scores equal a recount from the final position with the board file's values.

use plateau_engine::{Actor, Game, ToAct};
use plateau_moonleap::{Config, Face, MoonLeap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::reference::{RefBoard, RefState};

/// The most actions a game may take before it counts as endless.
const MAX_ACTIONS: usize = 2_000;

/// Plays `games` random games, comparing every step with the reference model.
///
/// `config` must select the board whose file text is `board_json`.
pub fn against_reference(config: &Config, board_json: &str, seats: usize, games: usize, seed: u64) {
    let mercenaries = config.mercenaries;
    let board = RefBoard::from_json(board_json);
    let json: serde_json::Value = serde_json::from_str(board_json).unwrap();
    let offboard = json["offboard_multiplier"].as_i64().unwrap();
    let values: Vec<i64> = json["track_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let start = MoonLeap::new(config, seats).unwrap();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for game in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + game as u64);
        let mut state = start.clone();
        let mut model = RefState::parse(&board, mercenaries, &state.format_position());
        let mut steps = 0;
        // The position before each step: the text the last step was checked against.
        let mut before = state.format_position();
        loop {
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
                    let mut texts: Vec<String> =
                        legal.iter().map(|a| state.format_action(a)).collect();
                    texts.sort();
                    assert_eq!(texts, expected, "{}", ctx());
                    if state.roll() == Some(Face::STAR) {
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
            let after = state.format_position();
            assert_eq!(after, model.text(), "{} after {text}", ctx());
            steps += 1;
            assert!(steps < MAX_ACTIONS, "{}: endless game", ctx());
            before = after;
        }
        let outcome = state.outcome().expect("finished");
        let recount = model.scores(&values, offboard);
        let scores: Vec<i64> = outcome.scores.iter().map(|s| *s as i64).collect();
        assert_eq!(
            scores, recount,
            "game {game}: scores differ from the recount"
        );
        let best = *recount.iter().max().unwrap();
        for (seat, score) in recount.iter().enumerate() {
            assert_eq!(
                outcome.ranks[seat] == 1,
                *score == best,
                "game {game}: winners"
            );
        }
    }
}
