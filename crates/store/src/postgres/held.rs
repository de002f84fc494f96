//! The leases this node holds on matches (docs/architecture.md section 5.3), as this process keeps
//! them: each one's epoch, which fences the node's writes of the match, and until when it is
//! surely the node's own. The statements on the table of leases are in `leases`.

use std::time::Duration;

use deadpool_postgres::GenericClient;

use super::query::pool_error;
use super::{PgStore, leases};
use crate::{BoxFuture, Node, StoreError};

/// A lease this node holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    epoch: i64,
    /// The start of the last taking or renewal that succeeded, plus the time to live.
    until: tokio::time::Instant,
}

impl PgStore {
    /// What a write of match `id` is conditioned on: `None` before a lobby drives matches
    /// through this store; else this node and the epoch of its lease on `id`.
    ///
    /// # Errors
    /// `LeaseLost` when this node holds no lease on `id` (never taken, given up, or lost).
    pub(super) fn fence_of(&self, id: &str) -> Result<Option<(String, i64)>, StoreError> {
        let Some(node) = self.driver.get() else {
            return Ok(None);
        };
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match held.get(id) {
            Some(h) => Ok(Some((node.clone(), h.epoch))),
            None => Err(leases::lost(id, node)),
        }
    }

    /// Another process took `node`'s name (this one had not beaten its heartbeat for the time
    /// to live): every lease is forgotten, and the error says so.
    fn name_lost(&self, node: &Node) -> StoreError {
        self.held.lock().unwrap_or_else(|e| e.into_inner()).clear();
        StoreError::LeaseLost(format!(
            "another process took the node name `{}`",
            node.name
        ))
    }

    /// Beats this node's heartbeat and reads the live nodes (`Store::heartbeat`).
    pub(super) fn beat(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<Node>, StoreError>> {
        let node = node.clone();
        Box::pin(async move {
            let client = self.pool.get().await.map_err(pool_error)?;
            let live = leases::heartbeat(&client, &node, &self.instance, ttl.as_secs_f64()).await;
            drop(client);
            live?.ok_or_else(|| self.name_lost(&node))
        })
    }

    /// The leases this node holds on `ids`, with their epochs.
    fn held_of(&self, ids: &[String]) -> Vec<(String, i64)> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        ids.iter()
            .filter_map(|id| held.get(id).map(|h| (id.clone(), h.epoch)))
            .collect()
    }

    /// Takes match `id`'s lease for `node` (`Store::lease`), remembering its epoch.
    pub(super) fn take_lease(
        &self,
        id: &str,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let (id, node) = (id.to_owned(), node.clone());
        Box::pin(async move {
            let sent = tokio::time::Instant::now();
            let secs = ttl.as_secs_f64();
            let key = id.clone();
            // No transaction: each statement is its own, so taking a free lease is one round
            // trip.
            let taken: Result<Result<i64, Node>, StoreError> = one_statement!(self, |c| {
                let id = key;
                let mut answer = Err(StoreError::Conflict(format!("lease of {id} changing")));
                // Twice at most: a lease given up between the two statements is taken at the
                // second.
                for _ in 0..2 {
                    answer = match leases::take(&c, &id, &node, secs).await {
                        Ok(Some(epoch)) => Ok(Ok(epoch)),
                        Ok(None) => match leases::holder(&c, &id).await {
                            Ok(Some(holder)) => Ok(Err(holder)),
                            Ok(None) => continue,
                            Err(e) => Err(e),
                        },
                        Err(e) => Err(e),
                    };
                    break;
                }
                answer
            })
            .await;
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            match taken? {
                Ok(epoch) => {
                    let until = sent + ttl;
                    held.insert(id, Held { epoch, until });
                    Ok(None)
                }
                Err(holder) => {
                    held.remove(&id);
                    Ok(Some(holder))
                }
            }
        })
    }

    /// Renews `node`'s leases on `ids` and forgets those lost (`Store::renew`).
    pub(super) fn renew_leases(
        &self,
        ids: Vec<String>,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let node = node.clone();
        let mine = self.held_of(&ids);
        Box::pin(async move {
            let sent = tokio::time::Instant::now();
            let instance = self.instance.clone();
            let secs = ttl.as_secs_f64();
            // One statement, no transaction around it: one round trip.
            let client = self.pool.get().await.map_err(pool_error)?;
            let renewed = leases::renew(&client, &mine, &node, &instance, secs).await;
            drop(client);
            let Some(renewed) = renewed? else {
                return Err(self.name_lost(&node));
            };
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            let mut lost = Vec::new();
            for id in ids {
                let kept = renewed.contains(&id)
                    && mine
                        .iter()
                        .any(|(m, e)| *m == id && held.get(m).is_some_and(|h| h.epoch == *e));
                if kept {
                    if let Some(h) = held.get_mut(&id) {
                        h.until = sent + ttl;
                    }
                } else {
                    held.remove(&id);
                    lost.push(id);
                }
            }
            Ok(lost)
        })
    }

    /// Until when the lease on `id` is surely this node's (`Store::lease_deadline`).
    pub(super) fn deadline_of(&self, id: &str) -> Option<tokio::time::Instant> {
        self.driver.get()?;
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        // Not held: a deadline already past.
        Some(held.get(id).map_or_else(
            || tokio::time::Instant::now() - Duration::from_millis(1),
            |h| h.until,
        ))
    }

    /// Forgets the leases on `ids` and gives them up (`Store::release`).
    pub(super) fn release_leases(
        &self,
        ids: Vec<String>,
        node: &Node,
        hand_over: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let node = node.clone();
        let mine = self.held_of(&ids);
        {
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            for id in &ids {
                held.remove(id);
            }
        }
        one_statement!(self, |c| leases::release(&c, &mine, &node, hand_over).await)
    }
}

/// Checks, in transaction `tx`, that this node still holds match `id`'s lease at the epoch of
/// `fence` (`PgStore::fence_of`; `None`: nothing to check), share-locking it until the commit.
pub(super) async fn fenced(
    tx: &impl GenericClient,
    id: &str,
    fence: Option<&(String, i64)>,
) -> Result<(), StoreError> {
    match fence {
        Some((node, epoch)) => leases::fence(tx, id, node, *epoch).await,
        None => Ok(()),
    }
}
