//! MCTS iterations per second on every game (the aims in crates/bots/README.md, "Figures": 300,000/s on
//! MAD, 100,000/s on Moon Leap). One bench per game: a search of a fixed number of iterations from the first position
//! where a seat has a real choice, reported as iterations per second. `mcts/<game>/<seats>` is
//! the plain search (playouts to the end, as `mcts:i<n>:plain`); `bot/<game>/<seats>` is the bot
//! the registry makes (`mcts:i<n>`), with the game's evaluation and playout cut-off when the game
//! offers one.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_bots::{Budget, Mcts, SearchConfig};
use plateau_engine::{Actor, Game, Seat, ToAct, chance};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The first state where a seat has a real choice (two legal actions or more), drawing chance
/// outcomes and forced actions from a fixed seed.
fn first_decision<G: Game>(seats: usize) -> (G, Seat) {
    let mut state = G::new(&G::Config::default(), seats).expect("default setup");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut outcomes = Vec::new();
    let mut legal = Vec::new();
    loop {
        let seat = match state.to_act() {
            ToAct::Chance => {
                state.chance_outcomes(&mut outcomes);
                let i = chance::sample(&outcomes, &mut rng);
                state.apply_legal(Actor::Chance, &outcomes[i].0);
                continue;
            }
            ToAct::Player(s) => s,
            ToAct::Simultaneous(set) => set.iter().next().expect("a seat"),
            ToAct::Terminal => panic!("the game ends before anyone has a choice"),
        };
        state.legal_actions(seat, &mut legal);
        if legal.len() >= 2 {
            return (state, seat);
        }
        state.apply_legal(Actor::Seat(seat), &legal[0]);
    }
}

/// Benchmarks searches of `iterations` iterations (fewer for games with long playouts, so that a
/// sample stays short).
fn bench_game<G: Game>(c: &mut Criterion, seats: usize, iterations: u64) {
    let (state, seat) = first_decision::<G>(seats);
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(10);
    group.bench_function(format!("{}/{seats}", G::INFO.name), |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let config = SearchConfig {
                reuse: false,
                ..SearchConfig::with_budget(Budget::Iterations(iterations))
            };
            let mut mcts = Mcts::<G>::new(config, seed);
            black_box(mcts.choose(&state, seat))
        });
    });
    group.finish();
}

/// Benchmarks the registry's bot `mcts:i<iterations>` for `G` (through `DynBot`, as the command
/// line and the match service use it; the text round trip is one action per search).
fn bench_registered<G: Game>(c: &mut Criterion, seats: usize, iterations: u64) {
    let (state, seat) = first_decision::<G>(seats);
    let name = G::INFO.name;
    let spec = format!("mcts:i{iterations}").parse().expect("a bot name");
    let mut group = c.benchmark_group("bot");
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(10);
    group.bench_function(format!("{name}/{seats}"), |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let mut bot = plateau_registry::new_bot(name, spec, seed).expect("registered");
            let action = bot.act(&state, seat);
            assert_eq!(bot.stats().iterations, iterations);
            black_box(action)
        });
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_registered::<plateau_mad::Mad>(c, 2, 2000);
    bench_game::<plateau_mad::Mad>(c, 2, 2000);
    bench_game::<plateau_moonleap::MoonLeap>(c, 4, 2000);
    bench_registered::<plateau_chakart::Chakart>(c, 2, 2000);
    bench_game::<plateau_chakart::Chakart>(c, 2, 2000);
    bench_game::<plateau_naval::Naval>(c, 4, 40);
}

criterion_group!(benches, search);
criterion_main!(benches);
