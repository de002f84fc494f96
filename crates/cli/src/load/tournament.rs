//! `plateau load --tournament-players N`: N players join one Swiss through the HTTP API, and
//! each of its rounds is played through the matches the server makes (both seats open their
//! game with their session, one of them, drawn at random, resigns). Measured from the client,
//! after the last game of each round ends: how long until a read of the tournament shows every
//! result of the round (its standings reflecting them), and how long until every game of the next
//! round is paired and its match made (docs/performance.md).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::client::{connect_from, exchange};
use crate::common::CliResult;

/// Requests in flight at once while players are made and join (joins of one tournament are
/// written one over another: more at once only retry).
const AT_ONCE: usize = 8;
/// How long a wait for the server may last before the load gives up.
const PATIENCE: Duration = Duration::from_secs(300);

/// A player of the load: its name and session cookie (`plateau_session=…`).
#[derive(Clone)]
struct Player {
    name: String,
    cookie: String,
}

/// One HTTP request with `cookie`; returns the status, the JSON answer and the session cookie
/// the answer sets, if any.
async fn http(
    from: IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> Result<(u16, Value, Option<String>), String> {
    let stream = connect_from(from, addr).await.map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let headers = format!("Origin: http://{addr}\r\n{cookie}Content-Type: application/json\r\n");
    let (status, head, rest) = exchange(stream, addr, method, path, &headers, &body)
        .await
        .map_err(|e| e.to_string())?;
    let set = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        let value = value.trim();
        (name.eq_ignore_ascii_case("set-cookie") && value.starts_with("plateau_session="))
            .then(|| value.split(';').next().unwrap_or(value).to_owned())
    });
    Ok((
        status,
        serde_json::from_str(&rest).unwrap_or(Value::Null),
        set,
    ))
}

/// A new guest `name`.
async fn guest(from: IpAddr, addr: SocketAddr, name: String) -> Result<Player, String> {
    let (status, body, cookie) = http(
        from,
        addr,
        "POST",
        "/api/guest",
        Some(&json!({ "name": name })),
        None,
    )
    .await?;
    match (status, cookie) {
        (200, Some(cookie)) => Ok(Player { name, cookie }),
        _ => Err(format!("guest {name}: {status} {body}")),
    }
}

/// Player `p` joins tournament `id`, again while it meets `limit/busy`.
async fn join(from: IpAddr, addr: SocketAddr, p: Player, id: String) -> Result<Value, String> {
    loop {
        let (status, body, _) = http(
            from,
            addr,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            None,
            Some(&p.cookie),
        )
        .await?;
        match status {
            200 => return Ok(body),
            503 => tokio::time::sleep(Duration::from_millis(20)).await,
            _ => return Err(format!("join {}: {status} {body}", p.name)),
        }
    }
}

/// Tournament `id` as read now.
async fn read(from: IpAddr, addr: SocketAddr, id: &str) -> Result<Value, String> {
    let (status, body, _) = http(
        from,
        addr,
        "GET",
        &format!("/api/tournaments/{id}"),
        None,
        None,
    )
    .await?;
    if status == 200 {
        Ok(body)
    } else {
        Err(format!("read: {status} {body}"))
    }
}

