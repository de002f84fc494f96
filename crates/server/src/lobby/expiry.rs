//! Open matches nobody started within `Limits::open_expiry` are removed, their viewers told.

use super::state::Lobby;
use crate::actor::Command;
use crate::model::unix_ms;

impl Lobby {
    /// Removes the open matches nobody started within `Limits::open_expiry`, stopping their
    /// actors (whose viewers are told `match/expired`).
    pub(super) async fn expire_open(&self) {
        let before = unix_ms() - self.shared.options.limits.open_expiry.as_millis() as i64;
        match self.shared.store.expire_open(before).await {
            Ok(ids) => {
                if !ids.is_empty() {
                    tracing::info!(count = ids.len(), "open matches expired");
                }
                for id in ids {
                    if let Some(tx) = self.running(&id) {
                        let _ = tx.send(Command::Expired).await;
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "open matches not expired"),
        }
    }
}
