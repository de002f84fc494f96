//! The service behind a real reverse proxy: Debian's nginx, configured as docs/deploy.md says,
//! in front of a server that trusts it (`--trusted-proxy`). Two clients coming through it from
//! two addresses are limited each for itself, whatever they write in their own headers.
//! `PLATEAU_TEST_NGINX` names nginx (scripts/test installs it); without it, nginx on the PATH or
//! in /usr/sbin, and without either the test says so and passes.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use plateau_lobby::limits::Limits;
use serde_json::json;

use crate::common::{Agent, app_with, test_options};

/// nginx's program, if there is one.
fn nginx() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PLATEAU_TEST_NGINX") {
        return Some(PathBuf::from(path));
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("nginx"));
    on_path.into_iter().find(|p| p.is_file())
}

/// A running nginx in a folder of its own, stopped and removed when dropped.
struct Nginx {
    process: tokio::process::Child,
    dir: PathBuf,
    addr: SocketAddr,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.process.start_kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The configuration: docs/deploy.md's `location /` in front of `upstream`, listening on
/// `listen`, everything it writes in `dir`, in the foreground as one process.
fn config(dir: &Path, listen: SocketAddr, upstream: SocketAddr) -> String {
    let d = dir.display();
    format!(
        r"daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen {listen};
        location / {{
            proxy_pass http://{upstream};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"
    )
}

/// Starts nginx in front of `upstream` on a free loopback port, and waits until it accepts
/// connections. A port taken meanwhile by another program: another one, three times at most.
async fn start(program: &Path, upstream: SocketAddr) -> Nginx {
    let dir = std::env::temp_dir().join(format!(
        "plateau-nginx-{}",
        hex::encode(rand::random::<[u8; 8]>())
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for _ in 0..3 {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        std::fs::write(dir.join("nginx.conf"), config(&dir, addr, upstream)).unwrap();
        let mut process = tokio::process::Command::new(program)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"))
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
        let ready = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if tokio::net::TcpStream::connect(addr).await.is_ok() {
                    return true;
                }
                if process.try_wait().unwrap().is_some() {
                    return false;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        if ready == Ok(true) {
            return Nginx { process, dir, addr };
        }
        let _ = process.kill().await;
    }
    let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
    panic!("nginx did not start: {log}");
}

/// Through nginx, connections and new players are counted per client: each of two clients
/// meets its own limits, and a client's own `X-Forwarded-For` changes nothing.
#[tokio::test]
async fn two_clients_behind_nginx_are_limited_apart() {
    let Some(program) = nginx() else {
        eprintln!("skipped: no nginx (PLATEAU_TEST_NGINX; scripts/test installs it)");
        return;
    };
    let app = app_with(Limits {
        connections_per_address: 3,
        guests_per_minute: 2,
        proxies: plateau_lobby::proxy::TrustedProxies {
            networks: vec!["127.0.0.1/32".parse().unwrap()],
            ..Default::default()
        },
        ..test_options().limits
    })
    .await;
    let proxy = start(&program, app.addr).await;
    let through = |from: &str| Agent::from(proxy.addr, from);

    // Connections: each WebSocket through nginx is a connection of its own to the server,
    // counted for the client that opened it. The first client holds its three; then even a
    // plain request of it is refused, while the second client opens its own three.
    let ann = through("127.0.0.2");
    let bob = through("127.0.0.3");
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(ann.ws("/api/lobby/ws").await);
    }
    assert!(ann.try_ws("/api/lobby/ws").await.is_none());
    let (status, body) = through("127.0.0.2").get("/api/games").await;
    assert_eq!((status, &body["code"]), (429, &json!("limit/connections")));
    for _ in 0..3 {
        held.push(bob.ws("/api/lobby/ws").await);
    }
    drop(held);

    // New players, from two other addresses (none of their connections is open): two each a
    // minute. The client's own header, which nginx passes on before the address it saw, does
    // not make it someone else.
    for (i, name) in ["Cid", "Cyd", "Cat"].into_iter().enumerate() {
        let mut cid = Agent {
            forwarded_for: Some(format!("198.51.100.{i}")),
            ..through("127.0.0.4")
        };
        let (status, body) = cid.post("/api/guest", &json!({"name": name})).await;
        let expected = if i < 2 { 200 } else { 429 };
        assert_eq!(status, expected, "{name}: {body}");
        if i == 2 {
            assert_eq!(body["code"], "limit/players");
        }
    }
    let (status, body) = through("127.0.0.5")
        .post("/api/guest", &json!({"name": "Dee"}))
        .await;
    assert_eq!(status, 200, "{body}");
    drop(proxy);
    app.shutdown().await;
}
