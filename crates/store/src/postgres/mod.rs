//! The PostgreSQL store (`matches` and `players` run the statements of each part, from `sql`
//! where SQLite's are the same), for `--database postgres://...` (docs/architecture.md section 5).
//!
//! A pool of connections (`deadpool-postgres`); every call is one transaction on one pooled
//! connection (a call that is one statement runs it alone, as its own transaction: one round
//! trip), but for the appends without an outcome, the common write: one task writes those
//! waiting together in one statement (`appends`, group commit as SQLite's). PostgreSQL itself
//! serialises what must be: the unique `(match, seq)` key makes a second append at the same
//! position fail with `StoreError::Conflict`, as in SQLite, and the rows
//! of the players a finished match rates are locked while their ratings change. Reads run in a
//! read-only snapshot (`REPEATABLE READ`), so a match and its seats, log and chat agree.
//!
//! Durability: every connection runs with `synchronous_commit = on`, whatever the server's
//! default, so a write returns only once its `COMMIT` is flushed to the write-ahead log. Like
//! SQLite's 5 s busy wait, a write waits at most `LOCK_TIMEOUT` for a lock another session holds,
//! then fails (`StoreError::Database`) instead of hanging a match.
//!
//! The schema is applied at open from `MIGRATIONS`, versioned in the table `plateau_schema` under
//! an advisory lock (several servers may start at once on one database). It lives in the first
//! schema of the connection's `search_path` (`public` unless the URL sets `options=-csearch_path=...`).

// First: the other modules use its `in_tx!`.
#[macro_use]
mod query;

mod appends;
mod community;
mod held;
mod leases;
mod log;
mod matches;
mod moderation;
mod notices;
mod players;
mod schema;
mod store;
mod tournaments;

use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use super::{BoxFuture, DatabaseError, StoreError};
use held::Held;
use schema::migrate;

/// The pool's default size (`plateau serve --database-pool`): concurrent transactions beyond it
/// wait for a free connection. Each node opens one more connection to listen on, so four nodes
/// use 4 x 17 = 68 of a default PostgreSQL's 100 (`max_connections`), leaving room for its
/// reserved connections and an operator's sessions (docs/deploy.md).
pub const DEFAULT_POOL: usize = 16;

/// Longest wait for a pooled connection (all busy, or the server slow to accept a new one),
/// and for a check of a pooled connection before it is reused: a call then fails with
/// `Database` rather than hang while the database is away.
const POOL_WAIT: Duration = Duration::from_secs(5);

/// Longest wait for a lock held by another session (see the module comment).
const LOCK_TIMEOUT: &str = "5s";

/// Longest wait to connect when the URL names none (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// PostgreSQL behind a pool of connections. Cheap to share (`Arc<PgStore>`).
pub struct PgStore {
    pool: Pool,
    /// The database's node secret (`Store::node_secret`).
    secret: String,
    /// The node whose lease every write of a match needs, once a lobby drives matches through
    /// this store (`Store::drive_as`).
    driver: std::sync::OnceLock<String>,
    /// The leases this node holds: per match, the epoch it took and until when its lease is
    /// surely its own by this process's clock (`Store::lease_deadline`).
    held: std::sync::Mutex<std::collections::HashMap<String, Held>>,
    /// This process among any of the same node name (`Store::claim_node`): 32 random hex digits.
    instance: String,
    /// How to connect, for `listen`'s own connection.
    config: tokio_postgres::Config,
    /// The queue of the appends' writer (`appends`), until `close`.
    appends: std::sync::Mutex<Option<tokio::sync::mpsc::UnboundedSender<appends::Append>>>,
    /// The appends' writer, which `close` waits for.
    writer: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl PgStore {
    /// Connects to the server a `postgres://` or `postgresql://` URL names (libpq's URL form,
    /// e.g. `postgres://plateau:secret@db.example:5432/plateau` or, over a Unix socket,
    /// `postgres://plateau@/plateau?host=/run/postgresql`), checks that it answers, and applies
    /// the migrations.
    ///
    /// # Errors
    /// `Database` with a clear message when the URL cannot be read, the server cannot be reached
    /// or refuses the login, or a migration fails.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        PgStore::open_pooled(url, DEFAULT_POOL).await
    }

    /// `open` with at most `pool` connections (at least 2): one for the appends' writer, the
    /// others pooled for every other call.
    ///
    /// # Errors
    /// As `open`.
    pub async fn open_pooled(url: &str, pool: usize) -> Result<PgStore, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError::Setup(format!("bad PostgreSQL URL `{}`: {e}", redact(url))))?;
        // Durable commits and bounded lock waits, after whatever options the URL gives.
        let options = format!(
            "{} -c synchronous_commit=on -c lock_timeout={LOCK_TIMEOUT}",
            config.get_options().unwrap_or("")
        );
        config.options(options.trim_start());
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("plateau");
        }
        // The appends' writer has a connection of its own, taken from the pool's size, on
        // which its statements are planned once (`appends::together`).
        let mut writing = config.clone();
        writing.options(format!(
            "{} -c plan_cache_mode=force_generic_plan",
            options.trim_start()
        ));
        let pool_of = |config: tokio_postgres::Config, size: usize| {
            let manager = Manager::from_config(
                config,
                NoTls,
                ManagerConfig {
                    // Checks a connection before reusing it, so a server restart costs one
                    // failed check, not one failed write.
                    recycling_method: RecyclingMethod::Fast,
                },
            );
            Pool::builder(manager)
                .max_size(size)
                .runtime(deadpool_postgres::Runtime::Tokio1)
                .wait_timeout(Some(POOL_WAIT))
                .recycle_timeout(Some(POOL_WAIT))
                .build()
                .map_err(|e| StoreError::Setup(format!("PostgreSQL pool: {e}")))
        };
        let pool = pool_of(config.clone(), pool.saturating_sub(1).max(1))?;
        let writer_pool = pool_of(writing, 1)?;
        let mut client = pool.get().await.map_err(|source| DatabaseError::Connect {
            at: redact(url),
            source,
        })?;
        migrate(&mut client).await?;
        let secret = leases::secret(&client).await?;
        drop(client);
        let (queue, waiting) = tokio::sync::mpsc::unbounded_channel();
        let writer = tokio::spawn(appends::writer(writer_pool, waiting));
        Ok(PgStore {
            appends: std::sync::Mutex::new(Some(queue)),
            writer: std::sync::Mutex::new(Some(writer)),
            pool,
            secret,
            driver: std::sync::OnceLock::new(),
            held: std::sync::Mutex::default(),
            instance: hex::encode(rand::random::<[u8; 16]>()),
            config,
        })
    }
}

/// A future that fails at once with `e`.
fn failed<T: Send + 'static>(e: StoreError) -> BoxFuture<'static, Result<T, StoreError>> {
    Box::pin(async move { Err(e) })
}

/// `url` without its password (`user:***@host`), for messages and logs; other text unchanged.
#[must_use]
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => {
            let userinfo = &rest[..at];
            let user = userinfo.split(':').next().unwrap_or("");
            let hidden = if userinfo.contains(':') { ":***" } else { "" };
            format!("{scheme}://{user}{hidden}{}", &rest[at..])
        }
        None => url.to_owned(),
    }
}
