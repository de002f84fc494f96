//! Tournaments played in rounds over HTTP and real sockets (docs/protocol.md section 7.9,
//! docs/tournaments.md sections 4 and 5): a Swiss of nine players over four rounds whose
//! pairings, byes and colours are the independently computed example of the tournament crate's
//! tests, and rounds of tables of four for ten players with bots in the short tables; each with
//! a restart of the server in the middle of a round, after which no game, point or pairing is
//! lost.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Agent, Db, TestApp, spawn_app_with, temp_db};
use crate::tournaments::{options, recorded, until};
use plateau_server::Options;
use plateau_tournament::{Kind, PlayerId, Seat, Settings, Tournament};

/// A Swiss round: boards as (white, black, white's result), and the bye.
type Round = (Vec<(i64, i64, char)>, i64);

/// `Player3` -> 3.
fn number(name: &str) -> i64 {
    name.trim_start_matches("Player").parse().unwrap()
}

/// The first seed whose Swiss gives the top seed white in round 1 (FIDE's "white1", as the
/// example was computed), found as the tournament's rules draw it.
fn white_first_seed() -> u64 {
    (0..)
        .find(|&seed| {
            let settings = Settings {
                kind: Kind::Swiss { rounds: 1 },
                seats: 2,
                rated: false,
                seed,
            };
            let mut t = Tournament::new(settings).unwrap();
            t.join(PlayerId(1), 1500, 0).unwrap();
            t.join(PlayerId(2), 1500, 0).unwrap();
            let round = t.pair_next_round().unwrap().clone();
            t.game(round.games[0]).unwrap().seats[0] == Seat::Player(PlayerId(1))
        })
        .unwrap()
}

/// The games of round `round` of `detail`, once every one has its match: (match, players by
/// seat, ranks once over).
fn round_games(detail: &Value, round: u64) -> Option<Vec<(String, Vec<String>, Value)>> {
    let games: Vec<&Value> = detail["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["round"] == round)
        .collect();
    if games.is_empty() || games.iter().any(|g| g["match_id"].is_null()) {
        return None;
    }
    Some(
        games
            .iter()
            .map(|g| {
                (
                    g["match_id"].as_str().unwrap().to_owned(),
                    g["players"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_str().unwrap().to_owned())
                        .collect(),
                    g["ranks"].clone(),
                )
            })
            .collect(),
    )
}

/// Joins `names` to tournament `id` in order, each a new guest: `None` as soon as one finds the
/// tournament started (it joined late, or found it over: started with too few to play).
async fn join_all(app: &TestApp, id: &str, names: &[String]) -> Option<BTreeMap<String, Agent>> {
    let mut agents = BTreeMap::new();
    for name in names {
        let mut agent = Agent::guest(app.addr, name).await;
        let (status, body) = agent
            .post(&format!("/api/tournaments/{id}/join"), &json!(null))
            .await;
        if status == 409 && body["code"] == "tournament/closed" {
            return None;
        }
        assert_eq!(status, 200, "{body}");
        if body["tournament"]["phase"] != "waiting" {
            assert_eq!(body["tournament"]["phase"], "running", "{body}");
            return None;
        }
        agents.insert(name.clone(), agent);
    }
    Some(agents)
}

/// A server on a new database and a tournament of it that every player joined while it waited.
struct Joined {
    db: Db,
    app: TestApp,
    /// The account `Organiser`, who made the tournament.
    organiser: Agent,
    /// The answer to the creation.
    made: Value,
    id: String,
    /// Each player's guest, by name.
    agents: BTreeMap<String, Agent>,
}

/// A new server on a new database (with `options`), where the account `Organiser` makes the
/// tournament `request` and `names` join it in order, each a new guest, all while it waits (so
/// nobody joins late). Its start is a time on the wall clock, `starts_in_seconds` after the
/// creation, which a starved machine can reach before the last join: the test cannot hold the
/// start back, so it then makes it all again, on a fresh database, with twice the time to start.
async fn joined_before_start(
    options: impl Fn() -> Options,
    mut request: Value,
    names: &[String],
) -> Joined {
    for _ in 0..5 {
        let db = temp_db();
        let app = spawn_app_with(db.clone(), options()).await;
        let mut organiser = Agent::account(app.addr, "Organiser").await;
        let (status, made) = organiser.post("/api/tournaments", &request).await;
        assert_eq!(status, 201, "{made}");
        let id = made["tournament"]["id"].as_str().unwrap().to_owned();
        if let Some(agents) = join_all(&app, &id, names).await {
            return Joined {
                db,
                app,
                organiser,
                made,
                id,
                agents,
            };
        }
        app.shutdown().await;
        let late = request["starts_in_seconds"].as_u64().unwrap();
        eprintln!(
            "started {late} s after its creation, before the last join: again with twice that"
        );
        request["starts_in_seconds"] = json!(2 * late);
    }
    panic!("the tournament started before the last join five times");
}

/// Stops `app` and starts a new server on the same database; every agent is pointed at it.
/// The tournament reads back the same.
async fn restart(
    app: TestApp,
    db: &Db,
    agents: &mut BTreeMap<String, Agent>,
    organiser: &mut Agent,
    id: &str,
) -> TestApp {
    let (_, before) = organiser.get(&format!("/api/tournaments/{id}")).await;
    app.shutdown().await;
    let app = spawn_app_with(db.clone(), options(Duration::from_secs(60))).await;
    for agent in agents.values_mut().chain([&mut *organiser]) {
        agent.addr = app.addr;
    }
    let (status, after) = organiser.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after, before);
    app
}

