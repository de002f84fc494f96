//! `spawn_app()`: a fresh service on port 0 over a fresh database, with a plain HTTP client and
//! a WebSocket client that keeps every message it receives.
//!
//! Both clients hold what they receive to the wire's schema (docs/protocol.schema.json,
//! generated from crates/protocol): every WebSocket message and every JSON body of the API. A
//! shape the schema does not know fails the test that received it (`check_wire`).
//!
//! The database is a fresh SQLite file, or, when `PLATEAU_TEST_POSTGRES` holds a PostgreSQL URL
//! (`postgres://user@/db?host=/socket/dir&port=5432`, as scripts/test sets it), a fresh schema on
//! that server: the whole suite runs on either backend.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use plateau_bots::{BotFactory, BotSpec, DynBot};
use plateau_engine::{GameEntry, Record};
use plateau_server::{AppState, Catalogue, Lobby, Options, open_store};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::toy::Toy;

/// The registry's games plus the test game `toy`, and the registry's bots plus `slow`, an MCTS
/// bot that would think 3 s per move if its clock let it.
pub fn catalogue() -> Catalogue {
    static GAMES: OnceLock<Vec<GameEntry>> = OnceLock::new();
    let games = GAMES.get_or_init(|| {
        let mut g = plateau_registry::GAMES.to_vec();
        g.push(GameEntry::of::<Toy>());
        g
    });
    // The toy game's bots come from the bots crate directly (the registry names no test game).
    fn new_bot(game: &str, bot: &str, seed: u64) -> Result<Box<dyn DynBot>, String> {
        if bot == "slow" {
            (Catalogue::standard().new_bot)(game, "mcts:3000", seed)
        } else if game == "toy" && bot == "expert" {
            // A bot of another game, so that tests/api/bots.rs sees a bot fail.
            (Catalogue::standard().new_bot)("mad", "random", seed)
        } else if game == "toy" {
            let spec: BotSpec = bot.parse().map_err(|e| format!("{e}"))?;
            Ok(BotFactory::of::<Toy>().make(spec, seed))
        } else {
            (Catalogue::standard().new_bot)(game, bot, seed)
        }
    }
    static BOTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    let bots = BOTS.get_or_init(|| {
        let mut b = Catalogue::standard().bots.to_vec();
        b.push("slow");
        b
    });
    Catalogue {
        games: games.as_slice(),
        bots: bots.as_slice(),
        new_bot,
    }
}

/// A test's database: a SQLite file, or a schema of the PostgreSQL server of
/// `PLATEAU_TEST_POSTGRES`. A new app on the same `Db` is a restart on the same data.
#[derive(Clone, Debug)]
pub enum Db {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// Schema `schema` on the server `server` (a URL) names.
    Postgres { server: String, schema: String },
}

impl Db {
    /// The URL `open_store` reads: for PostgreSQL, the server's URL with the schema first on the
    /// search path (created by `prepare`).
    pub fn url(&self) -> String {
        match self {
            Db::Sqlite(path) => format!("sqlite://{}", path.display()),
            Db::Postgres { server, schema } => {
                let sep = if server.contains('?') { '&' } else { '?' };
                format!("{server}{sep}options=-csearch_path%3D{schema}")
            }
        }
    }

    /// Creates the PostgreSQL schema if it is not there yet (a SQLite file creates itself).
    async fn prepare(&self) {
        if let Db::Postgres { server, schema } = self {
            let (client, connection) = tokio_postgres::connect(server, tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|e| panic!("PLATEAU_TEST_POSTGRES `{server}`: {e}"));
            let task = tokio::spawn(connection);
            client
                .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .await
                .unwrap();
            drop(client);
            let _ = task.await;
        }
    }

    /// The PostgreSQL server's URL when the suite runs on PostgreSQL.
    pub fn postgres() -> Option<String> {
        std::env::var("PLATEAU_TEST_POSTGRES")
            .ok()
            .filter(|v| !v.is_empty())
    }

    /// The text of `SELECT body FROM derived WHERE match_id = id AND kind = kind`, read straight
    /// from the database (not through the service).
    pub async fn derived(&self, id: &str, kind: &str) -> Option<String> {
        match self {
            Db::Sqlite(path) => {
                use rusqlite::OptionalExtension;
                rusqlite::Connection::open(path)
                    .unwrap()
                    .query_row(
                        "SELECT body FROM derived WHERE match_id = ?1 AND kind = ?2",
                        [id, kind],
                        |r| r.get(0),
                    )
                    .optional()
                    .unwrap()
            }
            Db::Postgres { .. } => {
                let (client, connection) =
                    tokio_postgres::connect(&self.url(), tokio_postgres::NoTls)
                        .await
                        .unwrap();
                let task = tokio::spawn(connection);
                let row = client
                    .query_opt(
                        "SELECT body FROM derived WHERE match_id = $1 AND kind = $2",
                        &[&id, &kind],
                    )
                    .await
                    .unwrap();
                drop(client);
                let _ = task.await;
                row.map(|r| r.get(0))
            }
        }
    }
}

