//! Statements on a pooled connection: what their failures mean to the store, the transaction each
//! call runs in (`in_tx!`), and reading rows and columns.

use deadpool_postgres::GenericClient;

use crate::{DatabaseError, StoreError};

/// A failed statement: any integrity constraint (SQLSTATE class 23: unique key, foreign key,
/// check) is a `Conflict`, as SQLite's constraint violations are; the rest is `Database`.
pub(super) fn db(e: tokio_postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(d) if d.code().code().starts_with("23") => StoreError::Conflict(d.to_string()),
        _ => DatabaseError::Postgres(e).into(),
    }
}

pub(super) fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => db(e),
        e => DatabaseError::Pool(e).into(),
    }
}

pub(super) fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serializes")
}

pub(super) fn from_json<T: serde::de::DeserializeOwned>(
    what: &str,
    text: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// A non-negative count or position from a `BIGINT`/`INTEGER` column.
pub(super) fn unsigned<T: TryInto<u64> + Copy + std::fmt::Display>(
    what: &str,
    v: T,
) -> Result<u64, StoreError> {
    v.try_into()
        .map_err(|_| StoreError::Corrupt(format!("{what} {v} is negative")))
}

/// Runs `$body` (an expression that may `.await` and uses the transaction `$tx`) in one
/// transaction on a pooled connection: committed when it gives `Ok`, rolled back otherwise.
/// `$read` makes it a read-only snapshot. Expands to a `BoxFuture` that owns what it captures.
macro_rules! in_tx {
    ($store:expr, $read:expr, |$tx:ident| $body:expr) => {{
        let pool = $store.pool.clone();
        Box::pin(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let builder = client.build_transaction();
            let builder = if $read {
                builder
                    .isolation_level(IsolationLevel::RepeatableRead)
                    .read_only(true)
            } else {
                builder
            };
            let $tx = builder.start().await.map_err(db)?;
            let result = $body;
            match result {
                Ok(v) => {
                    $tx.commit().await.map_err(db)?;
                    Ok(v)
                }
                Err(e) => {
                    let _ = $tx.rollback().await;
                    Err(e)
                }
            }
        })
    }};
}

/// Runs `$body` (an expression that may `.await` and uses the pooled connection `$c`) outside a
/// transaction block, for a call that is one statement: PostgreSQL runs it as a transaction of
/// its own, so the call is one round trip rather than three (`BEGIN`, it, `COMMIT`). Expands to
/// a `BoxFuture` that owns what it captures.
macro_rules! one_statement {
    ($store:expr, |$c:ident| $body:expr) => {{
        let pool = $store.pool.clone();
        Box::pin(async move {
            let $c = pool.get().await.map_err(pool_error)?;
            $body
        })
    }};
}

/// Runs `sql` with `params`, ignoring the count of rows it changed.
pub(super) async fn exec(
    tx: &impl GenericClient,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<u64, StoreError> {
    let stmt = tx.prepare_cached(sql).await.map_err(db)?;
    tx.execute(&stmt, params).await.map_err(db)
}

/// The rows `sql` gives with `params`, through the connection's statement cache.
pub(super) async fn rows(
    tx: &impl GenericClient,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<tokio_postgres::Row>, StoreError> {
    let stmt = tx.prepare_cached(sql).await.map_err(db)?;
    tx.query(&stmt, params).await.map_err(db)
}

/// The row `sql` gives with `params`, if any.
pub(super) async fn row(
    tx: &impl GenericClient,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Option<tokio_postgres::Row>, StoreError> {
    let stmt = tx.prepare_cached(sql).await.map_err(db)?;
    tx.query_opt(&stmt, params).await.map_err(db)
}

/// Column `i` of `r`, as `T`.
pub(super) fn col<'a, T: tokio_postgres::types::FromSql<'a>>(
    r: &'a tokio_postgres::Row,
    i: usize,
) -> Result<T, StoreError> {
    r.try_get(i).map_err(db)
}
