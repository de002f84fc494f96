//! What the tests of `plateau serve` as a process share (serve_crash.rs, nemesis.rs): nodes as
//! child processes, HTTP by hand, new MAD matches, and a PostgreSQL server of the test's own.

// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A new MAD match of table `k` (two humans, a human and a bot either way round, or two bots),
/// its human seats taken; returns its id and the seats' tokens.
pub async fn new_match(addr: SocketAddr, k: usize) -> (String, Vec<Option<String>>) {
    try_new_match(addr, k)
        .await
        .expect("the node creates a match")
}

/// `new_match`, or `None` when the node does not answer or refuses (a node stopped, the
/// database away).
pub async fn try_new_match(addr: SocketAddr, k: usize) -> Option<(String, Vec<Option<String>>)> {
    let human = json!({"kind": "human"});
    let bot = json!({"kind": "bot", "bot": "random"});
    let seats = [
        [&human, &human],
        [&human, &human],
        [&human, &bot],
        [&bot, &human],
        [&bot, &bot],
        [&bot, &bot],
    ];
    let body = json!({"game": "mad", "seats": seats[k % seats.len()]}).to_string();
    let (status, created) = try_http(addr, "POST", "/api/matches", &body).await?;
    if status != 201 {
        return None;
    }
    let id = created["id"].as_str()?.to_owned();
    let mut tokens = vec![None, None];
    if let Some(t) = created["token"].as_str() {
        tokens[created["seat"].as_u64()? as usize] = Some(t.to_owned());
    }
    for free in created["invites"].as_array()? {
        let seat = free["seat"].as_u64()?;
        let (status, joined) = try_http(
            addr,
            "POST",
            &format!("/api/matches/{id}/join"),
            &json!({"seat": seat}).to_string(),
        )
        .await?;
        if status != 200 {
            return None;
        }
        tokens[seat as usize] = joined["token"].as_str().map(str::to_owned);
    }
    Some((id, tokens))
}

/// A `plateau serve` process, killed when dropped (a test that fails leaves no server running).
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `plateau serve` on a free port over `db` with more arguments (`--node NAME`) and waits
/// until it listens. Its log is drained (into a file of the folder `PLATEAU_CRASH_LOGS` when set).
/// The binary is the one cargo built, or `PLATEAU_BIN` (a long run's copy, which a build meanwhile
/// leaves alone).
pub fn start_node(db: &str, more: &[&str]) -> Server {
    let bin = std::env::var_os("PLATEAU_BIN").unwrap_or(env!("CARGO_BIN_EXE_plateau").into());
    let mut child = Command::new(bin)
        .arg("serve")
        .args(more)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--database",
            db,
            "--bot-delay-ms",
            "15",
            "--matches-per-minute",
            "100000",
            "--bot-matches-per-address",
            "1000",
            // The test's players move faster than any person: the message rate is not under test.
            "--exempt-address",
            "127.0.0.1",
        ])
        .env("NO_COLOR", "1")
        .env(
            "RUST_LOG",
            std::env::var("PLATEAU_CRASH_RUST_LOG").unwrap_or("info".into()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("plateau serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("serve printed its address").unwrap();
        if let Some(at) = line.find("addr=") {
            let rest = &line[at + 5..];
            let end = rest.find(' ').unwrap_or(rest.len());
            break rest[..end].parse().expect("an address");
        }
    };
    // Keep draining the log so the server never blocks on a full pipe.
    let keep = std::env::var_os("PLATEAU_CRASH_LOGS").map(|dir| {
        let name = format!("{}-{}.log", more.join("-"), child.id());
        std::fs::File::create(std::path::Path::new(&dir).join(name)).unwrap()
    });
    std::thread::spawn(move || {
        use std::io::Write;
        let mut keep = keep;
        for line in lines.by_ref().map_while(Result::ok) {
            if let Some(f) = &mut keep {
                let _ = writeln!(f, "{line}");
            }
        }
    });
    Server { child, addr }
}

/// One HTTP request to `addr`: the status and the JSON body (`Null` when it is not JSON).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    try_http(addr, method, path, body)
        .await
        .unwrap_or_else(|| panic!("{method} {path}: no answer from {addr} within 30 s"))
}

