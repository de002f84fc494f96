//! Helps write tests/data/perft.txt (the test checks every line against the crate and against an
//! independent model):
//! - `perft_gen count <merc 0|1> "<position>" <max-depth>` prints the perft counts;
//! - `perft_gen walk <merc 0|1> <seats> <seed> <actions>` prints the position reached by a seeded
//!   random game after that many actions (`end`: at the first roll with one end cell left).
use plateau_engine::{Actor, Game, ToAct, perft::perft};
use plateau_moonleap::{Config, MoonLeap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let config = Config {
        mercenaries: args[2] == "1",
        ..Config::default()
    };
    if args[1] == "walk" {
        let seats: usize = args[3].parse().expect("seats");
        let mut rng = ChaCha8Rng::seed_from_u64(args[4].parse().expect("seed"));
        let mut state = MoonLeap::new(&config, seats).expect("setup");
        // `<actions>` may be `end`: stop at the first roll with a single end cell left empty.
        let near_end = args[5] == "end";
        let limit = if near_end {
            usize::MAX
        } else {
            args[5].parse().expect("actions")
        };
        for _ in 0..limit {
            let empty_ends = state
                .board()
                .desc()
                .end_cells
                .iter()
                .filter(|c| state.track()[usize::from(**c) - 1].is_none())
                .count();
            if near_end && empty_ends == 1 && state.to_act() == ToAct::Chance {
                break;
            }
            let mut legal = Vec::new();
            let actor = match state.to_act() {
                ToAct::Chance => {
                    let mut outcomes = Vec::new();
                    state.chance_outcomes(&mut outcomes);
                    legal = outcomes.into_iter().map(|(a, _)| a).collect();
                    Actor::Chance
                }
                ToAct::Player(seat) => {
                    state.legal_actions(seat, &mut legal);
                    Actor::Seat(seat)
                }
                _ => break,
            };
            let a = legal[rng.random_range(0..legal.len())];
            state.apply(actor, &a).expect("legal");
        }
        println!("{}", state.format_position());
        return;
    }
    let state = MoonLeap::parse_position(&config, &args[3]).expect("position");
    let depth: u32 = args[4].parse().expect("depth");
    for d in 1..=depth {
        println!("{d} {}", perft(&state, d));
    }
}
