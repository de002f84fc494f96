//! One task per match (DESIGN.md section 5): it owns the game state, the chance generator, the
//! clocks and the list of connected viewers, and is the only code that changes them. Commands arrive
//! on a channel and are handled one at a time, so every change is: check, commit to the store, then
//! apply and tell everyone (an action is acknowledged only after its commit).
//!
//! Secrecy: the only things built from the state for a viewer are `observe_json(viewer)`, the
//! viewer's own legal list and (for games without hidden information) the move list.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use plateau_engine::{Actor, DynGame, Ending, GameEntry, Outcome, Seat, Seed, ToAct, Viewer};
use rand_chacha::ChaCha20Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::catalogue::Catalogue;
use crate::clock::{ClockView, Clocks};
use crate::model::{ApiError, Code, SeatInfo, SeatSpec, Status, TimeControl, unix_ms};
use crate::store::{Entry, LogEntry, Store, StoreError, StoredMatch};

/// How long the actor of a finished match with no viewer stays in memory.
const FINISHED_IDLE: Duration = Duration::from_secs(60);

/// Settings every match actor shares.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Pause before a bot plays, so people can follow (0 in tests).
    pub bot_delay: Duration,
    /// Hard cap on a bot's thinking (each bot also has its own budget, at most 1 s for the
    /// lobby's bots); past it the seat plays a random legal action.
    pub bot_budget: Duration,
    /// For tests only (`plateau serve --test-seeds`): a match may be created with a fixed `seed`,
    /// and one created without gets a seed derived from its creation order
    /// (`Lobby::test_seed`), so a test that starts from an empty database plays the same games
    /// every run. Never on a public server: its dice would be known in advance.
    pub test_seeds: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bot_delay: Duration::from_millis(250),
            bot_budget: Duration::from_secs(5),
            test_seeds: false,
        }
    }
}

/// What the actors share: storage, catalogue, options.
pub(crate) struct Shared {
    pub store: Arc<dyn Store>,
    pub catalogue: Catalogue,
    pub options: Options,
}

/// A message for one WebSocket connection.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A JSON text frame.
    Text(Utf8Bytes),
}

/// A seat taken by `join`.
pub(crate) struct Joined {
    pub seat: u8,
    pub token: String,
    pub free: Vec<u8>,
}

