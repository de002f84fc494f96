//! Tournaments over HTTP and real sockets (docs/protocol.md section 7.9, docs/tournaments.md
//! section 3): an arena of eight players run by the server over its time, each game played
//! through its match's WebSocket, with a restart of the server in the middle; the standings are
//! checked against the points the test works out from the results it made; and an arena on two
//! nodes of one PostgreSQL, joined through both at once, whose every game is paired and made once.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Agent, Db, spawn_app_with, spawn_node, temp_db, test_options};
use plateau_server::Options;

/// The tests' options with a tournament's minute of `minute`.
pub(crate) fn options(minute: Duration) -> Options {
    let mut options = test_options();
    options.limits.tournament_minute = minute;
    options
}

/// A player's arena points as docs/tournaments.md section 3.1 counts them, from its results in
/// the order they came.
#[derive(Default, Debug, PartialEq, Eq)]
struct Tally {
    points: u64,
    games: u64,
    wins: u64,
    streak: u64,
}

impl Tally {
    fn add(&mut self, won: bool) {
        let on_fire = self.streak >= 2;
        self.games += 1;
        if won {
            self.points += if on_fire { 4 } else { 2 };
            self.wins += 1;
            self.streak += 1;
        } else {
            self.streak = 0;
        }
    }
}

/// `Player3` -> 3: the lower number wins every game, so the standings spread and streaks come.
fn number(name: &str) -> u32 {
    name.trim_start_matches("Player").parse().unwrap()
}

