//! `plateau admin` from the server's shell while `plateau serve` runs on the same database
//! (SQLite in WAL mode, and PostgreSQL when `PLATEAU_TEST_POSTGRES` names a server): the first
//! moderator granted, a report listed, a warning, a mute, a rename, a ban that closes the
//! player's socket and ends its match on the running server, a closed match, the audit log, and
//! refusals in words that change nothing.

use crate::common;

use std::net::SocketAddr;
use std::process::{Command, Output};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// `plateau admin --database db args...`.
fn admin(db: &str, args: &[&str]) -> Output {
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    Command::new(bin)
        .args(["admin", "--database", db])
        .args(args)
        .output()
        .expect("plateau admin runs")
}

/// `admin` that must succeed; its output.
fn admin_ok(db: &str, args: &[&str]) -> String {
    let out = admin(db, args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "plateau admin {args:?}: {}{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// `admin` that must fail; its error.
fn admin_fails(db: &str, args: &[&str]) -> String {
    let out = admin(db, args);
    assert!(!out.status.success(), "plateau admin {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One HTTP request with the session cookie `cookie`; the status, the JSON body and the session
/// cookie set, if any.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Value, Option<String>) {
    let body = body.to_string();
    let cookie = cookie
        .map(|c| format!("Cookie: plateau_session={c}\r\n"))
        .unwrap_or_default();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let session = head.lines().find_map(|l| {
        let rest = l.strip_prefix("set-cookie: plateau_session=")?;
        Some(rest.split(';').next()?.to_owned())
    });
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::Null),
        session,
    )
}

/// A new guest `name` (made an account with `password`); its session cookie.
async fn player(addr: SocketAddr, name: &str, password: Option<&str>) -> String {
    let (status, body, cookie) =
        request(addr, "POST", "/api/guest", None, &json!({"name": name})).await;
    assert_eq!(status, 200, "{body}");
    let cookie = cookie.expect("a session");
    let Some(password) = password else {
        return cookie;
    };
    let (status, body, renewed) = request(
        addr,
        "POST",
        "/api/account",
        Some(&cookie),
        &json!({"password": password}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    renewed.unwrap_or(cookie)
}

/// A MAD match of `cookie`'s player against the random bot, with its socket open; the id and
/// the socket.
async fn against_a_bot(
    addr: SocketAddr,
    cookie: &str,
) -> (
    String,
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
) {
    let (status, created, _) = request(
        addr,
        "POST",
        "/api/matches",
        Some(cookie),
        &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let mut ws_request = format!("ws://{addr}/api/matches/{id}/ws")
        .into_client_request()
        .unwrap();
    ws_request.headers_mut().insert(
        "Cookie",
        format!("plateau_session={cookie}").parse().unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_request).await.unwrap();
    // Live once the person opened it.
    loop {
        let Some(Ok(Message::Text(t))) = ws.next().await else {
            panic!("the socket closed before the match was live");
        };
        let m: Value = serde_json::from_str(&t).unwrap();
        if m["type"] == "state" && m["status"] == "live" {
            break;
        }
    }
    (id, ws)
}

/// The close code the socket ends with (reading what comes before it), within 20 s.
async fn close_code(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
) -> Option<u16> {
    let read = async {
        while let Some(frame) = ws.next().await {
            if let Ok(Message::Close(frame)) = frame {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("the socket closed within 20 s")
}

/// A match's status as the server says.
async fn status_of(addr: SocketAddr, id: &str) -> Value {
    let (_, summary, _) = request(
        addr,
        "GET",
        &format!("/api/matches/{id}"),
        None,
        &Value::Null,
    )
    .await;
    summary["status"].clone()
}

async fn admin_beside_a_running_server(db: &str) {
    let server = common::start_node(db, &[]);
    let addr = server.addr;
    let mia = player(addr, "Mia", Some("a long pass phrase")).await;
    let rude = player(addr, "Rude", None).await;

    // The first moderator, from the shell; a guest cannot be one; unknown names are named.
    let granted = admin_ok(db, &["grant", "Mia", "--reason", "first moderator"]);
    assert!(granted.contains("server grant Mia"), "{granted}");
    let (_, me, _) = request(addr, "GET", "/api/me", Some(&mia), &Value::Null).await;
    assert_eq!(me["standing"]["moderator"], true, "{me}");
    let refused = admin_fails(db, &["grant", "Rude"]);
    assert!(refused.contains("only an account"), "{refused}");
    let refused = admin_fails(db, &["warn", "Nobody", "--reason", "x"]);
    assert!(refused.contains("no player named \"Nobody\""), "{refused}");
    let refused = admin_fails(db, &["mute", "Rude", "--minutes", "0", "--reason", "x"]);
    assert!(refused.contains("1 to 43200 minutes"), "{refused}");

    // A report, listed; then resolved.
    let (status, filed, _) = request(
        addr,
        "POST",
        "/api/reports",
        Some(&mia),
        &json!({"name": "Rude", "reason": "name", "text": "a rude name"}),
    )
    .await;
    assert_eq!(status, 201, "{filed}");
    let reports = admin_ok(db, &["reports"]);
    assert!(
        reports.contains("Mia reports Rude for name: \"a rude name\""),
        "{reports}"
    );
    let report = filed["id"].to_string();
    admin_ok(db, &["resolve", &report, "--reason", "renamed"]);
    assert!(admin_ok(db, &["reports"]).contains("no open report"));
    assert!(admin_fails(db, &["dismiss", &report]).contains("no open report"));

    // A warning the player reads; a mute the server enforces within a second.
    admin_ok(db, &["warn", "Rude", "--reason", "be kind"]);
    let (_, me, _) = request(addr, "GET", "/api/me", Some(&rude), &Value::Null).await;
    assert_eq!(me["standing"]["warnings"][0]["reason"], "be kind", "{me}");

    // A rename to a neutral name.
    let renamed = admin_ok(db, &["rename", "Rude", "--reason", "a rude name"]);
    assert!(renamed.contains("rename Rude to player-"), "{renamed}");
    let (_, me, _) = request(addr, "GET", "/api/me", Some(&rude), &Value::Null).await;
    let name = me["player"]["name"].as_str().unwrap().to_owned();
    assert!(name.starts_with("player-"), "{me}");

    // A close of a live match, ended by the running server.
    let (id, mut ws) = against_a_bot(addr, &mia).await;
    let closed = admin_ok(db, &["close", &id, "--reason", "stuck"]);
    assert!(closed.contains(&format!("match {id} ended")), "{closed}");
    assert_eq!(status_of(addr, &id).await, "finished");
    drop(ws.close(None).await);

    // A ban: the running server closes the player's socket and ends its live match.
    let (id, mut ws) = against_a_bot(addr, &rude).await;
    let banned = admin_ok(db, &["ban", &name, "--days", "3", "--reason", "cheating"]);
    assert!(
        banned.contains(&format!("server ban {name} until")),
        "{banned}"
    );
    assert_eq!(close_code(&mut ws).await, Some(4003));
    assert_eq!(status_of(addr, &id).await, "finished");
    let (status, refused, _) = request(
        addr,
        "POST",
        "/api/matches",
        Some(&rude),
        &json!({"game": "mad", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("player/banned"))
    );
    admin_ok(db, &["unban", &name, "--reason", "appeal"]);

    // The audit log, newest first, the server as the moderator.
    let log = admin_ok(db, &["audit"]);
    let actions: Vec<&str> = log
        .lines()
        .map(|l| l.split(' ').nth(8).unwrap_or_default())
        .collect();
    assert_eq!(
        actions,
        [
            "unban", "ban", "close", "rename", "warn", "resolve", "grant"
        ],
        "{log}"
    );
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_acts_on_a_running_server_over_sqlite() {
    let dir = std::env::temp_dir().join(format!("plateau-admin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("admin.sqlite").display());
    admin_beside_a_running_server(&db).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_acts_on_a_running_server_over_postgres() {
    if let Some(db) = common::postgres_schema().await {
        admin_beside_a_running_server(&db).await;
    }
}

/// A deny list that cannot be read stops `plateau serve` before it listens, saying which file,
/// whether it is named by the flag, its variable or the configuration file.
#[test]
fn serve_refuses_a_deny_list_it_cannot_read() {
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    let config = std::env::temp_dir().join(format!("plateau-deny-{}.toml", std::process::id()));
    std::fs::write(&config, "name_deny_list = \"/nonexistent/file.txt\"\n").unwrap();
    let serve = || {
        let mut serve = Command::new(&bin);
        serve.args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--database",
            "sqlite://unused.sqlite",
        ]);
        serve.env_remove("PLATEAU_NAME_DENY_LIST");
        serve
    };
    let by_flag = serve()
        .args(["--name-deny-list", "/nonexistent/deny.txt"])
        .output()
        .unwrap();
    let by_variable = serve()
        .env("PLATEAU_NAME_DENY_LIST", "/nonexistent/variable.txt")
        .output()
        .unwrap();
    let by_file = serve().arg("--config").arg(&config).output().unwrap();
    std::fs::remove_file(&config).unwrap();
    for (out, path) in [
        (by_flag, "/nonexistent/deny.txt"),
        (by_variable, "/nonexistent/variable.txt"),
        (by_file, "/nonexistent/file.txt"),
    ] {
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("--name-deny-list {path}")), "{err}");
    }
}

/// `plateau admin` on a SQLite file that is not there (a mistyped path) says so and makes
/// nothing: it acts on the database `plateau serve` made, never on a new empty one.
#[test]
fn admin_refuses_a_database_that_is_not_there() {
    let dir = std::env::temp_dir().join(format!("plateau-admin-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plateau.sqlite");
    let db = format!("sqlite://{}", file.display());
    for args in [&["reports"][..], &["grant", "Mia", "--reason", "first"][..]] {
        let error = admin_fails(&db, args);
        assert!(error.contains("no database at"), "{args:?}: {error}");
        assert!(error.contains(&*file.display().to_string()), "{error}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir(&dir).unwrap();
}

/// `plateau admin` finds the database as `plateau serve` does: from serve's `--config` file
/// (named by the flag or by `PLATEAU_CONFIG`), which `PLATEAU_DATABASE` and `--database`
/// override; a file serve would refuse is refused.
#[test]
fn admin_finds_the_database_as_serve_does() {
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    let dir = std::env::temp_dir().join(format!("plateau-admin-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // An empty file is an empty SQLite database: admin makes its tables.
    let file = dir.join("served.sqlite");
    std::fs::write(&file, "").unwrap();
    let config = dir.join("plateau.toml");
    let settings = format!(
        "addr = \"127.0.0.1:9\"\ndatabase = \"sqlite://{}\"\n",
        file.display()
    );
    std::fs::write(&config, settings).unwrap();
    let admin = || {
        let mut admin = Command::new(&bin);
        admin
            .arg("admin")
            .env_remove("PLATEAU_DATABASE")
            .env_remove("PLATEAU_CONFIG");
        admin
    };
    let text = |out: &Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };

    let by_flag = admin()
        .arg("--config")
        .arg(&config)
        .arg("audit")
        .output()
        .unwrap();
    assert!(by_flag.status.success(), "{}", text(&by_flag));
    assert_eq!(text(&by_flag), "no moderator action yet\n");
    assert!(
        std::fs::metadata(&file).unwrap().len() > 0,
        "the tables made"
    );
    let by_variable = admin()
        .env("PLATEAU_CONFIG", &config)
        .arg("audit")
        .output()
        .unwrap();
    assert!(by_variable.status.success(), "{}", text(&by_variable));

    // The variable, then the flag, override the file, as for serve.
    let elsewhere = |name: &str| format!("sqlite://{}", dir.join(name).display());
    let over = admin()
        .env("PLATEAU_DATABASE", elsewhere("variable.sqlite"))
        .arg("--config")
        .arg(&config)
        .arg("audit")
        .output()
        .unwrap();
    assert!(text(&over).contains("no database at"), "{}", text(&over));
    assert!(text(&over).contains("variable.sqlite"), "{}", text(&over));
    let over = admin()
        .env("PLATEAU_DATABASE", elsewhere("variable.sqlite"))
        .args(["--database", &elsewhere("flag.sqlite"), "--config"])
        .arg(&config)
        .arg("audit")
        .output()
        .unwrap();
    assert!(text(&over).contains("flag.sqlite"), "{}", text(&over));

    // A key serve does not know: refused, as serve refuses it.
    std::fs::write(&config, "databse = \"sqlite://x.sqlite\"\n").unwrap();
    let refused = admin()
        .arg("--config")
        .arg(&config)
        .arg("audit")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("unknown key `databse`"),
        "{}",
        text(&refused)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A database that fails to open is named once as such: `error: database: SQLite: ...`.
#[test]
fn admin_names_a_broken_database_once() {
    let file = std::env::temp_dir().join(format!("plateau-admin-broken-{}", std::process::id()));
    std::fs::write(
        &file,
        "not a database, and long enough to be read as one: ".repeat(40),
    )
    .unwrap();
    let error = admin_fails(&format!("sqlite://{}", file.display()), &["audit"]);
    std::fs::remove_file(&file).unwrap();
    assert!(error.starts_with("error: database: SQLite: "), "{error}");
    assert!(!error.contains("database: database"), "{error}");
}
