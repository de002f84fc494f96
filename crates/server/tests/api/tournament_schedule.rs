//! The server's own scheduled tournaments (docs/protocol.md section 7.9): one hourly arena per
//! game of two and daily tables per game of more are always there to join, and a restart, or a
//! second node of the same database, never makes one twice.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Agent, Db, TestApp, spawn_app_with, temp_db, test_options};
use plateau_server::Options;

/// An hour of the tournaments' clock, in real time: their minute lasts 50 ms.
const MINUTE: Duration = Duration::from_millis(50);

/// The test options with the schedule on, the short minute, and node `node` if given.
fn options(node: Option<&str>) -> Options {
    let mut options = test_options();
    options.limits.tournament_minute = MINUTE;
    options.scheduled_tournaments = true;
    options.node = node.map(|name| plateau_server::store::Node {
        name: name.to_owned(),
        address: String::new(),
    });
    options
}

/// The scheduled tournaments still to start, by (game, kind). (One whose start has just passed
/// may read `waiting` until its runner's next tick: it is left out.)
async fn waiting(agent: &mut Agent) -> BTreeMap<(String, String), Vec<Value>> {
    let (status, list) = agent.get("/api/tournaments").await;
    assert_eq!(status, 200, "{list}");
    let mut by_slot: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for t in list["live"].as_array().unwrap() {
        assert_eq!(
            t["scheduled"], true,
            "only the schedule made tournaments: {t}"
        );
        assert_eq!(t["creator"], "Plateau");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis();
        if t["phase"] == "waiting" && t["starts_at"].as_u64().map(u128::from) > Some(now) {
            let key = (
                t["game"].as_str().unwrap().to_owned(),
                t["kind"].as_str().unwrap().to_owned(),
            );
            by_slot.entry(key).or_default().push(t.clone());
        }
    }
    for t in list["finished"].as_array().unwrap() {
        assert!(
            t["players"].as_u64() > Some(0),
            "an empty one is listed: {t}"
        );
    }
    by_slot
}

/// The slots the test catalogue's games give: an arena for each game of two (High card,
/// Chakart, MAD, Moon Leap), tables for each game of more (Moon Leap, Bataille Navale).
fn slots() -> Vec<(String, String)> {
    let mut slots: Vec<(String, String)> = ["chakart", "mad", "moonleap", "toy"]
        .iter()
        .map(|g| ((*g).to_owned(), "arena".to_owned()))
        .chain(
            ["moonleap", "naval"]
                .iter()
                .map(|g| ((*g).to_owned(), "tables".to_owned())),
        )
        .collect();
    slots.sort();
    slots
}

/// Reads the list until every slot has its waiting tournament and `ready` holds, for at most a
/// minute; each slot holds exactly one then.
async fn until_scheduled(
    agent: &mut Agent,
    ready: impl Fn(&BTreeMap<(String, String), Vec<Value>>) -> bool,
) -> BTreeMap<(String, String), Vec<Value>> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let by_slot = waiting(agent).await;
        if by_slot.keys().cloned().collect::<Vec<_>>() == slots() && ready(&by_slot) {
            for (slot, ones) in &by_slot {
                assert_eq!(ones.len(), 1, "{slot:?} twice: {ones:?}");
            }
            return by_slot;
        }
        assert!(
            Instant::now() < deadline,
            "the schedule stood still: {by_slot:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The schedule keeps one tournament of each slot waiting; a second server on the same
/// database (a second node on PostgreSQL, the same one restarted on SQLite) makes none again,
/// and the next hour's arenas replace those that started, once each. Servers started without
/// the schedule (every other test) make none.
#[tokio::test]
async fn the_schedule_keeps_one_of_each_waiting_and_makes_none_twice() {
    let db = temp_db();
    let two_nodes = matches!(db, Db::Postgres { .. });
    let node = |name| two_nodes.then_some(name);
    let off = spawn_app_with(db.clone(), test_options()).await;
    let mut agent = Agent::guest(off.addr, "Watcher").await;
    let (_, list) = agent.get("/api/tournaments").await;
    assert_eq!(list["live"], serde_json::json!([]));
    off.shutdown().await;

    let a = spawn_app_with(db.clone(), options(node("a"))).await;
    agent.addr = a.addr;
    let first = until_scheduled(&mut agent, |_| true).await;
    let arena = &first[&("mad".to_owned(), "arena".to_owned())][0];
    assert_eq!(arena["minutes"], 55);
    assert_eq!(arena["rated"], true);
    let naval = &first[&("naval".to_owned(), "tables".to_owned())][0];
    assert_eq!(
        (
            naval["seats"].as_u64(),
            naval["bots"].as_bool(),
            naval["rounds"].as_u64()
        ),
        (Some(4), Some(true), Some(4))
    );
    assert_eq!(naval["time_control"]["kind"], "game");

    // A second server: a node beside the first, or the first one restarted.
    let (a, b): (Option<TestApp>, TestApp) = if two_nodes {
        let b = spawn_app_with(db.clone(), options(node("b"))).await;
        (Some(a), b)
    } else {
        a.shutdown().await;
        (None, spawn_app_with(db.clone(), options(None)).await)
    };
    agent.addr = b.addr;
    // The next hour's arenas come once the first ones start; every slot still holds one.
    let hourly = |slots: &BTreeMap<(String, String), Vec<Value>>| {
        slots[&("mad".to_owned(), "arena".to_owned())][0]["id"].clone()
    };
    let before = hourly(&first);
    let next = until_scheduled(&mut agent, |s| hourly(s) != before).await;
    let (mad_then, mad_now) = (
        &first[&("mad".to_owned(), "arena".to_owned())][0],
        &next[&("mad".to_owned(), "arena".to_owned())][0],
    );
    assert!(mad_now["starts_at"].as_i64() > mad_then["starts_at"].as_i64());
    // The next hour's arenas are made once the clock passes the first ones' start; the first
    // ones start at their runner's next tick, which may come later (and reach a second node
    // at its next read of the store).
    let path = format!("/api/tournaments/{}", before.as_str().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, started) = agent.get(&path).await;
        assert_eq!(status, 200, "{started}");
        if started["tournament"]["phase"] != "waiting" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the first arena never started: {started}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    b.shutdown().await;
    if let Some(a) = a {
        a.shutdown().await;
    }
}
