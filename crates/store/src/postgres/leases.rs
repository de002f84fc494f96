//! The SQL of the leases (docs/architecture.md section 5.3): one row per match some node drives,
//! with the node's name, its address and when the lease expires. Times come from the database's
//! clock, so the nodes' clocks need not agree.

use deadpool_postgres::GenericClient;

use super::query::{col, row, rows};
use crate::{Node, StoreError};

/// Takes the lease: a row written (or taken over with the next epoch) unless another node holds
/// one that has not expired. `$4` is the time to live in seconds. A resting lease has expired.
const TAKE: &str = "INSERT INTO match_leases (match_id, node, address, expires_at, epoch, resting) \
     VALUES ($1, $2, $3, now() + make_interval(secs => $4), 1, FALSE) \
     ON CONFLICT (match_id) DO UPDATE \
     SET node = EXCLUDED.node, address = EXCLUDED.address, expires_at = EXCLUDED.expires_at, \
     epoch = match_leases.epoch + 1, resting = FALSE \
     WHERE match_leases.node = EXCLUDED.node OR match_leases.expires_at < now() \
     RETURNING epoch";

/// Takes `node`'s lease on match `id` for `ttl` seconds: its epoch, or `None` when another node
/// holds it.
pub(super) async fn take(
    tx: &impl GenericClient,
    id: &str,
    node: &Node,
    ttl: f64,
) -> Result<Option<i64>, StoreError> {
    row(tx, TAKE, &[&id, &node.name, &node.address, &ttl])
        .await?
        .map(|r| col(&r, 0))
        .transpose()
}

/// The ids and epochs of `held`, in the order of the ids: the statements that lock several
/// leases find each by its key in a lateral subquery, a loop over the leases in the order given
/// (whatever statistics the planner has; with a join it scanned the whole table while small),
/// so that they all lock in one order and never wait on each other in a cycle.
fn in_order(held: &[(String, i64)]) -> (Vec<&str>, Vec<i64>) {
    let mut sorted: Vec<(&str, i64)> = held.iter().map(|(i, e)| (i.as_str(), *e)).collect();
    sorted.sort_unstable();
    sorted.into_iter().unzip()
}

/// Renews `node`'s leases on `held` (match id and epoch) for `ttl` seconds, each only while its
/// row still names `node` at that epoch and is not resting, and only while process `instance`
/// holds the name `node` (`claim_node`): an update, never an insert, so a lease another node
/// took or gave up is never made again. The rows are locked in the order of their ids, so two
/// nodes never wait on each other in a cycle. One statement: the name is read, not written (the
/// heartbeat is `heartbeat`'s, on its own timer), so renewals never queue on the node's row.
/// `None` when another process took the name; else the ids renewed.
pub(super) async fn renew(
    c: &impl GenericClient,
    held: &[(String, i64)],
    node: &Node,
    instance: &str,
    ttl: f64,
) -> Result<Option<Vec<String>>, StoreError> {
    let (ids, epochs) = in_order(held);
    let r = row(
        c,
        "WITH named AS (SELECT 1 FROM plateau_nodes WHERE name = $3 AND instance = $5), \
         mine AS (SELECT l.match_id FROM unnest($1::text[], $2::bigint[]) AS h(id, epoch) \
         CROSS JOIN LATERAL (SELECT match_id FROM match_leases \
         WHERE match_id = h.id AND epoch = h.epoch AND node = $3 AND NOT resting \
         AND EXISTS (SELECT 1 FROM named) FOR UPDATE) AS l), \
         renewed AS (UPDATE match_leases SET expires_at = now() + make_interval(secs => $4) \
         WHERE match_id IN (SELECT match_id FROM mine) RETURNING match_id) \
         SELECT EXISTS (SELECT 1 FROM named), ARRAY(SELECT match_id FROM renewed)",
        &[&ids, &epochs, &node.name, &ttl, &instance],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("a renewal answered no row".into()))?;
    if !col::<bool>(&r, 0)? {
        return Ok(None);
    }
    col(&r, 1).map(Some)
}

/// The node holding match `id`'s lease, if any (a resting lease has none).
pub(super) async fn holder(tx: &impl GenericClient, id: &str) -> Result<Option<Node>, StoreError> {
    let found = row(
        tx,
        "SELECT node, address FROM match_leases WHERE match_id = $1 AND NOT resting",
        &[&id],
    )
    .await?;
    found
        .map(|r| {
            Ok(Node {
                name: col(&r, 0)?,
                address: col(&r, 1)?,
            })
        })
        .transpose()
}

/// Gives up `node`'s leases on `held` (match id and epoch): expired long enough ago that any
/// node takes them over at once (`hand_over`), or resting. Rows another node took since are left.
/// The rows are locked in the order of their ids, as `renew` and a group of appends lock them,
/// so a node stopping with many matches never waits in a cycle with another's writes.
pub(super) async fn release(
    tx: &impl GenericClient,
    held: &[(String, i64)],
    node: &Node,
    hand_over: bool,
) -> Result<(), StoreError> {
    let (ids, epochs) = in_order(held);
    super::query::exec(
        tx,
        "WITH mine AS (SELECT l.match_id FROM unnest($1::text[], $2::bigint[]) AS h(id, epoch) \
         CROSS JOIN LATERAL (SELECT match_id FROM match_leases \
         WHERE match_id = h.id AND epoch = h.epoch AND node = $3 FOR UPDATE) AS l) \
         UPDATE match_leases SET expires_at = now() - interval '1 hour', resting = NOT $4 \
         WHERE match_id IN (SELECT match_id FROM mine)",
        &[&ids, &epochs, &node.name, &hand_over],
    )
    .await
    .map(|_| ())
}