/// The games of a tournament's detail that are paired, made, not over and not among `played`
/// (the server records a result on its next tick): (match, players).
fn unplayed(detail: &Value, played: &BTreeSet<String>) -> Vec<(String, Vec<String>)> {
    detail["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| {
            g["ranks"].is_null() && g["match_id"].as_str().is_some_and(|m| !played.contains(m))
        })
        .map(|g| {
            let players = g["players"].as_array().unwrap();
            (
                g["match_id"].as_str().unwrap().to_owned(),
                players
                    .iter()
                    .map(|p| p.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// Plays match `id` between `players` (by seat) through their own sockets: both open it, the
/// higher number resigns. Returns the winner's seat.
async fn play(agents: &BTreeMap<String, Agent>, id: &str, players: &[String]) -> usize {
    let mut first = agents[&players[0]].connect(id, None).await;
    let mut second = agents[&players[1]].connect(id, None).await;
    first.live().await;
    second.live().await;
    let winner = usize::from(number(&players[1]) < number(&players[0]));
    let loser = if winner == 0 { &mut second } else { &mut first };
    loser.send(json!({"type": "resign"})).await;
    first
        .until(|m| m["type"] == "state" && m["status"] == "finished")
        .await;
    winner
}

/// Reads tournament `id` until `ready` holds (the server's task works on its own ticks), for at
/// most a minute.
pub(crate) async fn until(agent: &mut Agent, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, detail) = agent.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{detail}");
        if ready(&detail) {
            return detail;
        }
        assert!(
            Instant::now() < deadline,
            "the tournament stood still: {detail}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// How many games of `detail` have their result.
pub(crate) fn recorded(detail: &Value) -> usize {
    detail["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["ranks"].is_null())
        .count()
}

/// Eight guests play an arena an account created: paired again as their games end, a restart
/// in the middle loses no game, point or pairing, a withdrawn player is paired no more, and the
/// final standings are the points of the results the test made.
#[tokio::test]
async fn an_arena_of_eight_runs_over_its_time_through_a_restart() {
    // An arena of a minute whose minute lasts 40 s: Player1's third game (the one that checks
    // the streak) comes after the four games of the first pairing, the restart and its second
    // one, all played one after another; on a loaded machine 20 s were not always enough.
    let minute = Duration::from_secs(40);
    let db = temp_db();
    let mut app = spawn_app_with(db.clone(), options(minute)).await;
    let mut organiser = Agent::guest(app.addr, "Organiser").await;
    let arena = json!({
        "name": "Evening arena",
        "game": "toy",
        "time_control": {"kind": "none"},
        "starts_in_seconds": 1,
        "minutes": 1,
    });
    // A guest cannot create one; bad settings are refused with what is wrong.
    let (status, body) = organiser.post("/api/tournaments", &arena).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("auth/required"))
    );
    let (status, _) = organiser
        .post("/api/account", &json!({"password": "a long pass phrase"}))
        .await;
    assert_eq!(status, 200);
    for (field, value, code) in [
        ("minutes", json!(0), "tournament/invalid"),
        ("name", json!(" "), "tournament/invalid"),
        // A name that would turn the words after it around on the list's page.
        ("name", json!("Evening \u{202E}arena"), "tournament/invalid"),
        // Ratings no player has: nobody could ever join.
        ("min_rating", json!(99_999_999), "tournament/invalid"),
        ("min_rating", json!(0), "tournament/invalid"),
        (
            "starts_in_seconds",
            json!(8 * 24 * 3600),
            "tournament/invalid",
        ),
        ("game", json!("chess"), "game/unknown"),
    ] {
        let mut bad = arena.clone();
        bad[field] = value;
        let (status, body) = organiser.post("/api/tournaments", &bad).await;
        assert_eq!(body["code"], code, "{field}: {body}");
        assert!(status >= 400);
    }
    let (status, made) = organiser.post("/api/tournaments", &arena).await;
    assert_eq!(status, 201, "{made}");
    let id = made["tournament"]["id"].as_str().unwrap().to_owned();
    assert_eq!(made["tournament"]["phase"], "waiting");
    assert_eq!(made["tournament"]["creator"], "Organiser");

    let mut agents = BTreeMap::new();
    for n in 1..=8 {
        let name = format!("Player{n}");
        let mut agent = Agent::guest(app.addr, &name).await;
        let (status, body) = agent
            .post(&format!("/api/tournaments/{id}/join"), &json!(null))
            .await;
        assert_eq!(status, 200, "{body}");
        agents.insert(name, agent);
    }
    let p1 = agents.get_mut("Player1").unwrap();
    let (status, body) = p1
        .post(&format!("/api/tournaments/{id}/join"), &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("tournament/closed"))
    );
    let (_, list) = organiser.get("/api/tournaments").await;
    let listed = list["live"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("the new arena is listed");
    assert_eq!(listed["players"], 8);

    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut played = 0;
    let mut matches = BTreeSet::new();
    let mut restarted = false;
    // The games paired before P8 withdrew: none after holds P8.
    let mut before_withdrawal: Option<usize> = None;
    loop {
        let detail = until(&mut organiser, &id, |d| {
            d["tournament"]["phase"] == "finished" || !unplayed(d, &matches).is_empty()
        })
        .await;
        if detail["tournament"]["phase"] == "finished" {
            break;
        }
        for (match_id, players) in unplayed(&detail, &matches) {
            let winner = play(&agents, &match_id, &players).await;
            matches.insert(match_id);
            for (seat, name) in players.iter().enumerate() {
                tally.entry(name.clone()).or_default().add(seat == winner);
            }
            played += 1;
        }
        if !restarted && played >= 4 {
            // Once the server has recorded every result, paired the next games and made their
            // matches (so its runner has nothing left to do), it stops and starts again on the
            // same database: the same tournament comes back.
            let before = until(&mut organiser, &id, |d| {
                let made = d["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|g| !g["match_id"].is_null());
                recorded(d) == played && made && !unplayed(d, &matches).is_empty()
            })
            .await;
            assert_eq!(before["tournament"]["phase"], "running", "{before}");
            app.shutdown().await;
            app = spawn_app_with(db.clone(), options(minute)).await;
            for agent in agents.values_mut().chain([&mut organiser]) {
                agent.addr = app.addr;
            }
            let (status, after) = organiser.get(&format!("/api/tournaments/{id}")).await;
            assert_eq!(status, 200);
            assert_eq!(after["games"], before["games"]);
            assert_eq!(after["standings"], before["standings"]);
            restarted = true;
            // P8 withdraws: its game goes on, and it is paired no more.
            let p8 = agents.get_mut("Player8").unwrap();
            let (status, body) = p8
                .post(&format!("/api/tournaments/{id}/withdraw"), &json!(null))
                .await;
            assert_eq!(status, 200, "{body}");
            before_withdrawal = Some(body["games"].as_array().unwrap().len());
        }
    }
    assert!(restarted, "the arena ended before its first round was over");

    let (_, done) = organiser.get(&format!("/api/tournaments/{id}")).await;
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), played, "{done}");
    assert_eq!(recorded(&done), played);
    let withdrawn_at = before_withdrawal.unwrap();
    assert!(
        games[withdrawn_at..]
            .iter()
            .all(|g| !g["players"].as_array().unwrap().contains(&json!("Player8"))),
        "{done}"
    );
    // Every game is a match of the store, over with the result the tournament shows.
    let standings = finished_as_tallied(&mut organiser, &done, &tally).await;
    for line in standings {
        assert_eq!(line["active"], line["name"] != "Player8");
    }
    let key = |line: &Value| (line["points"].as_u64(), line["wins"].as_u64());
    assert!(standings.windows(2).all(|w| key(&w[0]) >= key(&w[1])));
    // P1 wins every game: past its second it is on fire, and the first place is its.
    assert_eq!(standings[0]["name"], "Player1");
    assert!(tally["Player1"].games >= 3, "{done}");

    let (_, list) = organiser.get("/api/tournaments").await;
    assert!(list["live"].as_array().unwrap().is_empty());
    assert_eq!(list["finished"][0]["id"], id.as_str());
    assert_eq!(list["finished"][0]["phase"], "finished");
    let p1 = agents.get_mut("Player1").unwrap();
    let (status, body) = p1
        .post(&format!("/api/tournaments/{id}/join"), &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("tournament/closed"))
    );
    app.shutdown().await;
}

/// The limits and refusals of creating and joining, and a player who does not come to its game:
/// the match is called off, the one who came wins, the absent one is withdrawn, and the arena
/// still ends on time.
#[tokio::test]
async fn refusals_limits_and_a_player_who_does_not_come() {
    let mut options = options(Duration::from_secs(6));
    options.limits.tournaments_per_day = 2;
    // Time enough for the test to see the pairing and open the match first, on a loaded
    // machine too (if it came late, both players would be absent).
    options.limits.no_show = Duration::from_secs(4);
    let app = spawn_app_with(temp_db(), options).await;
    let mut organiser = Agent::account(app.addr, "Organiser").await;
    let arena = |min_rating: Value| {
        json!({
            "name": "Quick arena",
            "game": "toy",
            "time_control": {"kind": "none"},
            "starts_in_seconds": 0,
            "minutes": 1,
            "min_rating": min_rating,
        })
    };
    let (status, strong) = organiser
        .post("/api/tournaments", &arena(json!(2000)))
        .await;
    assert_eq!(status, 201, "{strong}");
    let (status, quick) = organiser
        .post("/api/tournaments", &arena(json!(null)))
        .await;
    assert_eq!(status, 201, "{quick}");
    let (status, body) = organiser
        .post("/api/tournaments", &arena(json!(null)))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("limit/tournaments"))
    );

    let mut present = Agent::guest(app.addr, "Present").await;
    let mut absent = Agent::guest(app.addr, "Absent").await;
    let strong = strong["tournament"]["id"].as_str().unwrap().to_owned();
    let (status, body) = present
        .post(&format!("/api/tournaments/{strong}/join"), &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("tournament/rating"))
    );
    let (status, body) = present
        .post("/api/tournaments/nosuchthing/join", &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("tournament/not_found"))
    );
    let (status, body) = present
        .post(&format!("/api/tournaments/{strong}/withdraw"), &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("tournament/closed"))
    );

    let id = quick["tournament"]["id"].as_str().unwrap().to_owned();
    for agent in [&mut present, &mut absent] {
        let (status, body) = agent
            .post(&format!("/api/tournaments/{id}/join"), &json!(null))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let paired = until(&mut present, &id, |d| {
        !unplayed(d, &BTreeSet::new()).is_empty()
    })
    .await;
    let (match_id, players) = unplayed(&paired, &BTreeSet::new()).remove(0);
    // Only one of the two opens the match.
    let _seat = present.connect(&match_id, None).await;
    let done = until(&mut present, &id, |d| {
        d["tournament"]["phase"] == "finished"
    })
    .await;
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{done}");
    let won = players.iter().position(|p| p == "Present").unwrap();
    let mut ranks = vec![2, 2];
    ranks[won] = 1;
    assert_eq!(games[0]["ranks"], json!(ranks));
    let line = |name: &str| {
        done["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (
            line("Present")["points"].as_u64(),
            line("Present")["active"].as_bool()
        ),
        (Some(2), Some(true))
    );
    assert_eq!(
        (
            line("Absent")["points"].as_u64(),
            line("Absent")["active"].as_bool()
        ),
        (Some(0), Some(false))
    );
    app.shutdown().await;
}

