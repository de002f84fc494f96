//! The lobby's state: the parts the match actors share, the actors running here, the counters
//! and the shutdown signal, with what the rest of the service reads of them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};

use crate::limits::PerMinute;
use crate::model::ApiError;
use crate::options::Options;
use crate::players::Player;
use crate::presence::Presence;
use plateau_match::actor::{Command, Shared};
use plateau_match::catalogue::Catalogue;
use plateau_store::{Node, Store};

/// The running actors by match id, each with the number it was started under.
pub(super) type Actors = HashMap<String, (u64, mpsc::Sender<Command>)>;

/// The lobby and every live actor.
pub struct Lobby {
    pub(super) shared: Arc<Shared>,
    pub(super) options: Options,
    pub(super) presence: Arc<Presence>,
    /// The running actors by match id, each with the number it was started under (an actor that
    /// stops removes its own entry, not a newer one's).
    pub(super) actors: Arc<Mutex<Actors>>,
    pub(super) rematch_lock: tokio::sync::Mutex<()>,
    pub(super) shutdown: watch::Sender<bool>,
    /// Matches created by this process, for `next_seed`.
    pub(super) created: AtomicU64,
    /// Connections opened by this process: each one's id for its match actor.
    pub(super) connections: AtomicU64,
    /// The bots' players by bot name, once looked up.
    pub(super) bots: Mutex<HashMap<String, Player>>,
    /// This process among the nodes of its database (`Options::node`).
    pub(super) node: Node,
    /// Recent events per address, name or player, for the limits per minute (and hour).
    pub(super) recent: Arc<PerMinute>,
    /// The live nodes of the database, this one among them, by name (`Store::heartbeat`).
    pub(super) live: Mutex<Vec<Node>>,
    /// Matches placed by this process (`Lobby::placement`).
    pub(super) placed: AtomicU64,
    /// Who is muted or banned now (docs/protocol.md section 7.11).
    pub(super) sanctions: Arc<crate::sanctions::Sanctions>,
}

impl Lobby {
    /// The catalogue of games and bots.
    #[must_use]
    pub fn catalogue(&self) -> &Catalogue {
        &self.shared.catalogue
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.shared.store
    }

    /// Bot moves waiting for a bot thread: of matches with a person, of bots alone.
    #[must_use]
    pub fn bot_queue(&self) -> (usize, usize) {
        self.shared.bots.waiting()
    }

    /// Who is muted or banned now.
    #[must_use]
    pub fn sanctions(&self) -> &Arc<crate::sanctions::Sanctions> {
        &self.sanctions
    }

    /// Who is here now.
    #[must_use]
    pub fn presence(&self) -> &Arc<Presence> {
        &self.presence
    }

    /// The settings the actors share.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// A fresh id for a connection.
    pub fn next_connection(&self) -> u64 {
        self.connections.fetch_add(1, Ordering::Relaxed)
    }

    /// The player of bot `bot` (`club-bot`), created on first use.
    ///
    /// # Errors
    /// `server/internal` if the store fails.
    pub async fn bot_player(&self, bot: &str) -> Result<Player, ApiError> {
        if let Some(p) = self.bots.lock().unwrap_or_else(|e| e.into_inner()).get(bot) {
            return Ok(p.clone());
        }
        let p = self
            .shared
            .store
            .bot_player(bot.to_owned())
            .await
            .map_err(ApiError::store)?;
        self.bots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(bot.to_owned(), p.clone());
        Ok(p)
    }

    /// This process among the nodes of its database.
    #[must_use]
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// Whether this node is the only live one of its database: nobody else to tell anything.
    pub fn alone(&self) -> bool {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len() <= 1
    }

    /// Where the next match created through this node goes (docs/architecture.md section
    /// 5.3): the live nodes that others can reach (an `--advertise` address) in turn, this one
    /// among them, so matches spread over the nodes whichever node a load balancer sends the
    /// creations to. `None` for this node.
    pub fn placement(&self) -> Option<Node> {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let reachable: Vec<&Node> = live
            .iter()
            .filter(|n| n.name == self.node.name || !n.address.is_empty())
            .collect();
        if reachable.len() <= 1 {
            return None;
        }
        let turn = self.placed.fetch_add(1, Ordering::Relaxed);
        let node = reachable[usize::try_from(turn).unwrap_or(0) % reachable.len()];
        (node.name != self.node.name).then(|| node.clone())
    }

    /// Whether this node is the one of the live nodes that runs the work named `key` (a
    /// tournament: docs/architecture.md section 5.3): the node whose name, digested with `key`,
    /// gives the highest number (rendezvous hashing), this node counted live. Every node that
    /// sees the same live nodes picks the same one, and a node that comes or goes moves only the
    /// work it wins or held. Nodes that see different lists for a moment (one just started or
    /// stopped) may both answer `true`: the work must stay safe then (a tournament's writes are
    /// conditional on what was read).
    pub fn runs_here(&self, key: &str) -> bool {
        let score = |name: &str| {
            let digest = Sha256::digest(format!("{name}\n{key}"));
            u64::from_be_bytes(digest[..8].try_into().unwrap_or_default())
        };
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let mine = score(&self.node.name);
        live.iter()
            .filter(|n| n.name != self.node.name)
            .all(|n| (score(&n.name), n.name.as_str()) < (mine, self.node.name.as_str()))
    }

    /// A receiver that turns `true` when the service begins to shut down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// The recent events the limits per minute count.
    #[must_use]
    pub fn recent(&self) -> &Arc<PerMinute> {
        &self.recent
    }

    /// Tells WebSocket sessions to close (code 1001) and refuses new work; the HTTP server stops
    /// accepting at the same time.
    pub fn begin_shutdown(&self) {
        let _ = self.shutdown.send(true);
    }
}