/// A fresh, empty database: a new SQLite file, or a new schema name on the PostgreSQL server of
/// `PLATEAU_TEST_POSTGRES`.
pub fn temp_db() -> Db {
    let name = hex::encode(rand::random::<[u8; 8]>());
    match Db::postgres() {
        Some(server) => Db::Postgres {
            server,
            schema: format!("t_{name}"),
        },
        None => {
            let dir = std::env::temp_dir().join("plateau-server-tests");
            std::fs::create_dir_all(&dir).unwrap();
            Db::Sqlite(dir.join(format!("{name}.sqlite")))
        }
    }
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub db: Db,
    /// The service's lobby (for what a test serves beside the app, such as its metrics).
    pub lobby: std::sync::Arc<Lobby>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_on(temp_db()).await
}

/// The tests' options: bots play at once, and seeds are fixed by the creation order (or by the
/// request), so every test plays the same games every run.
pub fn test_options() -> Options {
    Options {
        bot_delay: Duration::ZERO,
        bot_budget: Duration::from_secs(2),
        test_seeds: true,
        abandon_after: Duration::from_secs(90),
        // Clocks run from the first instant unless a test asks for the first-move time.
        first_move: Duration::ZERO,
        // Test clients play as fast as they can.
        limits: plateau_lobby::limits::Limits {
            messages_per_second: 1e6,
            message_burst: 1e6,
            matches_per_minute: 1000,
            open_matches: 1000,
            bot_matches: 1000,
            guests_per_minute: 1000,
            ..plateau_lobby::limits::Limits::default()
        },
        // Analyses judge with a small search, so a whole game is analysed in a second or two.
        analysis_iterations: Some(40),
        secure_cookies: false,
        node: None,
        // Only the tests of the schedule want the server's own tournaments.
        scheduled_tournaments: false,
        name_deny_list: Vec::new(),
    }
}

/// A service over an existing database (to test reloading).
pub async fn spawn_app_on(db: Db) -> TestApp {
    spawn_app_with(db, test_options()).await
}

/// A service on a fresh database with the test options and `limits`.
pub async fn app_with(limits: plateau_lobby::limits::Limits) -> TestApp {
    spawn_app_with(
        temp_db(),
        Options {
            limits,
            ..test_options()
        },
    )
    .await
}

/// A service over `db` with `options`; a node's empty address is the port it gets.
pub async fn spawn_app_with(db: Db, mut options: Options) -> TestApp {
    log_to_tests();
    // The schema's validators are compiled once per process, by the first test that needs them
    // (the others wait for it): seconds of a thread on a loaded machine, which must not be
    // taken from a running server's timers (its leases' renewal, clocks, expiries), as it was
    // when the first answer checked compiled them.
    validators();
    db.prepare().await;
    let store = open_store(&db.url()).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    if let Some(node) = options.node.as_mut().filter(|n| n.address.is_empty()) {
        node.address = addr.to_string();
    }
    let lobby = Lobby::start(store, catalogue(), options).await.unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let state = AppState::new(lobby.clone());
    let task = tokio::spawn(plateau_server::serve(listener, state, async {
        let _ = stopped.await;
    }));
    TestApp {
        addr,
        db,
        lobby,
        stop: Some(stop),
        task: Some(task),
    }
}

/// The server's log in the output of the test whose thread wrote it (shown when the test
/// fails, or with `--nocapture`): its warnings and errors, or what `PLATEAU_TEST_LOG` selects
/// (a `RUST_LOG`-style filter).
fn log_to_tests() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PLATEAU_TEST_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // Once per process: the later calls find it set.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .try_init();
}

/// Node `name` of the database `db` several nodes share (docs/architecture.md section 5.3),
/// with `limits`.
pub async fn spawn_node(db: Db, name: &str, limits: plateau_lobby::limits::Limits) -> TestApp {
    let options = Options {
        node: Some(plateau_server::store::Node {
            name: name.to_owned(),
            address: String::new(),
        }),
        limits,
        ..test_options()
    };
    spawn_app_with(db, options).await
}

impl TestApp {
    /// Graceful shutdown; returns once the store is closed.
    pub async fn shutdown(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap().unwrap();
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = http(self.addr, "GET", path, None).await;
        (
            status,
            serde_json::from_str(&body).unwrap_or(Value::String(body)),
        )
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(path, &body.to_string()).await
    }

    pub async fn post_raw(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, body) = http(self.addr, "POST", path, Some(body)).await;
        (
            status,
            serde_json::from_str(&body).unwrap_or(Value::String(body)),
        )
    }

    /// Takes a seat of match `id` (`POST /api/matches/{id}/join`) and returns the 200 body. A
    /// join answered `503 match/moved` (the match's actor stopped before it was handled: it
    /// moved, or this node fenced itself on a starved machine, docs/architecture.md section
    /// 5.3) changed nothing and is sent again, as the answer says.
    pub async fn join(&self, id: &str) -> Value {
        for _ in 0..20 {
            let (status, joined) = self
                .post(&format!("/api/matches/{id}/join"), &json!({}))
                .await;
            if status == 503 && joined["code"] == "match/moved" {
                continue;
            }
            assert_eq!(status, 200, "{joined}");
            return joined;
        }
        panic!("match {id}: a join answered `match/moved` 20 times");
    }

    /// Creates a match and returns the 201 body.
    pub async fn create(&self, request: Value) -> Value {
        let (status, body) = self.post("/api/matches", &request).await;
        assert_eq!(status, 201, "{body}");
        body
    }

    pub async fn summary(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/api/matches/{id}")).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    pub async fn connect(&self, id: &str, token: Option<&str>) -> Client {
        Client::connect(self.addr, id, token).await
    }

    /// Waits until match `id` is finished, watching it as a spectator (every change of the match
    /// sends a `state`; `Client::next` gives up after 20 s without one; a socket the server
    /// closes as idle is opened again); returns its summary.
    pub async fn wait_finished(&self, id: &str) -> Value {
        loop {
            let mut watcher = self.connect(id, None).await;
            while let Some(m) = watcher.next().await {
                if m["type"] == "state" && m["status"] == "finished" {
                    return self.summary(id).await;
                }
            }
        }
    }
}

