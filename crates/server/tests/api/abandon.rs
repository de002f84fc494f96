//! Abandoned tables (docs/protocol.md section 7.4): a person who leaves a live match with a clock
//! resigns by the game's rule after the abandonment delay; a correspondence match waits, and so
//! does a match against bots alone; the lobby lists only matches with a person at the table.

use std::time::Duration;

use plateau_engine::{Ending, Seat};
use serde_json::{Value, json};

use crate::common::{Agent, TestApp, eventually, seated, spawn_app_with, temp_db, test_options};

async fn short_abandon() -> TestApp {
    spawn_app_with(
        temp_db(),
        plateau_server::Options {
            abandon_after: Duration::from_secs(1),
            ..test_options()
        },
    )
    .await
}

/// A two-person MAD match with `clock`; both connected; returns (id, first client, second agent's
/// client).
async fn table(
    app: &TestApp,
    names: [&str; 2],
    clock: Value,
) -> (String, crate::common::Client, crate::common::Client) {
    let mut first = Agent::guest(app.addr, names[0]).await;
    let mut second = Agent::guest(app.addr, names[1]).await;
    let (_, created) = first
        .post(
            "/api/matches",
            &json!({"game": "mad", "time_control": clock,
                    "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    second
        .post(&format!("/api/matches/{id}/join"), &json!({}))
        .await;
    let mut a = first.connect(&id, None).await;
    let mut b = second.connect(&id, None).await;
    a.live().await;
    b.live().await;
    (id, a, b)
}

fn listed(list: &Value) -> Vec<String> {
    list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_player_who_leaves_a_clocked_match_resigns_and_empty_tables_leave_the_lobby() {
    let app = short_abandon().await;
    let (clocked, mut alice, bob) = table(
        &app,
        ["Alice", "Bob"],
        json!({"kind": "per_move", "seconds": 60}),
    )
    .await;
    let (postal, carol, dan) = table(&app, ["Carol", "Dan"], json!({"kind": "none"})).await;
    let (_, live) = app.get("/api/matches?status=live").await;
    let mut ids = listed(&live);
    ids.sort();
    let mut both = vec![clocked.clone(), postal.clone()];
    both.sort();
    assert_eq!(ids, both);

    drop(bob);
    drop(carol);
    drop(dan);
    let end = alice.until(|m| m["status"] == "finished").await;
    assert_eq!(end["outcome"]["kind"], "resign");
    assert_eq!(end["outcome"]["ranks"], json!([1, 2]));
    let (_, record) = app.get(&format!("/api/matches/{clocked}/record")).await;
    let record: plateau_engine::Record = serde_json::from_value(record).unwrap();
    assert_eq!(
        record.endings().next().map(|(_, e)| e),
        Some(Ending::Resign(Seat(1)))
    );

    // The correspondence match waits for its players, but nobody sits at it: not listed, once
    // the server has seen Carol's and Dan's sockets close (which may come after Bob's
    // resignation on a loaded machine).
    assert_eq!(app.summary(&postal).await["status"], "live");
    eventually(
        "the empty tables leave the list",
        || app.get("/api/matches?status=live"),
        |(_, live)| listed(live).is_empty(),
    )
    .await;
    app.shutdown().await;
}

/// Bataille Navale against bots alone: the one person leaves and the game waits for them (no
/// resignation, and no clock runs while they are away: the placement clock they come back to has
/// what it had).
#[tokio::test]
async fn a_table_of_bots_waits_for_its_one_person() {
    let app = short_abandon().await;
    let mut alice = Agent::guest(app.addr, "Alice").await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let (_, created) = alice
        .post(
            "/api/matches",
            &json!({"game": "naval", "config": {"max_rounds": 5, "placement_moves": 1},
                    "time_control": {"kind": "game"}, "seats": [{"kind": "human"}, bot, bot, bot]}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut me = alice.connect(&id, None).await;
    let placing = me.placing().await;
    let left = placing["clocks"]["remaining_ms"][0].as_u64().unwrap();
    drop(me);
    // Four times the abandonment delay away (the condition under test).
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(app.summary(&id).await["status"], "live");
    let mut back = alice.connect(&id, None).await;
    let again = back.placing().await;
    assert_eq!(again["observation"]["phase"], "placement");
    let now = again["clocks"]["remaining_ms"][0].as_u64().unwrap();
    // A clock that ran while she was away would have lost the 4 s; one that stood still lost
    // only the time the server took to see her go and to send the state again, which a loaded
    // machine can make a second or two.
    assert!(
        now + 3_000 > left && now <= left,
        "the placement clock stood still while away: {left} ms then {now} ms"
    );
    app.shutdown().await;
}

/// Three people leave a Bataille Navale table at once: each is resigned (none is missed because
/// the others' sockets went first), and the bot plays on to the end.
#[tokio::test]
async fn people_who_leave_together_are_all_resigned() {
    let app = short_abandon().await;
    let human = json!({"kind": "human"});
    let bot = json!({"kind": "bot", "bot": "random"});
    let (id, mut clients) = seated(
        &app,
        json!({"game": "naval", "config": {"max_rounds": 5, "placement_moves": 1},
               "time_control": {"kind": "game"}, "seats": [human, human, human, bot]}),
    )
    .await;
    for c in &mut clients {
        c.live().await;
    }
    drop(clients);
    app.wait_finished(&id).await;
    let (_, record) = app.get(&format!("/api/matches/{id}/record")).await;
    let record: plateau_engine::Record = serde_json::from_value(record).unwrap();
    for s in 0..3 {
        assert!(
            record.endings().any(|(_, e)| e == Ending::Resign(Seat(s))),
            "seat {s}: {:?}",
            record.endings().collect::<Vec<_>>()
        );
    }
    app.shutdown().await;
}
