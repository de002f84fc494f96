//! `Store`, `MatchStore` and `NodeStore` for `PgStore` (the other parts in `community`): each
//! call one transaction on a pooled connection (`in_tx!`), or one statement, its own
//! transaction, where the call is one (`one_statement!`); a write of a match fenced by this
//! node's lease on it (`held`); the appends without an outcome go to the appends' writer
//! (`appends`).

use std::time::Duration;

use plateau_engine::LogEntry;
use tokio_postgres::IsolationLevel;

use super::held::fenced;
use super::query::{col, db, exec, pool_error, row};
use super::{PgStore, appends, failed, leases, log, matches};
use crate::model::Status;
use crate::players::PlayerId;
use crate::{
    BoxFuture, ChatLine, Created, DatabaseError, Derived, Finish, MatchStore, Node, NodeStore,
    Store, StoreError, StoredMatch, sql,
};

/// A write of match `$id` (a `String` the body names too) in one transaction, fenced: returns a
/// failed future at once when this node holds no lease on it, else checks the lease's epoch in the
/// transaction (`fenced`) before `$body`.
macro_rules! fenced_tx {
    ($store:expr, $id:ident, |$tx:ident| $body:expr) => {{
        let fence = match $store.fence_of(&$id) {
            Ok(f) => f,
            Err(e) => return failed(e),
        };
        in_tx!($store, false, |$tx| {
            match fenced(&$tx, &$id, fence.as_ref()).await {
                Ok(()) => $body,
                Err(e) => Err(e),
            }
        })
    }};
}

impl Store for PgStore {
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        let pool = self.pool.clone();
        Box::pin(async move {
            let client = pool.get().await.map_err(pool_error)?;
            client.simple_query(sql::PING).await.map_err(db)?;
            Ok(())
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            // The node's name is free at once for its next start.
            if let Some(name) = self.driver.get().cloned() {
                let instance = self.instance.clone();
                let left: Result<(), StoreError> =
                    in_tx!(self, false, |tx| leases::leave(&tx, &name, &instance).await).await;
                if let Err(e) = left {
                    tracing::debug!(error = %e, "node name not freed: it frees itself");
                }
            }
            // The appends queued are written first.
            self.appends
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            let writer = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(writer) = writer {
                let _ = writer.await;
            }
            // Every call holds its connection until its transaction ends, so closing the pool
            // only refuses new calls and drops idle connections; the writes in progress finish.
            self.pool.close();
        })
    }
}

