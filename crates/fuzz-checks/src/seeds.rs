//! The seed inputs of each target, drawn from real play (`examples/seed_corpus.rs` writes them to
//! `fuzz/corpus/<target>/`): start positions and positions reached by random walks, legal and
//! near-legal actions on walked states, default and varied configs, short records of random games
//! and one message of each client type. The fuzzer grows the corpus from these.

use plateau_engine::{Actor, DynGame, LogEntry, Record, Seed, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::games::walk;

/// The games, as target names spell them.
const GAMES: [&str; 4] = ["mad", "moonleap", "chakart", "naval"];

/// Walk lengths the seeds are taken at (plies from the start).
const PLIES: [u8; 6] = [0, 3, 12, 40, 90, 200];

/// Positions each parser must refuse, one per line after a tab (`crates/registry/tests/data/hostile/`,
/// docs/architecture.md section 7): near misses of real positions, so good seeds.
const HOSTILE: [&str; 4] = [
    include_str!("../../registry/tests/data/hostile/mad.txt"),
    include_str!("../../registry/tests/data/hostile/moonleap.txt"),
    include_str!("../../registry/tests/data/hostile/chakart.txt"),
    include_str!("../../registry/tests/data/hostile/naval.txt"),
];

/// Every seed input: `(target, file name, bytes)`.
#[must_use]
pub fn seed_corpus() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out = Vec::new();
    for (g, game) in GAMES.into_iter().enumerate() {
        let position: &'static str = [
            "position_mad",
            "position_moonleap",
            "position_chakart",
            "position_naval",
        ][g];
        let action: &'static str = [
            "action_mad",
            "action_moonleap",
            "action_chakart",
            "action_naval",
        ][g];
        for (i, plies) in PLIES.into_iter().enumerate() {
            let seed = i as u8 * 37 + 1;
            let state = walk(game, seed, plies);
            out.push((
                position,
                format!("walk-{plies}"),
                state.position_text().into_bytes(),
            ));
            for (j, text) in action_texts(&*state, seed).into_iter().enumerate() {
                let mut bytes = vec![seed, plies];
                bytes.extend_from_slice(text.as_bytes());
                out.push((action, format!("walk-{plies}-{j}"), bytes));
            }
        }
        let hostile = HOSTILE[g].lines().filter(|l| !l.starts_with('#'));
        for (i, line) in hostile.enumerate() {
            if let Some((_, text)) = line.split_once('\t') {
                out.push((position, format!("hostile-{i}"), text.as_bytes().to_vec()));
            }
        }
        let entry = plateau_registry::find(game).expect("a registered game");
        let mut config = vec![g as u8, entry.info.default_seats as u8];
        config.extend_from_slice(entry.default_config().to_string().as_bytes());
        out.push(("config", format!("{game}-default"), config));
        out.push(("record", format!("{game}-random"), record(game, g as u64)));
    }
    for (name, g, seats, config) in varied_configs() {
        let mut bytes = vec![g, seats];
        bytes.extend_from_slice(config.to_string().as_bytes());
        out.push(("config", name.to_owned(), bytes));
    }
    for (i, message) in client_messages().into_iter().enumerate() {
        out.push((
            "client_message",
            format!("message-{i}"),
            message.into_bytes(),
        ));
    }
    out
}

/// A legal action of whoever acts in `state` (a chance outcome at a chance node) and two texts
/// that are not: the same with a character changed, and a stray word.
fn action_texts(state: &dyn DynGame, seed: u8) -> Vec<String> {
    let legal: Vec<String> = match state.to_act() {
        ToAct::Terminal => Vec::new(),
        ToAct::Chance => state.chance_texts().into_iter().map(|(t, _)| t).collect(),
        ToAct::Player(seat) => state.legal_texts(seat),
        ToAct::Simultaneous(set) => state.legal_texts(set.iter().next().expect("a seat")),
    };
    let mut texts = vec!["pass".to_owned()];
    if let Some(text) = legal.get(usize::from(seed) % legal.len().max(1)) {
        let mut spoiled: Vec<char> = text.chars().collect();
        let last = spoiled.len() - 1;
        spoiled[last] = if spoiled[last] == '1' { '9' } else { '1' };
        texts.push(spoiled.into_iter().collect());
        texts.push(text.clone());
    }
    texts
}

