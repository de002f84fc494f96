//! Random MAD playouts from the start, single thread: the speed of move generation and
//! `apply_legal` (README.md, "Figures", aims at 3 million plies per second). Run with `cargo bench -p plateau-mad`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_engine::{Actor, Game, ToAct};
use plateau_mad::{Mad, MadConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays one uniformly random game to the end; returns its length in plies.
fn playout(start: &Mad, rng: &mut ChaCha8Rng, buffer: &mut Vec<plateau_mad::Action>) -> u64 {
    let mut state = *start;
    let mut plies = 0;
    while let ToAct::Player(seat) = state.to_act() {
        state.legal_actions(seat, buffer);
        let action = buffer[rng.random_range(0..buffer.len())];
        state.apply_legal(Actor::Seat(seat), &action);
        plies += 1;
    }
    plies
}

fn bench(c: &mut Criterion) {
    let start = Mad::new(&MadConfig::default(), 2).expect("two seats");
    let mut buffer = Vec::with_capacity(256);
    // Measure the plies of a fixed batch of seeded games, so the throughput is plies per second.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let games = 100;
    let plies: u64 = (0..games)
        .map(|_| playout(&start, &mut rng, &mut buffer))
        .sum();
    let mut group = c.benchmark_group("mad");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("random_playouts_100_games", |b| {
        b.iter(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let total: u64 = (0..games)
                .map(|_| playout(&start, &mut rng, &mut buffer))
                .sum();
            assert_eq!(total, plies);
            total
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
