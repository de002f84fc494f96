//! The checks that drive a game through the registry, as the match service and the command line do
//! (`GameEntry`, `DynGame`): position text, an action applied on a reachable state, a config.

use plateau_engine::{Actor, DynGame, GameEntry, Seat, ToAct, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Random plies an accepted config is played for by `config`.
const CONFIG_PLIES: usize = 64;

/// The registered game `game`.
///
/// # Panics
/// For a name the registry does not know (a target name out of `TARGETS`).
fn entry(game: &str) -> &'static GameEntry {
    plateau_registry::find(game).unwrap_or_else(|e| panic!("{e}"))
}

/// Position text of `game` under the default config: it reads or is refused without a panic, and
/// a text that reads is written back and reads again as the same text (docs/architecture.md
/// section 2.2). A finished game's text may be refused when read back, as section 2.2 allows.
///
/// # Panics
/// When the written text differs or does not read back, or anything on the way panics.
pub fn position(game: &str, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let entry = entry(game);
    let Ok(state) = entry.from_position(&Value::Null, text) else {
        return;
    };
    let written = state.position_text();
    match entry.from_position(&Value::Null, &written) {
        Ok(again) => assert_eq!(
            again.position_text(),
            written,
            "{game}: `{text}` reads and writes `{written}`, which writes back differently"
        ),
        Err(e) => assert!(
            state.outcome().is_some(),
            "{game}: `{text}` reads, but its written form `{written}` does not: {e}"
        ),
    }
    visit(&*state);
}

/// An action text applied on a state reached by a seeded random walk from the start: byte 0 seeds
/// the walk, byte 1 is its length in plies (`walk`), the rest is the text, given for whoever acts
/// (the lowest seat of a simultaneous set). The text is applied if and only if its canonical form
/// is in the actor's legal list (or is a chance outcome at a chance node), and a refused text
/// leaves the state as it was.
///
/// # Panics
/// When either direction of that fails, or anything on the way panics.
pub fn action(game: &str, data: &[u8]) {
    let [seed, plies, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let state = walk(game, *seed, *plies);
    let (actor, legal) = match state.to_act() {
        ToAct::Terminal => {
            let mut probe = state.clone_box();
            for actor in [Actor::Chance, Actor::Seat(Seat(0))] {
                assert!(
                    probe.apply_text(actor, text).is_err(),
                    "{game}: `{text}` was applied after the end"
                );
            }
            return;
        }
        ToAct::Chance => (
            Actor::Chance,
            state.chance_texts().into_iter().map(|(t, _)| t).collect(),
        ),
        ToAct::Player(seat) => (Actor::Seat(seat), state.legal_texts(seat)),
        ToAct::Simultaneous(set) => {
            let seat = set.iter().next().expect("a simultaneous set has a seat");
            (Actor::Seat(seat), state.legal_texts(seat))
        }
    };
    let before = state.position_text();
    let canonical = state.canonical_text(text).ok();
    let listed = canonical.as_ref().is_some_and(|c| legal.contains(c));
    let mut after = state.clone_box();
    match after.apply_text(actor, text) {
        Ok(()) => {
            assert!(
                listed,
                "{game}: `{text}` (canonical {canonical:?}) was applied by {actor:?} in `{before}` \
                 but is not in the legal list"
            );
            visit(&*after);
        }
        Err(e) => {
            assert!(
                !listed,
                "{game}: `{text}` is listed as legal for {actor:?} in `{before}` but was refused: {e}"
            );
            assert_eq!(
                after.position_text(),
                before,
                "{game}: the refused `{text}` changed the state"
            );
        }
    }
    // Every viewer's move-list form of the text can be asked for, whatever it is.
    for viewer in viewers(&*state) {
        let _ = state.display_text(actor, text, viewer);
    }
}

/// A config read through the registry: byte 0 picks the game (modulo the number of games), byte 1
/// the seat count (modulo 8: counts a game does not take must be refused), the rest is the JSON.
/// An accepted config plays `CONFIG_PLIES` random plies, and its start reads back from its text.
///
/// # Panics
/// When anything panics, or an accepted config's start text does not read back.
pub fn config(data: &[u8]) {
    let [game, seats, rest @ ..] = data else {
        return;
    };
    let games = plateau_registry::GAMES;
    let entry = &games[usize::from(*game) % games.len()];
    let Ok(config) = serde_json::from_slice::<Value>(rest) else {
        return;
    };
    let seats = usize::from(*seats % 8);
    let Ok(mut state) = entry.new_game(&config, seats) else {
        return;
    };
    let text = state.position_text();
    if let Err(e) = entry.from_position(&config, &text) {
        panic!(
            "{}: the start under {config} writes `{text}`, which does not read back: {e}",
            entry.info.name
        );
    }
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(*game));
    for _ in 0..CONFIG_PLIES {
        if !step(&mut *state, &mut rng) {
            break;
        }
    }
    visit(&*state);
}