/// A record of the first 30 actions of a random game of `game` (its seed revealed, so replaying
/// re-draws every chance outcome).
fn record(game: &str, n: u64) -> Vec<u8> {
    let entry = plateau_registry::find(game).expect("a registered game");
    let seats = entry.info.default_seats;
    let seed = Seed::from_u64(n);
    let mut record = Record::new(game, Value::Null, vec!["random".to_owned(); seats], &seed);
    let mut state = entry
        .new_game(&Value::Null, seats)
        .expect("the default config");
    let mut chance = seed.rng();
    let mut rng = ChaCha8Rng::seed_from_u64(n);
    for _ in 0..30 {
        let (by, action) = match state.to_act() {
            ToAct::Terminal => break,
            ToAct::Chance => (
                Actor::Chance,
                state.sample_chance(&mut chance).expect("an outcome"),
            ),
            ToAct::Player(seat) => (Actor::Seat(seat), play_random(&mut *state, seat, &mut rng)),
            ToAct::Simultaneous(set) => {
                let seat = set.iter().next().expect("a seat");
                (Actor::Seat(seat), play_random(&mut *state, seat, &mut rng))
            }
        };
        record.log.push(LogEntry::action(by, action, None));
    }
    record.seed = Some(seed);
    serde_json::to_vec(&record).expect("a record serializes")
}

/// Plays a random legal action of `seat` and returns its text.
fn play_random(
    state: &mut dyn DynGame,
    seat: plateau_engine::Seat,
    rng: &mut ChaCha8Rng,
) -> String {
    let text = state.random_action(seat, rng).expect("a legal action");
    state
        .apply_text(Actor::Seat(seat), &text)
        .expect("a listed action applies");
    text
}

/// Configs beside the defaults: `(name, game index, seats, config)`.
fn varied_configs() -> Vec<(&'static str, u8, u8, Value)> {
    let mut board: Value =
        serde_json::from_str(plateau_moonleap::DEFAULT_BOARD_JSON).expect("the default board");
    board["end_cells"] = json!([1, 37]);
    vec![
        (
            "mad-short-tiebreak",
            0,
            2,
            json!({"positioning_turn": true, "tiebreak_limit": 3}),
        ),
        (
            "moonleap-stalling-board",
            1,
            2,
            json!({"board": board, "ply_limit": 300}),
        ),
        (
            "moonleap-mercenaries",
            1,
            4,
            json!({"mercenaries": true, "first_seat": 3}),
        ),
        (
            "chakart-random-rows",
            2,
            2,
            json!({"randomness": 2, "turn_limit": 10}),
        ),
        (
            "naval-costs",
            3,
            4,
            json!({"max_rounds": 2, "costs": {"emp": 0}, "gains": {"pass": 1000}}),
        ),
    ]
}

/// One message of each client type (docs/protocol.md).
fn client_messages() -> Vec<String> {
    [
        json!({"type": "auth", "token": "0123abcd"}),
        json!({"type": "act", "version": 3, "action": "c2-c3"}),
        json!({"type": "resign"}),
        json!({"type": "offer", "kind": "agreement"}),
        json!({"type": "decline", "kind": "rematch"}),
        json!({"type": "rematch"}),
        json!({"type": "chat", "text": "bonjour"}),
        json!({"type": "mute", "name": "anna"}),
        json!({"type": "unmute", "name": "anna"}),
        json!({"type": "ping"}),
    ]
    .iter()
    .map(Value::to_string)
    .collect()
}
