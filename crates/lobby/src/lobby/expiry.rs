//! Open matches nobody started within `Limits::open_expiry` are removed, their viewers told.

use std::sync::Weak;
use std::time::Duration;

use super::state::Lobby;
use crate::model::unix_ms;
use plateau_match::actor::Command;

impl Lobby {
    /// While the lobby lives and is not stopping: `expire_open` every quarter of
    /// `Limits::open_expiry` (at least 200 ms, at most a minute apart).
    pub(super) async fn sweep_open(lobby: Weak<Lobby>) {
        let Some(every) = lobby.upgrade().map(|l| {
            (l.options.limits.open_expiry / 4)
                .clamp(Duration::from_millis(200), Duration::from_secs(60))
        }) else {
            return;
        };
        loop {
            tokio::time::sleep(every).await;
            let Some(lobby) = lobby.upgrade() else {
                return;
            };
            if *lobby.shutdown.borrow() {
                return;
            }
            lobby.expire_open().await;
        }
    }

    /// Removes the open matches nobody started within `Limits::open_expiry`, stopping their
    /// actors (whose viewers are told `match/expired`).
    pub(super) async fn expire_open(&self) {
        let before = unix_ms() - self.options.limits.open_expiry.as_millis() as i64;
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