/// `http`, or `None` when `addr` does not answer within 30 s (a node stopped or killed).
pub async fn try_http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Option<(u16, Value)> {
    let asked = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut raw = String::new();
        stream.read_to_string(&mut raw).await.ok()?;
        let (head, body) = raw.split_once("\r\n\r\n")?;
        let status = head.split(' ').nth(1)?.parse().ok()?;
        Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
    };
    tokio::time::timeout(Duration::from_secs(30), asked)
        .await
        .ok()
        .flatten()
}

/// A fresh schema on the PostgreSQL server of `PLATEAU_TEST_POSTGRES` and the URL that selects
/// it, or `None` (with a note) when the variable is not set.
pub async fn postgres_schema() -> Option<String> {
    let Some(server) = std::env::var("PLATEAU_TEST_POSTGRES")
        .ok()
        .filter(|v| !v.is_empty())
    else {
        eprintln!(
            "skipped: this test needs PostgreSQL (PLATEAU_TEST_POSTGRES; scripts/test sets it)"
        );
        return None;
    };
    // One schema per test: the tests of a file run at once in one process.
    static SCHEMAS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SCHEMAS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let schema = format!("crash_{}_{n}", std::process::id());
    let (client, connection) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
        .await
        .unwrap();
    let task = tokio::spawn(connection);
    client
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .await
        .unwrap();
    drop(client);
    let _ = task.await;
    let sep = if server.contains('?') { '&' } else { '?' };
    Some(format!("{server}{sep}options=-csearch_path%3D{schema}"))
}

/// Sends `signal` (`STOP`, `CONT`) to `server`'s process.
pub fn signal(server: &Server, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(server.child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal}");
}
/// A PostgreSQL server of the test's own, which it may stop and start: `initdb` in a temporary
/// folder, a Unix socket there and no TCP, from the programs in `PLATEAU_TEST_PG_BIN`
/// (scripts/postgres-throwaway.sh exports it). As root the programs run as `postgres`, as there.
pub struct OwnPostgres {
    bin: std::path::PathBuf,
    dir: std::path::PathBuf,
    as_root: bool,
}

impl OwnPostgres {
    /// A new server, started; `None` (with a note) without `PLATEAU_TEST_PG_BIN`.
    pub fn start_new() -> Option<OwnPostgres> {
        let Some(bin) = std::env::var_os("PLATEAU_TEST_PG_BIN") else {
            eprintln!("skipped: PLATEAU_TEST_PG_BIN is not set (scripts/test sets it)");
            return None;
        };
        let dir = std::env::temp_dir().join(format!("plateau-outage-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let uid = Command::new("id").arg("-u").output().unwrap();
        let as_root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
        if as_root {
            let chown = Command::new("chown").arg("postgres:").arg(&dir).status();
            assert!(chown.unwrap().success());
        }
        let pg = OwnPostgres {
            bin: bin.into(),
            dir,
            as_root,
        };
        let data = pg.dir.join("data");
        pg.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-locale",
            ],
        );
        pg.start();
        Some(pg)
    }

    /// Runs server program `program` with `args` (as `postgres` under root); panics if it fails.
    pub fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        };
        let out = command.args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{program}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub fn start(&self) {
        let (data, log) = (self.dir.join("data"), self.dir.join("server.log"));
        // Without fsync: the test stops the server process, never the machine, so every commit
        // is still in the system's cache when the server comes back.
        let options = format!(
            "-k {} -p 5432 -c listen_addresses='' -c fsync=off -c full_page_writes=off",
            self.dir.display()
        );
        let (data, log) = (data.to_str().unwrap(), log.to_str().unwrap());
        self.run(
            "pg_ctl",
            &["-D", data, "-l", log, "-w", "-o", &options, "start"],
        );
    }

    /// Stops the server at once, as a crash would (`-m immediate`).
    pub fn stop(&self) {
        let data = self.dir.join("data");
        self.run(
            "pg_ctl",
            &["-D", data.to_str().unwrap(), "-m", "immediate", "stop"],
        );
    }

    /// The server's Unix socket (`.s.PGSQL.5432` in its folder).
    pub fn socket(&self) -> std::path::PathBuf {
        self.dir.join(".s.PGSQL.5432")
    }

    /// The server's URL, over its Unix socket.
    pub fn url(&self) -> String {
        format!(
            "postgres://postgres@/postgres?host={}&port=5432",
            self.dir.display()
        )
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .args(["-D", data.to_str().unwrap(), "-m", "immediate", "stop"])
            .output();
        let _ = Command::new(self.bin.join("pg_ctl"))
            .args(["-D", data.to_str().unwrap(), "-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