/// Reads tournament `id` every 10 ms until `ready` holds; returns it.
async fn until(
    from: IpAddr,
    addr: SocketAddr,
    id: &str,
    ready: impl Fn(&Value) -> bool,
) -> Result<Value, String> {
    let start = Instant::now();
    loop {
        let detail = read(from, addr, id).await?;
        if ready(&detail) {
            return Ok(detail);
        }
        if start.elapsed() > PATIENCE {
            return Err(format!("the tournament stood still for {PATIENCE:?}"));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Round `round`'s games of `detail` once every one has its match: (match, players by seat,
/// over).
fn round_games(detail: &Value, round: u64) -> Option<Vec<(String, Vec<String>, bool)>> {
    let games: Vec<&Value> = detail["games"]
        .as_array()?
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
                let players = g["players"]
                    .as_array()
                    .map(|p| {
                        p.iter()
                            .filter_map(|n| n.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
                (
                    g["match_id"].as_str().unwrap_or_default().to_owned(),
                    players,
                    !g["ranks"].is_null(),
                )
            })
            .collect(),
    )
}

/// A socket to match `id` with `cookie`'s session.
async fn socket(addr: SocketAddr, id: &str, cookie: &str) -> Result<super::client::Ws, String> {
    let mut request = format!("ws://{addr}/api/matches/{id}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    request
        .headers_mut()
        .insert("Cookie", cookie.parse().map_err(|_| "bad cookie")?);
    let (ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// The status a socket's messages last gave, read as they come, until `want`.
async fn status_until(ws: &mut super::client::Ws, want: &str) -> Result<(), String> {
    #[derive(serde::Deserialize)]
    struct Msg {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        status: Option<String>,
    }
    while let Some(frame) = ws.next().await {
        let Ok(Message::Text(text)) = frame else {
            if frame.is_err() {
                return Err("socket error".into());
            }
            continue;
        };
        if let Ok(msg) = serde_json::from_str::<Msg>(&text)
            && msg.kind == "state"
            && msg
                .status
                .as_deref()
                .is_some_and(|s| s == want || s == "finished")
        {
            return Ok(());
        }
    }
    Err("socket closed".into())
}

/// Plays match `id`: both players open it, `resigner`'s seat resigns once it is live. Returns
/// when the finished state arrived.
async fn play(
    addr: SocketAddr,
    id: String,
    cookies: [String; 2],
    resigner: usize,
) -> Result<Instant, String> {
    let mut sockets = [
        socket(addr, &id, &cookies[0]).await?,
        socket(addr, &id, &cookies[1]).await?,
    ];
    for s in &mut sockets {
        status_until(s, "live").await?;
    }
    sockets[resigner]
        .send(Message::Text(json!({"type": "resign"}).to_string().into()))
        .await
        .map_err(|e| e.to_string())?;
    status_until(&mut sockets[1 - resigner], "finished").await?;
    Ok(Instant::now())
}

/// Runs the tournament load against `addr` and prints the report.
pub async fn run(
    addr: SocketAddr,
    game: &str,
    players: usize,
    rounds: u32,
    seed: u64,
) -> CliResult {
    let from = IpAddr::from([127, 0, 0, 1]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let organiser = guest(from, addr, "LoadOrganiser".to_owned()).await?;
    let (status, body, renewed) = http(
        from,
        addr,
        "POST",
        "/api/account",
        Some(&json!({"password": "a load test pass phrase"})),
        Some(&organiser.cookie),
    )
    .await?;
    if status != 200 {
        return Err(format!("account: {status} {body}"));
    }
    let cookie = renewed.unwrap_or(organiser.cookie);
    // Time enough for everyone to join first: about 40 joins a second.
    let starts_in = 10 + players as u64 / 40;
    let (status, made, _) = http(
        from,
        addr,
        "POST",
        "/api/tournaments",
        Some(&json!({
            "name": "Load Swiss",
            "game": game,
            "kind": "swiss",
            "rounds": rounds,
            "time_control": {"kind": "none"},
            "starts_in_seconds": starts_in,
        })),
        Some(&cookie),
    )
    .await?;
    if status != 201 {
        return Err(format!("create: {status} {made}"));
    }
    let id = made["tournament"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let joining = Instant::now();
    let mut everyone = Vec::with_capacity(players);
    let names: Vec<String> = (1..=players).map(|n| format!("Load{n:05}")).collect();
    for chunk in names.chunks(AT_ONCE) {
        let made: Vec<_> = chunk
            .iter()
            .map(|name| tokio::spawn(guest(from, addr, name.clone())))
            .collect();
        for m in made {
            everyone.push(m.await.map_err(|e| e.to_string())??);
        }
    }
    for chunk in everyone.chunks(AT_ONCE) {
        let joins: Vec<_> = chunk
            .iter()
            .map(|p| tokio::spawn(join(from, addr, p.clone(), id.clone())))
            .collect();
        for j in joins {
            let body = j.await.map_err(|e| e.to_string())??;
            if body["tournament"]["phase"] != "waiting" {
                return Err("the Swiss started before everyone joined".into());
            }
        }
    }
    println!(
        "{players} players joined a Swiss of {rounds} rounds of {game} in {:.1} s",
        joining.elapsed().as_secs_f64()
    );
    let cookies: std::collections::HashMap<String, String> = everyone
        .iter()
        .map(|p| (p.name.clone(), p.cookie.clone()))
        .collect();
    let cookies = Arc::new(cookies);
    let starts_at = made["tournament"]["starts_at"].as_i64().unwrap_or(0);
    let detail = until(from, addr, &id, |d| round_games(d, 1).is_some()).await?;
    let unix_now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    println!(
        "round 1: {} games paired and made {} ms after the start time",
        round_games(&detail, 1).map_or(0, |g| g.len()),
        unix_now - starts_at
    );
    for round in 1..=u64::from(rounds) {
        let detail = until(from, addr, &id, |d| round_games(d, round).is_some()).await?;
        let games = round_games(&detail, round).unwrap_or_default();
        let playing = Instant::now();
        let mut tasks = Vec::with_capacity(games.len());
        for (match_id, seated, _) in &games {
            let pair = [cookies[&seated[0]].clone(), cookies[&seated[1]].clone()];
            tasks.push(tokio::spawn(play(
                addr,
                match_id.clone(),
                pair,
                rng.random_range(0..2),
            )));
        }
        let mut last = playing;
        for t in tasks {
            last = last.max(t.await.map_err(|e| e.to_string())??);
        }
        let all_in =
            |d: &Value| round_games(d, round).is_some_and(|g| g.iter().all(|(_, _, over)| *over));
        until(from, addr, &id, all_in).await?;
        let recorded = last.elapsed();
        let next = if round < u64::from(rounds) {
            until(from, addr, &id, |d| round_games(d, round + 1).is_some()).await?;
            format!(
                "; round {} paired and made after {} ms",
                round + 1,
                last.elapsed().as_millis()
            )
        } else {
            until(from, addr, &id, |d| d["tournament"]["phase"] == "finished").await?;
            format!("; finished after {} ms", last.elapsed().as_millis())
        };
        println!(
            "round {round}: {} games played in {:.1} s; from the last game's end, every result \
             in the standings after {} ms{next}",
            games.len(),
            (last - playing).as_secs_f64(),
            recorded.as_millis(),
        );
    }
    // One read of the standings of the finished tournament, timed.
    let start = Instant::now();
    let done = read(from, addr, &id).await?;
    println!(
        "a read of the finished tournament ({} standings lines, {} games): {} ms",
        done["standings"].as_array().map_or(0, Vec::len),
        done["games"].as_array().map_or(0, Vec::len),
        start.elapsed().as_millis()
    );
    Ok(())
}
