//! Whole games through the service: clients playing random legal actions, bots, records that
//! verify with their seed, and no secret reaching a seat or a spectator.

use plateau_engine::{LogEntry, Seat, Viewer};
use plateau_match::secrecy::check_messages;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::common::{Client, entry, id, record, spawn_app, two_humans};

/// Plays random legal moves for every seat whose latest state offers some, until the end. Starts
/// from each client's last state received (waiting for the match to start if it has not).
pub async fn play_out(clients: &mut [&mut Client], rng: &mut ChaCha8Rng) -> Value {
    let end = play_for(clients, rng, usize::MAX).await;
    assert_eq!(end["status"], "finished", "the game did not end");
    end
}

/// `play_out`, stopping once `actions` actions were played (or the game ended, or 5000 rounds
/// passed); returns the first client's latest state. Every client has then had its latest state.
pub async fn play_for(clients: &mut [&mut Client], rng: &mut ChaCha8Rng, actions: usize) -> Value {
    let mut last: Vec<Value> = Vec::new();
    for c in clients.iter_mut() {
        match c.latest() {
            Some(s) if s["status"] != "open" => last.push(s),
            _ => last.push(c.live().await),
        }
    }
    let mut played = 0;
    for _ in 0..5000 {
        if last[0]["status"] == "finished" || played == actions {
            return last[0].clone();
        }
        let Some(i) = last
            .iter()
            .position(|s| !s["legal"].as_array().unwrap().is_empty())
        else {
            // Someone else (a bot, chance) is to act: wait for the next state.
            assert!(
                last[0]["to_act"] == json!([]) || clients.len() == 1,
                "nobody can act: {}",
                last[0]
            );
            let next = clients[0].state().await;
            last[0] = next;
            continue;
        };
        let legal = last[i]["legal"].as_array().unwrap();
        let action = legal[rng.random_range(0..legal.len())]
            .as_str()
            .unwrap()
            .to_owned();
        let version = last[i]["version"].as_u64().unwrap();
        clients[i].act(version, &action).await;
        let reply = clients[i].answer(version).await;
        assert_eq!(
            reply["type"], "state",
            "{action} at version {version}: {reply}"
        );
        // The seat sees its own action, so its version moved on; it did not when the action went
        // to a connection the server closed before playing it (the reply is then the whole
        // state of the next connection, `Client::answer`).
        if reply["version"].as_u64() > Some(version) {
            played += 1;
        }
        last[i] = reply;
        // Every commit sends every connection a state (its version counts only what it can
        // see): once a ping is answered, each has its latest.
        for (j, c) in clients.iter_mut().enumerate() {
            if j != i {
                c.sync().await;
                last[j] = c.latest().unwrap();
            }
        }
    }
    last[0].clone()
}

