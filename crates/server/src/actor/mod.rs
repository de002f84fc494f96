//! One task per match (docs/architecture.md section 5): it owns the game state, the chance
//! generator, the clocks, the bots of its bot seats, the offers, the chat and the list of connected
//! viewers, and is the only code that changes them. Commands arrive on a channel and are handled one at a time, so
//! every change is: check, commit to the store, then apply and tell everyone (an action is
//! acknowledged only after its commit). The game advances through the engine's driver
//! (docs/architecture.md section 2.3): chance draws and seat actions; a match is rebuilt from its
//! stored log by the engine's one replay, `replay_log` (section 4).
//!
//! Secrecy: the only things built from the state for a viewer are `observe_json(viewer)`, the
//! viewer's own legal list and its own column of the move list.
//!
//! The parts: `play` (actions, chance, bots, clocks, offers, abandonment), `takeback` (taking
//! back a seat's last turn), `seats` (connections, joining, opening, rematches, chat), `view` (the
//! messages and the presence report).

mod play;
mod seats;
mod takeback;
mod view;

pub(crate) use seats::seat_for;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use plateau_bots::DynBot;
use plateau_engine::{
    ActionInfo, Actor, DynGame, Event, GameEntry, LogEntry, Seat, Seed, ToAct, Viewer, Visitor,
    replay_log,
};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tracing::Instrument as _;

use crate::catalogue::Catalogue;
use crate::clock::Clocks;
use crate::model::{ApiError, SeatSpec, Status, TimeControl};
use crate::players::{Player, PlayerId};
use crate::presence::Presence;
use crate::store::{ChatLine, Store, StoredMatch};
use crate::versions::seats_to_act;

/// How often a match whose last write failed reads itself back from the store.
const RECOVER_EVERY: Duration = Duration::from_secs(2);

/// How long a finished match nobody watches, with no offer pending, stays in memory (at most
/// `Limits::idle_unload`). Nothing in it can change any more and it is rebuilt from the store
/// when asked for, so it leaves sooner than other idle matches: under load, matches finish
/// faster than the idle time empties memory, and every finished match held meanwhile costs its
/// whole move list (about 135 KB for a Moon Leap game).
const FINISHED_UNLOAD: Duration = Duration::from_secs(5);

/// Settings every match actor shares.
#[derive(Clone, Debug)]
pub struct Options {
    /// Pause before a bot plays, so people can follow (0 in tests); none at a simultaneous
    /// node, where the moves are secret.
    pub bot_delay: Duration,
    /// Hard cap on a bot's thinking (each bot also has its own budget, at most 1 s for the
    /// lobby's bots); past it the seat plays a random legal action.
    pub bot_budget: Duration,
    /// For tests only (`plateau serve --test-seeds`): a match may be created with a fixed `seed`,
    /// and one created without gets a seed derived from its creation order
    /// (`Lobby::test_seed`), so a test that starts from an empty database plays the same games
    /// every run. Never on a public server: its dice would be known in advance.
    pub test_seeds: bool,
    /// In a live match with a clock, a human seat with no open socket for this long resigns by
    /// the game's rule (docs/protocol.md section 7.4).
    pub abandon_after: Duration,
    /// How long a seat's per-move or Fischer clock waits for the seat's first move before it
    /// runs anyway (docs/protocol.md section 4.1); 0 runs it at once.
    pub first_move: Duration,
    /// What a stranger may make the server hold.
    pub limits: crate::limits::Limits,
    /// Search iterations per judged decision of a post-game analysis; `None` = each game's
    /// expert level (`plateau_registry::expert_judge`).
    pub analysis_iterations: Option<u64>,
    /// Whether the server is reached only over TLS (a proxy in front that terminates it): every
    /// answer then carries HSTS and its cookies `Secure` (`auth::transport_security`).
    pub secure_cookies: bool,
    /// This process among the nodes of a database several share (docs/architecture.md section
    /// 5.3): its name and the address the others reach it at. `None` = a name of its own made at
    /// start and no address (no other node can forward to it).
    pub node: Option<crate::store::Node>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bot_delay: Duration::from_millis(250),
            bot_budget: Duration::from_secs(5),
            test_seeds: false,
            abandon_after: Duration::from_secs(90),
            first_move: Duration::from_secs(30),
            limits: crate::limits::Limits::default(),
            analysis_iterations: None,
            secure_cookies: false,
            node: None,
        }
    }
}

