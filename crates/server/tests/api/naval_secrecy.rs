//! Secrecy in the match service (docs/architecture.md section 2.5): a recorded four-seat Bataille
//! Navale game through the match service, every seat a WebSocket client; no message to a seat
//! contains a cell of another seat's unsunk ship (or buoy) before that seat may know it, and the
//! service's own check names a single value planted in a message by its path.
//!
//! The check does not trust `observe`: the truth is the game state rebuilt from the record, and what
//! a seat may know of a board is derived here from the rules (rules/naval.md sections 9 and 13):
//! public hit markers, sunk ships, torpedo triggers, anti-submarine hits, a frigate revealed by its
//! missile, the whole board once it is eliminated or the game is over, and the seat's own
//! satellite, sonar and radar results. Any other cell of another seat's piece is a secret, and a
//! message leaks it when:
//! - the view of that board names the cell in any field but those that name cells without saying
//!   a piece is there (blocks, the shield outline, deflections, the scanned areas, the
//!   anti-submarine "clear" cells); torpedo-clear cells may hold a buoy (a torpedo runs through
//!   buoys) but never a secret ship cell;
//! - any text of the message (move list, announced orders) holds another seat's placement
//!   (`carrier@c3h`, a layout draw `2:carrier@c3h`) or another seat's shield centre.

use plateau_engine::{DynGame, Record, Seat, Viewer};
use plateau_naval::bits::Bits;
use plateau_naval::piece::{PIECE_NAMES, PIECES, SHIPS};
use plateau_naval::{Naval, Phase, Ship};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{self, record};
use crate::games::play_out;

/// Fields of a board view that name cells without saying a piece is there.
const NEUTRAL_FIELDS: &[&str] = &["blocks", "shield", "deflected", "charges_clear"];

/// The cells of board `t` that seat `s` may not know in `g`: cells of unsunk ships and of buoys,
/// less what is public and what `s`'s own detections found (rules/naval.md sections 9, 11, 13).
fn secret_cells(g: &Naval, s: usize, t: usize) -> Bits {
    let (ships, buoys) = secret_ships_and_buoys(g, s, t);
    ships | buoys
}

/// `secret_cells` split into ship cells and buoy cells.
fn secret_ships_and_buoys(g: &Naval, s: usize, t: usize) -> (Bits, Bits) {
    let b = &g.boards[t];
    if b.out || matches!(g.phase, Phase::Over { .. }) {
        return (Bits::EMPTY, Bits::EMPTY);
    }
    let mask = |p: usize| {
        if p < usize::from(b.placed) {
            b.masks[p]
        } else {
            Bits::EMPTY
        }
    };
    let buoys = (SHIPS..PIECES).fold(Bits::EMPTY, |a, p| a | mask(p));
    let subs = mask(Ship::Submarine.index());
    let mut known = b.hit | b.ship_known | b.sub_known;
    if b.frigate_shown {
        known |= mask(Ship::Frigate.index());
    }
    let scan = g.scans[s][t];
    // Satellite: every non-submarine ship touching the area, whole, and the buoys in it.
    for k in (0..SHIPS).filter(|&k| k != Ship::Submarine.index()) {
        if mask(k).meets(scan.satellite) {
            known |= mask(k);
        }
    }
    known |= buoys & scan.satellite;
    // Sonar: ship cells in the area, submarines included. Radar: non-submarine ship cells and buoys.
    known |= b.live_ships() & scan.sonar;
    known |= ((b.live_ships() & !subs) | buoys) & scan.radar;
    (b.live_ships() & !known, buoys & !known)
}

