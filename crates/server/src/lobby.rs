//! The lobby: creates matches, finds the actor of a match (starting it from storage when needed),
//! reloads unfinished matches at start, organises rematches and shuts everything down.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plateau_engine::{Seat, Seed};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot, watch};
use tracing::Instrument as _;

use crate::actor::{
    Command, Joined, MatchActor, OfferKind, Options, Outgoing, RematchInfo, Shared, new_token,
};
use crate::catalogue::Catalogue;
use crate::cluster::{LEASE_TTL, ORPHAN_GRACE, Place, RENEW_EVERY};
use crate::limits::{PerMinute, address_key};
use crate::model::{ApiError, Code, SeatSpec, Status, TimeControl, unix_ms};
use crate::players::Player;
use crate::presence::Presence;
use crate::store::{Node, Store, StoreError, StoredMatch, StoredSeat};

/// Commands waiting for one actor, at most.
const ACTOR_QUEUE: usize = 256;

/// `POST /api/matches` (docs/protocol.md section 3.2).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// Registry name of the game.
    pub game: String,
    /// The game's config (`null` = default).
    #[serde(default)]
    pub config: serde_json::Value,
    /// One per seat.
    pub seats: Vec<SeatSpec>,
    /// The clock.
    #[serde(default)]
    pub time_control: TimeControl,
    /// The human seat the creator takes (default: the first human seat).
    #[serde(default)]
    pub creator_seat: Option<u8>,
    /// A fixed chance seed, 64 hex digits; accepted only by a server run with `--test-seeds`
    /// (`Options::test_seeds`), refused with `seed/not_allowed` otherwise.
    #[serde(default)]
    pub seed: Option<String>,
    /// Whether the result changes the players' ratings (default: casual).
    #[serde(default)]
    pub rated: bool,
}

/// A match to store: its seats, and the players already seated with their token hashes.
pub(crate) struct NewMatch {
    pub game: String,
    pub config: serde_json::Value,
    pub seats: Vec<SeatSpec>,
    pub time_control: TimeControl,
    /// Per seat: the seat token's hash and the person holding it (human seats taken now).
    pub seated: Vec<Option<(String, Player)>>,
    /// The chance seed, `None` for `Lobby::next_seed`.
    pub seed: Option<Seed>,
    pub rated: bool,
    /// The creating address's key, for the limits per address.
    pub creator: Option<String>,
}

/// A created match, or a taken seat.
#[derive(Clone, Debug)]
pub struct SeatGrant {
    /// The match id.
    pub id: String,
    /// SHA-256 of the seed.
    pub seed_hash: String,
    /// The seat taken, if any.
    pub seat: Option<u8>,
    /// Its token.
    pub token: Option<String>,
    /// Human seats still free.
    pub free: Vec<u8>,
}

/// The running actors by match id, each with the number it was started under.
type Actors = HashMap<String, (u64, mpsc::Sender<Command>)>;

/// The lobby and every live actor.
pub struct Lobby {
    shared: Arc<Shared>,
    /// The running actors by match id, each with the number it was started under (an actor that
    /// stops removes its own entry, not a newer one's).
    actors: Arc<Mutex<Actors>>,
    rematch_lock: tokio::sync::Mutex<()>,
    shutdown: watch::Sender<bool>,
    /// Matches created by this process, for `next_seed`.
    created: AtomicU64,
    /// Connections opened by this process: each one's id for its match actor.
    connections: AtomicU64,
    /// The bots' players by bot name, once looked up.
    bots: Mutex<HashMap<String, Player>>,
    /// This process among the nodes of its database (`Options::node`).
    node: Node,
    /// Recent events per address, name or player, for the limits per minute (and hour).
    recent: Arc<PerMinute>,
}

/// What a new table holds, for the limits on creating (docs/protocol.md section 6).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Table {
    /// People only.
    People,
    /// People and bots.
    WithBots,
    /// Bots alone.
    BotsOnly,
}