/// One HTTP/1.1 request over a fresh connection; returns the status and the body text.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_with(addr, method, path, &[], body).await;
    (status, body)
}

/// One HTTP/1.1 request with extra `headers` (a JSON content type unless one is given); returns
/// the status, the response headers (names in lower case) and the body text.
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, Vec<(String, String)>, String) {
    http_from(None, addr, method, path, headers, body).await
}

/// A TCP connection to `addr`, from the loopback address `from` if given (the server's limits
/// per address see each one as another client).
pub async fn tcp_from(from: Option<std::net::IpAddr>, addr: SocketAddr) -> TcpStream {
    match from {
        Some(ip) => {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(SocketAddr::new(ip, 0)).unwrap();
            socket.connect(addr).await.unwrap()
        }
        None => TcpStream::connect(addr).await.unwrap(),
    }
}

/// `http_with` from the loopback address `from`.
pub async fn http_from(
    from: Option<std::net::IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, Vec<(String, String)>, String) {
    let (status, headers, body) = http_bytes(from, addr, method, path, headers, body).await;
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// `http_from` with the body's bytes as sent (chunks joined), for bodies that are not text.
pub async fn http_bytes(
    from: Option<std::net::IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = tcp_from(from, addr).await;
    let body = body.unwrap_or("");
    let mut extra = String::new();
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("connection"))
    {
        extra.push_str("Connection: close\r\n");
    }
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        extra.push_str("Content-Type: application/json\r\n");
    }
    for (name, value) in headers {
        extra.push_str(&format!("{name}: {value}\r\n"));
    }
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP response");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let rest = &raw[split + 4..];
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    let json = headers
        .iter()
        .any(|(n, v)| n == "content-type" && v.starts_with("application/json"));
    let encoded = headers.iter().any(|(n, _)| n == "content-encoding");
    if json && !encoded && (path.starts_with("/api/") || path.starts_with("/health")) {
        let text = String::from_utf8_lossy(&body);
        match body_definition(method, path, status) {
            Some(definition) => check_wire(definition, &text),
            None => panic!(
                "{method} {path} answered {status} with a JSON body the schema does not name: {text}"
            ),
        }
    }
    (status, headers, body)
}

/// The schema's definition of the JSON body that `method path` answers with `status`
/// (docs/protocol.schema.json's `MESSAGES`), `None` for a route that has none.
fn body_definition(method: &str, path: &str, status: u16) -> Option<&'static str> {
    let path = path.split('?').next().unwrap_or_default();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if parts == ["health"] {
        return Some("Health");
    }
    if status >= 400 {
        return Some("ErrorBody");
    }
    Some(match (method, parts.as_slice()) {
        ("GET", ["api", "games"]) => "Games",
        ("POST", ["api", "matches"]) | ("POST", ["api", "matches", _, "join"]) => "Grant",
        ("GET", ["api", "matches"]) => "Matches",
        ("GET", ["api", "matches", _]) => "Summary",
        ("GET", ["api", "matches", _, "record"]) => "RecordBody",
        ("GET", ["api", "matches", _, "replay"]) => "Replay",
        (_, ["api", "matches", _, "analysis"]) => "AnalysisStatus",
        ("GET", ["api", "matches", _, "history"]) => "History",
        ("GET", ["api", "matches", _, "chat"]) => "ChatLog",
        ("GET", ["api", "me"]) => "Me",
        ("POST", ["api", "guest" | "account" | "login"]) => "Signed",
        ("GET", ["api", "me", "games"]) => "MyGames",
        ("GET", ["api", "me", "relations"]) => "Relations",
        ("GET", ["api", "me", "data"]) => "PlayerData",
        ("GET", ["api", "players", _]) => "Profile",
        ("GET", ["api", "players", _, "tournaments"]) => "PlayerTournaments",
        ("GET", ["api", "leaderboard", _]) => "Leaderboard",
        ("GET", ["api", "tournaments"]) => "Tournaments",
        ("POST", ["api", "reports"]) => "ReportFiled",
        ("GET", ["api", "mod", "reports"]) => "ReportQueue",
        ("GET", ["api", "mod", "audit"]) => "AuditLog",
        ("POST", ["api", "mod", "players" | "reports", _])
        | ("POST", ["api", "mod", "matches", _, "close"]) => "AuditView",
        ("POST", ["api", "tournaments"])
        | ("GET", ["api", "tournaments", _])
        | ("POST", ["api", "tournaments", _, "join" | "withdraw"]) => "TournamentDetail",
        _ => return None,
    })
}

