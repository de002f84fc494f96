//! The lobby: creates matches, finds the actor of a match (starting it from storage when needed),
//! reloads unfinished matches at start, organises rematches and shuts everything down.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use plateau_engine::{Seat, Seed};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::actor::{Command, Joined, MatchActor, Options, Outgoing, Shared, new_token};
use crate::catalogue::Catalogue;
use crate::model::{ApiError, Code, SeatSpec, Status, TimeControl, unix_ms};
use crate::store::{Store, StoreError, StoredMatch, StoredSeat};

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

/// The lobby and every live actor.
pub struct Lobby {
    shared: Arc<Shared>,
    actors: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    rematch_lock: tokio::sync::Mutex<()>,
    shutdown: watch::Sender<bool>,
    /// Matches created by this process, for `test_seed`.
    created: AtomicU64,
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
        let lobby = Arc::new(Lobby {
            shared: Arc::new(Shared {
                store,
                catalogue,
                options,
            }),
            actors: Mutex::new(HashMap::new()),
            tasks: Mutex::new(Vec::new()),
            rematch_lock: tokio::sync::Mutex::new(()),
            shutdown: watch::channel(false).0,
            created: AtomicU64::new(0),
        });
        if options.test_seeds {
            tracing::warn!("test seeds: chance seeds are fixed or predictable; never serve the public so");
        }
        let unfinished = lobby.shared.store.unfinished().await?;
        let count = unfinished.len();
        for m in unfinished {
            let id = m.id.clone();
            if let Err(e) = lobby.spawn(m) {
                tracing::error!(%id, error = %e, "match not reloaded");
            }
        }
        tracing::info!(matches = count, "unfinished matches reloaded");
        Ok(lobby)
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

