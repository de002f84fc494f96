//! `plateau load --pace human`: matches played at the pace of people, to find what one node
//! holds rather than how fast it answers a closed loop.
//!
//! Every seat thinks before it acts, a time drawn uniformly from `--think-min` to `--think-max`
//! seconds by a generator seeded from `--seed` and the table's number; every socket sends a
//! `ping` message every `--ping-every` seconds, as the pages do (web/js/socket.js); beside the
//! seats there are `--spectators-per-match` spectators' sockets and `--lobby-per-match` lobby
//! sockets per match. The matches open at `--ramp-rate` a second, so that the server is not
//! measured on a crowd arriving in the same instant. Every socket comes from one of the client
//! addresses 127.0.2.1 to 127.0.2.N (`--sources`): the kernel gives each source address its own
//! ephemeral ports, and one address has fewer than 40,000.

mod counts;
mod metrics;
mod pace;
mod report;
mod run;
mod table;
mod wire;

use pace::{Pace, Target, source};
use report::{details, load_average, per_decision, print_rows, row};
use run::{Held, run};

use super::args::Args;
use super::server::{Server, free_port, spawn, spawn_null};

/// `plateau load --pace human`: the load against the server (at `--addr`, or spawned here on
/// `db`), then against the `null_server` example if given; prints one row for each, and the
/// comparison of the server's `/metrics` with the client's counts if asked.
pub(super) async fn main(args: &Args, db: &std::path::Path) -> crate::common::CliResult {
    if !(args.think_min >= 0.0 && args.think_max >= args.think_min && args.think_max <= 3600.0) {
        return Err("--think-min and --think-max: 0 <= min <= max <= 3600 seconds".into());
    }
    if !(args.ping_every >= 0.1 && args.ramp_rate > 0.0) {
        return Err("--ping-every is at least 0.1 s, --ramp-rate above 0".into());
    }
    if !(args.lobby_per_match >= 0.0 && args.spectators_per_match >= 0.0) {
        return Err("--lobby-per-match and --spectators-per-match are 0 or more".into());
    }
    let pace = Pace {
        matches: args.matches,
        game: args.game.clone(),
        seats: args.seats,
        think: (args.think_min, args.think_max),
        ping_every: args.ping_every,
        lobby_per_match: args.lobby_per_match,
        spectators_per_match: args.spectators_per_match,
        ramp_rate: args.ramp_rate,
        sources: args.sources,
        strangers: args.strangers,
        seconds: args.seconds,
        seed: args.seed,
    };
    println!(
        "{} matches of {} ({} seats), each seat thinking uniformly {}-{} s (seed {}); every \
         socket pings every {} s; {} lobby sockets and {} spectators per match; {} sockets in \
         all from {} client addresses; ramp {} matches/s; window {} s",
        pace.matches,
        pace.game,
        pace.seats,
        pace.think.0,
        pace.think.1,
        pace.seed,
        pace.ping_every,
        pace.lobby_per_match,
        pace.spectators_per_match,
        pace.sockets(),
        pace.sources,
        pace.ramp_rate,
        pace.seconds
    );
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut agreed = true;
    {
        let (server, metrics) = match args.addr {
            Some(addr) => (
                Server {
                    addr,
                    pid: args.server_pid,
                    child: None,
                    db: None,
                },
                args.metrics_addr,
            ),
            None => {
                let metrics = free_port()?;
                let mut extra = vec!["--metrics-listen".to_owned(), metrics.to_string()];
                for i in 0..usize::from(pace.sources) {
                    extra.push("--exempt-address".to_owned());
                    extra.push(source(i, pace.sources).to_string());
                }
                (spawn(db, &extra)?, Some(metrics))
            }
        };
        let target = Target {
            addr: server.addr,
            pid: server.pid,
        };
        let held = run(&pace, target).await;
        if args.check_metrics {
            let Some(metrics) = metrics else {
                return Err("--check-metrics needs --metrics-addr with --addr".into());
            };
            agreed = metrics::compare(metrics, &held.counts).await?;
        }
        let Held { measured, .. } = &held;
        rows.push(("plateau", row(measured, pace.matches)));
        notes.push(details("plateau", measured));
        let plateau_cpu = per_decision(measured);
        held.close().await;
        drop(server);
        if let Some(binary) = &args.null_server {
            let null = spawn_null(binary)?;
            let held = run(
                &Pace {
                    strangers: 0,
                    ..pace.clone()
                },
                Target {
                    addr: null.addr,
                    pid: null.pid,
                },
            )
            .await;
            rows.push(("null_server", row(&held.measured, pace.matches)));
            notes.push(details("null_server", &held.measured));
            let null_cpu = per_decision(&held.measured);
            held.close().await;
            drop(null);
            print_rows(&rows);
            if let (Some(p), Some(n)) = (plateau_cpu, null_cpu) {
                println!(
                    "server CPU per decision, plateau over null_server: {:.2}",
                    p / n
                );
            }
        } else {
            print_rows(&rows);
        }
    }
    for n in notes {
        println!("{n}");
    }
    println!("load average: {}", load_average());
    if agreed {
        Ok(())
    } else {
        Err("the server's /metrics and the client's counts differ (above)".into())
    }
}