impl Table {
    /// The kind of a table with these seats.
    #[must_use]
    pub fn of(seats: &[SeatSpec]) -> Table {
        let humans = seats.iter().filter(|s| **s == SeatSpec::Human).count();
        match humans {
            0 => Table::BotsOnly,
            n if n == seats.len() => Table::People,
            _ => Table::WithBots,
        }
    }
}

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
        let open_expiry = options.limits.open_expiry;
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
        let lobby = Arc::new(Lobby {
            shared: Arc::new(Shared {
                store,
                catalogue,
                bots: Arc::new(crate::botpool::BotPool::new(options.limits.bot_threads)),
                options,
                presence: Arc::new(Presence::default()),
            }),
            actors: Arc::new(Mutex::new(HashMap::new())),
            rematch_lock: tokio::sync::Mutex::new(()),
            shutdown: watch::channel(false).0,
            created: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            bots: Mutex::new(HashMap::new()),
            node,
            recent: Arc::new(PerMinute::default()),
        });
        if test_seeds {
            tracing::warn!(
                "test seeds: chance seeds are fixed or predictable; never serve the public so"
            );
        }
        lobby.expire_open().await;
        let sweeper = Arc::downgrade(&lobby);
        let every = (open_expiry / 4).clamp(Duration::from_millis(200), Duration::from_secs(60));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(lobby) = sweeper.upgrade() else {
                    return;
                };
                if *lobby.shutdown.borrow() {
                    return;
                }
                lobby.expire_open().await;
            }
        });
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
            .listen(&[crate::cluster::TURNS, crate::cluster::COUNTS])
        {
            tokio::spawn(crate::cluster::share_presence(
                Arc::downgrade(&lobby),
                notices,
            ));
        }
        Ok(lobby)
    }

    /// Takes this node's lease on match `id`: `None` when this node drives it now, else the
    /// node that does.
    async fn lease(&self, id: &str) -> Result<Option<Node>, StoreError> {
        self.shared.store.lease(id, &self.node, LEASE_TTL).await
    }

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
    async fn keep_leases(lobby: std::sync::Weak<Lobby>) {
        /// Matches taken over per round at most, so a node coming back to a database full of
        /// orphans starts them over a few rounds.
        const TAKEOVERS: usize = 64;
        loop {
            tokio::time::sleep(RENEW_EVERY).await;
            let Some(lobby) = lobby.upgrade() else {
                return;
            };
            if *lobby.shutdown.borrow() {
                return;
            }
            let ids: Vec<String> = lobby
                .actors
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .filter(|(_, (_, tx))| !tx.is_closed())
                .map(|(id, _)| id.clone())
                .collect();
            // Bounded: a database that hangs must not hold the self-fencing below back.
            let renewed = tokio::time::timeout(
                RENEW_EVERY,
                lobby.shared.store.renew(ids, &lobby.node, LEASE_TTL),
            )
            .await
            .unwrap_or_else(|_| Err(crate::store::DatabaseError::TimedOut("renewal").into()));
            let renewed = match renewed {
                Ok(lost) => {
                    for id in lost {
                        tracing::warn!(%id, "another node took this match over");
                        if let Some(tx) = lobby.running(&id) {
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
            let orphans = match lobby
                .shared
                .store
                .orphans(&lobby.node, ORPHAN_GRACE, TAKEOVERS)
                .await
            {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::warn!(error = %e, "orphaned matches not read");
                    continue;
                }
            };
            for id in orphans {
                match lobby.locate(&id).await {
                    Ok(Place::Here) => tracing::info!(%id, "match taken over"),
                    Ok(Place::There(_)) => {}
                    Err(e) => tracing::warn!(%id, error = %e.message, "match not taken over"),
                }
            }
        }
    }

    /// Removes the open matches nobody started within `Limits::open_expiry`, stopping their
    /// actors (whose viewers are told `match/expired`).
    async fn expire_open(&self) {
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

    /// Who is here now.
    #[must_use]
    pub fn presence(&self) -> &Arc<Presence> {
        &self.shared.presence
    }

    /// The settings the actors share.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.shared.options
    }

    /// A fresh id for a connection.
    pub(crate) fn next_connection(&self) -> u64 {
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

    /// A receiver that turns `true` when the service begins to shut down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// The running actor of `m`, or a new one rebuilt from it. The check and the start happen
    /// under one lock, so two requests never start two actors for one match.
    fn spawn(&self, m: StoredMatch) -> Result<mpsc::Sender<Command>, String> {
        let mut actors = self.actors.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, tx)) = actors.get(&m.id).filter(|(_, tx)| !tx.is_closed()) {
            return Ok(tx.clone());
        }
        let id = m.id.clone();
        let actor = MatchActor::rebuild(self.shared.clone(), m)?;
        // Known to the presence registry before anyone can ask it (whose turn it is).
        actor.report();
        let (tx, rx) = mpsc::channel(ACTOR_QUEUE);
        let generation = self.connections.fetch_add(1, Ordering::Relaxed);
        let registry = self.actors.clone();
        let key = id.clone();
        let (store, node) = (self.shared.store.clone(), self.node.clone());
        // Every log line of the match's actor says which match it is; the actor outlives the
        // request that happened to start it, whose span it does not keep.
        let span = tracing::info_span!(parent: None, "match", id = %id);
        tokio::spawn(async move {
            let hand_over = actor.run(rx).instrument(span).await;
            let mine = |actors: &Actors| actors.get(&key).is_some_and(|(g, _)| *g == generation);
            // Given up so another node can drive the match at once (handed over when it must go
            // on: another node's orphan scan takes it). The entry stays (closed) until then, so
            // this node starts no new actor whose fresh lease this would give up (`Lobby::find`
            // waits for it to go).
            let current = mine(&registry.lock().unwrap_or_else(|e| e.into_inner()));
            if current && let Err(e) = store.release(vec![key.clone()], &node, hand_over).await {
                tracing::warn!(id = %key, error = %e, "lease not released: it expires by itself");
            }
            let mut actors = registry.lock().unwrap_or_else(|e| e.into_inner());
            if mine(&actors) {
                actors.remove(&key);
            }
        });
        actors.insert(id, (generation, tx.clone()));
        Ok(tx)
    }

    /// How many match actors are in memory now.
    #[must_use]
    pub fn in_memory(&self) -> usize {
        self.actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|(_, tx)| !tx.is_closed())
            .count()
    }

    /// Whether an actor of `id` stopped and has not yet given its lease up.
    fn leaving(&self, id: &str) -> bool {
        self.actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .is_some_and(|(_, tx)| tx.is_closed())
    }

    /// Whether an actor of match `id` runs here now.
    pub(crate) fn drives(&self, id: &str) -> bool {
        self.running(id).is_some()
    }

    /// The running actor of `id`, if any.
    fn running(&self, id: &str) -> Option<mpsc::Sender<Command>> {
        self.actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .filter(|(_, tx)| !tx.is_closed())
            .map(|(_, tx)| tx.clone())
    }

    /// The actor of match `id`, started from storage if it is not running and no other node
    /// drives it.
    ///
    /// # Errors
    /// `match/not_found`; `match/moved` when another node drives it; `server/internal` when the
    /// store fails or the log does not replay.
    async fn actor(&self, id: &str) -> Result<mpsc::Sender<Command>, ApiError> {
        match self.find(id, false).await? {
            Ok(tx) => Ok(tx),
            Err(holder) => Err(ApiError::new(
                Code::MatchMoved,
                format!(
                    "node `{}` drives this match now: connect again",
                    holder.name
                ),
            )),
        }
    }

    /// Where match `id` is driven (docs/architecture.md section 5.3): here (its actor is started
    /// from storage if it was not running, after this node took its lease), or on another node.
    /// The lease is asked for even when the actor runs here: one that lost it (its node was cut
    /// off from the database while another took the match over) stops rather than serve a
    /// stale match to a new connection.
    ///
    /// # Errors
    /// As `actor`, less `match/moved`.
    pub async fn locate(&self, id: &str) -> Result<Place, ApiError> {
        Ok(match self.find(id, true).await? {
            Ok(_) => Place::Here,
            Err(holder) => Place::There(holder),
        })
    }

    /// `Ok(actor)` of match `id` when this node drives it, `Err(holder)` when another does;
    /// with `check`, a running actor's lease is renewed first (`locate`).
    async fn find(
        &self,
        id: &str,
        check: bool,
    ) -> Result<Result<mpsc::Sender<Command>, Node>, ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        if !is_match_id(id) {
            return Err(ApiError::not_found(id));
        }
        if let Some(tx) = self.running(id) {
            if !check {
                return Ok(Ok(tx));
            }
            // Renewed at its epoch (never taken again): asked twice, as a pooled connection the
            // database closed fails once, then is dropped.
            let renew = || {
                self.shared
                    .store
                    .renew(vec![id.to_owned()], &self.node, LEASE_TTL)
            };
            let renewed = match renew().await {
                Err(StoreError::Database(_)) => renew().await,
                answer => answer,
            };
            match renewed {
                Ok(lost) if lost.is_empty() => return Ok(Ok(tx)),
                // Taken over meanwhile (a stall past the lease): the actor here stops, and the
                // match is looked for again below.
                Ok(_) => {
                    tracing::warn!(%id, "another node took this match over");
                    let _ = tx.try_send(Command::Moved);
                }
                Err(StoreError::LeaseLost(why)) => {
                    tracing::error!(%why, "this node's name was taken over");
                    let _ = tx.try_send(Command::Moved);
                    return Err(ApiError::store(StoreError::LeaseLost(why)));
                }
                // Whether another node took the match over cannot be known: serving it from
                // here could show a new connection less than was acknowledged elsewhere.
                Err(e) => {
                    tracing::warn!(%id, error = %e, "lease not checked");
                    return Err(ApiError::store(e));
                }
            }
        }
        // An actor of this match that just stopped gives its lease up first (bounded: a database
        // that does not answer lets the lease expire instead).
        for _ in 0..100 {
            if !self.leaving(id) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // A match that does not exist gets no lease row (a read, not a write, for any id asked).
        let clustered = self.shared.store.node_secret().is_some();
        if clustered
            && self
                .shared
                .store
                .get(id, false)
                .await
                .map_err(ApiError::store)?
                .is_none()
        {
            return Err(ApiError::not_found(id));
        }
        // The lease first, then the log: a log read after taking the lease holds every entry the
        // previous holder committed.
        if let Some(holder) = self.lease(id).await.map_err(ApiError::store)? {
            return Ok(Err(holder));
        }
        let Some(stored) = self
            .shared
            .store
            .get(id, true)
            .await
            .map_err(ApiError::store)?
        else {
            // Deleted meanwhile (an open match expired).
            let _ = self
                .shared
                .store
                .release(vec![id.to_owned()], &self.node, false)
                .await;
            return Err(ApiError::not_found(id));
        };
        let version = stored.version;
        let tx = self.spawn(stored).map_err(ApiError::internal)?;
        tracing::debug!(%id, version, node = %self.node.name, "driving this match");
        Ok(Ok(tx))
    }

    /// Sends a command made by `make` to the actor of `id` and waits for its answer.
    async fn call<T>(
        &self,
        id: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Command,
    ) -> Result<T, ApiError> {
        let tx = self.actor(id).await?;
        let (reply, answer) = oneshot::channel();
        let command = make(reply);
        let stopping = || ApiError::new(Code::ShuttingDown, "the match is stopping");
        match tx.send(command).await {
            Ok(()) => {}
            // The actor of an idle finished match just left: start it again and resend.
            Err(mpsc::error::SendError(command)) if !*self.shutdown.borrow() => {
                let tx = self.actor(id).await?;
                tx.send(command).await.map_err(|_| stopping())?;
            }
            Err(_) => return Err(stopping()),
        }
        // An actor that stops without answering, the service running, lost its lease (it
        // found it moved, or fenced itself): the match is driven elsewhere, or will be.
        answer.await.map_err(|_| {
            if *self.shutdown.borrow() {
                stopping()
            } else {
                ApiError::new(
                    Code::MatchMoved,
                    "this match is driven by another node now: connect again",
                )
            }
        })?
    }

    /// The recent events the limits per minute count.
    #[must_use]
    pub fn recent(&self) -> &Arc<PerMinute> {
        &self.recent
    }

    /// The limits per address on making a table (docs/protocol.md section 6), for a creation,
    /// a rematch, a seek that bots may fill or a join: so many a minute, so many open at once,
    /// so many with bots or of bots alone unfinished. Returns the address's key for the store,
    /// `None` where the limits do not apply. Counted here; a creation refused later is taken
    /// back with `creation_refused`.
    ///
    /// # Errors
    /// `limit/matches`; `server/internal` if the store fails.
    pub async fn creation_allowed(
        &self,
        addr: Option<std::net::IpAddr>,
        table: Table,
    ) -> Result<Option<String>, ApiError> {
        let limits = &self.shared.options.limits;
        let Some(addr) = addr.filter(|a| limits.applies_to(*a)) else {
            return Ok(None);
        };
        let key = address_key(addr);
        let created = self
            .shared
            .store
            .created_by(key.clone())
            .await
            .map_err(ApiError::store)?;
        let over = |n: usize, max: usize, what: &str| {
            ApiError::new(
                Code::LimitMatches,
                format!("{n} {what} from your address: at most {max}"),
            )
        };
        match table {
            Table::BotsOnly if created.bots_only >= limits.bot_matches => {
                return Err(over(
                    created.bots_only,
                    limits.bot_matches,
                    "matches of bots alone are running",
                ));
            }
            Table::WithBots if created.with_bots >= limits.bot_tables => {
                return Err(over(
                    created.with_bots,
                    limits.bot_tables,
                    "unfinished matches against bots",
                ));
            }
            Table::People | Table::WithBots if created.open >= limits.open_matches => {
                return Err(over(
                    created.open,
                    limits.open_matches,
                    "matches wait for players",
                ));
            }
            _ => {}
        }
        self.recent.record(
            &[creation_key(&key)],
            limits.matches_per_minute,
            Code::LimitMatches,
            "too many matches made or joined from your address: wait a minute",
        )?;
        Ok(Some(key))
    }

    /// Takes back a creation `creation_allowed` counted for the address whose key is `key`:
    /// only tables made count toward the limit per minute.
    pub fn creation_refused(&self, key: &str) {
        self.recent.forget(&creation_key(key));
    }

    /// Creates a match (docs/protocol.md section 3.2); `player` takes the creator's seat.
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn create(
        &self,
        req: CreateRequest,
        player: Player,
        creator_key: Option<String>,
    ) -> Result<SeatGrant, ApiError> {
        let creator = match req.creator_seat {
            Some(s) => {
                if req.seats.get(usize::from(s)) != Some(&SeatSpec::Human) {
                    return Err(ApiError::new(
                        Code::SeatInvalid,
                        format!(
                            "creator_seat {s} (seat {}) is not a human seat",
                            u16::from(s) + 1
                        ),
                    ));
                }
                Some(s)
            }
            None => req
                .seats
                .iter()
                .position(|s| *s == SeatSpec::Human)
                .map(|i| i as u8),
        };
        let seed = match req.seed {
            None => None,
            Some(_) if !self.shared.options.test_seeds => {
                return Err(ApiError::new(
                    Code::SeedNotAllowed,
                    "a fixed `seed` is accepted only by a server started with --test-seeds",
                ));
            }
            Some(hex) => Some(
                Seed::from_hex(&hex)
                    .map_err(|e| ApiError::new(Code::RequestMalformed, format!("`seed`: {e}")))?,
            ),
        };
        let mut seated = vec![None; req.seats.len()];
        let mut token = None;
        if let Some(s) = creator {
            let (t, hash) = new_token();
            seated[usize::from(s)] = Some((hash, player));
            token = Some(t);
        }
        let id = self
            .create_match(NewMatch {
                game: req.game,
                config: req.config,
                seats: req.seats,
                time_control: req.time_control,
                seated,
                seed,
                rated: req.rated,
                creator: creator_key,
            })
            .await?;
        self.grant(id, creator, token).await
    }

    async fn grant(
        &self,
        id: String,
        seat: Option<u8>,
        token: Option<String>,
    ) -> Result<SeatGrant, ApiError> {
        let m = self
            .shared
            .store
            .get(&id, false)
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::not_found(&id))?;
        Ok(SeatGrant {
            seed_hash: m.seed.hash_hex(),
            free: free_seats(&m.seats),
            id,
            seat,
            token,
        })
    }

    /// The seed of the next match created without one: fresh from the operating system, or with
    /// `Options::test_seeds` the SHA-256 of `plateau test seed N` where N counts the matches this
    /// process created (0 first), so the same sequence of creations gets the same dice.
    fn next_seed(&self) -> Seed {
        let n = self.created.fetch_add(1, Ordering::Relaxed);
        if self.shared.options.test_seeds {
            Seed(Sha256::digest(format!("plateau test seed {n}")).into())
        } else {
            Seed::random()
        }
    }

    /// Validates and stores a new match, and starts its actor. A match whose seats are all
    /// filled by bots starts at once; others wait until every person has opened it.
    pub(crate) async fn create_match(&self, new: NewMatch) -> Result<String, ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        let NewMatch {
            game,
            config,
            seats,
            time_control,
            seated,
            seed,
            rated,
            creator,
        } = new;
        let entry = self.shared.catalogue.game(&game).ok_or_else(|| {
            let known: Vec<&str> = self
                .shared
                .catalogue
                .games
                .iter()
                .map(|g| g.info.name)
                .collect();
            ApiError::new(
                Code::GameUnknown,
                format!("unknown game `{game}` (known: {})", known.join(", ")),
            )
        })?;
        entry
            .new_game(&config, seats.len())
            .map_err(|e| ApiError::new(Code::ConfigInvalid, e.to_string()))?;
        let mut stored = Vec::with_capacity(seats.len());
        for (spec, seat) in seats.into_iter().zip(seated) {
            let spec = spec
                .checked()
                .map_err(|e| ApiError::new(Code::RequestMalformed, e))?;
            let (token_hash, player, opened) = match &spec {
                SeatSpec::Bot { bot, .. } => {
                    if !self.shared.catalogue.bots.contains(&bot.as_str()) {
                        return Err(ApiError::new(
                            Code::BotUnknown,
                            format!(
                                "unknown bot `{bot}` (known: {})",
                                self.shared.catalogue.bots.join(", ")
                            ),
                        ));
                    }
                    (None, Some(self.bot_player(bot).await?), true)
                }
                SeatSpec::Human => match seat {
                    Some((hash, player)) => (Some(hash), Some(player), false),
                    None => (None, None, false),
                },
            };
            stored.push(StoredSeat {
                spec,
                token_hash,
                player,
                opened,
            });
        }
        time_control.validate(entry.rule_clock)?;
        let now = unix_ms();
        let all_bots = stored.iter().all(|s| s.opened);
        let m = StoredMatch {
            id: hex::encode(rand::random::<[u8; 8]>()),
            game: entry.info.name.to_owned(),
            config,
            seats: stored,
            time_control,
            seed: seed.unwrap_or_else(|| self.next_seed()),
            status: if all_bots { Status::Live } else { Status::Open },
            created_at: now,
            started_at: all_bots.then_some(now),
            outcome: None,
            rematch: None,
            rated: rated && !all_bots,
            unrated: None,
            creator,
            ended_at: None,
            version: 0,
            log: Vec::new(),
            chat: Vec::new(),
        };
        let id = m.id.clone();
        self.shared
            .store
            .create(m.clone())
            .await
            .map_err(ApiError::store)?;
        // A new id: no other node holds its lease.
        self.lease(&id).await.map_err(ApiError::store)?;
        self.spawn(m).map_err(ApiError::internal)?;
        tracing::info!(%id, game = entry.info.name, "match created");
        Ok(id)
    }

    /// Takes a free human seat of `id` (docs/protocol.md section 3.5).
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn join(
        &self,
        id: &str,
        seat: Option<u8>,
        player: Player,
    ) -> Result<SeatGrant, ApiError> {
        let joined: Joined = self
            .call(id, |reply| Command::Join {
                seat,
                player,
                reply,
            })
            .await?;
        let mut grant = self
            .grant(id.to_owned(), Some(joined.seat), Some(joined.token))
            .await?;
        grant.free = joined.free;
        Ok(grant)
    }

    /// Connects viewer `conn` (`next_connection`) from `addr`: `token` for a seat; without one,
    /// `player`'s own seat of the match if it has one; else a spectator. The current `state` is
    /// queued on `out` before this returns.
    ///
    /// # Errors
    /// `auth/seat` for a token that is not a seat token of the match or whose seat is another
    /// player's; `match/not_found`.
    pub(crate) async fn subscribe(
        &self,
        id: &str,
        conn: u64,
        token: Option<String>,
        player: Option<Player>,
        addr: Option<std::net::IpAddr>,
        out: mpsc::Sender<Outgoing>,
    ) -> Result<Option<Seat>, ApiError> {
        let limits = &self.shared.options.limits;
        let from = addr.filter(|a| limits.applies_to(*a)).map(address_key);
        self.call(id, |reply| Command::Subscribe {
            conn,
            token,
            player,
            from,
            out,
            reply,
        })
        .await
    }

    /// Calls off match `id` if a seat's player has not opened it (a quick-pairing table nobody
    /// came to): the players who did not come; none if it started or is gone.
    pub(crate) async fn call_off(&self, id: &str) -> Vec<crate::players::PlayerId> {
        let Ok(tx) = self.actor(id).await else {
            return Vec::new();
        };
        let (reply, answer) = oneshot::channel();
        if tx.send(Command::CallOff { reply }).await.is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }

    /// Connection `conn` asks for a whole `state` again.
    pub(crate) async fn snapshot(&self, id: &str, conn: u64) {
        if let Some(tx) = self.running(id) {
            let _ = tx.send(Command::Snapshot { conn }).await;
        }
    }

    /// Connection `conn` to match `id` closed.
    pub(crate) async fn unsubscribe(&self, id: &str, conn: u64) {
        if let Some(tx) = self.running(id) {
            let _ = tx.send(Command::Unsubscribe { conn }).await;
        }
    }

    /// A chat line from connection `conn` (docs/protocol.md section 7.5).
    ///
    /// # Errors
    /// `chat/invalid`, `chat/rate_limited`, `auth/required`.
    pub(crate) async fn chat(&self, id: &str, conn: u64, text: String) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Chat { conn, text, reply })
            .await
    }

    /// Connection `conn`'s player mutes (or unmutes) `name` in match `id`.
    ///
    /// # Errors
    /// `player/not_found`, `auth/required`.
    pub(crate) async fn mute(
        &self,
        id: &str,
        conn: u64,
        name: String,
        mute: bool,
    ) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Mute {
            conn,
            name,
            mute,
            reply,
        })
        .await
    }

    /// Plays `actions` (one decision of `seat`, all or nothing) based on `version`.
    ///
    /// # Errors
    /// The coded errors of docs/protocol.md section 4.2.
    pub async fn act(
        &self,
        id: &str,
        seat: Seat,
        version: u64,
        actions: Vec<crate::ws::ActionRequest>,
    ) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Act {
            seat,
            version,
            actions,
            reply,
        })
        .await
    }

    /// `seat` resigns.
    ///
    /// # Errors
    /// As `act`.
    pub async fn resign(&self, id: &str, seat: Seat) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Resign { seat, reply }).await
    }

    /// `seat` offers (or accepts) a rematch or an agreed stop (docs/protocol.md section 7.4).
    /// The rematch is created once every human seat has asked: same game, config, clock and
    /// rating, every seat (bots included) one place up, the players keeping their seats'
    /// players, a fresh seed.
    ///
    /// # Errors
    /// `match/not_over` (rematch), `offer/unsupported`, `match/not_started`, `match/over`.
    /// A rematch is a new table made by the client that completed the offers, from `addr`: it
    /// is held to the limits on creating (`creation_allowed`); refused, the offers are cleared,
    /// so the players may ask again later.
    pub async fn offer(
        &self,
        id: &str,
        seat: Seat,
        kind: OfferKind,
        addr: Option<std::net::IpAddr>,
    ) -> Result<(), ApiError> {
        let _guard = self.rematch_lock.lock().await;
        let info = self
            .call(id, |reply| Command::Offer { seat, kind, reply })
            .await?;
        let Some(info) = info else {
            return Ok(());
        };
        let creator = match self.creation_allowed(addr, Table::of(&info.specs)).await {
            Ok(creator) => creator,
            Err(e) => {
                self.decline(id, seat, OfferKind::Rematch).await?;
                return Err(e);
            }
        };
        let made = self.create_rematch(id, info, creator.clone()).await;
        if made.is_err()
            && let Some(key) = &creator
        {
            self.creation_refused(key);
        }
        made
    }

    /// `seat` withdraws or declines the offers of `kind`.
    ///
    /// # Errors
    /// `match/not_found`.
    pub async fn decline(&self, id: &str, seat: Seat, kind: OfferKind) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Decline { seat, kind, reply })
            .await
    }

    async fn create_rematch(
        &self,
        id: &str,
        info: RematchInfo,
        creator: Option<String>,
    ) -> Result<(), ApiError> {
        let mut specs = info.specs;
        specs.rotate_right(1);
        let mut players = info.players;
        players.rotate_right(1);
        let mut seated = Vec::with_capacity(specs.len());
        let mut tokens = Vec::with_capacity(specs.len());
        for (spec, player) in specs.iter().zip(players) {
            match (spec, player) {
                (SeatSpec::Human, Some(player)) => {
                    let (token, hash) = new_token();
                    seated.push(Some((hash, player)));
                    tokens.push(Some(token));
                }
                _ => {
                    seated.push(None);
                    tokens.push(None);
                }
            }
        }
        let new_id = self
            .create_match(NewMatch {
                game: info.game,
                config: info.config,
                seats: specs,
                time_control: info.control,
                seated,
                seed: None,
                rated: info.rated,
                creator,
            })
            .await?;
        self.call(id, |reply| Command::RematchDone {
            id: new_id,
            tokens,
            reply,
        })
        .await
    }

    /// Tells WebSocket sessions to close (code 1001) and refuses new work; the HTTP server stops
    /// accepting at the same time.
    pub fn begin_shutdown(&self) {
        let _ = self.shutdown.send(true);
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

/// The per-minute counter of the tables made (or joined) from the address whose key is `key`.
fn creation_key(key: &str) -> String {
    format!("match {key}")
}

fn free_seats(seats: &[StoredSeat]) -> Vec<u8> {
    seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.spec == SeatSpec::Human && s.token_hash.is_none())
        .map(|(i, _)| i as u8)
        .collect()
}

/// Whether `id` has the shape of a match id (16 lowercase hex digits).
#[must_use]
pub fn is_match_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}
