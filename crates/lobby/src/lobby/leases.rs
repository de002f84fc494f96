//! Leases (docs/architecture.md section 5.3): on a database several nodes share, each match is
//! driven by the node holding its lease, for so long without renewal; `renewal` keeps them.

use std::time::Duration;

use super::state::Lobby;
use plateau_store::{Node, StoreError};

/// How long a lease lasts without renewal: a node that dies holds its matches this long at most.
pub const LEASE_TTL: Duration = Duration::from_secs(3);

/// How often a node renews its leases and looks for matches to take over.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// How long after its expiry another node's lease becomes an orphan this node takes over (its
/// own expired leases it takes back at once): after an outage every node's leases have expired
/// together, and each takes its own matches back before the others look.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(1);

impl Lobby {
    /// Takes this node's lease on match `id`: `None` when this node drives it now, else the
    /// node that does.
    pub(super) async fn lease(&self, id: &str) -> Result<Option<Node>, StoreError> {
        self.shared.store.lease(id, &self.node, LEASE_TTL).await
    }
}
