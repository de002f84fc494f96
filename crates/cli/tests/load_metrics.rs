//! `plateau load --pace human --check-metrics`: a small load at a quick human pace against a
//! server it starts, whose `/metrics` counters, read at the window's end with every socket open
//! and no action in flight, agree with the load client's own counts: decisions, matches created,
//! match and lobby sockets, limit refusals and coded errors (the stranger's creations the limits
//! per address refuse).

use std::process::Command;

/// The cells of the row of `what` in the load's `/metrics` table: client, server, verdict.
fn row<'a>(out: &'a str, what: &str) -> (f64, f64, &'a str) {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("| {what} |")))
        .unwrap_or_else(|| panic!("no row {what} in:\n{out}"));
    let cells: Vec<&str> = line.split('|').map(str::trim).collect();
    (
        cells[2].parse().unwrap(),
        cells[3].parse().unwrap(),
        cells[4],
    )
}

#[test]
fn the_servers_counters_agree_with_the_load_clients_counts() {
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    let out = Command::new(bin)
        .args([
            "load",
            "--pace",
            "human",
            "--matches",
            "8",
            "--seconds",
            "2",
        ])
        .args([
            "--think-min",
            "0.02",
            "--think-max",
            "0.2",
            "--ping-every",
            "0.5",
        ])
        .args(["--lobby-per-match", "0.5", "--spectators-per-match", "0.5"])
        .args(["--strangers", "25", "--ramp-rate", "50", "--check-metrics"])
        .output()
        .expect("plateau load runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for what in [
        "decisions committed",
        "matches created",
        "match sockets open",
        "lobby sockets open",
        "limit refusals",
        "coded errors",
    ] {
        let (client, server, verdict) = row(&stdout, what);
        assert_eq!((client, verdict), (server, "agree"), "{what}:\n{stdout}");
    }
    // Every figure was there to count: actions played, the stranger's refusals (at most 10
    // open matches per address: 15 of the 25 refused), the lobby sockets; and unless a match
    // ended (and was replaced) meanwhile, the eight tables and the stranger's ten creations,
    // every seat and spectator.
    assert!(row(&stdout, "decisions committed").0 > 8.0, "{stdout}");
    assert_eq!(row(&stdout, "limit refusals").0, 15.0, "{stdout}");
    assert_eq!(row(&stdout, "lobby sockets open").0, 4.0);
    if stdout.contains("plateau: 0 matches finished") {
        assert_eq!(row(&stdout, "matches created").0, 8.0 + 10.0, "{stdout}");
        assert_eq!(row(&stdout, "match sockets open").0, 8.0 * 2.0 + 4.0);
    }
}
