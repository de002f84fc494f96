//! A Bataille Navale seat that resigns mid-game is eliminated and the others play on
//! (rules/naval.md): the match finishes, its record holds the resignation at its place among the
//! actions and replays with the seed verified, and the replay route shows the resignation as a
//! step in the middle.

use plateau_engine::{Actor, Ending, Seat, Viewer};
use plateau_match::secrecy::check_messages;
use serde_json::{Value, json};

use crate::common::{self, entry, id, record, token};

#[tokio::test]
async fn a_naval_seat_resigns_mid_game_and_the_record_replays() {
    let app = common::spawn_app().await;
    // A short game, as in naval_secrecy.rs: two placement moves, six rounds.
    let bot = json!({"kind": "bot", "bot": "random"});
    let created = app
        .create(json!({
            "game": "naval",
            "config": {"max_rounds": 6, "placement_moves": 2},
            "seats": [{"kind": "human"}, bot, bot, bot],
        }))
        .await;
    let id = id(&created);
    let mut human = app.connect(&id, Some(&token(&created))).await;

    // Seat 1 gets ready at once (its layout is dealt by chance), then resigns at its first battle
    // turn, the next time it has something to do.
    let placing = human
        .until(|m| m["type"] == "state" && m["legal"].as_array().is_some_and(|l| !l.is_empty()))
        .await;
    assert!(
        placing["legal"]
            .as_array()
            .unwrap()
            .contains(&json!("ready")),
        "{placing}"
    );
    human
        .act(placing["version"].as_u64().unwrap(), "ready")
        .await;
    let turn = human
        .until(|m| {
            m["type"] == "state"
                && (m["status"] == "finished"
                    || m["legal"].as_array().is_some_and(|l| !l.is_empty()))
        })
        .await;
    assert_eq!(turn["status"], "live", "seat 1 had a battle turn: {turn}");
    human.send(json!({"type": "resign"})).await;
    let end = human.until(|m| m["status"] == "finished").await;
    assert_eq!(
        end["outcome"]["ranks"][0], 4,
        "out first, seat 1 is last: {}",
        end["outcome"]
    );

    let rec = record(&app, &id).await;
    let endings: Vec<_> = rec.endings().collect();
    let [(after, ending)] = endings[..] else {
        panic!("one ending: {endings:?}");
    };
    assert_eq!(ending, Ending::Resign(Seat(0)));
    let actions: Vec<_> = rec.actions().collect();
    assert!(
        actions[..after]
            .iter()
            .any(|&(by, action)| by == Actor::Seat(Seat(0)) && action == "ready"),
        "the resignation comes after seat 1's `ready`"
    );
    let later = &actions[after..];
    assert!(
        later.iter().any(|(by, _)| matches!(by, Actor::Seat(_))),
        "the other seats played on after the resignation"
    );
    assert!(
        later.iter().all(|(by, _)| *by != Actor::Seat(Seat(0))),
        "seat 1 does not act once out"
    );
    let replay = rec.replay(entry("naval")).unwrap();
    assert!(replay.seed_verified);
    assert_eq!(replay.state.outcome(), rec.outcome);

    // The replay route: the start, one step per action, and the resignation at its place.
    let (status, body) = app.get(&format!("/api/matches/{id}/replay")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["verified"], true);
    let steps = body["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1 + actions.len() + 1);
    let step = &steps[after + 1];
    assert_eq!(step["by"], Value::Null);
    assert_eq!(step["text"], json!({"resign": 0}));
    let mut state = entry("naval").new_game(&rec.config, 4).unwrap();
    for &(by, action) in &actions[..after] {
        state.apply_text(by, action).unwrap();
    }
    state.end(Ending::Resign(Seat(0))).unwrap();
    assert_eq!(step["observation"], state.observe_json(Viewer::Spectator));
    assert_eq!(steps[after + 2]["by"], json!(actions[after].0));
    // The game is over: every order and placement, secret while it ran, is named (at least in
    // canonical notation), so the replay's move list is complete.
    for (i, &(_, action)) in actions.iter().enumerate() {
        let s = &steps[if i < after { i + 1 } else { i + 2 }];
        assert!(s["text"].is_string(), "step for action {}: {s}", i + 1);
        if action.contains(':') && !action.starts_with(|c: char| c.is_ascii_digit()) {
            assert_eq!(s["text"], action, "an order shows as written");
        }
    }
    assert_eq!(
        steps.last().unwrap()["observation"],
        replay.state.observe_json(Viewer::Spectator)
    );

    // What seat 1 was sent, the states after its resignation included, matches the record.
    human.sync().await;
    check_messages(entry("naval"), &rec, Viewer::Seat(Seat(0)), &human.received).unwrap();
    app.shutdown().await;
}
