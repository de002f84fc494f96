//! Plateau's match service (docs/architecture.md section 5): matches and the lobby over HTTP
//! and a WebSocket, an event-sourced store (SQLite or PostgreSQL), fair dice (seed hash first,
//! seed at the end) and the embedded browser UI. This crate is the HTTP edge, over three crates
//! stacked: the community features (tournaments, challenges, friends, moderation) are the crate
//! `plateau-community`, the live service's core (the lobby, the match socket, nodes, the front
//! door, presence, players, limits) the crate `plateau-lobby`, over quick pairing
//! (`plateau-pairing`) and one match (`plateau-match`).
//!
//! The protocol is docs/protocol.md. The pieces (docs/architecture.md section 5.4 has who imports
//! whom):
//! - `http`: the routes and `app(state) -> Router` (tests bind it to port 0); `run` and `serve`
//!   here put them behind the core's front door (`plateau_lobby::net`);
//! - `metrics`: the operator's figures, served on a listen address of their own; `assets`: the
//!   embedded pages;
//! - `store` (+ `store::sqlite`, `store::postgres`) and `ratings` are the crate `plateau-store`,
//!   re-exported under their old names.

pub mod assets;
pub mod http;
pub mod metrics;
pub mod store;

// The ratings are the storage crate's (crates/store), kept under their old name here.
pub use plateau_store::ratings;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;
use tokio::net::TcpListener;

pub use http::{AppState, app};
pub use plateau_lobby::{Lobby, Options};
pub use plateau_match::Catalogue;
pub use store::{Store, StoreError};

/// Settings of `plateau serve`.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on, e.g. `127.0.0.1:8080`.
    pub addr: SocketAddr,
    /// Database URL: `sqlite://path/to/file.sqlite` (or a bare path), or
    /// `postgres://user:password@host:port/database` (`postgresql://` too).
    pub database: String,
    /// Most connections to a PostgreSQL server at once (`store::postgres::DEFAULT_POOL` by
    /// default; docs/deploy.md sizes it); SQLite ignores it.
    pub database_pool: usize,
    /// Bot pacing and budget, test seeds, abandonment, limits. A node left out of
    /// `options.node`, or its empty name or address, is the bound address.
    pub options: Options,
    /// Where to serve the operator's figures (`metrics`, `GET /metrics`); `None`: nowhere, and
    /// nothing recorded.
    pub metrics_listen: Option<SocketAddr>,
}

/// Why the service could not start or run.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The database could not be opened or read. Shown as the store's error, which says
    /// what failed (`database: SQLite: ...`, `conflict: ...`) with no second prefix.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Binding or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The settings do not fit together.
    #[error("{0}")]
    Config(String),
}

/// Opens the store a database URL names: `postgres://...` or `postgresql://...` (libpq's URL
/// form) connects to a PostgreSQL server, a SQLite file otherwise (`sqlite://FILE`,
/// `sqlite:FILE` or a bare path). Either way the schema's migrations are applied.
///
/// # Errors
/// `Config` for a URL of another scheme (`mysql://...`); `Store` if the URL cannot be read, the
/// PostgreSQL server cannot be reached or refuses the login, SQLite cannot open the file, or a
/// migration fails.
pub async fn open_store(url: &str) -> Result<Arc<dyn Store>, ServeError> {
    open_store_pooled(url, store::postgres::DEFAULT_POOL).await
}

/// `open_store` with at most `pool` connections to a PostgreSQL server.
///
/// # Errors
/// As `open_store`.
pub async fn open_store_pooled(url: &str, pool: usize) -> Result<Arc<dyn Store>, ServeError> {
    // A URL of another kind (`mysql://`, `postgre://`) would otherwise be taken for the path of
    // a SQLite file, and refused as a file SQLite cannot open, or made as one.
    if let Some((scheme, _)) = url.split_once("://")
        && !matches!(scheme, "sqlite" | "postgres" | "postgresql")
    {
        return Err(ServeError::Config(format!(
            "the database `{}`: `{scheme}://` is no database Plateau keeps its matches in; \
             give sqlite://FILE or postgres://USER:PASSWORD@HOST:PORT/DB",
            store::postgres::redact(url)
        )));
    }
    let Some(path) = sqlite_path(url) else {
        let store = store::postgres::PgStore::open_pooled(url, pool).await?;
        return Ok(Arc::new(store));
    };
    let store = store::sqlite::SqliteStore::open(&path)?;
    Ok(Arc::new(store))
}

/// The SQLite file a database URL names (`sqlite://FILE`, `sqlite:FILE` or a bare path); `None`
/// for a PostgreSQL server (`postgres://...`, `postgresql://...`).
#[must_use]
pub fn sqlite_path(url: &str) -> Option<PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return None;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    Some(PathBuf::from(path))
}

