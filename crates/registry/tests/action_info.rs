//! The parts of legal actions (`Game::action_info`, docs/protocol.md section 4.1 `legal_info`)
//! against independent counts: over seeded games of every game, each legal action's parts agree
//! with its canonical text read by hand here, and after the action is played the observation
//! shows the piece where `to` said it would be.

use plateau_engine::{ActionInfo, Actor, DynGame, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Plays `games` seeded games of `name` (at most `plies` actions each); calls `check` on every
/// legal action of every decision, then plays one of them at random.
fn walk(
    name: &str,
    seats: usize,
    config: Value,
    games: u64,
    plies: usize,
    check: &mut dyn FnMut(&dyn DynGame, usize, &str, &ActionInfo),
) -> usize {
    let entry = plateau_registry::GAMES
        .iter()
        .find(|g| g.info.name == name)
        .unwrap();
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = entry.new_game(&config, seats).unwrap();
        for _ in 0..plies {
            let seat = match state.to_act() {
                ToAct::Terminal => break,
                ToAct::Chance => {
                    state.sample_chance(&mut rng);
                    continue;
                }
                ToAct::Player(s) => s,
                ToAct::Simultaneous(set) => set.iter().next().unwrap(),
            };
            let legal = state.legal_info(seat);
            assert_eq!(
                legal.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(),
                state.legal_texts(seat),
                "{name}: the same actions in the same order"
            );
            for (text, info) in &legal {
                check(&*state, seat.index(), text, info);
                checked += 1;
            }
            let (text, _) = &legal[rng.random_range(0..legal.len())];
            state.apply_text(Actor::Seat(seat), text).unwrap();
        }
    }
    checked
}

/// The index in MAD's `cells` of a cell name (`a1` is 0, `d6` is 23).
fn mad_index(cell: &str) -> usize {
    let b = cell.as_bytes();
    usize::from(b[1] - b'1') * 4 + usize::from(b[0] - b'a')
}

/// The games whose parts the tests below read by hand: a new game needs its own test here.
const CHECKED: [&str; 4] = ["mad", "moonleap", "chakart", "naval"];

#[test]
fn every_registered_game_has_its_parts_checked() {
    for g in plateau_registry::GAMES {
        assert!(
            CHECKED.contains(&g.info.name),
            "{}: add a test of its action parts against its notation here",
            g.info.name
        );
    }
}

#[test]
fn mad_parts_match_the_notation_and_the_board() {
    let checked = walk(
        "mad",
        2,
        Value::Null,
        6,
        120,
        &mut |state, _, text, info| {
            let obs = state.observe_json(plateau_engine::Viewer::Spectator);
            let ship_at = |cell: &str| {
                obs["cells"][mad_index(cell)]
                    .as_str()
                    .map(|s| s[1..].to_owned())
            };
            let (step, shift) = match text.split_once('+') {
                Some((s, b)) => (Some(s), Some(b)),
                None if text.starts_with('P') || text.starts_with('R') => (None, Some(text)),
                None if text == "pass" => (None, None),
                None => (Some(text), None),
            };
            let shift_info = match (step, shift) {
                (Some(step), _) => {
                    assert_eq!(info.kind, "move", "{text}");
                    assert_eq!(info.from.as_deref(), Some(&step[0..2]), "{text}");
                    assert_eq!(info.to.as_deref(), Some(&step[3..5]), "{text}");
                    let mut ships = vec![ship_at(&step[0..2]).unwrap()];
                    ships.extend(ship_at(&step[3..5]));
                    assert_eq!(
                        info.pieces, ships,
                        "{text}: the mover, then any ship expelled"
                    );
                    assert_eq!(info.then.is_some(), shift.is_some(), "{text}");
                    info.then.as_deref()
                }
                (None, Some(_)) => Some(info),
                (None, None) => {
                    assert_eq!(info, &ActionInfo::new("pass"));
                    None
                }
            };
            if let (Some(shift), Some(parts)) = (shift, shift_info) {
                let codes: Vec<String> = shift[2..shift.len() - 1]
                    .split([',', '>'])
                    .map(str::to_owned)
                    .collect();
                let kind = if shift.starts_with('P') {
                    "permute"
                } else {
                    "rotate"
                };
                assert_eq!((parts.kind, &parts.pieces), (kind, &codes), "{text}");
                // Each listed cell holds one of the shifted ships of the side to move.
                let side = obs["side"].as_str().unwrap().to_uppercase();
                for cell in &parts.cells {
                    let token = obs["cells"][mad_index(cell)].as_str().unwrap();
                    assert!(
                        token.starts_with(&side) && codes.contains(&token[1..].to_owned()),
                        "{text}: {cell}"
                    );
                }
            }
        },
    );
    assert!(checked > 2000, "{checked}");
}