/// One validator per top-level definition of docs/protocol.schema.json, compiled once.
fn validators() -> &'static HashMap<String, jsonschema::Validator> {
    static VALIDATORS: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let schema: Value =
            serde_json::from_str(include_str!("../../../../docs/protocol.schema.json"))
                .expect("docs/protocol.schema.json is JSON");
        plateau_protocol::schema::MESSAGES
            .iter()
            .map(|(name, _)| {
                let mut root = schema.clone();
                root["$ref"] = json!(format!("#/$defs/{name}"));
                let validator = jsonschema::validator_for(&root)
                    .unwrap_or_else(|e| panic!("the schema's {name}: {e}"));
                ((*name).to_owned(), validator)
            })
            .collect()
    })
}

/// What is wrong with `text` as an instance of the schema's `definition`: nothing when it holds
/// to it.
pub fn wire_errors(definition: &str, text: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return vec!["not JSON".to_owned()];
    };
    validators()[definition]
        .iter_errors(&value)
        .map(|e| format!("{e} (at `{}`)", e.instance_path()))
        .collect()
}

/// Panics unless `text` holds to the schema's `definition` (a message or a body the server
/// sent).
pub fn check_wire(definition: &str, text: &str) {
    let errors = wire_errors(definition, text);
    assert!(
        errors.is_empty(),
        "the server sent a {definition} the schema does not describe:\n{text}\n{errors:#?}"
    );
}

/// A browser-like client of the HTTP API: it keeps the session cookie the server sets and sends
/// it back, on requests and WebSockets alike.
pub struct Agent {
    pub addr: SocketAddr,
    /// The loopback address it connects from (`None`: the system's choice, 127.0.0.1).
    pub from: Option<std::net::IpAddr>,
    /// The `X-Forwarded-For` it sends, as a proxy in front of the server would.
    pub forwarded_for: Option<String>,
    /// The session cookie's value, once set.
    pub session: Option<String>,
    /// The `Set-Cookie` headers of the last response.
    pub set_cookies: Vec<String>,
}

impl Agent {
    pub fn new(addr: SocketAddr) -> Agent {
        Agent {
            addr,
            from: None,
            forwarded_for: None,
            session: None,
            set_cookies: Vec::new(),
        }
    }

    /// An agent connecting from loopback address `from` (`127.0.0.0/8`).
    pub fn from(addr: SocketAddr, from: &str) -> Agent {
        Agent {
            from: Some(from.parse().unwrap()),
            ..Agent::new(addr)
        }
    }

    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let cookie = self
            .session
            .as_ref()
            .map(|v| format!("plateau_session={v}"));
        let headers: Vec<(&str, &str)> = cookie
            .iter()
            .map(|c| ("Cookie", c.as_str()))
            .chain(
                self.forwarded_for
                    .iter()
                    .map(|f| ("X-Forwarded-For", f.as_str())),
            )
            .collect();
        let body = body.map(Value::to_string);
        let (status, response, text) = http_from(
            self.from,
            self.addr,
            method,
            path,
            &headers,
            body.as_deref(),
        )
        .await;
        self.set_cookies = response
            .iter()
            .filter(|(n, _)| n == "set-cookie")
            .map(|(_, v)| v.clone())
            .collect();
        for c in &self.set_cookies {
            if let Some(rest) = c.strip_prefix("plateau_session=") {
                let value = rest.split(';').next().unwrap_or_default();
                self.session = (!value.is_empty()).then(|| value.to_owned());
            }
        }
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.request("GET", path, None).await
    }

    pub async fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        self.request("POST", path, Some(body)).await
    }

    /// Becomes the guest `name`; panics unless the server agrees.
    pub async fn guest(addr: SocketAddr, name: &str) -> Agent {
        let mut agent = Agent::new(addr);
        let (status, body) = agent.post("/api/guest", &json!({"name": name})).await;
        assert_eq!(status, 200, "{body}");
        agent
    }

    /// Becomes the guest `name`, then makes it an account (password "a long pass phrase");
    /// panics unless the server agrees.
    pub async fn account(addr: SocketAddr, name: &str) -> Agent {
        let mut agent = Agent::guest(addr, name).await;
        let (status, body) = agent
            .post("/api/account", &json!({"password": "a long pass phrase"}))
            .await;
        assert_eq!(status, 200, "{body}");
        agent
    }

    /// A WebSocket to `path` with this agent's cookie.
    pub async fn ws(&self, path: &str) -> Client {
        self.try_ws(path).await.expect("the WebSocket opens")
    }

    /// A WebSocket to `path` with this agent's cookie, or `None` when the server refuses the
    /// connection (a cap met).
    pub async fn try_ws(&self, path: &str) -> Option<Client> {
        let mut headers = Vec::new();
        if let Some(v) = &self.session {
            headers.push(("Cookie", format!("plateau_session={v}")));
        }
        if let Some(f) = &self.forwarded_for {
            headers.push(("X-Forwarded-For", f.clone()));
        }
        let definition = if path.starts_with("/api/lobby") {
            "LobbyMessage"
        } else {
            "MatchMessage"
        };
        Client::open(Dial {
            addr: self.addr,
            from: self.from,
            path: path.to_owned(),
            headers,
            auth: None,
            definition,
        })
        .await
    }

    /// This agent's connection to match `id`; a seat token, if given, is sent in an `auth`
    /// message once connected, as the pages do.
    pub async fn connect(&self, id: &str, token: Option<&str>) -> Client {
        let mut client = self.ws(&format!("/api/matches/{id}/ws")).await;
        if let Some(t) = token {
            client.send(json!({"type": "auth", "token": t})).await;
            client.dial.auth = Some(t.to_owned());
        }
        client
    }
}

