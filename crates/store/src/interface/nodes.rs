//! The store's calls for several nodes on one database (docs/architecture.md section 5.3):
//! leases on matches, the nodes' names and heartbeats, notices between nodes. Each has the
//! answer of a store only one process opens (SQLite) as its default.

use std::time::Duration;

use super::future::BoxFuture;
use crate::error::StoreError;

/// Leases, nodes and notices (part of `Store`).
pub trait NodeStore: Send + Sync {
    /// Takes match `id`'s lease for `node` (docs/architecture.md section 5.3): the lease is
    /// `node`'s for `ttl` from the database's clock, with an epoch one more than the last one
    /// taken for the match, unless another node holds one that has not expired. `None` = it is
    /// `node`'s now (the store remembers its epoch, and conditions this node's writes for the
    /// match on it); `Some(holder)` = `holder` drives the match. A store that only one process
    /// opens (SQLite) always answers `None`.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn lease(
        &self,
        id: &str,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let _ = (id, node, ttl);
        Box::pin(async { Ok(None) })
    }

    /// Renews for `ttl` the leases `node` holds on `ids`, each only if its row still holds the
    /// epoch this store took (never taking or making a row again: a lease another node took, or
    /// one given up, stays so), and only while `node`'s name is still this process's (read, not
    /// beaten: `heartbeat` does that). Answers the ids `node` no longer holds; the store forgets
    /// them.
    ///
    /// # Errors
    /// `Database` when the database does not answer (then nothing was renewed); `LeaseLost` when
    /// another process took `node`'s name (it had not beaten for `ttl`): every lease is lost.
    fn renew(
        &self,
        ids: Vec<String>,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let _ = (ids, node, ttl);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Beats the heartbeat of `node`'s name (`claim_node`), so no other process may claim it
    /// while this one lives, and answers the live nodes: those whose heartbeat is younger than
    /// `ttl`, `node` among them, by name. Its own statement, apart from the renewals: they only
    /// read the name, so they never queue on its row. A store only one process opens answers
    /// `node` alone.
    ///
    /// # Errors
    /// `Database` when the database does not answer; `LeaseLost` when another process took
    /// `node`'s name (this one had not beaten for the time to live): every lease is lost, and
    /// the store forgets them.
    fn heartbeat(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<Node>, StoreError>> {
        let (live, _) = (vec![node.clone()], ttl);
        Box::pin(async move { Ok(live) })
    }

    /// Until when, by this process's own clock (`tokio::time::Instant`), the lease on match `id`
    /// is surely still this node's: `ttl` after the start of its last taking or renewal that
    /// succeeded (the database counts its `ttl` from a later instant, and another node takes an
    /// expired lease only later still). A past instant when this node does not hold it; `None`
    /// for a store only one process opens (no lease is needed).
    fn lease_deadline(&self, id: &str) -> Option<tokio::time::Instant> {
        let _ = id;
        None
    }

    /// Gives up `node`'s leases on `ids` (its actors stopped), so another node may take them at
    /// once. With `hand_over` they stay as expired leases (`orphans`), so another node takes the
    /// matches over without waiting for a client (a node that stops while its matches run);
    /// without, they rest (no node drives them until one is asked for them). The row stays,
    /// with its epoch, so the next epoch is larger still. The store forgets them either way.
    ///
    /// # Errors
    /// `Database` when the database does not answer (the leases then expire by themselves).
    fn release(
        &self,
        ids: Vec<String>,
        node: &Node,
        hand_over: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let _ = (ids, node, hand_over);
        Box::pin(async { Ok(()) })
    }

    /// The node driving match `id` now, as the database says: `None` when none does (never
    /// driven, resting, or a store only one process opens).
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn holder(&self, id: &str) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let _ = id;
        Box::pin(async { Ok(None) })
    }

    /// Claims `node`'s name for this process: its row in the table of nodes, with a heartbeat
    /// `heartbeat` beats. Taken when free, or when its last heartbeat is older than `ttl` (an
    /// earlier run, killed). `None` = claimed; `Some(address)` = a live process of that name runs
    /// at `address`.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn claim_node(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        let _ = (node, ttl);
        Box::pin(async { Ok(None) })
    }

    /// Up to `limit` matches whose lease expired without being given up: their node stopped
    /// renewing (it died, stalled, or lost the database), oldest first. Those of `node` itself
    /// as soon as they expire; another node's only once expired for `grace` more, so that after
    /// an outage each node takes its own matches back first.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn orphans(
        &self,
        node: &Node,
        grace: Duration,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let _ = (node, grace, limit);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// From now on every write of a match (`append`, `take_back`, a seat taken or opened, a chat
    /// line) commits only while `node` holds the match's lease at the epoch this store took
    /// (docs/architecture.md section 5.3): a node that lost a lease gets `LeaseLost` and writes
    /// nothing. Set once, by the lobby that drives matches through this store; a store only one
    /// process opens ignores it.
    fn drive_as(&self, node: &Node) {
        let _ = node;
    }

    /// Tells every node listening on `channel` (this one included) `payload`: PostgreSQL's
    /// `NOTIFY`, sent once committed. A store only one process opens has nobody to tell.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn notify(
        &self,
        channel: &'static str,
        payload: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let _ = (channel, payload);
        Box::pin(async { Ok(()) })
    }

    /// What every node `notify`s on `channels`, as `(channel, payload)`, from now on: `None`
    /// for a store only one process opens. Listens on a connection of its own, opened again
    /// (every second) while the database does not answer; what was sent meanwhile is missed.
    fn listen(
        &self,
        channels: &[&'static str],
    ) -> Option<tokio::sync::mpsc::UnboundedReceiver<(String, String)>> {
        let _ = channels;
        None
    }

    /// The secret the nodes of one database share, to trust what another node forwards (the
    /// client's address): `None` for a store only one process opens.
    fn node_secret(&self) -> Option<&str> {
        None
    }
}

/// A `plateau serve` process among those on one database: its name and the address
/// (`host:port`) the other nodes reach it at (docs/architecture.md section 5.3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Node {
    /// Unique among the nodes of one database (`--node`).
    pub name: String,
    /// `host:port` the other nodes connect to (`--advertise`), empty if none.
    pub address: String,
}
