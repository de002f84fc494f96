//! The SQL of the leases (docs/architecture.md section 5.3): one row per match some node drives,
//! with the node's name, its address and when the lease expires. Times come from the database's
//! clock, so the nodes' clocks need not agree.

use deadpool_postgres::GenericClient;

use super::{col, row, rows};
use crate::store::{Node, StoreError};

/// Takes the lease or renews one's own: a row written unless another node holds one that has not
/// expired. `$4` is the time to live in seconds.
const TAKE: &str = "INSERT INTO match_leases (match_id, node, address, expires_at) \
     SELECT id, $2, $3, now() + make_interval(secs => $4) FROM unnest($1::text[]) AS id \
     ON CONFLICT (match_id) DO UPDATE \
     SET node = EXCLUDED.node, address = EXCLUDED.address, expires_at = EXCLUDED.expires_at \
     WHERE match_leases.node = EXCLUDED.node OR match_leases.expires_at < now() \
     RETURNING match_id";

/// Takes or renews `node`'s leases on `ids` for `ttl` seconds; returns the ids it holds now.
/// The ids are taken in order, so two nodes renewing overlapping sets never wait on each other
/// in a cycle.
pub(super) async fn take(
    tx: &impl GenericClient,
    mut ids: Vec<String>,
    node: &Node,
    ttl: f64,
) -> Result<Vec<String>, StoreError> {
    ids.sort_unstable();
    ids.dedup();
    rows(tx, TAKE, &[&ids, &node.name, &node.address, &ttl])
        .await?
        .iter()
        .map(|r| col(r, 0))
        .collect()
}

/// The node holding match `id`'s lease, if any.
pub(super) async fn holder(tx: &impl GenericClient, id: &str) -> Result<Option<Node>, StoreError> {
    let found = row(
        tx,
        "SELECT node, address FROM match_leases WHERE match_id = $1",
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

/// Gives up `node`'s leases on `ids`: deleted, or with `hand_over` left expired (`orphans`).
pub(super) async fn release(
    tx: &impl GenericClient,
    ids: &[String],
    node: &Node,
    hand_over: bool,
) -> Result<(), StoreError> {
    let sql = if hand_over {
        "UPDATE match_leases SET expires_at = now() - interval '1 second' \
         WHERE node = $1 AND match_id = ANY($2)"
    } else {
        "DELETE FROM match_leases WHERE node = $1 AND match_id = ANY($2)"
    };
    super::exec(tx, sql, &[&node.name, &ids]).await.map(|_| ())
}

/// The address of a node named `node.name` at another address with a lease not expired.
pub(super) async fn node_in_use(
    tx: &impl GenericClient,
    node: &Node,
) -> Result<Option<String>, StoreError> {
    row(
        tx,
        "SELECT address FROM match_leases WHERE node = $1 AND address <> $2 \
         AND expires_at > now() LIMIT 1",
        &[&node.name, &node.address],
    )
    .await?
    .map(|r| col(&r, 0))
    .transpose()
}

/// Up to `limit` expired leases, oldest first.
pub(super) async fn orphans(
    tx: &impl GenericClient,
    limit: usize,
) -> Result<Vec<String>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    rows(
        tx,
        "SELECT match_id FROM match_leases WHERE expires_at < now() \
         ORDER BY expires_at LIMIT $1",
        &[&limit],
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
    super::exec(
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