/// The body of a chunked answer: its chunks joined, the sizes and line ends left out.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..line]).unwrap_or("0");
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.extend_from_slice(&rest[line + 2..line + 2 + n]);
        rest = &rest[line + 4 + n..];
    }
    out
}

/// A WebSocket client that records every JSON message it receives. A `state` delta is merged
/// into the state known before it (docs/protocol.md section 4.1), so `received` and `next` give
/// whole states; `wire` keeps each `state` as it came.
///
/// `until` (and what waits through it) connects again when the server closes the socket with
/// 1013, "reconnect to resume", or drops it, as the web client does (docs/protocol.md section
/// 4): a node that
/// could not renew a match's lease in time (docs/architecture.md section 5.3) unloads the match
/// and closes its sockets so, which a starved machine can cause in any test on PostgreSQL. The
/// new connection's first `state` is whole, and the messages of both connections are kept. A
/// lobby socket follows again on the new connection what it followed (docs/protocol.md section
/// 7.9), as the web client does: the server's new connection follows nothing, so a test waiting
/// for a `tournament` message would else wait for a message that never comes.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// How the socket was opened, to open it again.
    dial: Dial,
    /// The schema's definition of its messages: `MatchMessage` or `LobbyMessage`.
    definition: &'static str,
    pub received: Vec<Value>,
    pub wire: Vec<String>,
    known: Option<Value>,
    pub closed: Option<u16>,
    /// The reason of the server's close frame, if any.
    pub close_reason: Option<String>,
    /// How many times `until` connected again after a 1013 close.
    pub reconnects: usize,
    /// What this socket follows, to follow again on a new connection.
    follows: Follows,
}

/// The follows a lobby socket sent and did not undo (docs/protocol.md section 7.9), in the order
/// sent, less those refused.
#[derive(Default)]
struct Follows(Vec<Follow>);

/// One follow sent: what it follows (a tournament's id, `None` for the list), the message, and
/// whether its answer (a message of what it follows) came.
struct Follow {
    what: Option<String>,
    request: Value,
    answered: bool,
}

impl Follows {
    /// What a follow or unfollow message `v` is about, and whether it follows: `None` for any
    /// other message (a follow without an id included: it is refused).
    fn about(v: &Value) -> Option<(Option<String>, bool)> {
        let id = || v["id"].as_str().map(str::to_owned);
        match v["type"].as_str()? {
            "tournament_follow" => Some((Some(id()?), true)),
            "tournament_unfollow" => Some((Some(id()?), false)),
            "tournaments_follow" => Some((None, true)),
            "tournaments_unfollow" => Some((None, false)),
            _ => None,
        }
    }

    /// Message `v` was sent: a follow is kept (following again keeps one follow of it, as the
    /// server does), an unfollow forgets it.
    fn sent(&mut self, v: &Value) {
        if let Some((what, follows)) = Follows::about(v) {
            self.0.retain(|f| f.what != what);
            if follows {
                self.0.push(Follow {
                    what,
                    request: v.clone(),
                    answered: false,
                });
            }
        }
    }

    /// Message `m` was received: a message of what is followed answers its follow; a refusal
    /// of a follow (`tournament/not_found`, `limit/follows`) is the answer to the first follow
    /// not answered yet, since a socket's answers come in the order of its requests.
    fn received(&mut self, m: &Value) {
        let what = match m["type"].as_str() {
            Some("tournament") => m["tournament"]["id"].as_str().map(|id| Some(id.to_owned())),
            Some("tournaments") => Some(None),
            Some("error")
                if matches!(
                    m["code"].as_str(),
                    Some("tournament/not_found" | "limit/follows")
                ) =>
            {
                if let Some(at) = self.0.iter().position(|f| !f.answered) {
                    self.0.remove(at);
                }
                None
            }
            _ => None,
        };
        if let Some(what) = what
            && let Some(f) = self.0.iter_mut().find(|f| f.what == what)
        {
            f.answered = true;
        }
    }
}