/// Every string in `v`, with the path of object keys that leads to it.
fn strings<'a>(v: &'a Value, path: &mut Vec<&'a str>, out: &mut Vec<(Vec<&'a str>, &'a str)>) {
    match v {
        Value::String(s) => out.push((path.clone(), s)),
        Value::Array(items) => items.iter().for_each(|i| strings(i, path, out)),
        Value::Object(map) => {
            for (k, item) in map {
                path.push(k);
                strings(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The cell a string names, if it is one (`f7`, or a footprint's `f7h` / `f7v`).
fn named_cell(text: &str) -> Option<String> {
    let cell = text.strip_suffix(['h', 'v']).unwrap_or(text);
    let mut chars = cell.chars();
    let column = chars.next().filter(|c| ('a'..='n').contains(c))?;
    let row: u8 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|r| (1..=14).contains(r))?;
    Some(format!("{column}{row}"))
}

/// Why a text shown to seat `s` reveals another seat's layout, if it does. `by`: who acted, when
/// the text is a move-list entry.
fn text_leak(text: &str, s: usize, by: Option<usize>) -> Option<String> {
    let other = |seat: usize| seat != s;
    for (i, token) in text.split_whitespace().enumerate() {
        // `carrier@c3h` (a seat's placement move) or `2:carrier@c3h` (a layout draw).
        if let Some((piece, _)) = token.split_once('@') {
            let (seat, piece) = match piece.split_once(':') {
                Some((n, piece)) => (n.parse::<usize>().ok().map(|n| n - 1), piece),
                None => (by, piece),
            };
            if PIECE_NAMES.contains(&piece) && seat.is_none_or(other) {
                return Some(format!("another seat's placement `{token}`"));
            }
        }
        // `corvette:shield 3:f7`: the centre of a shield, known to its caster only.
        if token.ends_with(":shield")
            && let Some(aim) = text.split_whitespace().nth(i + 1)
            && aim.contains(':')
            && by.is_none_or(other)
        {
            return Some(format!("a shield centre `{text}`"));
        }
    }
    None
}

/// The leaks in one `state` message to seat `s`, judged against the true state `g`.
pub fn leaks(g: &Naval, s: usize, message: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let boards = message["observation"]["boards"].as_array();
    for (t, view) in boards.into_iter().flatten().enumerate() {
        if t == s {
            continue;
        }
        let (ships, buoys) = secret_ships_and_buoys(g, s, t);
        let secret: Vec<String> = (ships | buoys).iter().map(|c| c.to_string()).collect();
        // A torpedo runs through buoys (section 9): its clear cells say "no unsunk ship" only.
        let secret_ships: Vec<String> = ships.iter().map(|c| c.to_string()).collect();
        let mut named = Vec::new();
        strings(view, &mut Vec::new(), &mut named);
        for (path, text) in named {
            if path.first().is_some_and(|f| NEUTRAL_FIELDS.contains(f)) || path.contains(&"scanned")
            {
                continue;
            }
            let secret = if path.first() == Some(&"torpedo_clear") {
                &secret_ships
            } else {
                &secret
            };
            if let Some(cell) = named_cell(text).filter(|c| secret.contains(c)) {
                found.push(format!(
                    "board {t}, `{}`: secret cell {cell}",
                    path.join(".")
                ));
            }
        }
    }
    // Texts outside the board views: the move list (with its actor) and everything else.
    for entry in message["moves"].as_array().into_iter().flatten() {
        let by = entry["by"]["seat"].as_u64().map(|b| b as usize);
        if let Some(leak) = entry["text"].as_str().and_then(|t| text_leak(t, s, by)) {
            found.push(format!("moves: {leak}"));
        }
    }
    let mut rest = message.clone();
    for field in ["moves", "legal"] {
        rest[field] = Value::Null; // the move list is done above; `legal` is the seat's own
    }
    rest["observation"]["boards"] = Value::Null;
    rest["observation"]["plan"] = Value::Null; // the seat's own orders
    // The seat's own turn options: like `legal`, every open cell of the opponents' boards, hidden
    // ships or not. That they follow from public facts and the seat's own is checked in the
    // crate (crates/games/naval/tests/secrecy.rs: hidden changes leave them byte-identical).
    rest["observation"]["options"] = Value::Null;
    let mut texts = Vec::new();
    strings(&rest, &mut Vec::new(), &mut texts);
    for (path, text) in texts {
        // An announced order names its seat beside it (`last_turn[i].seat`); a shield announced
        // to others is written without its centre, so any centre seen must be the viewer's.
        let by = (path.last() == Some(&"order"))
            .then(|| order_seat(&message["observation"]["last_turn"], text))
            .flatten();
        if let Some(leak) = text_leak(text, s, by.or(Some(usize::MAX))) {
            found.push(format!("{}: {leak}", path.join(".")));
        }
    }
    found
}

/// The seat of the announced order whose text is `text`.
fn order_seat(last_turn: &Value, text: &str) -> Option<usize> {
    last_turn
        .as_array()?
        .iter()
        .find(|a| a["order"] == text)
        .and_then(|a| a["seat"].as_u64())
        .map(|s| s as usize)
}

/// The states a message of seat `s` with version `version` may show: those at the log positions
/// where the seat had seen that many entries (other seats' secret actions do not count).
fn candidates<'a>(
    versions: &[u64],
    states: &'a [Box<dyn DynGame>],
    version: u64,
) -> Vec<&'a Naval> {
    versions
        .iter()
        .enumerate()
        .filter(|(_, v)| **v == version)
        .map(|(p, _)| states[p].as_any().downcast_ref().unwrap())
        .collect()
}

/// Every leak in the `state` messages `messages` received by seat `s` during the game of `record`:
/// a message is checked against every state it may show, so a cell secret in any of them is
/// caught.
fn check_seat(record: &Record, s: usize, messages: &[Value]) -> Vec<String> {
    let entry = plateau_registry::find("naval").unwrap();
    let states = plateau_match::versions::states(entry, record).unwrap();
    let versions =
        plateau_match::versions::viewer_versions(entry, record, Viewer::Seat(Seat(s as u8)))
            .unwrap();
    let mut all = Vec::new();
    for message in messages.iter().filter(|m| m["type"] == "state") {
        let version = message["version"].as_u64().unwrap();
        let found = candidates(&versions, &states, version);
        assert!(!found.is_empty(), "seat {s}: no state of version {version}");
        for g in found {
            all.extend(
                leaks(g, s, message)
                    .into_iter()
                    .map(|l| format!("seat {s}, version {version}: {l}")),
            );
        }
    }
    all
}

#[tokio::test]
async fn no_seat_is_sent_a_cell_of_another_seats_hidden_fleet() {
    let app = common::spawn_app().await;
    // A short game keeps the run to a few seconds: four placement moves per seat, then `ready`
    // (section 4.5a), and a limit of 6 rounds; placement, shots, specials and their announcements
    // all happen within it.
    let config = json!({"max_rounds": 6, "placement_moves": 4});
    let (id, mut clients) = common::naval_four(&app, Some(config)).await;
    let [a, b, c, d] = &mut clients[..] else {
        unreachable!()
    };
    let end = play_out(&mut [a, b, c, d], &mut ChaCha8Rng::seed_from_u64(6)).await;
    assert_eq!(end["status"], "finished");
    for client in &mut clients {
        client.sync().await; // every state of the game is in `received`
    }
    let record = record(&app, &id).await;
    assert_eq!(record.seats.len(), 4);

    let entry = plateau_registry::find("naval").unwrap();
    let states = plateau_match::versions::states(entry, &record).unwrap();
    let battle = (0..states.len())
        .find(|&v| {
            let g: &Naval = states[v].as_any().downcast_ref().unwrap();
            g.phase == Phase::Battle
        })
        .expect("the battle began");
    let hits: u32 = {
        let g: &Naval = states[states.len() - 1].as_any().downcast_ref().unwrap();
        g.boards.iter().map(|b| b.hit.count()).sum()
    };
    assert!(hits > 0, "no shot hit: the check saw no revealed cell");

    for (s, client) in clients.iter().enumerate() {
        let states_seen = client.states();
        // One state per change the seat sees (its own moves, every fired turn), so many over a
        // whole game; none for another seat's secret moves.
        assert!(
            states_seen.len() >= 20,
            "seat {s} saw only {} states",
            states_seen.len()
        );
        let problems = check_seat(&record, s, &client.received);
        assert!(problems.is_empty(), "{problems:#?}");

        // The generic check of the service (observation, legal list, move list per viewer).
        plateau_match::secrecy::check_messages(
            entry,
            &record,
            Viewer::Seat(Seat(s as u8)),
            &client.received,
        )
        .unwrap();

        // The check finds planted leaks in a real battle message of this seat.
        let versions =
            plateau_match::versions::viewer_versions(entry, &record, Viewer::Seat(Seat(s as u8)))
                .unwrap();
        let message = states_seen
            .iter()
            .find(|m| m["version"].as_u64() > Some(versions[battle]) && m["status"] == "live")
            .expect("a battle message")
            .clone();
        let found = candidates(&versions, &states, message["version"].as_u64().unwrap());
        let g: &Naval = found.last().unwrap();
        let t = (s + 1) % 4;
        let secret = secret_cells(g, s, t);
        let cell = secret.first().expect("an unrevealed cell").to_string();
        let planted = |edit: &dyn Fn(&mut Value)| {
            let mut forged = message.clone();
            edit(&mut forged);
            assert!(!leaks(g, s, &forged).is_empty(), "not caught: {forged}");
        };
        assert_eq!(leaks(g, s, &message), Vec::<String>::new());
        planted(&|m| m["observation"]["boards"][t]["hits"] = json!([cell]));
        planted(&|m| {
            m["observation"]["boards"][t]["fleet"] =
                json!([{"piece": "carrier", "at": format!("{cell}h"), "cells": []}]);
        });
        planted(&|m| {
            m["observation"]["boards"][t]["intel"] =
                json!({"found": [], "sonar": [cell], "radar": [], "scanned": []});
        });
        planted(&|m| {
            m["moves"] = json!([{"by": {"seat": t}, "text": format!("carrier@{cell}h")}]);
        });
        planted(&|m| {
            m["moves"] = json!([{"by": "chance", "text": format!("{}:buoy1@{cell}", t + 1)}])
        });
        planted(&|m| {
            m["observation"]["last_turn"] = json!([{"seat": t, "order": format!("corvette:shield {}:{cell}", t + 1), "result": "done"}]);
        });
        planted_single_values(&record, s, &message, g);
    }
    app.shutdown().await;
}

/// The service's generic check (`plateau_match::secrecy::check_messages`) catches one leaked
/// value planted in a real message of seat `s` and names it by its path: one value of another
/// seat's own view of its board, and one value of a game's secret in each field that carries no
/// game state.
fn planted_single_values(record: &Record, s: usize, message: &Value, state: &dyn DynGame) {
    let entry = plateau_registry::find("naval").unwrap();
    let viewer = Viewer::Seat(Seat(s as u8));
    let caught = |forged: Value| -> String {
        plateau_match::secrecy::check_messages(entry, record, viewer, &[forged])
            .expect_err("a planted value is caught")
            .to_string()
    };
    let t = (s + 1) % 4;
    // One value that seat t sees of its own board and seat s does not.
    let theirs = state.observe_json(Viewer::Seat(Seat(t as u8)));
    let mut forged = message.clone();
    let path = plant_first_difference(
        &mut forged["observation"]["boards"][t],
        &theirs["boards"][t],
        format!("observation.boards[{t}]"),
    )
    .expect("seat t sees more of its board than seat s");
    let problem = caught(forged);
    assert!(problem.contains(&format!("`{path}")), "{path}: {problem}");

    let secret = json!("f7");
    type Plant = fn(&mut Value, usize, &Value);
    let fields: [(&str, Plant); 7] = [
        ("seats[", |m, t, v| m["seats"][t]["hint"] = v.clone()),
        ("seats[", |m, t, v| m["seats"][t]["level"] = v.clone()),
        ("clocks.kind", |m, _, v| m["clocks"]["kind"] = v.clone()),
        ("offers.rematch[0]", |m, _, v| {
            m["offers"]["rematch"] = json!([v])
        }),
        ("to_act", |m, t, _| m["to_act"] = json!([t, t])),
        ("outcome", |m, _, v| m["outcome"] = json!({"kind": v})),
        ("the seed", |m, _, _| m["seed"] = json!("ab".repeat(32))),
    ];
    for (named, plant) in fields {
        let mut forged = message.clone();
        plant(&mut forged, t, &secret);
        let problem = caught(forged);
        assert!(problem.contains(named), "{named}: {problem}");
    }
}

/// Copies into `mine` the first leaf (in document order) where `theirs` differs, and returns its
/// path under `path`; `None` when the two are equal.
fn plant_first_difference(mine: &mut Value, theirs: &Value, path: String) -> Option<String> {
    if *mine == *theirs {
        return None;
    }
    match (mine, theirs) {
        (Value::Object(m), Value::Object(o))
            if m.len() == o.len() && m.keys().all(|k| o.contains_key(k)) =>
        {
            let (key, value) = m.iter_mut().find(|(k, v)| **v != o[k.as_str()])?;
            plant_first_difference(value, &o[key.as_str()], format!("{path}.{key}"))
        }
        (Value::Array(m), Value::Array(o)) if m.len() == o.len() => {
            let (i, value) = m.iter_mut().enumerate().find(|(i, v)| **v != o[*i])?;
            plant_first_difference(value, &o[i], format!("{path}[{i}]"))
        }
        (mine, _) => {
            *mine = theirs.clone();
            Some(path)
        }
    }
}
