//! The golden playthrough (docs/architecture.md section 7): one seeded random game with every observation and
//! legal list, diffed against tests/data/playthrough.txt. After an intended change of output, run
//! with `PLATEAU_BLESS=1` to rewrite the file, and review the diff.

use std::fmt::Write as _;

use plateau_engine::{Actor, DynGame, Game, ToAct, Viewer};
use plateau_mad::{Mad, MadConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays the game of `seed`, choosing uniformly among the legal texts in byte order (so the game
/// does not depend on the generator's internal order), and writes every step.
fn playthrough(seed: u64) -> String {
    let mut state = Mad::new(&MadConfig::default(), 2).expect("two seats");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = format!("# MAD golden playthrough, seed {seed}, default config\n");
    while let ToAct::Player(seat) = Game::to_act(&state) {
        let observation = serde_json::to_string(&state.observe(Viewer::Spectator)).unwrap();
        let legal = state.legal_texts(seat);
        let choice = &legal[rng.random_range(0..legal.len())];
        let _ = writeln!(out, "ply {}", state.ply());
        let _ = writeln!(out, "observation {observation}");
        let _ = writeln!(out, "legal {}", legal.join(" "));
        let _ = writeln!(out, "play {choice}");
        state
            .apply_text(Actor::Seat(seat), choice)
            .expect("listed actions apply");
    }
    let outcome = serde_json::to_string(&Game::outcome(&state)).unwrap();
    let _ = writeln!(out, "final {}", state.format_position());
    let _ = writeln!(out, "outcome {outcome}");
    out
}

#[test]
fn golden_playthrough() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playthrough.txt");
    let actual = playthrough(3);
    if std::env::var_os("PLATEAU_BLESS").is_some() {
        std::fs::write(path, &actual).expect("write the golden file");
    }
    let expected = std::fs::read_to_string(path).expect("tests/data/playthrough.txt exists");
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "line {} of playthrough.txt differs", i + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
}