/// The state of `game` (default config; the seat count is the game's smallest plus `seed`
/// modulo its range) after `plies` random plies seeded by `seed`, or fewer if the game ends.
/// Each seat's ply is, by a coin, a uniformly random legal action or the game's timeout rule
/// (`DynGame::timeout_texts`), so walks reach every phase (Bataille Navale's placement readies).
///
/// # Panics
/// If the default config is refused, or a ply panics.
#[must_use]
pub fn walk(game: &str, seed: u8, plies: u8) -> Box<dyn DynGame> {
    let entry = entry(game);
    let range = entry.info.max_seats - entry.info.min_seats + 1;
    let seats = entry.info.min_seats + usize::from(seed) % range;
    let mut state = entry
        .new_game(&Value::Null, seats)
        .unwrap_or_else(|e| panic!("{game}: the default config is refused: {e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed));
    for _ in 0..plies {
        if !step(&mut *state, &mut rng) {
            break;
        }
    }
    state
}

/// One random ply (see `walk`); false when nothing could be played.
fn step(state: &mut dyn DynGame, rng: &mut ChaCha8Rng) -> bool {
    let seat = match state.to_act() {
        ToAct::Terminal => return false,
        ToAct::Chance => return state.sample_chance(rng).is_some(),
        ToAct::Player(seat) => seat,
        ToAct::Simultaneous(set) => {
            let seats: Vec<Seat> = set.iter().collect();
            seats[rng.random_range(0..seats.len())]
        }
    };
    if rng.random_bool(0.5)
        && let Some(texts) = state.timeout_texts(seat)
        && !texts.is_empty()
    {
        for text in texts {
            if state.apply_text(Actor::Seat(seat), &text).is_err() {
                break;
            }
        }
        return true;
    }
    match state.random_action(seat, rng) {
        Some(text) => {
            state
                .apply_text(Actor::Seat(seat), &text)
                .unwrap_or_else(|e| panic!("the listed `{text}` was refused: {e}"));
            true
        }
        None => false,
    }
}

/// The seats of `state` and the spectator.
fn viewers(state: &dyn DynGame) -> impl Iterator<Item = Viewer> {
    (0..state.seats())
        .map(|s| Viewer::Seat(Seat(s as u8)))
        .chain([Viewer::Spectator])
}

/// Asks `state` everything a client or bot may ask: who acts, the legal lists of the seats that
/// act, chance outcomes, the outcome and every viewer's observation.
fn visit(state: &dyn DynGame) {
    match state.to_act() {
        ToAct::Player(seat) => {
            let _ = state.legal_texts(seat);
        }
        ToAct::Simultaneous(set) => {
            for seat in set.iter() {
                let _ = state.legal_texts(seat);
            }
        }
        ToAct::Chance => {
            let _ = state.chance_texts();
        }
        ToAct::Terminal => {
            let _ = state.outcome();
        }
    }
    for viewer in viewers(state) {
        let _ = state.observe_json(viewer);
    }
}