/// Where and how a `Client` connects: the server, the local address, the path, the request's
/// extra headers, and the seat token sent in an `auth` message once connected, if any (sent in
/// the header on a reconnection).
struct Dial {
    addr: SocketAddr,
    from: Option<std::net::IpAddr>,
    path: String,
    headers: Vec<(&'static str, String)>,
    auth: Option<String>,
    definition: &'static str,
}

/// `msg` applied to `known`: a whole state replaces it; a delta keeps the fields it leaves out,
/// patches the observation and puts its moves at `moves_from`, which must follow on from the
/// moves known. The result has
/// none of the wire's own fields (`snapshot`, `moves_from`).
pub fn merge(known: Option<&Value>, msg: &Value) -> Value {
    if msg["snapshot"] == true {
        let mut whole = msg.clone();
        for wire_only in ["snapshot", "moves_from"] {
            whole.as_object_mut().unwrap().remove(wire_only);
        }
        return whole;
    }
    let known = known.expect("a delta before any whole state");
    let from = msg["moves_from"].as_u64().expect("moves_from") as usize;
    let moves = known["moves"].as_array().unwrap();
    assert!(
        from <= moves.len(),
        "a delta from move {from} after {} moves",
        moves.len()
    );
    let mut whole = known.clone();
    for (k, v) in msg.as_object().unwrap() {
        if !k.starts_with("observation_") && k != "moves_from" {
            whole[k] = v.clone();
        }
    }
    if let Some(patch) = msg["observation_patch"].as_object() {
        let fields = whole["observation"].as_object_mut().unwrap();
        fields.extend(patch.clone());
        for gone in msg["observation_removed"].as_array().into_iter().flatten() {
            fields.remove(gone.as_str().unwrap());
        }
    }
    let mut list = moves[..from].to_vec();
    list.extend(msg["moves"].as_array().unwrap().iter().cloned());
    whole["moves"] = Value::Array(list);
    whole
}

impl Client {
    /// Connects to match `id`; a seat token goes in the `Authorization` header, as a program
    /// sends it (docs/protocol.md section 4).
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let headers = token
            .map(|t| ("Authorization", format!("Bearer {t}")))
            .into_iter()
            .collect();
        Client::open(Dial {
            addr,
            from: None,
            path: format!("/api/matches/{id}/ws"),
            headers,
            auth: None,
            definition: "MatchMessage",
        })
        .await
        .expect("the WebSocket opens")
    }

    /// A socket as `dial` says, or `None` when the server refuses it.
    async fn open(dial: Dial) -> Option<Client> {
        let ws = Client::dial(&dial).await?;
        Some(Client {
            ws,
            definition: dial.definition,
            dial,
            received: Vec::new(),
            wire: Vec::new(),
            known: None,
            closed: None,
            close_reason: None,
            reconnects: 0,
            follows: Follows::default(),
        })
    }

