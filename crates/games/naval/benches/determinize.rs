//! Determinization of late-game states (docs/architecture.md section 6): time per `determinize` call, single thread.
//! `cargo bench -p plateau-naval --bench determinize`. The states are battle positions of seeded
//! random games with at least 40 hit cells on the living boards; each call resamples the hidden
//! layouts of the viewer's living opponents (three boards at most).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plateau_engine::{Game, Seat};
use plateau_naval::Naval;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// (state, living viewer) pairs from `games` seeded random games.
fn late_positions(games: u64) -> Vec<(Naval, Seat)> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(3000 + seed);
        for g in Naval::late_battle_states(&mut rng, 11, 40) {
            for s in (0..4u8).filter(|&s| !g.boards[s as usize].out) {
                out.push((g.clone(), Seat(s)));
            }
        }
    }
    out
}

fn determinize(c: &mut Criterion) {
    let positions = late_positions(40);
    let mut group = c.benchmark_group("naval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    group.bench_function("determinize_late", |b| {
        b.iter(|| {
            for (g, s) in &positions {
                std::hint::black_box(g.determinize(*s, &mut rng));
            }
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = determinize
}
criterion_main!(benches);