#[tokio::test]
async fn a_full_mad_game_between_two_websocket_clients() {
    let app = spawn_app().await;
    let (id, t0, t1, seed_hash) = two_humans(&app, "mad").await;
    let mut red = app.connect(&id, Some(&t0)).await;
    let mut blue = app.connect(&id, Some(&t1)).await;
    let watcher = app.connect(&id, None).await.watch();
    let end = play_out(
        &mut [&mut red, &mut blue],
        &mut ChaCha8Rng::seed_from_u64(3),
    )
    .await;
    let outcome = &end["outcome"];
    assert!(
        ["corvette", "tiebreak"].contains(&outcome["kind"].as_str().unwrap()),
        "{outcome}"
    );
    let mut ranks: Vec<u64> = serde_json::from_value(outcome["ranks"].clone()).unwrap();
    ranks.sort_unstable();
    assert_eq!(ranks, vec![1, 2]);
    assert_eq!(end["seed"].as_str().unwrap().len(), 64);
    let blue_end = blue.states().pop().unwrap();
    assert_eq!(blue_end["outcome"], *outcome);
    let last = end["version"].as_u64().unwrap();
    let watcher = watcher.await.unwrap();
    assert_eq!(watcher.states().pop().unwrap()["version"], last);

    let rec = record(&app, &id).await;
    assert_eq!(rec.seed_hash, seed_hash);
    assert_eq!(rec.log.len() as u64, last);
    let replay = rec.replay(entry("mad")).unwrap();
    assert!(replay.seed_verified);
    assert_eq!(
        serde_json::to_value(replay.state.outcome()).unwrap(),
        *outcome
    );
    // The move list is every action in display notation.
    assert_eq!(end["moves"].as_array().unwrap().len() as u64, last);
    for (client, viewer) in [
        (&red, Viewer::Seat(Seat(0))),
        (&blue, Viewer::Seat(Seat(1))),
        (&watcher, Viewer::Spectator),
    ] {
        check_messages(entry("mad"), &rec, viewer, &client.received).unwrap();
    }
    let summary = app.summary(&id).await;
    assert_eq!(summary["status"], "finished");
    assert_eq!(summary["seed"], end["seed"]);
    // After the end, acting is refused. An action that crossed a 1013 close (the node fenced
    // itself on a starved machine) is never answered: the answer is then the new connection's
    // state, still the final one, and the seat acts again on it.
    let refused = loop {
        red.act(last, "c2-c4").await;
        let answer = red.answer(last).await;
        if answer["type"] == "error" {
            break answer;
        }
        assert_eq!(
            (&answer["status"], &answer["version"]),
            (&json!("finished"), &json!(last)),
            "{answer}"
        );
    };
    assert_eq!(refused["code"], "match/over");
    app.shutdown().await;
}