/// What a rematch needs to know about the finished match.
pub(crate) struct RematchInfo {
    pub game: String,
    pub config: serde_json::Value,
    pub specs: Vec<SeatSpec>,
    pub control: TimeControl,
    pub rematch: Option<String>,
    /// Per seat: whether a player of that seat is connected now.
    pub connected: Vec<bool>,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// A request to a match actor.
pub(crate) enum Command {
    Subscribe {
        token: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: Reply<Option<Seat>>,
    },
    Act {
        seat: Seat,
        version: u64,
        action: String,
        reply: Reply<()>,
    },
    Resign {
        seat: Seat,
        reply: Reply<()>,
    },
    Join {
        seat: Option<u8>,
        reply: Reply<Joined>,
    },
    RematchInfo {
        reply: Reply<RematchInfo>,
    },
    /// The rematch `id` exists; `tokens[old seat]` is that player's new seat and token.
    RematchDone {
        id: String,
        tokens: Vec<Option<(u8, String)>>,
        reply: Reply<()>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
}

struct Subscriber {
    viewer: Viewer,
    out: mpsc::Sender<Outgoing>,
}

/// One played log entry with its move-list text.
struct Played {
    entry: LogEntry,
    /// How each viewer sees it in the move list (see `displays`); empty for an early ending.
    display: Vec<Option<String>>,
}

/// How each viewer sees `actor`'s action `text` in the move list: index `s` for seat `s`, then the
/// spectator; `None` where that viewer must not learn of it (`Game::display_action`).
fn displays(state: &dyn DynGame, actor: Actor, text: &str) -> Result<Vec<Option<String>>, String> {
    Seat::all(state.seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .map(|viewer| {
            state
                .display_text(actor, text, viewer)
                .map_err(|e| e.to_string())
        })
        .collect()
}

struct BotMove {
    version: u64,
    seat: Seat,
    action: Option<String>,
}

/// A fresh seat token (64 hex digits) and its stored hash.
pub(crate) fn new_token() -> (String, String) {
    let token = hex::encode(rand::random::<[u8; 32]>());
    let hash = token_hash(&token);
    (token, hash)
}

/// SHA-256 of the token text, as stored.
pub(crate) fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The seats that may act in `to_act`, increasing.
pub(crate) fn seats_to_act(to_act: ToAct) -> Vec<Seat> {
    match to_act {
        ToAct::Player(s) => vec![s],
        ToAct::Simultaneous(set) => set.iter().collect(),
        ToAct::Chance | ToAct::Terminal => Vec::new(),
    }
}

/// The actor's state.
pub(crate) struct MatchActor {
    shared: Arc<Shared>,
    id: String,
    entry: &'static GameEntry,
    config: serde_json::Value,
    specs: Vec<SeatSpec>,
    token_hashes: Vec<Option<String>>,
    control: TimeControl,
    seed: Seed,
    seed_hash: String,
    status: Status,
    started_at: Option<i64>,
    rematch: Option<String>,
    state: Box<dyn DynGame>,
    rng: ChaCha20Rng,
    log: Vec<Played>,
    clocks: Clocks,
    subs: Vec<Subscriber>,
    bot_tx: mpsc::UnboundedSender<BotMove>,
    bot_rx: mpsc::UnboundedReceiver<BotMove>,
    bot_pending: Option<u64>,
    /// Set when a commit failed: the match stops changing until the service restarts and replays.
    broken: bool,
    shutting_down: bool,
}

#[derive(Serialize)]
struct MoveView<'a> {
    by: Actor,
    text: &'a str,
}

#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    game: &'static str,
    status: Status,
    version: u64,
    seat: Option<u8>,
    to_act: Vec<u8>,
    observation: serde_json::Value,
    legal: Vec<String>,
    moves: Vec<MoveView<'a>>,
    seats: Vec<SeatInfo>,
    clocks: ClockView,
    outcome: Option<Outcome>,
    seed_hash: &'a str,
    seed: Option<String>,
}

impl MatchActor {
    /// Rebuilds a match from its stored form by replaying its log: every seat action is checked
    /// again, every chance outcome is redrawn from the seed (one draw per chance node) and must be
    /// the logged one, and the clocks are replayed from the entries' times.
    ///
    /// # Errors
    /// A message naming the entry that does not replay.
    pub(crate) fn rebuild(shared: Arc<Shared>, m: StoredMatch) -> Result<MatchActor, String> {
        let entry = shared
            .catalogue
            .game(&m.game)
            .ok_or_else(|| format!("match {}: unknown game `{}`", m.id, m.game))?;
        let mut state = entry
            .new_game(&m.config, m.seats.len())
            .map_err(|e| format!("match {}: {e}", m.id))?;
        let mut rng = m.seed.rng();
        let mut clocks = Clocks::new(m.time_control, m.seats.len());
        if m.started_at.is_some() {
            clocks.update(0, None, &seats_to_act(state.to_act()), |s| {
                state.rule_clock_seconds(s)
            });
        }
        let mut log = Vec::with_capacity(m.log.len());
        for e in m.log {
            let bad = |why: String| format!("match {} entry {}: {why}", m.id, e.seq);
            let (display, acted) = match &e.entry {
                Entry::Seat(s, action) => {
                    let display = displays(&*state, Actor::Seat(Seat(*s)), action).map_err(bad)?;
                    state
                        .apply_text(Actor::Seat(Seat(*s)), action)
                        .map_err(|x| bad(x.to_string()))?;
                    (display, Some(Seat(*s)))
                }
                Entry::Chance(action) => {
                    let display = displays(&*state, Actor::Chance, action).map_err(bad)?;
                    let drawn = state.sample_chance(&mut rng);
                    if drawn.as_deref() != Some(action.as_str()) {
                        return Err(bad(format!(
                            "the seed draws {drawn:?}, the log says `{action}`"
                        )));
                    }
                    (display, None)
                }
                Entry::End(ending) => {
                    state.end(*ending).map_err(|x| bad(x.to_string()))?;
                    (Vec::new(), None)
                }
            };
            if state.outcome().is_some() {
                clocks.stop(e.at_ms);
            } else {
                clocks.update(e.at_ms, acted, &seats_to_act(state.to_act()), |s| {
                    state.rule_clock_seconds(s)
                });
            }
            log.push(Played { entry: e, display });
        }
        let status = if state.outcome().is_some() {
            Status::Finished
        } else {
            m.status
        };
        let (bot_tx, bot_rx) = mpsc::unbounded_channel();
        Ok(MatchActor {
            shared,
            id: m.id,
            entry,
            config: m.config,
            token_hashes: m.seats.iter().map(|s| s.token_hash.clone()).collect(),
            specs: m.seats.into_iter().map(|s| s.spec).collect(),
            control: m.time_control,
            seed_hash: m.seed.hash_hex(),
            seed: m.seed,
            status,
            started_at: m.started_at,
            rematch: m.rematch,
            state,
            rng,
            log,
            clocks,
            subs: Vec::new(),
            bot_tx,
            bot_rx,
            bot_pending: None,
            broken: false,
            shutting_down: false,
        })
    }

