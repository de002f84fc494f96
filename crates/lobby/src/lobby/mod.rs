//! The lobby: owns the match service's shared parts (store, catalogue, settings, presence, bot
//! threads), reloads at start the live matches with a clock, and shuts everything down. Its jobs,
//! one module each: `registry` (the actors running here, found or started from storage),
//! `create` (new matches and joining), `requests` (what a connection asks of a match),
//! `rematch` (offers and rematches), `leases` (which node drives a match), `renewal` (keeping
//! the leases, self-fencing, taking over), `expiry` (open matches nobody started), `notices`
//! (presence shared with the other nodes) and `state` (the lobby's parts and what the rest of
//! the service reads of them).
mod create;
mod expiry;
mod leases;
mod notices;
mod registry;
mod rematch;
mod renewal;
mod requests;
mod state;

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot, watch};

pub use create::{CreateRequest, SeatGrant, Table, is_match_id};
pub use create::{NewMatch, new_match_id};
pub use leases::{LEASE_TTL, RENEW_EVERY};
pub use registry::Place;
pub use state::Lobby;

use crate::limits::PerMinute;
use crate::model::ApiError;
use crate::options::Options;
use crate::presence::Presence;
use plateau_match::actor::{Command, Shared};
use plateau_match::catalogue::Catalogue;
use plateau_store::{Node, Store, StoreError};

impl Lobby {
    /// A lobby over `store`, reloading every unfinished match by replaying its log.
    ///
    /// # Errors
    /// The store's error if the matches cannot be read. A match whose log does not replay is
    /// logged and left out (it stays in the database for inspection).
    pub async fn start(
        store: Arc<dyn Store>,
        catalogue: Catalogue,
        options: Options,
    ) -> Result<Arc<Lobby>, StoreError> {
        let test_seeds = options.test_seeds;
        let node = options.node.clone().unwrap_or_else(|| Node {
            name: format!("node-{}", hex::encode(rand::random::<[u8; 4]>())),
            address: String::new(),
        });
        if let Some(other) = store.claim_node(&node, LEASE_TTL).await? {
            // An earlier run of this node, killed, beat its heartbeat until then; a live node of
            // the same name beats it still.
            tracing::info!(node = %node.name, %other, "a process of this node's name was alive lately: waiting for its heartbeat to stop");
            tokio::time::sleep(LEASE_TTL + RENEW_EVERY).await;
            if let Some(other) = store.claim_node(&node, LEASE_TTL).await? {
                return Err(StoreError::Conflict(format!(
                    "node name `{}` is in use by a running node at {other}: give this node \
                     another --node",
                    node.name
                )));
            }
        }
        store.drive_as(&node);
        // Who else is live, at once (then every `RENEW_EVERY`): where new matches go, and
        // whether the notices have anyone to reach.
        let live = match store.heartbeat(&node, LEASE_TTL).await {
            Ok(live) => live,
            Err(e) => {
                tracing::warn!(error = %e, "heartbeat not beaten");
                vec![node.clone()]
            }
        };
        let presence = Arc::new(Presence::default());
        let sanctions = Arc::new(crate::sanctions::Sanctions::load(store.as_ref()).await?);
        let lobby = Arc::new(Lobby {
            shared: Arc::new(Shared {
                store,
                catalogue,
                bots: Arc::new(plateau_match::botpool::BotPool::new(
                    options.limits.bot_threads,
                )),
                settings: options.match_settings(),
                presence: presence.clone(),
                metrics: plateau_match::metrics::Metrics::registered(),
            }),
            options,
            presence,
            actors: Arc::new(Mutex::new(HashMap::new())),
            rematch_lock: tokio::sync::Mutex::new(()),
            shutdown: watch::channel(false).0,
            created: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            bots: Mutex::new(HashMap::new()),
            node,
            recent: Arc::new(PerMinute::default()),
            live: Mutex::new(live),
            placed: AtomicU64::new(0),
            sanctions,
        });
        if test_seeds {
            tracing::warn!(
                "test seeds: chance seeds are fixed or predictable; never serve the public so"
            );
        }
        lobby.expire_open().await;
        tokio::spawn(Lobby::sweep_open(Arc::downgrade(&lobby)));
        // Only what runs by itself is loaded now: live matches with a clock (their clocks and the
        // abandonment rule must fire). Everything else is loaded when someone asks for it.
        // On a database several nodes share, only those no other node drives, each read again
        // once its lease is taken (another node may have written to it meanwhile).
        let running = lobby.shared.store.running_with_clock().await?;
        let shared = lobby.shared.store.node_secret().is_some();
        let mut count = 0;
        for m in running {
            let id = m.id.clone();
            let started = if shared {
                lobby.locate(&id).await.map(|p| p == Place::Here)
            } else {
                lobby.spawn(m).map(|_| true).map_err(ApiError::internal)
            };
            match started {
                Ok(here) => count += usize::from(here),
                Err(e) => tracing::error!(%id, error = %e.message, "match not reloaded"),
            }
        }
        tracing::info!(matches = count, node = %lobby.node.name, "live matches with a clock reloaded");
        if lobby.shared.store.node_secret().is_some() {
            tokio::spawn(Lobby::keep_leases(Arc::downgrade(&lobby)));
        }
        if let Some(notices) = lobby
            .shared
            .store
            .listen(&[notices::TURNS, notices::COUNTS])
        {
            tokio::spawn(notices::share_presence(Arc::downgrade(&lobby), notices));
        }
        Ok(lobby)
    }

    /// Stops every actor after the command it is handling (so commits in progress finish), then
    /// closes the store.
    pub async fn shutdown(&self) {
        self.begin_shutdown();
        let actors: Vec<(String, mpsc::Sender<Command>)> = self
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(id, (_, tx))| (id, tx))
            .collect();
        // An actor answers `Shutdown` after the command in progress (a commit included), then
        // stops; nothing is written after its answer.
        let mut ids = Vec::with_capacity(actors.len());
        for (id, tx) in actors {
            let (reply, done) = oneshot::channel();
            if tx.send(Command::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
            ids.push(id);
        }
        // Handed over: the other nodes take these matches over at their next look.
        if let Err(e) = self.shared.store.release(ids, &self.node, true).await {
            tracing::warn!(error = %e, "leases not released: they expire by themselves");
        }
        self.shared.store.close().await;
        tracing::info!("match service stopped");
    }
}