/// Serves `state` on `listener` until `signal` completes, then shuts down gracefully: stops
/// accepting, closes every WebSocket with code 1001, lets each match finish the commit in
/// progress, and closes the store. The front door keeps the lobby's `Options::limits`.
///
/// # Errors
/// I/O errors of the server.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let lobby = state.lobby.clone();
    let limits = lobby.options().limits.clone();
    let stopping = lobby.clone();
    // The lobby may stop by itself: another process took this node's name.
    let mut stopped = lobby.shutdown_signal();
    let result = plateau_lobby::net::serve(
        listener,
        app(state),
        limits,
        async move {
            tokio::select! {
                () = signal => tracing::info!("shutting down"),
                _ = stopped.wait_for(|s| *s) => tracing::info!("the match service stopped: shutting down"),
            }
            stopping.begin_shutdown();
        },
        std::time::Duration::from_secs(10),
    )
    .await;
    lobby.shutdown().await;
    result
}

/// `plateau serve`: opens the database, reloads unfinished matches, listens on `config.addr`
/// until Ctrl-C or SIGTERM.
///
/// # Errors
/// `ServeError` if the database cannot be opened or the address bound.
pub async fn run(config: ServeConfig) -> Result<(), ServeError> {
    let store = open_store_pooled(&config.database, config.database_pool).await?;
    // Bound first, so that a node's default name and address are the port it really has.
    let listener = bind(config.addr, "--addr").await?;
    // The recorder before the lobby, whose matches take their handles at its start.
    let metrics = match config.metrics_listen {
        Some(addr) => {
            let handle = metrics::install().map_err(ServeError::Config)?;
            Some((bind(addr, "--metrics-listen").await?, handle))
        }
        None => None,
    };
    let addr = listener.local_addr()?;
    let mut options = config.options;
    if options.node.is_some() && store.node_secret().is_none() {
        tracing::warn!("--node and --advertise only matter with PostgreSQL: SQLite is one process");
    }
    let node = options.node.get_or_insert_with(|| store::Node {
        name: String::new(),
        address: String::new(),
    });
    if node.address.is_empty() {
        // Another node would reach its own port at 0.0.0.0: on a database several nodes may
        // share, the address to give them must be said.
        if addr.ip().is_unspecified() && store.node_secret().is_some() {
            return Err(ServeError::Config(format!(
                "listening on {addr} with PostgreSQL: give --advertise HOST:PORT, the address \
                 other nodes reach this one at (docs/deploy.md)"
            )));
        }
        node.address = addr.to_string();
    }
    if node.name.is_empty() {
        node.name.clone_from(&node.address);
    }
    tracing::info!(node = %node.name, address = %node.address, "this node");
    let lobby = Lobby::start(store, Catalogue::standard(), options).await?;
    tracing::info!(%addr, database = %store::postgres::redact(&config.database), "plateau serve listening");
    if let Some((listener, handle)) = metrics {
        tracing::info!(addr = %listener.local_addr()?, "metrics at /metrics");
        let lobby = lobby.clone();
        tokio::spawn(async move {
            if let Err(e) = metrics::serve(listener, handle, lobby).await {
                tracing::error!(error = %e, "the metrics listener failed");
            }
        });
    }
    serve(listener, AppState::new(lobby), shutdown_signal()).await?;
    Ok(())
}

/// Listens on `addr`, the setting `flag` gave; a refusal names both (the operating system's
/// "Address already in use" alone does not say which address).
async fn bind(addr: SocketAddr, flag: &str) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError::Config(format!("{flag} {addr}: cannot listen there: {e}")))
}

/// Completes on Ctrl-C, or on SIGTERM where there are signals.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database URL of a kind Plateau does not keep matches in is refused by its scheme,
    /// password masked, and no file is made for it (it was taken for a SQLite file's path).
    #[tokio::test]
    async fn a_database_of_another_kind_is_refused_by_its_scheme() {
        let dir = std::env::temp_dir().join(format!(
            "plateau-scheme-{}",
            hex::encode(rand::random::<[u8; 8]>())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for url in ["mysql://me:secret@db/plateau", "postgre://me@db/plateau"] {
            let within = format!("{}/{url}", dir.display());
            for url in [url, &within] {
                let Err(e) = open_store(url).await else {
                    panic!("{url} was opened");
                };
                let message = e.to_string();
                assert!(matches!(e, ServeError::Config(_)), "{message}");
                assert!(
                    message.contains("sqlite://FILE or postgres://"),
                    "{message}"
                );
                assert!(!message.contains("secret"), "{message}");
            }
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
    }

    /// An address another process listens on stops the server with the flag and the address,
    /// not the operating system's words alone.
    #[tokio::test]
    async fn an_address_in_use_is_named() {
        let taken = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = taken.local_addr().unwrap();
        let db = std::env::temp_dir().join(format!(
            "plateau-bind-{}.sqlite",
            hex::encode(rand::random::<[u8; 8]>())
        ));
        let config = ServeConfig {
            addr,
            database: format!("sqlite://{}", db.display()),
            database_pool: 2,
            options: Options::default(),
            metrics_listen: None,
        };
        let Err(e) = run(config).await else {
            panic!("served on a taken address");
        };
        let message = e.to_string();
        assert!(
            message.starts_with(&format!("--addr {addr}: cannot listen there: ")),
            "{message}"
        );
        assert!(message.contains("in use"), "{message}");
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
    }
}
