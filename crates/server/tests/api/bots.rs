//! Bot seats (docs/architecture.md sections 5 and 6): each bot seat's bot is built once for the
//! match and kept, seeded from the match seed; a bot that fails is an error with a code in the
//! log, and the seat plays on instead of stalling the match.

use std::time::Duration;

use plateau_bots::BotSpec;
use plateau_engine::{Actor, Record, Seat, Seed};
use rand::RngCore;
use serde_json::{Value, json};

use plateau_server::Options;

use crate::common::{TestApp, id, spawn_app, spawn_app_with, temp_db, test_options, token};

async fn finished_record(app: &TestApp, request: Value) -> Record {
    let created = app.create(request).await;
    let id = created["id"].as_str().unwrap().to_owned();
    app.wait_finished(&id).await;
    let (status, body) = app.get(&format!("/api/matches/{id}/record")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

#[tokio::test]
async fn each_bot_seat_keeps_one_bot_seeded_from_the_match_seed() {
    let app = spawn_app().await;
    let seed = "5eed".repeat(16);
    let bot = json!({"kind": "bot", "bot": "random"});
    let record = finished_record(
        &app,
        json!({"game": "moonleap", "seats": [bot, bot, bot], "seed": seed}),
    )
    .await;
    app.shutdown().await;

    // The same game played here with one registry bot per seat, each seeded as docs/protocol.md
    // section 3.2 says, kept for the whole game: every seat action is the bot's.
    let seed = Seed::from_hex(&seed).unwrap();
    let entry = plateau_registry::find("moonleap").unwrap();
    let mut state = entry.new_game(&record.config, 3).unwrap();
    let mut bots: Vec<_> = (0..3u8)
        .map(|s| {
            let bot_seed = seed.rng_for_stream(u64::MAX - u64::from(s)).next_u64();
            plateau_registry::new_bot("moonleap", BotSpec::Random, bot_seed).unwrap()
        })
        .collect();
    let mut seat_actions = 0;
    for (i, (by, action)) in record.actions().enumerate() {
        if let Actor::Seat(Seat(s)) = by {
            let chosen = bots[usize::from(s)].act(&*state, Seat(s)).unwrap();
            assert_eq!(chosen, action, "action {i}, seat {s}");
            seat_actions += 1;
        }
        state.apply_text(by, action).unwrap();
    }
    assert!(
        seat_actions > 20,
        "a whole game: {seat_actions} seat actions"
    );
    assert!(state.outcome().is_some());
}

#[tokio::test]
async fn a_failing_bot_never_stalls_its_match() {
    let app = spawn_app().await;
    // The test catalogue gives the toy game's `expert` seat a bot made for MAD: it answers
    // `bot/wrong_game` (logged with that code), and the seat plays a random action instead.
    let seats = json!([{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "random"}]);
    let request = json!({"game": "toy", "seats": seats});
    let record = tokio::time::timeout(Duration::from_secs(60), finished_record(&app, request))
        .await
        .expect("the match finishes: the failing bot's seat played on");
    app.shutdown().await;
    assert!(record.outcome.is_some());
    let (_, first) = record
        .actions()
        .find(|(by, _)| *by == Actor::Seat(Seat(0)))
        .expect("seat 0 acted");
    assert!(["keep", "fold"].contains(&first), "{first:?}");
}

/// A bot that would think 3 s a move plays within its clock (`Clocks::think_time`), at 2 s per
/// move and in a 2-second Fischer game with a 1 s increment: it never loses on time (over 12 of
/// its moves, or the whole game if shorter). Without the clock's limit its first move would
/// flag. The clocks leave a loaded machine room (a starved thread, a late wake): a move may come
/// a second after the bot's share of the time and not flag, where at 1 s a move it was half a
/// second; and the increment gives back more than a move takes, where a 3-second game without
/// one lost time at every move.
#[tokio::test]
async fn a_bot_thinks_within_its_clock() {
    let app = spawn_app().await;
    for clock in [
        json!({"kind": "per_move", "seconds": 2}),
        json!({"kind": "fischer", "base_seconds": 2, "increment_seconds": 1}),
    ] {
        let slow = json!({"kind": "bot", "bot": "slow"});
        let random = json!({"kind": "bot", "bot": "random"});
        let created = app
            .create(json!({"game": "mad", "seats": [slow, random], "time_control": clock}))
            .await;
        let id = created["id"].as_str().unwrap().to_owned();
        let mut watcher = app.connect(&id, None).await;
        let state = watcher
            .until(|m| {
                m["type"] == "state"
                    && (m["version"].as_u64() >= Some(24) || m["status"] == "finished")
            })
            .await;
        let outcome = &state["outcome"];
        assert!(
            outcome.is_null() || outcome["kind"] != "timeout",
            "{clock}: lost on time: {outcome}"
        );
        let slow_moves = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["by"] == json!({"seat": 0}))
            .count();
        assert!(
            slow_moves >= 12 || state["status"] == "finished",
            "{clock}: {slow_moves}"
        );
    }
    app.shutdown().await;
}

/// The pause before a bot plays, so that people can follow, is not taken at a simultaneous node,
/// whose moves are secret: with a pause of an hour, three expert bots that lay out their
/// Bataille Navale fleets one move at a time (each move making the others choose again) are all
/// ready as soon as they have chosen, where one pause would have outlasted the test.
#[tokio::test]
async fn bots_lay_out_their_fleets_without_the_pause() {
    let options = Options {
        bot_delay: Duration::from_secs(3600),
        ..test_options()
    };
    let app = spawn_app_with(temp_db(), options).await;
    let bot = json!({"kind": "bot", "bot": "expert"});
    let created = app
        .create(json!({"game": "naval", "seats": [{"kind": "human"}, bot, bot, bot]}))
        .await;
    let mut human = app.connect(&id(&created), Some(&token(&created))).await;
    let placing = human.placing().await;
    assert_eq!(placing["to_act"][0], 0, "{placing}");
    let ready = human
        .until(|m| m["type"] == "state" && m["to_act"] == json!([0]))
        .await;
    assert_eq!(ready["observation"]["phase"], "placement", "{ready}");
    app.shutdown().await;
}
