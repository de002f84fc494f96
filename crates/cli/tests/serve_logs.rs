//! `plateau serve --log-format json`: every line of its log is one JSON object, and the lines of
//! a match's actions are under the spans that name the request they came by (its id) and the
//! match.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_name_the_request_and_the_match_of_each_action() {
    let dir = std::env::temp_dir().join(format!("plateau-logs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("logs.sqlite").display());
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    let mut child = Command::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", &db])
        .args(["--log-format", "json", "--bot-delay-ms", "0"])
        .env("RUST_LOG", "info,plateau_server=debug,plateau_match=debug")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("plateau serve starts");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    // Killed when dropped, should the test fail.
    let server = common::Server {
        addr: "127.0.0.1:0".parse().unwrap(),
        child,
    };
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut log = Vec::new();
    let addr: std::net::SocketAddr = loop {
        let line = lines.recv().expect("serve printed its address");
        let object: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("a line that is not JSON ({e}): {line}"));
        log.push(object.clone());
        if object["fields"]["message"] == "plateau serve listening" {
            break object["fields"]["addr"].as_str().unwrap().parse().unwrap();
        }
    };

    // A match of two people, each seat's socket opened with a request id of its own; four
    // actions.
    let (id, tokens) = common::new_match(addr, 0).await;
    let mut sockets = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut request = format!("ws://{addr}/api/matches/{id}/ws")
            .into_client_request()
            .unwrap();
        let headers = request.headers_mut();
        let token = token.as_ref().expect("a person's seat");
        headers.insert("Authorization", format!("Bearer {token}").parse().unwrap());
        headers.insert("X-Request-Id", format!("seat-{seat}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        sockets.push(ws);
    }
    let mut acted = 0;
    let mut latest: Vec<Value> = vec![Value::Null; 2];
    while acted < 4 {
        // Each socket's newest state: read until the match is live there, in a state at least
        // as new as the other's.
        for (seat, ws) in sockets.iter_mut().enumerate() {
            let newest = latest.iter().filter_map(|s| s["version"].as_u64()).max();
            while latest[seat]["status"] != "live" || latest[seat]["version"].as_u64() < newest {
                let Some(Ok(Message::Text(text))) = ws.next().await else {
                    panic!("seat {seat}'s socket closed");
                };
                let msg: Value = serde_json::from_str(&text).unwrap();
                if msg["type"] == "state" {
                    latest[seat] = msg;
                }
            }
        }
        let Some(seat) =
            (0..2).find(|&s| latest[s]["legal"].as_array().is_some_and(|l| !l.is_empty()))
        else {
            panic!("nobody may act: {latest:?}");
        };
        let version = latest[seat]["version"].as_u64().unwrap();
        let action = latest[seat]["legal"][0].clone();
        let act = json!({"type": "act", "version": version, "action": action});
        sockets[seat]
            .send(Message::Text(act.to_string().into()))
            .await
            .unwrap();
        // Until this seat sees its action applied.
        loop {
            let Some(Ok(Message::Text(text))) = sockets[seat].next().await else {
                panic!("seat {seat}'s socket closed");
            };
            let msg: Value = serde_json::from_str(&text).unwrap();
            if msg["type"] == "state" && msg["version"].as_u64() > Some(version) {
                latest[seat] = msg;
                break;
            }
        }
        acted += 1;
    }
    drop(sockets);
    common::signal(&server, "TERM");
    while let Ok(line) = lines.recv() {
        let object: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("a line that is not JSON ({e}): {line}"));
        log.push(object);
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);

    // The commits of the four actions, each under its socket's request and the match.
    let span = |line: &Value, name: &str| -> Option<Value> {
        line["spans"]
            .as_array()?
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
    };
    let commits: Vec<&Value> = log
        .iter()
        .filter(|l| span(l, "act").is_some() && l["fields"]["message"] == "committed")
        .collect();
    assert_eq!(commits.len(), 4, "{log:#?}");
    for line in log.iter().filter(|l| span(l, "act").is_some()) {
        let request = span(line, "request").expect("under the request's span");
        assert!(
            request["id"] == "seat-0" || request["id"] == "seat-1",
            "{line}"
        );
        assert_eq!(
            span(line, "socket").expect("a socket's")["match"],
            id.as_str()
        );
        for key in ["timestamp", "level", "target"] {
            assert!(line[key].is_string(), "{key}: {line}");
        }
    }
}