impl MatchStore for PgStore {
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| matches::create(&c, &m).await)
    }

    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        let fence = match self.fence_of(&id) {
            Ok(f) => f,
            Err(e) => return failed(e),
        };
        one_statement!(self, |c| matches::take_seat(
            &c,
            &id,
            seat,
            &token_hash,
            player,
            fence.as_ref().map(|(n, e)| (n.as_str(), *e))
        )
        .await)
    }

    fn open_seat(
        &self,
        id: &str,
        seat: u8,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        let fence = match self.fence_of(&id) {
            Ok(f) => f,
            Err(e) => return failed(e),
        };
        let Some((node, epoch)) = fence else {
            return in_tx!(self, false, |tx| matches::open_seat(&tx, &id, seat, start)
                .await);
        };
        let pool = self.pool.clone();
        Box::pin(async move {
            let client = pool.get().await.map_err(pool_error)?;
            matches::open_seat_fenced(&client, &id, seat, start, (&node, epoch)).await
        })
    }

    fn append(
        &self,
        id: &str,
        first: u64,
        entries: Vec<LogEntry>,
        finish: Option<Finish>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        let fence = match self.fence_of(&id) {
            Ok(f) => f,
            Err(e) => return failed(e),
        };
        if finish.is_none() {
            // The common write: to the appends' writer, which commits the appends waiting
            // together (`appends`).
            let rows = match log::action_rows(&id, first, &entries) {
                Ok(rows) => rows,
                Err(e) => return failed(e),
            };
            let (reply, answer) = tokio::sync::oneshot::channel();
            let append = appends::Append {
                id,
                rows,
                fence,
                reply,
            };
            let sent = self
                .appends
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .is_some_and(|queue| queue.send(append).is_ok());
            return Box::pin(async move {
                if !sent {
                    return Err(DatabaseError::Closed.into());
                }
                answer
                    .await
                    .unwrap_or_else(|_| Err(DatabaseError::Closed.into()))
            });
        }
        in_tx!(self, false, |tx| log::append(
            &tx,
            &id,
            first,
            &entries,
            finish.as_ref(),
            fence.as_ref().map(|(n, e)| (n.as_str(), *e))
        )
        .await)
    }

    fn take_back(&self, id: &str, from: u64) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        let fence = match self.fence_of(&id) {
            Ok(f) => f,
            Err(e) => return failed(e),
        };
        in_tx!(self, false, |tx| log::take_back(
            &tx,
            &id,
            from,
            fence.as_ref().map(|(n, e)| (n.as_str(), *e))
        )
        .await)
    }

    fn derived(
        &self,
        id: String,
        kind: Derived,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        one_statement!(self, |c| {
            match row(&c, sql::DERIVED, &[&id, &kind.as_str()]).await {
                Ok(Some(r)) => col(&r, 0).map(Some),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            }
        })
    }

    fn put_derived(
        &self,
        id: String,
        kind: Derived,
        body: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| exec(
            &c,
            sql::INSERT_DERIVED,
            &[&id, &kind.as_str(), &body],
        )
        .await
        .map(|_| ()))
    }

    fn add_chat(&self, id: &str, line: ChatLine) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        fenced_tx!(self, id, |tx| matches::add_chat(&tx, &id, &line).await)
    }

    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        let (id, rematch) = (id.to_owned(), rematch.to_owned());
        one_statement!(self, |c| exec(&c, sql::SET_REMATCH, &[&rematch, &id],)
            .await
            .map(|_| ()))
    }

    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>> {
        let id = id.to_owned();
        if !with_log {
            return one_statement!(self, |c| matches::get_seated(&c, &id).await);
        }
        in_tx!(self, true, |tx| matches::get_match(&tx, &id, true).await)
    }

    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        in_tx!(self, true, |tx| matches::list(&tx, &statuses, limit).await)
    }

    fn created_by(&self, creator: String) -> BoxFuture<'_, Result<Created, StoreError>> {
        in_tx!(self, true, |tx| matches::created_by(&tx, &creator).await)
    }

    fn running_with_clock(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        in_tx!(self, true, |tx| matches::running_with_clock(&tx).await)
    }

    fn call_off(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        let pool = self.pool.clone();
        let key = id.clone();
        let called_off = fenced_tx!(self, id, |tx| matches::call_off(&tx, &id).await);
        Box::pin(async move {
            match called_off.await {
                // Deleting a match gives its lease up to rest (`matches::delete_matches`): a
                // match gone already is not called off, whoever deleted it.
                Err(StoreError::LeaseLost(why)) => {
                    let client = pool.get().await.map_err(pool_error)?;
                    match matches::get_seated(&client, &key).await? {
                        None => Ok(false),
                        Some(_) => Err(StoreError::LeaseLost(why)),
                    }
                }
                answer => answer,
            }
        })
    }

    fn expire_open(&self, created_before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        in_tx!(self, false, |tx| matches::expire_open(&tx, created_before)
            .await)
    }

    fn player_matches(
        &self,
        player: PlayerId,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        in_tx!(self, true, |tx| matches::player_matches(
            &tx, player, &statuses, limit
        )
        .await)
    }
}

impl NodeStore for PgStore {
    fn lease(
        &self,
        id: &str,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        self.take_lease(id, node, ttl)
    }

    fn renew(
        &self,
        ids: Vec<String>,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.renew_leases(ids, node, ttl)
    }

    fn heartbeat(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<Node>, StoreError>> {
        self.beat(node, ttl)
    }

    fn lease_deadline(&self, id: &str) -> Option<tokio::time::Instant> {
        self.deadline_of(id)
    }

    fn release(
        &self,
        ids: Vec<String>,
        node: &Node,
        hand_over: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.release_leases(ids, node, hand_over)
    }

    fn holder(&self, id: &str) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let id = id.to_owned();
        one_statement!(self, |c| leases::holder(&c, &id).await)
    }

    fn claim_node(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        let (node, instance) = (node.clone(), self.instance.clone());
        in_tx!(self, false, |tx| leases::claim_node(
            &tx,
            &node,
            &instance,
            ttl.as_secs_f64()
        )
        .await)
    }

    fn orphans(
        &self,
        node: &Node,
        grace: Duration,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let name = node.name.clone();
        one_statement!(self, |c| leases::orphans(
            &c,
            &name,
            grace.as_secs_f64(),
            limit
        )
        .await)
    }

    fn node_secret(&self) -> Option<&str> {
        Some(&self.secret)
    }

    fn drive_as(&self, node: &Node) {
        let _ = self.driver.set(node.name.clone());
    }

    fn notify(
        &self,
        channel: &'static str,
        payload: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.notify_nodes(channel, payload)
    }

    fn listen(
        &self,
        channels: &[&'static str],
    ) -> Option<tokio::sync::mpsc::UnboundedReceiver<(String, String)>> {
        self.listen_nodes(channels)
    }
}