/// What the actors share: storage, catalogue, options, presence.
pub(crate) struct Shared {
    pub store: Arc<dyn Store>,
    pub catalogue: Catalogue,
    pub options: Options,
    pub presence: Arc<Presence>,
    pub bots: Arc<crate::botpool::BotPool>,
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
    pub players: Vec<Option<Player>>,
    pub control: TimeControl,
    pub rated: bool,
}

pub use plateau_protocol::OfferKind;

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// A request to a match actor.
pub(crate) enum Command {
    Subscribe {
        conn: u64,
        token: Option<String>,
        player: Option<Player>,
        /// The client's address key (`limits::address_key`), where the limits apply to it.
        from: Option<String>,
        out: mpsc::Sender<Outgoing>,
        reply: Reply<Option<Seat>>,
    },
    Unsubscribe {
        conn: u64,
    },
    Act {
        seat: Seat,
        version: u64,
        actions: Vec<crate::ws::ActionRequest>,
        reply: Reply<()>,
    },
    Snapshot {
        conn: u64,
    },
    Resign {
        seat: Seat,
        reply: Reply<()>,
    },
    Join {
        seat: Option<u8>,
        player: Player,
        reply: Reply<Joined>,
    },
    /// Offer (or accept) an agreed stop or a rematch; for a rematch, the answer holds what the
    /// lobby needs to create it once every human seat has offered.
    Offer {
        seat: Seat,
        kind: OfferKind,
        reply: Reply<Option<RematchInfo>>,
    },
    Decline {
        seat: Seat,
        kind: OfferKind,
        reply: Reply<()>,
    },
    /// The rematch `id` exists; `tokens[new seat]` is the token of that seat's player.
    RematchDone {
        id: String,
        tokens: Vec<Option<String>>,
        reply: Reply<()>,
    },
    Chat {
        conn: u64,
        text: String,
        reply: Reply<()>,
    },
    Mute {
        conn: u64,
        name: String,
        mute: bool,
        reply: Reply<()>,
    },
    Shutdown {
        reply: oneshot::Sender<()>,
    },
    /// The match was deleted as an open match nobody started in time.
    Expired,
    /// A quick-pairing table not started in time: called off if a seat's player never opened
    /// it; the answer names those players (none if the match started).
    CallOff {
        reply: oneshot::Sender<Vec<PlayerId>>,
    },
    /// Another node took the match's lease: stop, so its viewers connect again (to the node
    /// that drives it now).
    Moved,
}

struct Subscriber {
    conn: u64,
    viewer: Viewer,
    /// The player behind the connection: the seat's player, or a spectator's session.
    player: Option<Player>,
    out: mpsc::Sender<Outgoing>,
}

/// One played log entry with its move-list text.
struct Played {
    /// The entry, with its time (always `Some`: the actor times every entry).
    entry: LogEntry,
    /// How each viewer sees it in the move list (see `displays`); empty for an early ending.
    display: Vec<Shown>,
}

/// An entry as one viewer sees it in the move list: its text and its parts
/// (`DynGame::display_entry`), or `None` when that viewer must not learn of it. Shared between
/// the viewers that see it alike (all of them, in a game without hidden information): a match
/// keeps one copy per distinct view of each entry, not one per viewer.
type Shown = Option<Arc<(String, ActionInfo)>>;

impl Played {
    /// Whether viewer column `col` (seat index, or the seat count for spectators) can see the
    /// entry: an early ending everyone can; an action or chance outcome where it has a text.
    fn seen_by(&self, col: usize) -> bool {
        matches!(self.entry.event, Event::End(_))
            || self.display.get(col).is_some_and(Option::is_some)
    }
}