    async fn dial(dial: &Dial) -> Option<WebSocketStream<MaybeTlsStream<TcpStream>>> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{}{}", dial.addr, dial.path)
            .into_client_request()
            .unwrap();
        for (name, value) in &dial.headers {
            request.headers_mut().insert(*name, value.parse().unwrap());
        }
        let stream = MaybeTlsStream::Plain(tcp_from(dial.from, dial.addr).await);
        let (ws, _) = tokio_tungstenite::client_async(request, stream)
            .await
            .ok()?;
        Some(ws)
    }

    /// The next JSON message, or `None` once the socket is closed (close code in `closed`).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let Ok(frame) = tokio::time::timeout(Duration::from_secs(20), self.ws.next()).await
            else {
                let tail: Vec<String> = self
                    .received
                    .iter()
                    .rev()
                    .take(3)
                    .map(Value::to_string)
                    .collect();
                panic!("no message within 20 s; last received: {tail:#?}");
            };
            match frame {
                Some(Ok(Message::Text(t))) => {
                    check_wire(self.definition, &t);
                    let mut v: Value = serde_json::from_str(&t).unwrap();
                    if v["type"] == "state" {
                        v = merge(self.known.as_ref(), &v);
                        self.known = Some(v.clone());
                        self.wire.push(t.to_string());
                    }
                    self.follows.received(&v);
                    self.received.push(v.clone());
                    return Some(v);
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = Some(frame.as_ref().map_or(1005, |f| u16::from(f.code)));
                    self.close_reason = frame.map(|f| f.reason.to_string());
                    return None;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Reads until a message satisfies `f`, connecting again after a 1013 close (the new
    /// connection's whole `state` is read as any other message).
    pub async fn until(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        loop {
            if let Some(m) = self.until_or_reconnected(&f).await {
                return m;
            }
        }
    }

    /// Reads until a message satisfies `f`; `None` once the socket was closed with 1013 and
    /// opened again (an answer to what was sent before can then no longer come).
    async fn until_or_reconnected(&mut self, f: &impl Fn(&Value) -> bool) -> Option<Value> {
        loop {
            match self.next().await {
                Some(m) if f(&m) => return Some(m),
                Some(_) => {}
                None if self.resumable() => {
                    self.reconnect().await;
                    return None;
                }
                None => panic!(
                    "socket closed while waiting: code {:?}, reason {:?}",
                    self.closed, self.close_reason
                ),
            }
        }
    }

    /// Whether the socket closed in a way a client resumes from by connecting again: 1013
    /// ("reconnect to resume"), or dropped without a close frame (the server gives a client
    /// that takes no write for 10 s up, as a starved test process can be; the web client
    /// reconnects after a drop too, docs/architecture.md section 5).
    fn resumable(&self) -> bool {
        matches!(self.closed, Some(1013) | None)
    }

    /// Opens the socket again as it was opened; a seat token sent in an `auth` message goes in
    /// the header this time, so the first `state` is the seat's already; a lobby socket follows
    /// again what it followed (each answered again by what it follows, as it stands).
    pub async fn reconnect(&mut self) {
        eprintln!(
            "socket to {} closed with {:?} ({:?}): connecting again",
            self.dial.path, self.closed, self.close_reason
        );
        if let Some(t) = self.dial.auth.take() {
            self.dial
                .headers
                .push(("Authorization", format!("Bearer {t}")));
        }
        self.ws = Client::dial(&self.dial)
            .await
            .expect("the WebSocket opens again");
        self.closed = None;
        self.close_reason = None;
        self.reconnects += 1;
        let again: Vec<String> = self
            .follows
            .0
            .iter_mut()
            .map(|f| {
                f.answered = false;
                f.request.to_string()
            })
            .collect();
        for text in again {
            self.send_text(&text).await;
        }
    }

    /// The next `state` of a started match (live or finished): the first states a seat gets may
    /// still be `open`, until every player has opened the match.
    pub async fn live(&mut self) -> Value {
        self.until(|m| m["type"] == "state" && m["status"] != "open")
            .await
    }

    /// The next `state` of a Bataille Navale seat in the placement phase (the deal drawn).
    pub async fn placing(&mut self) -> Value {
        self.until(|m| m["type"] == "state" && m["observation"]["phase"] == "placement")
            .await
    }

    /// The next `state` message.
    pub async fn state(&mut self) -> Value {
        self.until(|m| m["type"] == "state").await
    }

    /// The next `error` message.
    pub async fn error(&mut self) -> Value {
        self.until(|m| m["type"] == "error").await
    }

    /// Reads until a match removed from the store (an open one nobody started, a paired one
    /// called off) tells this viewer so: its `match/expired` error. On PostgreSQL the socket
    /// may close with 1013 first instead, the node having let the match go for its lease: a
    /// starved machine did not renew it in time, or the renewal found it given up by the
    /// removal before the removal reached the match. The match is gone either way, so the
    /// socket is not opened again: `None` then.
    pub async fn removed(&mut self) -> Option<Value> {
        loop {
            match self.next().await {
                Some(m) if m["type"] == "error" => {
                    assert_eq!(m["code"], "match/expired", "{m}");
                    return Some(m);
                }
                Some(_) => {}
                None => {
                    assert!(
                        Db::postgres().is_some() && self.closed == Some(1013),
                        "closed with {:?} ({:?}) before being told",
                        self.closed,
                        self.close_reason
                    );
                    return None;
                }
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.follows.sent(&v);
        self.send_text(&v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a WebSocket ping (a control frame, not a message).
    pub async fn send_ping(&mut self) {
        // The server may have closed the socket meanwhile: the next read says so.
        let _ = self.ws.send(Message::Ping(Vec::new().into())).await;
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::Binary(bytes.into())).await.unwrap();
    }

    pub async fn act(&mut self, version: u64, action: &str) {
        self.send(json!({"type": "act", "version": version, "action": action}))
            .await;
    }

    /// The answer to an `act` sent at `version`: a refusal (an `error`), or the `state` that
    /// shows the action, the first whose version is past `version` (the seat sees its own
    /// action). The states sent meanwhile for other reasons (a seat's socket closing or
    /// opening, an offer) keep the version and are not the answer. Should the socket close to
    /// connect again (1013) first, the new connection's whole state is the answer: it shows the
    /// action if it was played before the close, and an action that crossed the close is never
    /// played (docs/architecture.md section 5.3), so the seat acts again on that state.
    pub async fn answer(&mut self, version: u64) -> Value {
        let answered = |m: &Value| {
            // `match/moved`: the action crossed the close; the close follows.
            (m["type"] == "error" && m["code"] != "match/moved")
                || (m["type"] == "state" && m["version"].as_u64() > Some(version))
        };
        match self.until_or_reconnected(&answered).await {
            Some(m) => m,
            None => self.state().await,
        }
    }

    /// Sends a ping and waits for its pong: every message sent before was handled.
    /// On a new connection (after a 1013 close) the ping is sent again.
    pub async fn sync(&mut self) {
        loop {
            self.send(json!({"type": "ping"})).await;
            let pong = |m: &Value| m["type"] == "pong";
            if self.until_or_reconnected(&pong).await.is_some() {
                return;
            }
        }
    }

    /// Reads in the background until the match is finished (or the socket closes, other than
    /// with 1013), so a watcher never falls behind; the task gives the client back.
    pub fn watch(mut self) -> tokio::task::JoinHandle<Client> {
        tokio::spawn(async move {
            loop {
                match self.next().await {
                    Some(m) if m["status"] == "finished" => break,
                    Some(_) => {}
                    None if self.resumable() => self.reconnect().await,
                    None => break,
                }
            }
            self
        })
    }

    /// The latest state received, whole (deltas applied).
    pub fn latest(&self) -> Option<Value> {
        self.known.clone()
    }

    /// The `state` messages received so far.
    pub fn states(&self) -> Vec<Value> {
        self.received
            .iter()
            .filter(|m| m["type"] == "state")
            .cloned()
            .collect()
    }
}

// Helpers the API tests share.

/// A match request for two human seats of `game`.
pub fn humans(game: &str) -> Value {
    json!({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
}

/// The seat token in a create or join answer.
pub fn token(v: &Value) -> String {
    v["token"].as_str().expect("a token").to_owned()
}

/// The match id in a create answer.
pub fn id(v: &Value) -> String {
    v["id"].as_str().expect("an id").to_owned()
}

/// A two-human match with both seats taken; returns (id, token 0, token 1, seed_hash).
pub async fn two_humans(app: &TestApp, game: &str) -> (String, String, String, String) {
    let created = app.create(humans(game)).await;
    let id = id(&created);
    let joined = app.join(&id).await;
    assert_eq!(joined["seat"], 1);
    (
        id,
        token(&created),
        token(&joined),
        created["seed_hash"].as_str().unwrap().to_owned(),
    )
}

/// Creates a match from `request` and seats a person at every human seat: the creator, then one
/// join per other human seat; returns its id and one connected client per human seat, in seat
/// order.
pub async fn seated(app: &TestApp, request: Value) -> (String, Vec<Client>) {
    let (id, tokens) = seats_taken(app, request).await;
    let mut clients = Vec::new();
    for t in &tokens {
        clients.push(app.connect(&id, Some(t)).await);
    }
    (id, clients)
}

/// A Bataille Navale match of four people with `config` (`None`: the game's defaults), seated
/// and connected as `seated` does: its id and one client per seat, in seat order.
pub async fn naval_four(app: &TestApp, config: Option<Value>) -> (String, Vec<Client>) {
    let human = json!({"kind": "human"});
    let mut request = json!({"game": "naval", "seats": [human, human, human, human]});
    if let Some(config) = config {
        request["config"] = config;
    }
    seated(app, request).await
}

/// Creates a match from `request` and takes every human seat (the creator's, then one join per
/// other human seat); returns its id and the seat tokens, in seat order.
pub async fn seats_taken(app: &TestApp, request: Value) -> (String, Vec<String>) {
    let humans = request["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "human")
        .count();
    let created = app.create(request).await;
    let id = id(&created);
    let mut tokens = vec![token(&created)];
    for _ in 1..humans {
        tokens.push(token(&app.join(&id).await));
    }
    (id, tokens)
}

/// What `read` gives once `ready` holds of it: an effect that comes eventually (a timer, a
/// runner's next step, a socket's close seen by the server, another node) read again every
/// 25 ms, for at most a minute, which a loaded machine needs far less than. Panics past the
/// minute, with `what` and the last value read.
pub async fn eventually<T: std::fmt::Debug, F: std::future::Future<Output = T>>(
    what: &str,
    mut read: impl FnMut() -> F,
    ready: impl Fn(&T) -> bool,
) -> T {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let now = read().await;
        if ready(&now) {
            return now;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not within a minute; last read {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The finished match's record, as served.
pub async fn record(app: &TestApp, id: &str) -> Record {
    let (status, body) = app.get(&format!("/api/matches/{id}/record")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_value(body).unwrap()
}

/// The registered game `name`.
pub fn entry(name: &str) -> &'static plateau_engine::GameEntry {
    catalogue().game(name).unwrap()
}

/// The parts and the text of the first placement move a Bataille Navale `state` describes (the
/// seat's observation's `placement`, docs/protocol.md section 4.1): the placements are not in
/// `legal`. The text is written in the notation of rules/naval.md section 13b.
pub fn first_placement(state: &Value) -> Option<(Value, String)> {
    let pieces = state["observation"]["placement"].as_array()?;
    pieces.iter().find_map(|p| {
        p["ways"].as_array()?.iter().find_map(|w| {
            let anchor = w["anchors"].as_array()?.first()?.as_str()?;
            let piece = p["piece"].as_str()?;
            let choice = w["choice"].as_str();
            let mut parts = serde_json::json!({"kind": "place", "piece": piece, "to": anchor});
            if let Some(c) = choice {
                parts["choice"] = c.into();
            }
            Some((parts, format!("{piece}@{anchor}{}", choice.unwrap_or(""))))
        })
    })
}

/// Each client (one per human seat of a live match, each past `live()`) makes `n` actions, the
/// first legal one each time, as its turns come; bots answer by themselves.
pub async fn play_each(clients: &mut [Client], n: usize) {
    let version = |m: &Value| m["version"].as_u64().unwrap_or(0);
    let mut made = vec![0; clients.len()];
    while made.iter().any(|m| *m < n) {
        let mut acted = false;
        for (i, c) in clients.iter_mut().enumerate() {
            let s = c.latest().expect("a state");
            assert_eq!(
                s["status"], "live",
                "the match ended before each seat played"
            );
            if let Some(action) = s["legal"].as_array().and_then(|l| l.first()) {
                let v = version(&s);
                c.act(v, action.as_str().unwrap()).await;
                c.until(|m| m["type"] == "state" && version(m) > v).await;
                made[i] += 1;
                acted = true;
                break;
            }
        }
        if !acted {
            // Nobody may act on what it knows: the late ones catch up, or all wait for a bot.
            let newest = clients
                .iter()
                .map(|c| version(&c.latest().unwrap()))
                .max()
                .unwrap();
            let mut behind = false;
            for c in clients.iter_mut() {
                if version(&c.latest().unwrap()) < newest {
                    c.until(|m| m["type"] == "state" && version(m) >= newest)
                        .await;
                    behind = true;
                }
            }
            if !behind {
                clients[0]
                    .until(|m| m["type"] == "state" && version(m) > newest)
                    .await;
            }
        }
    }
}
