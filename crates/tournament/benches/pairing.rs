//! Pairing one round of a 1,000-player tournament (docs/tournaments.md section 7): the first
//! round and a later one of a Swiss, the players waiting in an arena, a round of tables.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use plateau_tournament::{Fill, GameResult, Kind, PlayerId, Settings, Tournament};

const PLAYERS: i64 = 1000;

fn tournament(kind: Kind, seats: u8) -> Tournament {
    let mut t = Tournament::new(Settings {
        kind,
        seats,
        rated: true,
        seed: 7,
    })
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for i in 0..PLAYERS {
        t.join(PlayerId(i), rng.random_range(800..2400), 0).unwrap();
    }
    t
}

/// Plays `rounds` rounds with results drawn from a seeded generator, the better rated winning
/// more often.
fn played(mut t: Tournament, rounds: u32) -> Tournament {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..rounds {
        let round = t.pair_next_round().unwrap().clone();
        for id in round.games {
            let seats = t.game(id).unwrap().seats.len();
            let mut ranks: Vec<u8> = (0..seats as u8).collect();
            for i in (1..seats).rev() {
                ranks.swap(i, rng.random_range(0..=i));
            }
            let result = if seats == 2 && rng.random_bool(0.2) {
                GameResult::draw()
            } else {
                GameResult { ranks }
            };
            t.record(id, result).unwrap();
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let swiss = tournament(Kind::Swiss { rounds: 11 }, 2);
    c.bench_function("swiss 1000 players, round 1", |b| {
        b.iter_batched(
            || swiss.clone(),
            |mut t| t.pair_next_round().map(|r| r.games.len()).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let later = played(swiss.clone(), 6);
    c.bench_function("swiss 1000 players, round 7", |b| {
        b.iter_batched(
            || later.clone(),
            |mut t| t.pair_next_round().map(|r| r.games.len()).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let last = played(swiss.clone(), 10);
    c.bench_function("swiss 1000 players, round 11", |b| {
        b.iter_batched(
            || last.clone(),
            |mut t| t.pair_next_round().map(|r| r.games.len()).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let tables = played(
        tournament(
            Kind::Tables {
                rounds: 9,
                fill: Fill::Bots,
            },
            4,
        ),
        4,
    );
    c.bench_function("tables of 4, 1000 players, round 5", |b| {
        b.iter_batched(
            || tables.clone(),
            |mut t| t.pair_next_round().map(|r| r.games.len()).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let mut arena = tournament(Kind::Arena { minutes: 60 }, 2);
    arena.start(0).unwrap();
    c.bench_function("arena 1000 players waiting", |b| {
        b.iter_batched(
            || arena.clone(),
            |mut t| t.pair_waiting(1).unwrap().len(),
            BatchSize::LargeInput,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