    /// A receiver that turns `true` when the service begins to shut down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    fn spawn(&self, m: StoredMatch) -> Result<mpsc::Sender<Command>, String> {
        let id = m.id.clone();
        let actor = MatchActor::rebuild(self.shared.clone(), m)?;
        let (tx, rx) = mpsc::channel(ACTOR_QUEUE);
        let task = tokio::spawn(actor.run(rx));
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
        let mut actors = self.actors.lock().unwrap_or_else(|e| e.into_inner());
        actors.retain(|_, tx| !tx.is_closed());
        actors.insert(id, tx.clone());
        Ok(tx)
    }

    /// The actor of match `id`, started from storage if it is not running.
    async fn actor(&self, id: &str) -> Result<mpsc::Sender<Command>, ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        if !is_match_id(id) {
            return Err(ApiError::not_found(id));
        }
        if let Some(tx) = self
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .filter(|tx| !tx.is_closed())
        {
            return Ok(tx.clone());
        }
        let stored = self
            .shared
            .store
            .get(id, true)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::not_found(id))?;
        // Another request may have started it meanwhile.
        if let Some(tx) = self
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .filter(|tx| !tx.is_closed())
        {
            return Ok(tx.clone());
        }
        self.spawn(stored).map_err(ApiError::internal)
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
        answer.await.map_err(|_| stopping())?
    }

    /// Checks that match `id` exists (for the WebSocket route, before the upgrade).
    ///
    /// # Errors
    /// `match/not_found`.
    pub async fn ensure_exists(&self, id: &str) -> Result<(), ApiError> {
        self.actor(id).await.map(|_| ())
    }

    /// Creates a match (docs/protocol.md section 3.2).
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn create(&self, req: CreateRequest) -> Result<SeatGrant, ApiError> {
        let creator = match req.creator_seat {
            Some(s) => {
                if req.seats.get(usize::from(s)) != Some(&SeatSpec::Human) {
                    return Err(ApiError::new(
                        Code::SeatInvalid,
                        format!("creator_seat {s} is not a human seat"),
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
        let mut tokens = vec![None; req.seats.len()];
        let mut token = None;
        if let Some(s) = creator {
            let (t, hash) = new_token();
            tokens[usize::from(s)] = Some(hash);
            token = Some(t);
        }
        let id = self
            .create_match(
                req.game,
                req.config,
                req.seats,
                req.time_control,
                tokens,
                seed,
            )
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
            .map_err(ApiError::internal)?
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

    /// Validates and stores a new match whose seats hold `token_hashes`, and starts its actor.
    /// `seed`: the chance seed, `None` for `next_seed`.
    async fn create_match(
        &self,
        game: String,
        config: serde_json::Value,
        seats: Vec<SeatSpec>,
        time_control: TimeControl,
        token_hashes: Vec<Option<String>>,
        seed: Option<Seed>,
    ) -> Result<String, ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
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
        for spec in &seats {
            if let SeatSpec::Bot { bot, level } = spec {
                if !self.shared.catalogue.bots.contains(&bot.as_str()) {
                    return Err(ApiError::new(
                        Code::BotUnknown,
                        format!(
                            "unknown bot `{bot}` (known: {})",
                            self.shared.catalogue.bots.join(", ")
                        ),
                    ));
                }
                if !(1..=5).contains(level) {
                    return Err(ApiError::new(
                        Code::RequestMalformed,
                        format!("bot level {level}: must be 1 to 5"),
                    ));
                }
            }
        }
        time_control.validate(entry.rule_clock)?;
        let seats: Vec<StoredSeat> = seats
            .into_iter()
            .zip(token_hashes)
            .map(|(spec, token_hash)| StoredSeat {
                token_hash: if spec == SeatSpec::Human {
                    token_hash
                } else {
                    None
                },
                spec,
            })
            .collect();
        let now = unix_ms();
        let all_taken = free_seats(&seats).is_empty();
        let m = StoredMatch {
            id: hex::encode(rand::random::<[u8; 8]>()),
            game: entry.info.name.to_owned(),
            config,
            seats,
            time_control,
            seed: seed.unwrap_or_else(|| self.next_seed()),
            status: if all_taken {
                Status::Live
            } else {
                Status::Open
            },
            created_at: now,
            started_at: all_taken.then_some(now),
            outcome: None,
            rematch: None,
            version: 0,
            log: Vec::new(),
        };
        let id = m.id.clone();
        self.shared
            .store
            .create(m.clone())
            .await
            .map_err(ApiError::internal)?;
        self.spawn(m).map_err(ApiError::internal)?;
        tracing::info!(%id, game = entry.info.name, "match created");
        Ok(id)
    }

    /// Takes a free human seat of `id` (docs/protocol.md section 3.5).
    ///
    /// # Errors
    /// The coded errors listed there.
    pub async fn join(&self, id: &str, seat: Option<u8>) -> Result<SeatGrant, ApiError> {
        let joined: Joined = self.call(id, |reply| Command::Join { seat, reply }).await?;
        let mut grant = self
            .grant(id.to_owned(), Some(joined.seat), Some(joined.token))
            .await?;
        grant.free = joined.free;
        Ok(grant)
    }

    /// Connects a viewer: `token` for a seat, `None` for a spectator. The current `state` is
    /// queued on `out` before this returns.
    ///
    /// # Errors
    /// `auth/seat` for a token that is not a seat token of the match; `match/not_found`.
    pub(crate) async fn subscribe(
        &self,
        id: &str,
        token: Option<String>,
        out: mpsc::Sender<Outgoing>,
    ) -> Result<Option<Seat>, ApiError> {
        self.call(id, |reply| Command::Subscribe { token, out, reply })
            .await
    }

    /// Plays `action` for `seat` based on `version`.
    ///
    /// # Errors
    /// The coded errors of docs/protocol.md section 4.2.
    pub async fn act(
        &self,
        id: &str,
        seat: Seat,
        version: u64,
        action: String,
    ) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Act {
            seat,
            version,
            action,
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

    /// A rematch of the finished match `id`, asked by `seat` (docs/protocol.md section 4.1,
    /// `rematch`). Creates it on the first request and tells every connection; on a later request
    /// returns the message for this connection alone.
    ///
    /// # Errors
    /// `match/not_over` while the match runs.
    pub async fn rematch(&self, id: &str, seat: Seat) -> Result<Option<String>, ApiError> {
        let _guard = self.rematch_lock.lock().await;
        let info = self
            .call(id, |reply| Command::RematchInfo { reply })
            .await?;
        let n = info.specs.len();
        let moved = |s: usize| (s + 1) % n;
        if let Some(existing) = info.rematch {
            let new_seat = moved(seat.index()) as u8;
            let (seat, token) = match self.join(&existing, Some(new_seat)).await {
                Ok(grant) => (grant.seat, grant.token),
                Err(_) => (None, None),
            };
            let msg = serde_json::json!({"type": "rematch", "id": existing, "seat": seat, "token": token});
            return Ok(Some(msg.to_string()));
        }
        let mut specs = info.specs.clone();
        specs.rotate_right(1);
        let mut hashes = vec![None; n];
        let mut tokens = vec![None; n];
        for old in 0..n {
            if info.specs[old] == SeatSpec::Human && info.connected[old] {
                let (token, hash) = new_token();
                hashes[moved(old)] = Some(hash);
                tokens[old] = Some((moved(old) as u8, token));
            }
        }
        let new_id = self
            .create_match(info.game, info.config, specs, info.control, hashes, None)
            .await?;
        self.call(id, |reply| Command::RematchDone {
            id: new_id,
            tokens,
            reply,
        })
        .await?;
        Ok(None)
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
        let actors: Vec<mpsc::Sender<Command>> = self
            .actors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .map(|(_, tx)| tx)
            .collect();
        for tx in actors {
            let (reply, done) = oneshot::channel();
            if tx.send(Command::Shutdown { reply }).await.is_ok() {
                let _ = done.await;
            }
        }
        let tasks: Vec<JoinHandle<()>> =
            std::mem::take(&mut *self.tasks.lock().unwrap_or_else(|e| e.into_inner()));
        for t in tasks {
            let _ = t.await;
        }
        self.shared.store.close().await;
        tracing::info!("match service stopped");
    }
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
