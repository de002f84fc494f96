//! Random playouts, single thread: how many seat decisions per second the rules sustain
//! (each decision also pays for the die roll before it). Run with `cargo bench -p plateau-moonleap`;
//! criterion reports the throughput in decisions ("elements") per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_engine::{Actor, Game, ToAct};
use plateau_moonleap::{Action, Config, Face, MoonLeap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `games` random games from `start`; returns the number of seat decisions.
fn playouts(start: &MoonLeap, games: usize, rng: &mut ChaCha8Rng, legal: &mut Vec<Action>) -> u64 {
    let mut decisions = 0;
    for _ in 0..games {
        let mut state = start.clone();
        loop {
            match state.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    let face = Face::ALL[rng.random_range(0..6)];
                    state.apply_legal(Actor::Chance, &Action::Roll(face));
                }
                ToAct::Player(seat) => {
                    state.legal_actions(seat, legal);
                    let action = legal[rng.random_range(0..legal.len())];
                    state.apply_legal(Actor::Seat(seat), &action);
                    decisions += 1;
                }
                ToAct::Simultaneous(_) => unreachable!("Moon Leap has no simultaneous nodes"),
            }
        }
    }
    decisions
}

fn bench(c: &mut Criterion) {
    const GAMES: usize = 200;
    let mut group = c.benchmark_group("moonleap_random_playouts");
    for seats in [2, 3, 4] {
        for mercenaries in [false, true] {
            let config = Config {
                mercenaries,
                ..Config::default()
            };
            let start = MoonLeap::new(&config, seats).expect("standard setup");
            // Calibrate the element count: decisions in GAMES games from a fixed seed.
            let mut legal = Vec::with_capacity(16);
            let decisions = playouts(&start, GAMES, &mut ChaCha8Rng::seed_from_u64(1), &mut legal);
            group.throughput(Throughput::Elements(decisions));
            let name = format!("{seats}p{}", if mercenaries { "_mercenaries" } else { "" });
            group.bench_function(name, |b| {
                b.iter(|| playouts(&start, GAMES, &mut ChaCha8Rng::seed_from_u64(1), &mut legal));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