#[test]
fn moonleap_astronauts_land_where_the_parts_say() {
    let checked = walk(
        "moonleap",
        3,
        Value::Null,
        6,
        400,
        &mut |state, seat, text, info| {
            let letter = char::from(b'a' + u8::try_from(seat).unwrap());
            if text == "pass" {
                assert_eq!(info, &ActionInfo::new("pass"));
                return;
            }
            let halves: Vec<&str> = text.split('+').collect();
            assert_eq!(
                info.kind,
                if halves.len() == 2 { "split" } else { "move" },
                "{text}"
            );
            let mut after = state.clone_box();
            after
                .apply_text(
                    Actor::Seat(plateau_engine::Seat(u8::try_from(seat).unwrap())),
                    text,
                )
                .unwrap();
            let track = &after.observe_json(plateau_engine::Viewer::Spectator)["track"];
            let parts = [Some(info), info.then.as_deref()];
            for (half, part) in halves.iter().zip(parts) {
                let part = part.unwrap();
                assert_eq!(part.pieces, vec![(*half).to_owned()], "{text}");
                let to: usize = part.to.as_deref().unwrap().parse().unwrap();
                // The game may end after the first half of a split; the first half has landed then.
                if after.to_act() == ToAct::Terminal
                    && halves.len() == 2
                    && part == info.then.as_deref().unwrap()
                {
                    continue;
                }
                assert_eq!(
                    track[to - 1],
                    json!(format!("{letter}{half}")),
                    "{text}: {part:?}"
                );
            }
        },
    );
    assert!(checked > 1000, "{checked}");
}

#[test]
fn chakart_moves_go_from_and_to_the_squares_of_their_text() {
    let config = json!({"turn_limit": 40});
    let mut swaps = 0;
    let checked = walk(
        "chakart",
        2,
        config,
        6,
        200,
        &mut |state, seat, text, info| match info.kind {
            "move" | "stealth" | "shell" => {
                assert_eq!(info.from.as_deref(), Some(&text[0..2]), "{text}");
                let to = if info.kind == "shell" {
                    &text[3..5]
                } else {
                    &text[2..4]
                };
                assert_eq!(info.to.as_deref(), Some(to), "{text}");
                assert_eq!(info.kind == "stealth", text.ends_with('s'), "{text}");
            }
            "swap" => {
                assert_eq!(info.to.as_deref(), Some(&text[2..]), "{text}");
                // King Boo's swap starts from the piece that met the egg: the pending `B:<sq>`.
                let obs = state.observe_json(plateau_engine::Viewer::Seat(plateau_engine::Seat(
                    u8::try_from(seat).unwrap(),
                )));
                let pending = obs["pending"].as_str().unwrap();
                assert_eq!(info.from.as_deref(), pending.strip_prefix("B:"), "{text}");
                swaps += 1;
            }
            "drop" => assert_eq!(info.to.as_deref(), Some(&text[2..]), "{text}"),
            "promote" => assert_eq!(info.choice.as_deref(), Some(&text[1..]), "{text}"),
            other => panic!("{text}: a seat's action of kind {other}"),
        },
    );
    assert!(checked > 1000, "{checked}");
    assert!(swaps > 0, "no King Boo swap met");
}

#[test]
fn naval_parts_cover_the_cells_of_placements_and_orders() {
    let config = json!({"max_rounds": 4, "placement_moves": 2});
    let (mut places, mut orders) = (0, 0);
    walk("naval", 4, config, 3, 600, &mut |_, _, text, info| {
        let to = info.to.as_deref();
        match info.kind {
            "place" => {
                places += 1;
                let piece = &info.pieces[0];
                assert!(
                    text.starts_with(&format!("{piece}@{}", to.unwrap())),
                    "{text}"
                );
                assert!(
                    info.cells.iter().any(|c| Some(c.as_str()) == to),
                    "{text}: covers its cell"
                );
                // The sizes of docs/rules/naval.md section 2's table (the carrier is 2x6).
                let size = match piece.as_str() {
                    "carrier" => 12,
                    "cruiser" => 5,
                    "battleship" => 4,
                    "frigate" | "submarine" => 3,
                    "corvette" => 2,
                    _ => 1,
                };
                assert_eq!(info.cells.len(), size, "{text}");
            }
            "ready" => assert_eq!(text, "ready"),
            kind => {
                orders += 1;
                // `ship:kind [seat[:aim]]`, seats 1-based in the text.
                let (ship, rest) = text.split_once(':').unwrap();
                assert_eq!(info.pieces, vec![ship.to_owned()], "{text}");
                let mut words = rest.split([' ', ':']);
                let word = words.next().unwrap();
                assert!(
                    kind == word || (word == "special" && kind != "fire"),
                    "{text}: {kind}"
                );
                if let Some(seat) = words.next() {
                    let seat: u8 = seat.parse().unwrap();
                    assert_eq!(info.target, Some(seat - 1), "{text}");
                }
                if kind == "torpedo" {
                    assert_eq!(
                        to,
                        info.cells.first().map(String::as_str),
                        "{text}: its entry"
                    );
                } else if let Some(aim) = to {
                    assert!(text.contains(aim), "{text}");
                }
                if !info.cells.is_empty() && kind != "torpedo" {
                    assert!(
                        info.cells.iter().any(|c| Some(c.as_str()) == to),
                        "{text}: the area holds its aim"
                    );
                }
                if kind == "torpedo" {
                    assert_eq!(info.cells.len(), 14, "{text}: a whole lane");
                }
            }
        }
    });
    assert!(
        places > 100 && orders > 100,
        "{places} placements, {orders} orders"
    );
}