/// How each viewer sees `actor`'s action `text` in the move list: index `s` for seat `s`, then the
/// spectator; `None` where that viewer must not learn of it (`Game::display_action`).
fn displays(state: &dyn DynGame, actor: Actor, text: &str) -> Result<Vec<Shown>, String> {
    let mut out: Vec<Shown> = Vec::with_capacity(state.seats() + 1);
    for viewer in Seat::all(state.seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
    {
        let shown = state
            .display_entry(actor, text, viewer)
            .map_err(|e| e.to_string())?;
        let shared = shown.map(|entry| {
            out.iter()
                .flatten()
                .find(|seen| ***seen == entry)
                .map_or_else(|| Arc::new(entry), Arc::clone)
        });
        out.push(shared);
    }
    Ok(out)
}

/// A seat's bot, shared between the actor and the thread it thinks on.
type SeatBot = Arc<Mutex<Box<dyn DynBot>>>;

struct BotMove {
    /// The match's `epoch` when the bot was asked: a takeback makes its move stale.
    epoch: u64,
    version: u64,
    seat: Seat,
    action: Option<String>,
}

/// The viewer's column in `Played::display` and `seen`: its seat, or the seat count for
/// spectators.
fn column(viewer: Viewer, seats: usize) -> usize {
    match viewer {
        Viewer::Seat(s) => s.index(),
        Viewer::Spectator => seats,
    }
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

/// What `MatchActor::rebuild` keeps as it replays the log: the clocks, the move list and the
/// versions, each updated entry by entry as when the entries were played.
struct Rebuilt {
    clocks: Clocks,
    log: Vec<Played>,
    seen: Vec<u64>,
    views: Vec<u64>,
    /// The move-list texts of the entry being replayed, made from the state before it.
    display: Vec<Shown>,
}

impl Visitor for Rebuilt {
    fn before(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        self.display = match &logged.event {
            Event::Action { by, action } => displays(state, *by, action)?,
            Event::End(_) => Vec::new(),
        };
        Ok(())
    }

    fn after(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        // The store times every entry.
        let at_ms = logged.at_ms.unwrap_or(0);
        if state.outcome().is_some() {
            self.clocks.stop(at_ms);
        } else {
            let acted = match logged.by() {
                Some(Actor::Seat(seat)) => Some(seat),
                _ => None,
            };
            self.clocks
                .update(at_ms, acted, &seats_to_act(state.to_act()), |s| {
                    state.rule_clock_seconds(s)
                });
        }
        let played = Played {
            entry: logged.clone(),
            display: std::mem::take(&mut self.display),
        };
        let after = crate::versions::views(state);
        crate::versions::count(&mut self.seen, |i| played.seen_by(i), &self.views, &after);
        self.views = after;
        self.log.push(played);
        Ok(())
    }
}

/// A match replayed from its log: the state, the chance generator after its last draw, and what
/// `Rebuilt` kept.
struct Replayed {
    state: Box<dyn DynGame>,
    rng: ChaCha20Rng,
    clocks: Clocks,
    log: Vec<Played>,
    seen: Vec<u64>,
    views: Vec<u64>,
}

/// Replays `log` from the start of game `entry` with `config` (`replay_log`, the chance outcomes
/// redrawn from `seed`), the clocks `clocks` running from the start when the match `started`;
/// for a rebuild, and for a takeback (the log up to where it cuts).
///
/// # Errors
/// A message naming the entry that does not replay.
fn replayed(
    entry: &GameEntry,
    config: &serde_json::Value,
    mut clocks: Clocks,
    started: bool,
    seed: &Seed,
    log: &[LogEntry],
) -> Result<Replayed, String> {
    let seats = clocks.seats();
    let start = entry.new_game(config, seats).map_err(|e| e.to_string())?;
    if started {
        clocks.update(0, None, &seats_to_act(start.to_act()), |s| {
            start.rule_clock_seconds(s)
        });
    }
    let mut rebuilt = Rebuilt {
        clocks,
        log: Vec::with_capacity(log.len()),
        seen: vec![0; seats + 1],
        views: crate::versions::views(&*start),
        display: Vec::new(),
    };
    let mut rng = seed.rng();
    let state = replay_log(start, Some(&mut rng), log, &mut rebuilt).map_err(|e| e.to_string())?;
    let Rebuilt {
        clocks,
        log,
        seen,
        views,
        ..
    } = rebuilt;
    Ok(Replayed {
        state,
        rng,
        clocks,
        log,
        seen,
        views,
    })
}

/// The actor's state.
pub(crate) struct MatchActor {
    shared: Arc<Shared>,
    id: String,
    entry: &'static GameEntry,
    config: serde_json::Value,
    specs: Vec<SeatSpec>,
    token_hashes: Vec<Option<String>>,
    /// Per seat: its player (the person who took it, or the bot's player).
    players: Vec<Option<Player>>,
    /// Per seat: whether its player opened the match (bots always have).
    opened: Vec<bool>,
    control: TimeControl,
    rated: bool,
    /// Whose turn its bots' moves take in the bot pool (`botpool`): the key of the address that
    /// made the match, or the match's own id where no address counts.
    pool_owner: String,
    seed: Seed,
    seed_hash: String,
    status: Status,
    /// Match time (ms) at `resumed`: the last log entry's when the actor was rebuilt, 0 when the
    /// match started. Match time runs only while the actor runs, so time the server was down
    /// counts against no clock.
    time_base: u64,
    resumed: Instant,
    /// Match time stands still (at `time_base`): the one person at a table of bots is away, and
    /// the game waits for them (`play::MatchActor::hold_time`).
    paused: bool,
    rematch: Option<String>,
    state: Box<dyn DynGame>,
    rng: ChaCha20Rng,
    log: Vec<Played>,
    /// Per viewer column (seats, then spectators): the version it is shown and acts on, the
    /// log entries that changed what it is shown (`versions`).
    seen: Vec<u64>,
    /// What each viewer is shown now, as `versions::views` digests it.
    views: Vec<u64>,
    clocks: Clocks,
    subs: Vec<Subscriber>,
    /// What the last broadcast told every connection, so the next one sends only what changed
    /// (docs/protocol.md section 4.1); `None` before the first, and after a recovery (the next
    /// broadcast is then whole).
    sent: Option<view::Sent>,
    /// The seats that offered a rematch / an agreed stop / a takeback, now.
    offers: HashMap<OfferKind, BTreeSet<u8>>,
    /// The seat whose last turn the takeback offered now would take back (the one who asked).
    takeback_by: Option<Seat>,
    /// How many takebacks the match had since it was loaded: a bot's move asked for before the
    /// last one is stale, even if the log is as long again.
    epoch: u64,
    /// Per seat of a finished rated match: how its player's rating moved (`None` for a seat whose
    /// rating did not move); empty until read from the store.
    ratings: Vec<Option<view::RatingChange>>,
    /// Per human seat: since when it has had no open socket (for abandonment).
    away_since: Vec<Option<Instant>>,
    chat: Vec<ChatLine>,
    /// Per player: when its recent chat lines were written (for the rate limit).
    chat_times: HashMap<PlayerId, VecDeque<Instant>>,
    /// Per player: whose chat lines it does not want.
    mutes: HashMap<PlayerId, HashSet<PlayerId>>,
    /// Per bot seat: its bot, built when the seat first acts and kept for the match (an MCTS bot
    /// keeps its tree between moves). Shared with the thread it thinks on.
    bots: Vec<Option<SeatBot>>,
    bot_tx: mpsc::UnboundedSender<BotMove>,
    bot_rx: mpsc::UnboundedReceiver<BotMove>,
    bot_pending: Option<u64>,
    /// Set when a commit failed: the match stops changing until the service restarts and replays.
    broken: bool,
    /// Set when a write was refused because another node holds the match's lease now: the
    /// actor stops after the command in hand.
    moved: bool,
    shutting_down: bool,
}

impl MatchActor {
    /// Rebuilds a match from its stored form by replaying its log (`replay_log`): every seat
    /// action is checked again, every chance outcome is redrawn from the seed (one draw per chance
    /// node) and must be the logged one, and the clocks, the move list and the versions are
    /// replayed from the entries.
    ///
    /// # Errors
    /// A message naming the entry that does not replay.
    pub(crate) fn rebuild(shared: Arc<Shared>, m: StoredMatch) -> Result<MatchActor, String> {
        let entry = shared
            .catalogue
            .game(&m.game)
            .ok_or_else(|| format!("match {}: unknown game `{}`", m.id, m.game))?;
        let clocks = Clocks::new(m.time_control, m.seats.len(), shared.options.first_move);
        let Replayed {
            state,
            rng,
            clocks,
            log,
            seen,
            views,
        } = replayed(
            entry,
            &m.config,
            clocks,
            m.started_at.is_some(),
            &m.seed,
            &m.log,
        )
        .map_err(|e| format!("match {}: {e}", m.id))?;
        let status = if state.outcome().is_some() {
            Status::Finished
        } else {
            m.status
        };
        // After a start nobody is connected yet: every person has the abandonment delay to come
        // back.
        let now = Instant::now();
        let away_since = m
            .seats
            .iter()
            .map(|s| (s.spec == SeatSpec::Human).then_some(now))
            .collect();
        let (bot_tx, bot_rx) = mpsc::unbounded_channel();
        let pool_owner = m.creator.unwrap_or_else(|| format!("match {}", m.id));
        Ok(MatchActor {
            shared,
            pool_owner,
            id: m.id,
            entry,
            config: m.config,
            token_hashes: m.seats.iter().map(|s| s.token_hash.clone()).collect(),
            players: m.seats.iter().map(|s| s.player.clone()).collect(),
            opened: m.seats.iter().map(|s| s.opened).collect(),
            bots: m.seats.iter().map(|_| None).collect(),
            specs: m.seats.into_iter().map(|s| s.spec).collect(),
            control: m.time_control,
            rated: m.rated,
            seed_hash: m.seed.hash_hex(),
            seed: m.seed,
            status,
            time_base: log.last().and_then(|p| p.entry.at_ms).unwrap_or(0),
            resumed: Instant::now(),
            paused: false,
            rematch: m.rematch,
            seen,
            views,
            state,
            rng,
            log,
            clocks,
            subs: Vec::new(),
            sent: None,
            offers: HashMap::new(),
            takeback_by: None,
            epoch: 0,
            ratings: Vec::new(),
            away_since,
            chat: m.chat,
            chat_times: HashMap::new(),
            mutes: HashMap::new(),
            bot_tx,
            bot_rx,
            bot_pending: None,
            broken: false,
            moved: false,
            shutting_down: false,
        })
    }

    /// Runs the actor until `Shutdown`, until every sender is gone, or until the match is no
    /// longer this node's to drive. Answers whether its lease is to be handed over (the match
    /// must go on elsewhere: it moved, or this node fenced itself) rather than left to rest.
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) -> bool {
        let mut hand_over = false;
        // Nobody is connected yet: a game against bots alone waits for its person.
        self.hold_time();
        self.load_ratings().await;
        // A match reloaded after a crash may stop at a chance node or a bot's turn.
        self.advance().await;
        self.report();
        // The idle and retry times run from the last wake that changed anything: a lease's
        // deadline passing (renewed meanwhile) does not start them again.
        let (mut idle, mut retry) = (None, None);
        let mut fence_only = false;
        loop {
            let deadline = self.deadline();
            let abandon = self.abandon_deadline();
            // A match nobody watches and in which nothing runs by itself leaves memory after a
            // while; the lobby reloads it from the store if it is asked for again.
            self.prune();
            let resting = self.subs.is_empty() && self.can_rest();
            idle = match idle {
                Some(at) if fence_only && resting => Some(at),
                _ => resting.then(|| Instant::now() + self.idle_time()),
            };
            retry = match retry {
                Some(at) if fence_only && self.broken => Some(at),
                _ => self.broken.then(|| Instant::now() + RECOVER_EVERY),
            };
            let fence = self.shared.store.lease_deadline(&self.id);
            let wake = tokio::select! {
                () = sleep_until(idle) => Wake::Idle,
                command = commands.recv() => Wake::Command(command),
                () = sleep_until(deadline) => Wake::Clock,
                () = sleep_until(abandon) => Wake::Abandon,
                () = sleep_until(retry) => Wake::Retry,
                Some(bot) = self.bot_rx.recv() => Wake::Bot(bot),
                () = sleep_until(fence) => Wake::Fence,
            };
            // Whatever woke it, nothing is served from memory, nor done, once the lease may be
            // another node's (a stall past it, a database away): the actor stops, its sockets
            // close and connect again to the node that drives the match.
            if self.fenced() || self.moved {
                self.subs.clear();
                hand_over = true;
                break;
            }
            fence_only = matches!(wake, Wake::Fence);
            match wake {
                Wake::Fence => {}
                Wake::Idle => {
                    // Commands already queued are still answered; later senders find the channel
                    // closed and start a fresh actor.
                    commands.close();
                    while let Some(command) = commands.recv().await {
                        if self.fenced() {
                            break;
                        }
                        self.handle(command).await;
                    }
                    break;
                }
                Wake::Command(command) => match command {
                    None => break,
                    Some(Command::Shutdown { reply }) => {
                        // Dropping the senders ends every connection's writer, which sends a close
                        // frame.
                        self.subs.clear();
                        self.shutting_down = true;
                        let _ = reply.send(());
                        break;
                    }
                    Some(Command::Expired) => {
                        self.removed("nobody started this match in time: it was removed");
                        break;
                    }
                    Some(Command::CallOff { reply }) => {
                        let absent = self.call_off().await;
                        let called_off = !absent.is_empty();
                        let _ = reply.send(absent);
                        if called_off {
                            self.removed("a player did not come: the match was called off");
                            break;
                        }
                    }
                    Some(Command::Moved) => {
                        // Dropping the senders closes every socket with "reconnect to resume".
                        self.subs.clear();
                        hand_over = true;
                        break;
                    }
                    Some(command) => self.handle(command).await,
                },
                Wake::Clock => self.on_clock().await,
                Wake::Abandon => self.on_abandon().await,
                Wake::Retry => self.recover().await,
                Wake::Bot(bot) => self.on_bot(bot).await,
            }
            // A write refused for a lost lease: the match is another node's now.
            if self.moved {
                self.subs.clear();
                hand_over = true;
                break;
            }
        }
        self.shared.presence.forget(&self.id);
        hand_over
    }

    /// Whether this node's lease on the match may have run out by its own clock
    /// (`Store::lease_deadline`): the match must not be served from here any more.
    fn fenced(&self) -> bool {
        let fenced = self
            .shared
            .store
            .lease_deadline(&self.id)
            .is_some_and(|until| until <= Instant::now());
        if fenced {
            tracing::warn!(id = %self.id, "lease not renewed within its time: match unloaded here (self-fenced)");
        }
        fenced
    }

    async fn handle(&mut self, command: Command) {
        self.recover().await;
        match command {
            Command::Subscribe {
                conn,
                token,
                player,
                from,
                out,
                reply,
            } => self.subscribe(conn, token, player, from, out, reply).await,
            Command::Unsubscribe { conn } => self.unsubscribe(conn),
            Command::Snapshot { conn } => self.send_state(conn),
            Command::Act {
                seat,
                version,
                actions,
                reply,
            } => {
                // A span per decision, under the match's: its log lines (the commit) say whose
                // it was. At `debug`, so that it costs nothing unless asked for.
                let span = tracing::debug_span!("act", seat = ?seat, version);
                let result = self.act(seat, version, &actions).instrument(span).await;
                self.after(result, reply).await;
            }
            Command::Resign { seat, reply } => {
                let span = tracing::debug_span!("resign", seat = ?seat);
                let result = self.resign(seat).instrument(span).await;
                // A Bataille Navale resignation eliminates one seat and play goes on: the next
                // chance node or bot must be started as after any action.
                self.after(result, reply).await;
            }
            Command::Join {
                seat,
                player,
                reply,
            } => {
                let result = self.join(seat, player).await;
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    self.broadcast();
                }
            }
            Command::Offer { seat, kind, reply } => {
                let result = self.offer(seat, kind).await;
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    self.advance().await;
                    self.broadcast();
                }
            }
            Command::Decline { seat, kind, reply } => {
                let result = self.decline(seat, kind);
                let changed = result.is_ok();
                let _ = reply.send(result);
                if changed {
                    self.broadcast();
                }
            }
            Command::RematchDone { id, tokens, reply } => {
                let result = self.rematch_done(id, tokens).await;
                let _ = reply.send(result);
            }
            Command::Chat { conn, text, reply } => {
                let _ = reply.send(self.chat(conn, &text).await);
            }
            Command::Mute {
                conn,
                name,
                mute,
                reply,
            } => {
                let _ = reply.send(self.mute(conn, &name, mute));
            }
            Command::Shutdown { reply } => {
                let _ = reply.send(());
            }
            Command::CallOff { reply } => {
                let _ = reply.send(Vec::new());
            }
            Command::Expired | Command::Moved => {}
        }
    }

    /// Tells every viewer the match was removed (`match/expired`, with `why`) and lets them go.
    fn removed(&mut self, why: &str) {
        let gone = crate::model::ApiError::new(crate::model::Code::MatchExpired, why);
        for sub in self.subs.drain(..) {
            let _ = sub.out.try_send(Outgoing::Text(gone.to_ws_json().into()));
        }
    }

    /// Calls the match off if it is still open: the players of the human seats that never
    /// opened it, once it is deleted; none if it started (or cannot be deleted now).
    async fn call_off(&mut self) -> Vec<PlayerId> {
        if self.status != Status::Open {
            return Vec::new();
        }
        let absent: Vec<PlayerId> = (0..self.specs.len())
            .filter(|i| self.specs[*i] == SeatSpec::Human && !self.opened[*i])
            .filter_map(|i| self.players[i].as_ref().map(|p| p.id))
            .collect();
        if absent.is_empty() {
            return absent;
        }
        match self.shared.store.call_off(self.id.clone()).await {
            Ok(true) => {
                tracing::info!(id = %self.id, "paired match called off: a player did not come");
                absent
            }
            Ok(false) => Vec::new(),
            Err(e) => {
                tracing::warn!(id = %self.id, error = %e, "paired match not called off");
                Vec::new()
            }
        }
    }

    /// Whether nothing in the match runs by itself: finished, open, or live without a clock and
    /// waiting for a person (no bot to think, no write to retry).
    fn can_rest(&self) -> bool {
        match self.status {
            Status::Finished | Status::Open => true,
            Status::Live => {
                self.control == TimeControl::None
                    && !self.broken
                    && seats_to_act(self.state.to_act())
                        .iter()
                        .all(|s| self.specs[s.index()] == SeatSpec::Human)
                    && self.state.to_act() != ToAct::Chance
            }
        }
    }

    /// How long the match stays in memory once nobody watches it and it can rest: a finished
    /// match with no offer pending leaves after `FINISHED_UNLOAD`, the others (and one whose
    /// rematch offer waits for a player to come back) after `Limits::idle_unload`.
    fn idle_time(&self) -> Duration {
        let idle = self.shared.options.limits.idle_unload;
        if self.status == Status::Finished && self.offers.values().all(BTreeSet::is_empty) {
            idle.min(FINISHED_UNLOAD)
        } else {
            idle
        }
    }

    /// Answers a change and, if it was made, moves the match on and tells everyone.
    async fn after(&mut self, result: Result<(), ApiError>, reply: Reply<()>) {
        let changed = result.is_ok();
        let _ = reply.send(result);
        if changed {
            self.advance().await;
            self.broadcast();
        }
    }

    /// The whole log's length: the version of the store (never shown while secrets remain).
    fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// The version `viewer` is shown: the log entries it can see.
    fn version_of(&self, viewer: Viewer) -> u64 {
        self.seen[column(viewer, self.specs.len())]
    }
}

/// What woke an actor up.
enum Wake {
    /// Nobody watches and nothing runs by itself: time to leave memory.
    Idle,
    /// A command, or `None` once every sender is gone.
    Command(Option<Command>),
    /// A clock's deadline.
    Clock,
    /// A seat away for the abandonment delay.
    Abandon,
    /// Time to try a failed write's recovery again.
    Retry,
    /// A bot's move.
    Bot(BotMove),
    /// The lease's deadline by this process's clock (renewed meanwhile, or not).
    Fence,
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
