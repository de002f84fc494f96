//! The match registry: the actors running on this node by match id, each started from storage
//! when first asked for (after this node took the match's lease), and the calls that reach them.

use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::FutureExt as _;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument as _;

use super::create::is_match_id;
use super::leases::LEASE_TTL;
use super::state::{Actors, Lobby};
use crate::model::{ApiError, Code};
use plateau_match::actor::{Command, MatchActor};
use plateau_store::{Node, StoreError, StoredMatch};

/// Commands waiting for one actor, at most.
const ACTOR_QUEUE: usize = 256;

/// Where a match is driven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// By this node: its actor runs here.
    Here,
    /// By another node.
    There(Node),
}

impl Lobby {
    /// The running actor of `m`, or a new one rebuilt from it. The check and the start happen
    /// under one lock, so two requests never start two actors for one match.
    pub(super) fn spawn(&self, m: StoredMatch) -> Result<mpsc::Sender<Command>, String> {
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
        // The actor's loop is made here and chained to what follows it, rather than made and
        // awaited inside one async block, whose future would keep room for the actor twice (as
        // captured, and inside the loop's future): every match in memory holds this one.
        let run = actor.run(rx).instrument(span);
        tokio::spawn(run.then(move |hand_over| async move {
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
        }));
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
    pub fn drives(&self, id: &str) -> bool {
        self.running(id).is_some()
    }

    /// The running actor of `id`, if any.
    pub(super) fn running(&self, id: &str) -> Option<mpsc::Sender<Command>> {
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
    pub(super) async fn actor(&self, id: &str) -> Result<mpsc::Sender<Command>, ApiError> {
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
    pub(super) async fn call<T>(
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
}