/// Whether a write of match `id` may commit: `node` holds its lease at `epoch`. The row is
/// share-locked until the transaction ends, so a node taking the lease over waits for this
/// write to commit before it reads the log.
pub(super) async fn fence(
    tx: &impl GenericClient,
    id: &str,
    node: &str,
    epoch: i64,
) -> Result<(), StoreError> {
    let held = row(
        tx,
        "SELECT 1 FROM match_leases WHERE match_id = $1 AND node = $2 AND epoch = $3 \
         AND NOT resting FOR SHARE",
        &[&id, &node, &epoch],
    )
    .await?;
    match held {
        Some(_) => Ok(()),
        None => Err(lost(id, node)),
    }
}

/// The error of a write refused because `node` no longer holds match `id`'s lease.
pub(super) fn lost(id: &str, node: &str) -> StoreError {
    StoreError::LeaseLost(format!(
        "match {id}: node `{node}` no longer holds its lease"
    ))
}

/// Claims node name `node.name` for the process `instance`: free, or its last heartbeat older
/// than `ttl` seconds. `None` = claimed; `Some(address)` = a live process has it.
pub(super) async fn claim_node(
    tx: &impl GenericClient,
    node: &Node,
    instance: &str,
    ttl: f64,
) -> Result<Option<String>, StoreError> {
    let claimed = row(
        tx,
        "INSERT INTO plateau_nodes (name, address, instance, heartbeat_at) \
         VALUES ($1, $2, $3, now()) ON CONFLICT (name) DO UPDATE \
         SET address = EXCLUDED.address, instance = EXCLUDED.instance, heartbeat_at = now() \
         WHERE plateau_nodes.heartbeat_at < now() - make_interval(secs => $4) \
         RETURNING name",
        &[&node.name, &node.address, &instance, &ttl],
    )
    .await?;
    if claimed.is_some() {
        return Ok(None);
    }
    let r = row(
        tx,
        "SELECT address FROM plateau_nodes WHERE name = $1",
        &[&node.name],
    )
    .await?;
    Ok(Some(match r {
        Some(r) => col(&r, 0)?,
        None => String::new(),
    }))
}

/// Beats the heartbeat of node `node` for process `instance`, and reads the live nodes: those
/// whose heartbeat is younger than `ttl` seconds, `node` among them, by name. One statement.
/// `None` when another process took the name (this one's heartbeat had stopped for the time to
/// live).
pub(super) async fn heartbeat(
    c: &impl GenericClient,
    node: &Node,
    instance: &str,
    ttl: f64,
) -> Result<Option<Vec<Node>>, StoreError> {
    let r = row(
        c,
        "WITH beat AS (UPDATE plateau_nodes SET heartbeat_at = now() \
         WHERE name = $1 AND instance = $2 RETURNING name), \
         live AS (SELECT name, address FROM plateau_nodes \
         WHERE name <> $1 AND heartbeat_at > now() - make_interval(secs => $3)) \
         SELECT EXISTS (SELECT 1 FROM beat), ARRAY(SELECT name FROM live ORDER BY name), \
         ARRAY(SELECT address FROM live ORDER BY name)",
        &[&node.name, &instance, &ttl],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("a heartbeat answered no row".into()))?;
    if !col::<bool>(&r, 0)? {
        return Ok(None);
    }
    let (names, addresses): (Vec<String>, Vec<String>) = (col(&r, 1)?, col(&r, 2)?);
    let mut live: Vec<Node> = names
        .into_iter()
        .zip(addresses)
        .map(|(name, address)| Node { name, address })
        .chain(std::iter::once(node.clone()))
        .collect();
    live.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Some(live))
}

/// Frees node name `name` held by process `instance` (a node that stops), so it may start again
/// at once.
pub(super) async fn leave(
    tx: &impl GenericClient,
    name: &str,
    instance: &str,
) -> Result<(), StoreError> {
    super::query::exec(
        tx,
        "DELETE FROM plateau_nodes WHERE name = $1 AND instance = $2",
        &[&name, &instance],
    )
    .await
    .map(|_| ())
}

/// Up to `limit` expired leases not given up to rest, oldest first: `node`'s own at once,
/// another node's once expired `grace` seconds ago.
pub(super) async fn orphans(
    tx: &impl GenericClient,
    node: &str,
    grace: f64,
    limit: usize,
) -> Result<Vec<String>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    rows(
        tx,
        "SELECT match_id FROM match_leases WHERE NOT resting AND expires_at < now() \
         AND (node = $1 OR expires_at < now() - make_interval(secs => $2)) \
         ORDER BY expires_at LIMIT $3",
        &[&node, &grace, &limit],
    )
    .await?
    .iter()
    .map(|r| col(r, 0))
    .collect()
}

/// The database's node secret, made at the first start (64 hex digits from the operating
/// system's generator); every node reads the same one.
pub(super) async fn secret(tx: &impl GenericClient) -> Result<String, StoreError> {
    let fresh = hex::encode(rand::random::<[u8; 32]>());
    super::query::exec(
        tx,
        "INSERT INTO plateau_cluster (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
        &[&fresh],
    )
    .await?;
    let r = row(tx, "SELECT secret FROM plateau_cluster WHERE id = 1", &[])
        .await?
        .ok_or_else(|| StoreError::Corrupt("plateau_cluster has no secret".into()))?;
    col(&r, 0)
}