    /// Runs the actor until `Shutdown` or until every sender is gone.
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        // A match reloaded after a crash may stop at a chance node or a bot's turn.
        self.advance().await;
        loop {
            let deadline = self.deadline();
            // A finished match nobody watches leaves memory after a while; the lobby reloads it
            // from the store if it is asked for again.
            self.subs.retain(|s| !s.out.is_closed());
            let idle = (self.status == Status::Finished && self.subs.is_empty())
                .then(|| Instant::now() + FINISHED_IDLE);
            tokio::select! {
                () = sleep_until(idle) => {
                    // Commands already queued are still answered; later senders find the channel
                    // closed and start a fresh actor.
                    commands.close();
                    while let Some(command) = commands.recv().await {
                        self.handle(command).await;
                    }
                    break;
                }
                command = commands.recv() => match command {
                    None => break,
                    Some(Command::Shutdown { reply }) => {
                        // Dropping the senders ends every connection's writer, which sends a close
                        // frame.
                        self.subs.clear();
                        self.shutting_down = true;
                        let _ = reply.send(());
                        break;
                    }
                    Some(command) => self.handle(command).await,
                },
                () = sleep_until(deadline) => self.on_clock().await,
                Some(bot) = self.bot_rx.recv() => self.on_bot(bot).await,
            }
        }
    }

    fn now_ms(&self) -> u64 {
        self.started_at
            .map_or(0, |start| (unix_ms() - start).max(0) as u64)
    }

    fn version(&self) -> u64 {
        self.log.len() as u64
    }

