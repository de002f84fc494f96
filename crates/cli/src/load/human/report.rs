//! The table of a human-pace load's rows, one per server loaded.

use super::counts::Measured;
use crate::load::counters::quantile_ms;

/// Server CPU seconds per decision of a run, if both are known.
pub(super) fn per_decision(m: &Measured) -> Option<f64> {
    m.cpu
        .filter(|_| m.decisions > 0)
        .map(|c| c / m.decisions as f64)
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
pub(super) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The cells of one server's row.
pub(super) fn row(m: &Measured, matches: usize) -> Vec<String> {
    let q = |p: f64| format!("{:.2}", quantile_ms(&m.latencies, p));
    let errors: u64 = m.coded.values().sum::<u64>() + m.failures.values().sum::<u64>();
    let mib = |k: u64| format!("{:.0}", k as f64 / 1024.0);
    let delta = m
        .rss_idle
        .zip(m.rss_loaded)
        .map(|(a, b)| b.saturating_sub(a));
    let (rss, per_socket, per_match) = match delta {
        Some(d) => (
            format!(
                "{} / {}",
                mib(m.rss_idle.unwrap_or(0)),
                mib(m.rss_loaded.unwrap_or(0))
            ),
            format!("{:.1}", d as f64 / m.sockets.max(1) as f64),
            format!("{:.1}", d as f64 / matches.max(1) as f64),
        ),
        None => ("?".into(), "?".into(), "?".into()),
    };
    let (cpu, per_dec, per_socket_cpu) = match m.cpu {
        Some(c) => (
            format!("{:.1}", 100.0 * c / m.window),
            per_decision(m).map_or("?".into(), |s| format!("{:.0}", s * 1e6)),
            // µs of CPU per socket per second held.
            format!("{:.2}", 1e6 * c / m.window / m.sockets.max(1) as f64),
        ),
        None => ("?".into(), "?".into(), "?".into()),
    };
    vec![
        m.live.to_string(),
        m.sockets.to_string(),
        format!("{:.0}", m.decisions as f64 / m.window),
        q(0.5),
        q(0.99),
        q(1.0),
        errors.to_string(),
        rss,
        per_socket,
        per_match,
        cpu,
        per_dec,
        per_socket_cpu,
        format!("{:.0}", m.ramp),
    ]
}

/// A run's matches finished and errors by kind, under the table.
pub(super) fn details(name: &str, m: &Measured) -> String {
    let mut line = format!("{name}: {} matches finished", m.finished);
    for (why, n) in m.coded.iter().chain(&m.failures) {
        line.push_str(&format!("; {n} x {why}"));
    }
    line
}

/// The table of the rows.
pub(super) fn print_rows(rows: &[(&str, Vec<String>)]) {
    println!(
        "| server | live matches | sockets | decisions/s | ack p50 ms | p99 ms | max ms | errors \
         | RSS idle / loaded MiB | KiB per socket | KiB per match | CPU % | CPU µs per decision \
         | CPU µs per socket-second | ramp s |"
    );
    println!("|---|{}", "---:|".repeat(14));
    for (name, cells) in rows {
        println!("| {name} | {} |", cells.join(" | "));
    }
}
