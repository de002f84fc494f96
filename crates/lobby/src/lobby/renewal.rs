//! While the lobby lives on a database several nodes share (docs/architecture.md section 5.3):
//! renews the leases of the matches this node drives, stops those it lost or could not renew in
//! time (self-fencing), and takes over the matches whose node stopped renewing.

use tokio::sync::mpsc;

use super::leases::{LEASE_TTL, ORPHAN_GRACE, RENEW_EVERY};
use super::registry::Place;
use super::state::Lobby;
use plateau_match::actor::Command;
use plateau_store::StoreError;

impl Lobby {
    /// Self-fencing (docs/architecture.md section 5.3): stops every actor here whose lease was
    /// not renewed within its time by this process's own clock, database or not, so its
    /// sockets close and reconnect to whichever node drives the match next. (Each actor also
    /// checks its own before it serves anything, `MatchActor::run`.)
    fn fence_expired(&self) {
        let now = tokio::time::Instant::now();
        let expired: Vec<(String, mpsc::Sender<Command>)> = self
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, (_, tx))| !tx.is_closed())
            .filter(|(id, _)| {
                self.shared
                    .store
                    .lease_deadline(id)
                    .is_some_and(|until| until <= now)
            })
            .map(|(id, (_, tx))| (id.clone(), tx.clone()))
            .collect();
        for (id, tx) in expired {
            tracing::warn!(%id, "lease not renewed within its time: match unloaded here (self-fenced)");
            let _ = tx.try_send(Command::Moved);
        }
    }

    /// While the lobby lives, every `RENEW_EVERY`: renews the leases of the matches this node
    /// drives (stopping those another node took after they expired, so their viewers connect
    /// to it), then takes over the matches whose node stopped renewing (docs/architecture.md
    /// section 5.3).
    pub(super) async fn keep_leases(lobby: std::sync::Weak<Lobby>) {
        /// Matches taken over per round at most, so a node coming back to a database full of
        /// orphans starts them over a few rounds.
        const TAKEOVERS: usize = 64;
        let taking = std::sync::Arc::new(tokio::sync::Mutex::new(()));
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let Some(lobby) = lobby.upgrade() else {
                return;
            };
            if *lobby.shutdown.borrow() {
                return;
            }
            // Each running actor with its generation (`Lobby::spawn`).
            let held: Vec<(String, u64)> = lobby
                .actors
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .filter(|(_, (_, tx))| !tx.is_closed())
                .map(|(id, (generation, _))| (id.clone(), *generation))
                .collect();
            let ids = held.iter().map(|(id, _)| id.clone()).collect();
            // The heartbeat of this node's name and the renewal, side by side (each its own
            // statement: a renewal only reads the name). Bounded: a database that hangs must
            // not hold the self-fencing below back.
            let store = &lobby.shared.store;
            let (beaten, renewed) = tokio::time::timeout(RENEW_EVERY, async {
                tokio::join!(
                    store.heartbeat(&lobby.node, LEASE_TTL),
                    store.renew(ids, &lobby.node, LEASE_TTL)
                )
            })
            .await
            .unwrap_or_else(|_| {
                let late = || plateau_store::DatabaseError::TimedOut("renewal").into();
                (Err(late()), Err(late()))
            });
            match beaten {
                Ok(live) => *lobby.live.lock().unwrap_or_else(|e| e.into_inner()) = live,
                Err(e) => match e {
                    StoreError::LeaseLost(why) => {
                        tracing::error!(%why, "this node's name was taken over: every match unloaded, stopping");
                        lobby.fence_expired();
                        lobby.begin_shutdown();
                        return;
                    }
                    e => tracing::warn!(error = %e, "heartbeat not beaten"),
                },
            }
            let renewed = match renewed {
                Ok(lost) => {
                    for id in lost {
                        tracing::warn!(%id, "another node took this match over");
                        // Only the actor whose lease was asked for: one this node started since
                        // (it took the match back after that actor fenced itself) holds a newer
                        // lease, and stopping it would hand the match over for nothing.
                        let asked = held.iter().find(|(h, _)| *h == id).map(|(_, g)| *g);
                        let actor = lobby
                            .actors
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get(&id)
                            .filter(|(g, tx)| Some(*g) == asked && !tx.is_closed())
                            .map(|(_, tx)| tx.clone());
                        if let Some(tx) = actor {
                            let _ = tx.try_send(Command::Moved);
                        }
                    }
                    true
                }
                Err(StoreError::LeaseLost(why)) => {
                    tracing::error!(%why, "this node's name was taken over: every match unloaded, stopping");
                    lobby.fence_expired();
                    lobby.begin_shutdown();
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "leases not renewed");
                    false
                }
            };
            lobby.fence_expired();
            if !renewed {
                continue;
            }
            // The takeovers run beside the renewals: replaying many logs takes time, and the
            // next renewal must not wait for it (its leases would lapse, and their matches
            // become orphans in turn). One round of takeovers at a time.
            let Ok(round) = taking.clone().try_lock_owned() else {
                continue;
            };
            tokio::spawn(async move {
                let _round = round;
                let orphans = match lobby
                    .shared
                    .store
                    .orphans(&lobby.node, ORPHAN_GRACE, TAKEOVERS)
                    .await
                {
                    Ok(ids) => ids,
                    Err(e) => {
                        tracing::warn!(error = %e, "orphaned matches not read");
                        return;
                    }
                };
                for id in orphans {
                    match lobby.locate(&id).await {
                        Ok(Place::Here) => tracing::info!(%id, "match taken over"),
                        Ok(Place::There(_)) => {}
                        Err(e) => tracing::warn!(%id, error = %e.message, "match not taken over"),
                    }
                }
            });
        }
    }
}