/// Hidden information: the human seat never learns the bot's card before the end, and the secrecy
/// check (which rebuilds every state) agrees for the seat and for a spectator.
#[tokio::test]
async fn a_seat_never_sees_another_seats_secret() {
    let app = spawn_app().await;
    for game in 0..6u64 {
        let created = app
            .create(json!({"game": "toy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}))
            .await;
        let id = id(&created);
        let mut me = app.connect(&id, created["token"].as_str()).await;
        let watcher = app.connect(&id, None).await.watch();
        play_out(&mut [&mut me], &mut ChaCha8Rng::seed_from_u64(game)).await;
        let watcher = watcher.await.unwrap();
        for m in me.states() {
            if m["status"] != "finished" {
                assert!(m["observation"]["cards"][1].is_null(), "{m}");
                assert!(m["seed"].is_null());
            }
        }
        let rec = record(&app, &id).await;
        assert_eq!(rec.seed_hash, created["seed_hash"].as_str().unwrap());
        assert!(rec.replay(entry("toy")).unwrap().seed_verified);
        check_messages(entry("toy"), &rec, Viewer::Seat(Seat(0)), &me.received).unwrap();
        check_messages(entry("toy"), &rec, Viewer::Spectator, &watcher.received).unwrap();
        // The check does catch a leak: seat 0 shown seat 1's card before the end.
        let mut forged = me.states()[0].clone();
        if forged["status"] == "live" {
            let full = check_messages(entry("toy"), &rec, Viewer::Seat(Seat(1)), &[forged.clone()]);
            assert!(full.is_err());
            let (_, card) = rec.actions().nth(1).unwrap();
            forged["observation"]["cards"][1] = json!(card.parse::<u8>().unwrap());
            assert!(check_messages(entry("toy"), &rec, Viewer::Seat(Seat(0)), &[forged]).is_err());
        }
    }
    app.shutdown().await;
}

/// A seeded bot-vs-bot match through the service: its record replays, the seed matches the hash
/// published at creation and redraws every chance outcome. The second seat is given by its level
/// number alone, and plays that level's bot.
#[tokio::test]
async fn bot_versus_bot_records_verify() {
    let app = spawn_app().await;
    for game in ["toy", "mad"] {
        let created = app
            .create(json!({"game": game, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "level": 1}]}))
            .await;
        assert_eq!(created["seat"], Value::Null);
        assert_eq!(created["token"], Value::Null);
        let id = id(&created);
        let summary = app.wait_finished(&id).await;
        let rec = record(&app, &id).await;
        assert_eq!(rec.seats[0], "random");
        assert_eq!(rec.seats[1], "beginner");
        assert_eq!(summary["seats"][0]["level"], Value::Null);
        assert_eq!(summary["seats"][1]["level"], 1);
        assert_eq!(summary["seats"][1]["bot"], "beginner");
        assert_eq!(rec.seed_hash, created["seed_hash"].as_str().unwrap());
        assert_eq!(
            serde_json::to_value(&rec.outcome).unwrap(),
            summary["outcome"]
        );
        let replay = rec.replay(entry(game)).unwrap();
        assert!(replay.seed_verified, "{game}");
        // The replay route gives every position a spectator may see, from the start to the end.
        let (status, steps) = app.get(&format!("/api/matches/{id}/replay")).await;
        assert_eq!(status, 200, "{steps}");
        assert_eq!(steps["verified"], true, "{game}");
        let steps = steps["steps"].as_array().unwrap();
        assert_eq!(steps.len(), rec.log.len() + 1, "{game}");
        let start = entry(game).new_game(&Value::Null, 2).unwrap();
        assert_eq!(
            steps[0]["observation"],
            start.observe_json(Viewer::Spectator)
        );
        assert_eq!(
            steps.last().unwrap()["observation"],
            replay.state.observe_json(Viewer::Spectator)
        );
        if game == "mad" {
            for (step, (_, action)) in steps[1..].iter().zip(rec.actions()) {
                assert_eq!(step["text"], action, "MAD shows canonical text");
            }
        }
        // Tampering with a chance outcome is caught by the seed.
        if game == "toy" {
            let mut bad = rec.clone();
            let (by, first) = bad.actions().next().unwrap();
            let other = (first.parse::<u8>().unwrap() % 6 + 1).to_string();
            bad.log[0] = LogEntry::action(by, other, None);
            assert!(bad.replay(entry("toy")).is_err());
        }
    }
    app.shutdown().await;
}

/// Every registered game through the service, generically: seat 0 is a scripted client playing
/// random legal actions, the other seats are random bots. The match must finish, its record must
/// verify with the seed, and every message seat 0 and a spectator received must pass the secrecy
/// check (rebuilt state by state from the record).
#[tokio::test]
async fn every_registered_game_plays_through_the_service_without_leaks() {
    let app = spawn_app().await;
    for game in plateau_registry::GAMES {
        let info = game.info;
        let mut seats = vec![json!({"kind": "human"})];
        seats.extend((1..info.default_seats).map(|_| json!({"kind": "bot", "bot": "random"})));
        let created = app.create(json!({"game": info.name, "seats": seats})).await;
        let id = id(&created);
        let watcher = app.connect(&id, None).await.watch();
        let mut me = app.connect(&id, created["token"].as_str()).await;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut current = me.state().await;
        let mut acts = 0;
        while current["status"] != "finished" {
            assert!(acts < 20_000, "{}: no end", info.name);
            let legal = current["legal"].as_array().unwrap().clone();
            if !legal.is_empty() {
                let version = current["version"].as_u64().unwrap();
                me.act(
                    version,
                    legal[rng.random_range(0..legal.len())].as_str().unwrap(),
                )
                .await;
                acts += 1;
            }
            // The next state; at simultaneous nodes a bot may move first, making ours stale.
            loop {
                let m = me.next().await.expect("socket open");
                match m["type"].as_str() {
                    Some("state") => {
                        current = m;
                        break;
                    }
                    Some("error") if m["code"] == "action/stale" => {}
                    Some("chat_backlog") => {}
                    _ => panic!("{}: {m}", info.name),
                }
            }
        }
        let watcher = watcher.await.unwrap();
        let rec = record(&app, &id).await;
        assert!(rec.replay(game).unwrap().seed_verified, "{}", info.name);
        check_messages(game, &rec, Viewer::Seat(Seat(0)), &me.received)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        check_messages(game, &rec, Viewer::Spectator, &watcher.received)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
    }
    app.shutdown().await;
}

/// Each move-list entry carries its parts (docs/protocol.md section 4.1, `moves`): a seat's
/// action those `legal_info` gave it in the state it was played in, a chance outcome its own
/// (a Moon Leap roll `{"kind": "roll", "choice": face}`, Chakart's redirects and egg draws), so a
/// page puts the list in words without reading notation. The replay's steps carry the same.
#[tokio::test]
async fn move_list_entries_carry_the_parts_legal_info_gave_them() {
    let app = spawn_app().await;
    for (game, seed) in [("moonleap", 1), ("mad", 2), ("chakart", 3), ("chakart", 4)] {
        let (id, t0, t1, _) = two_humans(&app, game).await;
        let mut a = app.connect(&id, Some(&t0)).await;
        let mut b = app.connect(&id, Some(&t1)).await;
        let end = play_for(
            &mut [&mut a, &mut b],
            &mut ChaCha8Rng::seed_from_u64(seed),
            300,
        )
        .await;
        let rec = record(&app, &id).await;
        let states = plateau_match::versions::states(entry(game), &rec).unwrap();
        let moves = end["moves"].as_array().unwrap();
        assert_eq!(moves.len(), rec.log.len(), "{game}: every entry is shown");
        let mut kinds = std::collections::BTreeSet::new();
        for (v, logged) in rec.log.iter().enumerate() {
            let plateau_engine::Event::Action { by, action } = &logged.event else {
                continue;
            };
            let info = &moves[v]["info"];
            kinds.insert(info["kind"].as_str().unwrap().to_owned());
            // Seen by seat 0 (the client `a`): as `display_entry` gives it (a Chakart stealth
            // move of seat 1 is its kind only), and its own actions in full.
            let (_, shown) = states[v]
                .display_entry(*by, action, Viewer::Seat(Seat(0)))
                .unwrap()
                .unwrap();
            assert_eq!(*info, json!(shown), "{game}: `{action}` at {v}");
            match by {
                plateau_engine::Actor::Seat(seat) => {
                    let legal = states[v].legal_info(*seat);
                    let (_, parts) = legal.iter().find(|(t, _)| t == action).unwrap();
                    if *seat == Seat(0) || info["kind"] != "stealth" {
                        assert_eq!(*info, json!(parts), "{game}: `{action}` at {v}");
                    }
                }
                plateau_engine::Actor::Chance => {
                    let parts = states[v].text_info(action).unwrap();
                    assert_eq!(info["kind"], parts.kind, "{game}: `{action}` at {v}");
                    if game == "moonleap" {
                        assert_eq!(*info, json!({"kind": "roll", "choice": &action[1..]}));
                    }
                }
            }
        }
        match game {
            "moonleap" => assert!(
                kinds.contains("roll") && kinds.contains("move"),
                "{kinds:?}"
            ),
            _ => assert!(kinds.contains("move"), "{kinds:?}"),
        }
        if end["status"] == "finished" {
            let (status, replay) = app.get(&format!("/api/matches/{id}/replay")).await;
            assert_eq!(status, 200);
            let steps = replay["steps"].as_array().unwrap();
            // The replay shows a spectator's view: the same parts but where seat 0 knew more.
            for (v, logged) in rec.log.iter().enumerate() {
                let plateau_engine::Event::Action { by, action } = &logged.event else {
                    continue;
                };
                let (_, shown) = states[v]
                    .display_entry(*by, action, Viewer::Spectator)
                    .unwrap()
                    .unwrap();
                assert_eq!(steps[v + 1]["info"], json!(shown), "{game}: step {}", v + 1);
            }
        }
    }
    app.shutdown().await;
}
