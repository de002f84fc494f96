//! `plateau arena` and `plateau bench` end to end: the tables, the JSON and the SVG, reproducible
//! with iteration budgets, and clear errors.

use std::process::{Command, Output};

const PLATEAU: &str = env!("CARGO_BIN_EXE_plateau");

fn plateau(args: &[&str]) -> Output {
    Command::new(PLATEAU)
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn an_arena_with_iteration_budgets_is_reproducible_and_complete() {
    let dir = std::env::temp_dir().join(format!("plateau-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str| {
        let json = dir.join(format!("{name}.json"));
        let svg = dir.join(format!("{name}.svg"));
        let out = plateau(&[
            "arena",
            "mad",
            "--bots",
            "mcts:i60,random",
            "--games",
            "6",
            "--seed",
            "3",
            "--quiet",
            "--out",
            json.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let svg = std::fs::read_to_string(&svg).unwrap();
        (String::from_utf8(out.stdout).unwrap(), report, svg)
    };
    let (table, report, svg) = run("a");
    let (table2, report2, _) = run("b");
    assert_eq!(table, table2);
    assert_eq!(report, report2);
    assert!(table.contains("table: mcts:i60 vs random"), "{table}");
    assert!(table.contains("ratings (elo)"), "{table}");
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    // Seats alternate: the MCTS bot (index 0) sits first in even games, second in odd ones.
    for g in games {
        let i = g["index"].as_u64().unwrap();
        assert_eq!(g["seats"][(i % 2) as usize], 0, "{g}");
    }
    let tallies = report["pairings"][0]["tallies"].as_array().unwrap();
    let wins: f64 = tallies.iter().map(|t| t["wins"].as_f64().unwrap()).sum();
    assert_eq!(wins, 6.0, "every MAD game has one winner");
    assert!(svg.starts_with("<svg") && svg.contains("mcts:i60"), "{svg}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_errors_name_the_bad_input() {
    let out = plateau(&["arena", "mad", "--bots", "mcts:fast,random", "--games", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mcts:fast"), "{err}");
    let out = plateau(&["arena", "mad", "--bots", "random", "--games", "2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least two bots"));
    let out = plateau(&["arena", "mad", "--bots", "random,random", "--players", "4"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("4"));
}

#[test]
fn bench_prints_both_rates() {
    let out = plateau(&["bench", "mad", "--seconds", "0.2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("random playouts: "), "{text}");
    assert!(text.contains("mcts iterations: "), "{text}");
}

#[test]
fn an_arena_writes_every_games_record_and_each_replays_with_its_seed() {
    let dir = std::env::temp_dir().join(format!("plateau-arena-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, records) = (dir.join("report.json"), dir.join("games.jsonl"));
    let out = plateau(&[
        "arena",
        "chakart",
        "--bots",
        "random,greedy",
        "--games",
        "3",
        "--seed",
        "5",
        "--threads",
        "2",
        "--quiet",
        "--out",
        json.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    let lines = std::fs::read_to_string(&records).unwrap();
    assert_eq!(lines.lines().count(), games.len());
    let entry = plateau_registry::find("chakart").unwrap();
    for (line, game) in lines.lines().zip(games) {
        let record: plateau_engine::Record = serde_json::from_str(line).unwrap();
        // Each seat's bot by name, in the report's seating.
        let bots = ["random", "greedy"];
        let seats: Vec<&str> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| bots[b.as_u64().unwrap() as usize])
            .collect();
        assert_eq!(record.seats, seats);
        let replay = record.replay(entry).unwrap();
        assert!(
            replay.seed_verified,
            "every chance outcome redrawn from the seed"
        );
        let ranks: Vec<u64> = game["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .collect();
        let outcome = replay.state.outcome().unwrap();
        assert_eq!(
            outcome
                .ranks
                .iter()
                .map(|&r| u64::from(r))
                .collect::<Vec<_>>(),
            ranks
        );
        assert_eq!(
            record.actions().count() as u64,
            game["actions"].as_u64().unwrap()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
