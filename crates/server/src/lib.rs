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
/// form) connects to a PostgreSQL server, anything else is a SQLite file (`sqlite://FILE`,
/// `sqlite:FILE` or a bare path). Either way the schema's migrations are applied.
///
/// # Errors
/// `Store` if the URL cannot be read, the PostgreSQL server cannot be reached or refuses the
/// login, SQLite cannot open the file, or a migration fails.
pub async fn open_store(url: &str) -> Result<Arc<dyn Store>, ServeError> {
    open_store_pooled(url, store::postgres::DEFAULT_POOL).await
}

/// `open_store` with at most `pool` connections to a PostgreSQL server.
///
/// # Errors
/// As `open_store`.
pub async fn open_store_pooled(url: &str, pool: usize) -> Result<Arc<dyn Store>, ServeError> {
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
    let listener = TcpListener::bind(config.addr).await?;
    // The recorder before the lobby, whose matches take their handles at its start.
    let metrics = match config.metrics_listen {
        Some(addr) => {
            let handle = metrics::install().map_err(ServeError::Config)?;
            Some((TcpListener::bind(addr).await?, handle))
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
