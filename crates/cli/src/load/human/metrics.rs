//! The server's `/metrics` read against the client's counts.

use std::net::SocketAddr;

use super::counts::Counts;
use crate::load::client;

/// Reads the server's `/metrics` at `addr` and prints each counter beside the client's count;
/// whether they all agree.
pub(super) async fn compare(addr: SocketAddr, counts: &Counts) -> Result<bool, String> {
    let text = scrape(addr).await?;
    let server = |name: &str, label: Option<(&str, &str)>| figure(&text, name, label);
    let coded = counts.coded_errors();
    let limits: u64 = coded
        .iter()
        .filter(|(c, _)| c.starts_with("limit/"))
        .map(|(_, n)| n)
        .sum();
    let (match_sockets, lobby_sockets) = counts.sockets();
    let rows: Vec<(String, f64, f64)> = vec![
        (
            "decisions committed".into(),
            counts.acked_total() as f64,
            server("plateau_decisions_committed_total", None),
        ),
        (
            "matches created".into(),
            counts.created() as f64,
            server("plateau_matches_created_total", None),
        ),
        (
            "match sockets open".into(),
            match_sockets as f64,
            server("plateau_sockets_open", Some(("kind", "match"))),
        ),
        (
            "lobby sockets open".into(),
            lobby_sockets as f64,
            server("plateau_sockets_open", Some(("kind", "lobby"))),
        ),
        (
            "limit refusals".into(),
            limits as f64,
            server("plateau_limit_refusals_total", None),
        ),
        (
            "coded errors".into(),
            coded.values().sum::<u64>() as f64,
            server("plateau_errors_total", None),
        ),
    ]
    .into_iter()
    .chain(coded.iter().map(|(code, n)| {
        (
            format!("  errors {code}"),
            *n as f64,
            server("plateau_errors_total", Some(("code", code))),
        )
    }))
    .collect();
    println!("| /metrics at the window's end | client | server | |");
    println!("|---|---:|---:|---|");
    let mut agreed = true;
    for (what, client, server) in rows {
        let same = (client - server).abs() < 0.5;
        agreed &= same;
        println!(
            "| {what} | {client} | {server} | {} |",
            if same { "agree" } else { "DIFFER" }
        );
    }
    Ok(agreed)
}

/// `GET /metrics` at `addr`: the body.
async fn scrape(addr: SocketAddr) -> Result<String, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("metrics at {addr}: {e}"))?;
    match client::exchange(stream, addr, "GET", "/metrics", "", "").await {
        Ok((200, _, body)) => Ok(body),
        Ok(_) => Err(format!("metrics at {addr}: no 200 answer")),
        Err(e) => Err(e.to_string()),
    }
}

/// The sum of the samples of `name` in Prometheus's text format `text`, only those with the
/// label `label` if given (0 if none: a counter never incremented is not shown).
fn figure(text: &str, name: &str, label: Option<(&str, &str)>) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, labels) = match series.split_once('{') {
                Some((m, rest)) => (m, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            if metric != name {
                return None;
            }
            if let Some((k, v)) = label
                && !labels.split(',').any(|kv| kv == format!("{k}=\"{v}\""))
            {
                return None;
            }
            value.parse::<f64>().ok()
        })
        // From +0: an empty sum of floats is -0.
        .fold(0.0, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples are summed over their labels, or only those with the label asked for.
    #[test]
    fn figures_are_read_from_the_text_format() {
        let text = "# HELP plateau_errors_total Coded errors\n\
                    # TYPE plateau_errors_total counter\n\
                    plateau_errors_total{code=\"limit/matches\"} 3\n\
                    plateau_errors_total{code=\"act/stale\"} 2\n\
                    plateau_sockets_open{kind=\"match\"} 40\n\
                    plateau_sockets_open{kind=\"lobby\"} 7\n\
                    plateau_decisions_committed_total 1234\n";
        assert_eq!(figure(text, "plateau_errors_total", None), 5.0);
        assert_eq!(
            figure(text, "plateau_errors_total", Some(("code", "act/stale"))),
            2.0
        );
        assert_eq!(
            figure(text, "plateau_sockets_open", Some(("kind", "lobby"))),
            7.0
        );
        assert_eq!(
            figure(text, "plateau_decisions_committed_total", None),
            1234.0
        );
        assert_eq!(figure(text, "plateau_matches_created_total", None), 0.0);
    }
}