/// Plays Chakart match `id` between `players` (white first) to the result `token` from white's
/// point of view: '1' black resigns, '0' white resigns, '=' both agree (a draw in Chakart).
async fn play_chakart(agents: &BTreeMap<String, Agent>, id: &str, players: &[String], token: char) {
    let mut white = agents[&players[0]].connect(id, None).await;
    let mut black = agents[&players[1]].connect(id, None).await;
    white.live().await;
    black.live().await;
    match token {
        '1' => black.send(json!({"type": "resign"})).await,
        '0' => white.send(json!({"type": "resign"})).await,
        _ => {
            white
                .send(json!({"type": "offer", "kind": "agreement"}))
                .await;
            black
                .until(|m| m["type"] == "state" && m["offers"]["agreement"] == json!([0]))
                .await;
            black
                .send(json!({"type": "offer", "kind": "agreement"}))
                .await;
        }
    }
    white
        .until(|m| m["type"] == "state" && m["status"] == "finished")
        .await;
}

/// The ranks (from 1) a two-seat result token gives, by seat.
fn ranks_of(token: char) -> Value {
    match token {
        '1' => json!([1, 2]),
        '0' => json!([2, 1]),
        _ => json!([1, 1]),
    }
}

/// Nine guests (rated alike, so seeded in the order they join) play a Swiss of four rounds of
/// Chakart. Every round's boards, colours and bye are those py4swiss's Dutch engine computed for
/// the tournament crate's example (crates/tournament/tests/swiss.rs), its results played
/// through the matches; the server restarts with round 2 half played. The standings are the
/// points the test tallies, with the tie-breaks the crate's test worked out by hand.
#[tokio::test]
async fn a_swiss_of_nine_pairs_the_reference_rounds_through_a_restart() {
    // Per round: boards as (white, black, white's result) and the bye (the crate's example).
    let expected: [Round; 4] = [
        (vec![(1, 5, '0'), (6, 2, '0'), (3, 7, '0'), (8, 4, '0')], 9),
        (vec![(2, 5, '1'), (4, 9, '='), (7, 1, '0'), (6, 3, '0')], 8),
        (vec![(9, 2, '='), (3, 4, '1'), (1, 8, '0'), (5, 7, '0')], 6),
        (vec![(2, 3, '='), (8, 9, '='), (7, 4, '1'), (5, 6, '=')], 1),
    ];
    let swiss = json!({
        "name": "Sunday Swiss",
        "game": "chakart",
        "kind": "swiss",
        "rounds": 4,
        "time_control": {"kind": "none"},
        "starts_in_seconds": 4,
        "seed": white_first_seed(),
    });
    let names: Vec<String> = (1..=9).map(|n| format!("Player{n}")).collect();
    let Joined {
        db,
        mut app,
        mut organiser,
        made,
        id,
        mut agents,
    } = joined_before_start(|| options(Duration::from_secs(60)), swiss.clone(), &names).await;
    // The fields of another kind, or none of its own, are refused with the field named.
    for (field, value) in [
        ("minutes", json!(10)),
        ("rounds", json!(0)),
        ("rounds", json!(null)),
        ("seats", json!(3)),
        ("game", json!("naval")),
    ] {
        let mut bad = swiss.clone();
        bad[field] = value;
        let (status, body) = organiser.post("/api/tournaments", &bad).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("tournament/invalid")),
            "{field}: {body}"
        );
        let key = if field == "game" { "game" } else { field };
        assert!(body["message"].as_str().unwrap().starts_with(key), "{body}");
    }
    let info = &made["tournament"];
    assert_eq!(
        (
            info["kind"].as_str(),
            info["rounds"].as_u64(),
            info["round"].as_u64()
        ),
        (Some("swiss"), Some(4), Some(0))
    );
    assert!(
        info["minutes"].is_null() && info["ends_at"].is_null(),
        "{made}"
    );

    // Half points by name, as tallied from the results the test makes.
    let mut points: BTreeMap<String, u64> = BTreeMap::new();
    for (r, (boards, bye)) in expected.iter().enumerate() {
        let round = r as u64 + 1;
        let detail = until(&mut organiser, &id, |d| round_games(d, round).is_some()).await;
        assert_eq!(detail["tournament"]["phase"], "running");
        assert_eq!(detail["tournament"]["round"], round);
        let games = round_games(&detail, round).unwrap();
        let got: Vec<(i64, i64)> = games
            .iter()
            .map(|(_, p, _)| (number(&p[0]), number(&p[1])))
            .collect();
        let want: Vec<(i64, i64)> = boards.iter().map(|&(w, b, _)| (w, b)).collect();
        assert_eq!(got, want, "round {round}: {detail}");
        assert_eq!(
            detail["byes"][r],
            json!({"round": round, "name": format!("Player{bye}")}),
            "{detail}"
        );
        *points.entry(format!("Player{bye}")).or_default() += 2;
        for (i, ((match_id, players, _), &(_, _, token))) in games.iter().zip(boards).enumerate() {
            if round == 2 && i == 2 {
                // Two of round 2's four games are over: the server stops and starts again.
                until(&mut organiser, &id, |d| recorded(d) == 4 + 2).await;
                app = restart(app, &db, &mut agents, &mut organiser, &id).await;
            }
            play_chakart(&agents, match_id, players, token).await;
            let ranks = ranks_of(token);
            for (seat, name) in players.iter().enumerate() {
                *points.entry(name.clone()).or_default() +=
                    match (ranks[seat].as_u64(), ranks[1 - seat].as_u64()) {
                        (a, b) if a < b => 2,
                        (a, b) if a == b => 1,
                        _ => 0,
                    };
            }
        }
    }
    let done = until(&mut organiser, &id, |d| {
        d["tournament"]["phase"] == "finished"
    })
    .await;
    // Every game is a finished match with the ranks its result token gave.
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), 16, "{done}");
    let tokens = expected.iter().flat_map(|(b, _)| b.iter().map(|g| g.2));
    for (game, token) in games.iter().zip(tokens) {
        assert_eq!(game["ranks"], ranks_of(token), "{done}");
        let (_, summary) = organiser
            .get(&format!(
                "/api/matches/{}",
                game["match_id"].as_str().unwrap()
            ))
            .await;
        assert_eq!(summary["status"], "finished");
        assert_eq!(summary["outcome"]["ranks"], game["ranks"]);
    }
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    for line in standings {
        let name = line["name"].as_str().unwrap();
        assert_eq!(
            line["points"].as_u64(),
            Some(points[name]),
            "{name}: {done}"
        );
    }
    // The crate's test worked these tie-breaks out by hand: 2 and 7 have 3 points and the
    // same Buchholz, 2 the higher Buchholz cut 1.
    let line = |name: &str| standings.iter().find(|l| l["name"] == name).unwrap();
    assert_eq!(
        (standings[0]["name"].as_str(), standings[1]["name"].as_str()),
        (Some("Player2"), Some("Player7"))
    );
    assert_eq!(
        line("Player2")["tie_breaks"],
        json!({"buchholz_cut1": 12, "buchholz": 14, "sonneborn_berger": 19})
    );
    assert_eq!(
        line("Player7")["tie_breaks"],
        json!({"buchholz_cut1": 11, "buchholz": 14, "sonneborn_berger": 22})
    );
    assert_eq!(
        (
            line("Player1")["games"].as_u64(),
            line("Player1")["tie_breaks"].clone()
        ),
        (
            Some(3),
            json!({"buchholz_cut1": 14, "buchholz": 17, "sonneborn_berger": 20})
        )
    );
    // Each player's page lists the Swiss with its final place and points.
    for line in standings {
        let name = line["name"].as_str().unwrap();
        let (status, mine) = organiser
            .get(&format!("/api/players/{}/tournaments", name.to_lowercase()))
            .await;
        assert_eq!(status, 200, "{mine}");
        assert_eq!(mine["name"], name);
        let listed = mine["tournaments"].as_array().unwrap();
        assert_eq!(listed.len(), 1, "{mine}");
        assert_eq!(listed[0]["tournament"]["id"], id.as_str());
        assert_eq!(listed[0]["tournament"]["phase"], "finished");
        assert_eq!(
            (
                &listed[0]["place"],
                &listed[0]["points"],
                &listed[0]["games"]
            ),
            (&line["place"], &line["points"], &line["games"])
        );
    }
    let (status, body) = organiser.get("/api/players/Organiser/tournaments").await;
    assert_eq!((status, body["tournaments"].clone()), (200, json!([])));
    let (status, body) = organiser.get("/api/players/Nobody_here/tournaments").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("player/not_found"))
    );
    // A finished Swiss takes nobody.
    let (status, body) = organiser
        .post(&format!("/api/tournaments/{id}/join"), &json!(null))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("tournament/closed"))
    );
    app.shutdown().await;
}