/// How many matches the database of `db` holds, read straight from it.
/// Checks a finished arena `done` (its detail) against what the test played: every game a finished
/// match of the store with the game's ranks, and the eight standings' points, games and wins equal
/// to `tally`, in place order. Returns the standings' lines.
async fn finished_as_tallied<'a>(
    organiser: &mut Agent,
    done: &'a Value,
    tally: &BTreeMap<String, Tally>,
) -> &'a Vec<Value> {
    let games = done["games"].as_array().unwrap();
    for g in games {
        let (_, summary) = organiser
            .get(&format!("/api/matches/{}", g["match_id"].as_str().unwrap()))
            .await;
        assert_eq!(summary["status"], "finished");
        assert_eq!(summary["outcome"]["ranks"], g["ranks"]);
    }
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8);
    for (place, line) in standings.iter().enumerate() {
        let name = line["name"].as_str().unwrap();
        let mine = &tally[name];
        assert_eq!(line["place"], place + 1);
        assert_eq!(
            (
                line["points"].as_u64(),
                line["games"].as_u64(),
                line["wins"].as_u64()
            ),
            (Some(mine.points), Some(mine.games), Some(mine.wins)),
            "{name}: {done}"
        );
    }
    standings
}

async fn matches_stored(db: &Db) -> i64 {
    let (client, connection) = tokio_postgres::connect(&db.url(), tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    let row = client
        .query_one("SELECT COUNT(*) FROM matches", &[])
        .await
        .unwrap();
    drop(client);
    let _ = task.await;
    row.get(0)
}

/// An arena on two nodes of one PostgreSQL (docs/architecture.md section 5.3): created through
/// one node, joined by eight players at once through both (no join lost to another's write), run
/// by one node while its games are played through either; every game is paired once and has
/// one match (the database holds no other), both nodes show the same tournament, and the
/// standings are the points of the results the test made.
#[tokio::test]
async fn an_arena_on_two_nodes_pairs_and_makes_each_game_once() {
    if Db::postgres().is_none() {
        eprintln!(
            "skipped: two nodes need PostgreSQL (PLATEAU_TEST_POSTGRES; scripts/test sets it)"
        );
        return;
    }
    let db = temp_db();
    let limits = options(Duration::from_secs(15)).limits;
    let a = spawn_node(db.clone(), "a", limits.clone()).await;
    let b = spawn_node(db.clone(), "b", limits).await;
    let mut organiser = Agent::account(a.addr, "Organiser").await;
    let arena = json!({
        "name": "Two-node arena",
        "game": "toy",
        "time_control": {"kind": "none"},
        "starts_in_seconds": 1,
        "minutes": 1,
    });
    let (status, made) = organiser.post("/api/tournaments", &arena).await;
    assert_eq!(status, 201, "{made}");
    let id = made["tournament"]["id"].as_str().unwrap().to_owned();

    let mut agents = BTreeMap::new();
    for n in 1..=8 {
        let name = format!("Player{n}");
        let node = if n % 2 == 0 { &a } else { &b };
        agents.insert(name.clone(), Agent::guest(node.addr, &name).await);
    }
    let path = format!("/api/tournaments/{id}/join");
    let nothing = json!(null);
    let joins = futures_util::future::join_all(
        agents.values_mut().map(|agent| agent.post(&path, &nothing)),
    )
    .await;
    for (status, body) in joins {
        assert_eq!(status, 200, "{body}");
    }
    let (_, joined) = organiser.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(joined["tournament"]["players"], 8, "{joined}");

    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut matches = BTreeSet::new();
    loop {
        let detail = until(&mut organiser, &id, |d| {
            d["tournament"]["phase"] == "finished" || !unplayed(d, &matches).is_empty()
        })
        .await;
        if detail["tournament"]["phase"] == "finished" {
            break;
        }
        for (match_id, players) in unplayed(&detail, &matches) {
            let winner = play(&agents, &match_id, &players).await;
            matches.insert(match_id);
            for (seat, name) in players.iter().enumerate() {
                tally.entry(name.clone()).or_default().add(seat == winner);
            }
        }
    }
    let (_, done) = organiser.get(&format!("/api/tournaments/{id}")).await;
    let mut reader = Agent::guest(b.addr, "Reader").await;
    let (_, seen_on_b) = reader.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(seen_on_b, done);
    let games = done["games"].as_array().unwrap();
    assert!(games.len() >= 4, "{done}");
    assert_eq!(games.len(), matches.len(), "{done}");
    assert_eq!(recorded(&done), games.len());
    let ids: BTreeSet<&str> = games
        .iter()
        .map(|g| g["match_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), games.len(), "a match for two games: {done}");
    assert_eq!(
        matches_stored(&db).await,
        i64::try_from(games.len()).unwrap()
    );
    finished_as_tallied(&mut organiser, &done, &tally).await;
    b.shutdown().await;
    a.shutdown().await;
}