    fn deadline(&self) -> Option<Instant> {
        if self.status != Status::Live || self.broken {
            return None;
        }
        let (_, at) = self.clocks.deadline()?;
        let wait = at.saturating_sub(self.now_ms());
        Some(Instant::now() + Duration::from_millis(wait))
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Subscribe { token, out, reply } => {
                let viewer = match token {
                    None => Viewer::Spectator,
                    Some(token) => {
                        let hash = token_hash(&token);
                        match self
                            .token_hashes
                            .iter()
                            .position(|h| h.as_deref() == Some(hash.as_str()))
                        {
                            Some(i) => Viewer::Seat(Seat(i as u8)),
                            None => {
                                let _ = reply.send(Err(ApiError::new(
                                    Code::AuthSeat,
                                    "this token is not a seat token of this match",
                                )));
                                return;
                            }
                        }
                    }
                };
                let message = self.state_message(viewer, self.now_ms());
                if out.try_send(Outgoing::Text(message)).is_ok() {
                    self.subs.push(Subscriber { viewer, out });
                }
                let _ = reply.send(Ok(match viewer {
                    Viewer::Seat(s) => Some(s),
                    Viewer::Spectator => None,
                }));
            }
            Command::Act {
                seat,
                version,
                action,
                reply,
            } => {
                let result = self.act(seat, version, &action).await;
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    self.advance().await;
                    self.broadcast();
                }
            }
            Command::Resign { seat, reply } => {
                let result = self.resign(seat).await;
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    // A Bataille Navale resignation eliminates one seat and play goes on: the
                    // next chance node or bot must be started as after any action.
                    self.advance().await;
                    self.broadcast();
                }
            }
            Command::Join { seat, reply } => {
                let result = self.join(seat).await;
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    self.advance().await;
                    self.broadcast();
                }
            }
            Command::RematchInfo { reply } => {
                let _ = reply.send(self.rematch_info());
            }
            Command::RematchDone { id, tokens, reply } => {
                let result = self.rematch_done(id, tokens).await;
                let _ = reply.send(result);
            }
            Command::Shutdown { reply } => {
                let _ = reply.send(());
            }
        }
    }

    /// The checks of docs/protocol.md section 4.2, in order, then the commit.
    async fn act(&mut self, seat: Seat, version: u64, text: &str) -> Result<(), ApiError> {
        self.check_can_change()?;
        if version != self.version() {
            return Err(ApiError::new(
                Code::ActionStale,
                format!(
                    "the action was based on version {version}, the match is at version {}",
                    self.version()
                ),
            ));
        }
        if !self.state.to_act().allows(Actor::Seat(seat)) {
            return Err(ApiError::new(
                Code::ActionNotYourTurn,
                format!("seat {seat} is not to act now"),
            ));
        }
        let legal = self.state.legal_texts(seat);
        if legal.binary_search_by(|l| l.as_str().cmp(text)).is_err() {
            if let Err(e) = self.state.canonical_text(text) {
                return Err(ApiError::new(Code::ActionMalformed, e.to_string()));
            }
            let mut probe = self.state.clone_box();
            return Err(match probe.apply_text(Actor::Seat(seat), text) {
                Err(e) => ApiError::new(Code::from_engine(e.code()), e.to_string()),
                Ok(()) => ApiError::new(
                    Code::ActionIllegal,
                    format!("`{text}` is not written in canonical notation: send one of `legal`"),
                ),
            });
        }
        let display = displays(&*self.state, Actor::Seat(seat), text).unwrap_or_default();
        let mut next = self.state.clone_box();
        next.apply_text(Actor::Seat(seat), text)
            .map_err(|e| ApiError::new(Code::from_engine(e.code()), e.to_string()))?;
        self.commit(
            next,
            None,
            Entry::Seat(seat.0, text.to_owned()),
            display,
            Some(seat),
        )
        .await
    }

    async fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.check_can_change()?;
        let mut next = self.state.clone_box();
        next.end(Ending::Resign(seat))
            .map_err(|e| ApiError::new(Code::from_engine(e.code()), e.to_string()))?;
        self.commit(
            next,
            None,
            Entry::End(Ending::Resign(seat)),
            Vec::new(),
            None,
        )
        .await
    }

    fn check_can_change(&self) -> Result<(), ApiError> {
        if self.shutting_down {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        if self.broken {
            return Err(ApiError::new(
                Code::Internal,
                "this match cannot be stored now; try again after a restart",
            ));
        }
        match self.status {
            Status::Open => Err(ApiError::new(
                Code::MatchNotStarted,
                "the match waits for its players",
            )),
            Status::Finished => Err(ApiError::new(Code::MatchOver, "the match is over")),
            Status::Live => Ok(()),
        }
    }

    /// Writes one entry, and only once it is committed makes `next` the state.
    async fn commit(
        &mut self,
        next: Box<dyn DynGame>,
        next_rng: Option<ChaCha20Rng>,
        entry: Entry,
        display: Vec<Option<String>>,
        acted: Option<Seat>,
    ) -> Result<(), ApiError> {
        let now = self.now_ms();
        let finish = next.outcome();
        let log_entry = LogEntry {
            seq: self.version(),
            entry,
            at_ms: now,
        };
        if let Err(e) = self
            .shared
            .store
            .append(&self.id, log_entry.clone(), finish.clone())
            .await
        {
            self.broken = true;
            return Err(ApiError::internal(format!("match {}: {e}", self.id)));
        }
        self.state = next;
        if let Some(rng) = next_rng {
            self.rng = rng;
        }
        self.log.push(Played {
            entry: log_entry,
            display,
        });
        if finish.is_some() {
            self.status = Status::Finished;
            self.clocks.stop(now);
            tracing::info!(id = %self.id, version = self.version(), "match finished");
        } else {
            self.clocks
                .update(now, acted, &seats_to_act(self.state.to_act()), |s| {
                    self.state.rule_clock_seconds(s)
                });
        }
        Ok(())
    }

    /// After a change: draws every chance node from the match's generator (each committed before
    /// the next), then lets bots to act think.
    async fn advance(&mut self) {
        while self.status == Status::Live && !self.broken && self.state.to_act() == ToAct::Chance {
            let mut next = self.state.clone_box();
            let mut rng = self.rng.clone();
            let Some(text) = next.sample_chance(&mut rng) else {
                break;
            };
            let display = displays(&*self.state, Actor::Chance, &text).unwrap_or_default();
            if let Err(e) = self
                .commit(next, Some(rng), Entry::Chance(text), display, None)
                .await
            {
                tracing::error!(id = %self.id, error = %e.message, "chance draw not stored");
            }
        }
        self.schedule_bots();
    }

    fn schedule_bots(&mut self) {
        if self.status != Status::Live || self.broken || self.bot_pending == Some(self.version()) {
            return;
        }
        let version = self.version();
        for seat in seats_to_act(self.state.to_act()) {
            let SeatSpec::Bot { bot, .. } = &self.specs[seat.index()] else {
                continue;
            };
            self.bot_pending = Some(version);
            let state = self.state.clone_box();
            let bot = bot.clone();
            let play = self.shared.catalogue.play_bot;
            let Options {
                bot_delay,
                bot_budget,
                ..
            } = self.shared.options;
            // The bot's own stream of the match key: never the chance stream (0), and fixed by
            // (version, seat), so a reloaded match plays the same bot moves.
            let stream = 1 + version * 8 + u64::from(seat.0);
            let seed = self.seed;
            let tx = self.bot_tx.clone();
            tokio::spawn(async move {
                tokio::time::sleep(bot_delay).await;
                let fallback = state.clone_box();
                let thinking = tokio::task::spawn_blocking(move || {
                    let mut rng = seed.rng_for_stream(stream);
                    play(&bot, &*state, seat, &mut rng)
                });
                let action = match tokio::time::timeout(bot_budget, thinking).await {
                    Ok(Ok(action)) => action,
                    _ => {
                        tracing::warn!(%seat, "bot over its time budget: playing a random action");
                        fallback.random_action(seat, &mut seed.rng_for_stream(stream))
                    }
                };
                let _ = tx.send(BotMove {
                    version,
                    seat,
                    action,
                });
            });
        }
    }

    async fn on_bot(&mut self, bot: BotMove) {
        if bot.version != self.version() || self.status != Status::Live {
            return;
        }
        let Some(action) = bot.action else {
            tracing::error!(id = %self.id, seat = %bot.seat, "bot has no legal action");
            return;
        };
        match self.act(bot.seat, bot.version, &action).await {
            Ok(()) => {
                self.advance().await;
                self.broadcast();
            }
            Err(e) => {
                tracing::error!(id = %self.id, %action, error = %e.message, "bot move refused")
            }
        }
    }

    /// A clock ran out: the game's rule applies (`timeout_texts`, else `Ending::Timeout`).
    async fn on_clock(&mut self) {
        let now = self.now_ms();
        let Some((seat, at)) = self.clocks.deadline() else {
            return;
        };
        if at > now || self.status != Status::Live || self.broken {
            return;
        }
        tracing::info!(id = %self.id, %seat, "out of time");
        match self.state.timeout_texts(seat).filter(|t| !t.is_empty()) {
            Some(texts) => {
                for text in texts {
                    let mut next = self.state.clone_box();
                    let display =
                        displays(&*self.state, Actor::Seat(seat), &text).unwrap_or_default();
                    if let Err(e) = next.apply_text(Actor::Seat(seat), &text) {
                        tracing::error!(id = %self.id, %text, error = %e, "timeout action refused");
                        self.clocks.stop(now);
                        break;
                    }
                    if self
                        .commit(next, None, Entry::Seat(seat.0, text), display, Some(seat))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            }
            None => {
                let mut next = self.state.clone_box();
                match next.end(Ending::Timeout(seat)) {
                    Ok(()) => {
                        let _ = self
                            .commit(
                                next,
                                None,
                                Entry::End(Ending::Timeout(seat)),
                                Vec::new(),
                                None,
                            )
                            .await;
                    }
                    Err(e) => {
                        // The game has no rule for running out of time: stop the clocks rather
                        // than fire again at once.
                        tracing::warn!(id = %self.id, error = %e, "no timeout rule; clocks stopped");
                        self.clocks.stop(now);
                    }
                }
            }
        }
        self.advance().await;
        self.broadcast();
    }

    async fn join(&mut self, wanted: Option<u8>) -> Result<Joined, ApiError> {
        if self.status == Status::Finished {
            return Err(ApiError::new(Code::MatchOver, "the match is over"));
        }
        if self.shutting_down {
            return Err(ApiError::new(Code::ShuttingDown, "the server is stopping"));
        }
        let free = |me: &Self| -> Vec<u8> {
            (0..me.specs.len())
                .filter(|i| me.specs[*i] == SeatSpec::Human && me.token_hashes[*i].is_none())
                .map(|i| i as u8)
                .collect()
        };
        let seat = match wanted {
            Some(s) => {
                let i = usize::from(s);
                if i >= self.specs.len() || self.specs[i] != SeatSpec::Human {
                    return Err(ApiError::new(
                        Code::SeatInvalid,
                        format!("seat {s} is not a human seat of this match"),
                    ));
                }
                if self.token_hashes[i].is_some() {
                    return Err(ApiError::new(Code::SeatTaken, format!("seat {s} is taken")));
                }
                s
            }
            None => *free(self)
                .first()
                .ok_or_else(|| ApiError::new(Code::SeatTaken, "no free human seat is left"))?,
        };
        let (token, hash) = new_token();
        let starts = self.status == Status::Open && free(self).len() == 1;
        let start = starts.then(unix_ms);
        match self
            .shared
            .store
            .take_seat(&self.id, seat, hash.clone(), start)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                return Err(ApiError::new(
                    Code::SeatTaken,
                    format!("seat {seat} is taken"),
                ));
            }
            Err(e) => return Err(ApiError::internal(format!("match {}: {e}", self.id))),
        }
        self.token_hashes[usize::from(seat)] = Some(hash);
        if starts {
            self.status = Status::Live;
            self.started_at = start;
            self.clocks
                .update(0, None, &seats_to_act(self.state.to_act()), |s| {
                    self.state.rule_clock_seconds(s)
                });
            tracing::info!(id = %self.id, "match started");
        }
        Ok(Joined {
            seat,
            token,
            free: free(self),
        })
    }

    fn rematch_info(&self) -> Result<RematchInfo, ApiError> {
        if self.status != Status::Finished {
            return Err(ApiError::new(
                Code::MatchNotOver,
                "a rematch can be asked once the match is over",
            ));
        }
        let mut connected = vec![false; self.specs.len()];
        for sub in &self.subs {
            if let Viewer::Seat(s) = sub.viewer
                && !sub.out.is_closed()
            {
                connected[s.index()] = true;
            }
        }
        Ok(RematchInfo {
            game: self.entry.info.name.to_owned(),
            config: self.config.clone(),
            specs: self.specs.clone(),
            control: self.control,
            rematch: self.rematch.clone(),
            connected,
        })
    }

    async fn rematch_done(
        &mut self,
        id: String,
        tokens: Vec<Option<(u8, String)>>,
    ) -> Result<(), ApiError> {
        if self.rematch.is_none() {
            self.shared
                .store
                .set_rematch(&self.id, &id)
                .await
                .map_err(|e| ApiError::internal(format!("match {}: {e}", self.id)))?;
            self.rematch = Some(id.clone());
        }
        for sub in &self.subs {
            let (seat, token) = match sub.viewer {
                Viewer::Seat(s) => match tokens.get(s.index()).cloned().flatten() {
                    Some((seat, token)) => (Some(seat), Some(token)),
                    None => (None, None),
                },
                Viewer::Spectator => (None, None),
            };
            let msg =
                serde_json::json!({"type": "rematch", "id": id, "seat": seat, "token": token});
            let _ = sub
                .out
                .try_send(Outgoing::Text(Utf8Bytes::from(msg.to_string())));
        }
        Ok(())
    }

    /// The `state` message for `viewer` (docs/protocol.md section 4.1).
    fn state_message(&self, viewer: Viewer, now: u64) -> Utf8Bytes {
        let live = self.status == Status::Live;
        let to_act = if live {
            seats_to_act(self.state.to_act())
        } else {
            Vec::new()
        };
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let legal = match seat {
            Some(s) if to_act.contains(&s) => self.state.legal_texts(s),
            _ => Vec::new(),
        };
        // Each viewer's own column of the move list: hidden actions are simply absent.
        let column = match viewer {
            Viewer::Seat(s) => s.index(),
            Viewer::Spectator => self.state.seats(),
        };
        let moves = self
            .log
            .iter()
            .filter_map(|p| {
                let by = match &p.entry.entry {
                    Entry::Seat(s, _) => Actor::Seat(Seat(*s)),
                    Entry::Chance(_) => Actor::Chance,
                    Entry::End(_) => return None,
                };
                let text = p.display.get(column)?.as_deref()?;
                Some(MoveView { by, text })
            })
            .collect();
        let finished = self.status == Status::Finished;
        let message = StateMessage {
            kind: "state",
            id: &self.id,
            game: self.entry.info.name,
            status: self.status,
            version: self.version(),
            seat: seat.map(|s| s.0),
            to_act: to_act.iter().map(|s| s.0).collect(),
            observation: self.state.observe_json(viewer),
            legal,
            moves,
            seats: self.seat_infos(),
            clocks: self.clocks.view(now),
            outcome: if finished { self.state.outcome() } else { None },
            seed_hash: &self.seed_hash,
            seed: finished.then(|| self.seed.to_hex()),
        };
        Utf8Bytes::from(serde_json::to_string(&message).expect("state messages serialize"))
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        self.specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                SeatInfo::new(
                    i,
                    spec,
                    !matches!(spec, SeatSpec::Human) || self.token_hashes[i].is_some(),
                )
            })
            .collect()
    }

    /// Sends every viewer its own `state`, built once per distinct viewer. A connection whose queue
    /// is full is dropped (its socket is then closed; the client reconnects and resumes).
    fn broadcast(&mut self) {
        self.subs.retain(|s| !s.out.is_closed());
        let now = self.now_ms();
        let mut messages: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        for sub in &self.subs {
            messages
                .entry(sub.viewer)
                .or_insert_with(|| self.state_message(sub.viewer, now));
        }
        self.subs.retain(|sub| {
            let msg = messages[&sub.viewer].clone();
            sub.out.try_send(Outgoing::Text(msg)).is_ok()
        });
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