/// Ten guests play three rounds of Moon Leap at tables of four, bots taking the seats the short
/// tables leave (4, 3 + a bot, 3 + a bot): each round seats the players by their points (then
/// who joined first) top table first, a result gives each seat 2 points per seat it outranks and
/// 1 per seat it ties, and the server restarts with round 2 partly played.
#[tokio::test]
async fn tables_of_four_for_ten_seat_by_score_through_a_restart() {
    let tables = json!({
        "name": "Moon Leap tables",
        "game": "moonleap",
        "kind": "tables",
        "seats": 4,
        "bots": true,
        "rounds": 3,
        "time_control": {"kind": "none"},
        "starts_in_seconds": 4,
    });
    let names: Vec<String> = (1..=10).map(|n| format!("Player{n}")).collect();
    let Joined {
        db,
        mut app,
        mut organiser,
        made,
        id,
        mut agents,
    } = joined_before_start(|| options(Duration::from_secs(60)), tables.clone(), &names).await;
    // Bataille Navale is played by four only: its tables need bots.
    let mut naval = tables.clone();
    naval["game"] = json!("naval");
    naval["bots"] = json!(false);
    let (status, body) = organiser.post("/api/tournaments", &naval).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("tournament/invalid")),
        "{body}"
    );
    let mut five = tables.clone();
    five["seats"] = json!(5);
    let (status, body) = organiser.post("/api/tournaments", &five).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("tournament/invalid")),
        "{body}"
    );
    let info = &made["tournament"];
    assert_eq!(
        (
            info["kind"].as_str(),
            info["seats"].as_u64(),
            info["bots"].as_bool()
        ),
        (Some("tables"), Some(4), Some(true))
    );

    let mut points: BTreeMap<String, u64> = names.iter().map(|n| (n.clone(), 0)).collect();
    for round in 1..=3u64 {
        let detail = until(&mut organiser, &id, |d| round_games(d, round).is_some()).await;
        let games = round_games(&detail, round).unwrap();
        // Seated by points, then by who joined first, dealt 4, 3, 3 from the top table.
        let mut ranked = names.clone();
        ranked.sort_by_key(|n| (std::cmp::Reverse(points[n]), number(n)));
        let dealt: Vec<Vec<String>> = [0..4, 4..7, 7..10]
            .into_iter()
            .map(|r| {
                let mut table = ranked[r].to_vec();
                table.sort();
                table
            })
            .collect();
        let seated: Vec<Vec<String>> = games
            .iter()
            .map(|(_, players, _)| {
                assert_eq!(players.len(), 4, "{detail}");
                let mut people: Vec<String> =
                    players.iter().filter(|p| *p != "bot").cloned().collect();
                people.sort();
                people
            })
            .collect();
        assert_eq!(seated, dealt, "round {round}: {detail}");
        for (i, (match_id, players, _)) in games.iter().enumerate() {
            if round == 2 && i == 1 {
                until(&mut organiser, &id, |d| recorded(d) == 3 + 1).await;
                app = restart(app, &db, &mut agents, &mut organiser, &id).await;
            }
            // Everyone opens the table; the highest number there resigns (last place).
            let people: Vec<&String> = players.iter().filter(|p| *p != "bot").collect();
            let mut sockets = Vec::new();
            for p in &people {
                sockets.push(agents[*p].connect(match_id, None).await);
            }
            for s in &mut sockets {
                s.live().await;
            }
            let resigner = people.iter().map(|p| number(p)).max().unwrap();
            let at = people.iter().position(|p| number(p) == resigner).unwrap();
            sockets[at].send(json!({"type": "resign"})).await;
            let end = sockets[0]
                .until(|m| m["type"] == "state" && m["status"] == "finished")
                .await;
            let ranks: Vec<u64> = end["outcome"]["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap())
                .collect();
            for (seat, name) in players.iter().enumerate() {
                if name == "bot" {
                    continue;
                }
                let mine = ranks[seat];
                let won: u64 = ranks
                    .iter()
                    .enumerate()
                    .filter(|(other, _)| *other != seat)
                    .map(|(_, &r)| match r.cmp(&mine) {
                        std::cmp::Ordering::Greater => 2,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Less => 0,
                    })
                    .sum();
                *points.get_mut(name).unwrap() += won;
            }
        }
    }
    let done = until(&mut organiser, &id, |d| {
        d["tournament"]["phase"] == "finished"
    })
    .await;
    assert_eq!(done["games"].as_array().unwrap().len(), 9, "{done}");
    assert_eq!(recorded(&done), 9);
    for game in done["games"].as_array().unwrap() {
        let (_, summary) = organiser
            .get(&format!(
                "/api/matches/{}",
                game["match_id"].as_str().unwrap()
            ))
            .await;
        assert_eq!(summary["outcome"]["ranks"], game["ranks"], "{done}");
    }
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 10);
    for line in standings {
        let name = line["name"].as_str().unwrap();
        assert_eq!(
            line["points"].as_u64(),
            Some(points[name]),
            "{name}: {done}"
        );
        assert!(line["tie_breaks"].is_null());
    }
    let key = |l: &Value| l["points"].as_u64();
    assert!(
        standings.windows(2).all(|w| key(&w[0]) >= key(&w[1])),
        "{done}"
    );
    app.shutdown().await;
}

/// A Swiss's no-show, as an arena's: a player who does not open its game loses it, behind the
/// one who came, and is withdrawn; the next round pairs the players left, the bye to the odd one.
#[tokio::test]
async fn a_swiss_player_who_does_not_come_loses_and_is_paired_no_more() {
    let options = || {
        let mut options = options(Duration::from_secs(60));
        // Time enough for the test to see each pairing and open its matches first, on a
        // loaded machine too (a player who came late would be absent).
        options.limits.no_show = Duration::from_secs(4);
        options
    };
    let swiss = json!({
        "name": "Short Swiss",
        "game": "chakart",
        "kind": "swiss",
        "rounds": 2,
        "time_control": {"kind": "none"},
        "starts_in_seconds": 3,
    });
    let names: Vec<String> = (1..=4).map(|n| format!("Player{n}")).collect();
    let Joined {
        app,
        mut organiser,
        id,
        agents,
        ..
    } = joined_before_start(options, swiss, &names).await;

    let detail = until(&mut organiser, &id, |d| round_games(d, 1).is_some()).await;
    let games = round_games(&detail, 1).unwrap();
    assert_eq!(games.len(), 2, "{detail}");
    let absent = "Player4";
    // Only the other player opens the absent one's match, before the other game is played, so
    // that it comes within the no-show time however long that game takes.
    let mut held = Vec::new();
    for (match_id, players, _) in &games {
        if let Some(seat) = players.iter().position(|p| p == absent) {
            held.push(agents[&players[1 - seat]].connect(match_id, None).await);
        }
    }
    for (match_id, players, _) in &games {
        if !players.iter().any(|p| p == absent) {
            play_chakart(&agents, match_id, players, '1').await;
        }
    }
    let detail = until(&mut organiser, &id, |d| round_games(d, 2).is_some()).await;
    let (_, players, _) = round_games(&detail, 1)
        .unwrap()
        .into_iter()
        .find(|(_, p, _)| p.iter().any(|n| n == absent))
        .unwrap();
    let game = detail["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["round"] == 1 && g["players"].as_array().unwrap().contains(&json!(absent)))
        .unwrap();
    let mut ranks = json!([1, 1]);
    ranks[players.iter().position(|p| p == absent).unwrap()] = json!(2);
    assert_eq!(game["ranks"], ranks, "{detail}");
    // Round 2: the three players left, one game and the bye; the absent one is in neither.
    let round2 = round_games(&detail, 2).unwrap();
    assert_eq!(round2.len(), 1, "{detail}");
    assert!(!round2[0].1.iter().any(|p| p == absent), "{detail}");
    let bye = detail["byes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["round"] == 2)
        .unwrap();
    assert_ne!(bye["name"], absent);
    let line = detail["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == absent)
        .unwrap();
    assert_eq!(
        (
            line["active"].as_bool(),
            line["points"].as_u64(),
            line["games"].as_u64()
        ),
        (Some(false), Some(0), Some(1))
    );
    play_chakart(&agents, &round2[0].0, &round2[0].1, '=').await;
    let done = until(&mut organiser, &id, |d| {
        d["tournament"]["phase"] == "finished"
    })
    .await;
    assert_eq!(done["games"].as_array().unwrap().len(), 3, "{done}");
    drop(held);
    app.shutdown().await;
}
