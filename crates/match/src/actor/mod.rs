//! One task per match (docs/architecture.md section 5): it owns the game state, the chance
//! generator, the clocks, the bots of its bot seats, the offers, the chat and the list of connected
//! viewers, and is the only code that changes them. Commands arrive on a channel and are handled one at a time, so
//! every change is: check, commit to the store, then apply and tell everyone (an action is
//! acknowledged only after its commit). The game advances through the engine's driver
//! (docs/architecture.md section 2.3): chance draws and seat actions; a match is rebuilt from its
//! stored log by the engine's one replay, `replay_log` (section 4).
//!
//! Secrecy: the only things built from the state for a viewer are its observation
//! (`observe_fields(viewer)`, the document `observe_json(viewer)` gives), the viewer's own legal
//! list and its own column of the move list.
//!
//! The parts: `command` (what the lobby and the sockets send it), `rebuild` (a match from its
//! stored log), `play` (actions, chance, clocks, offers, abandonment), `batch` (the entries of one
//! decision before their commit), `bots` (the bot seats' moves), `takeback` (taking back a seat's
//! last turn), `seats` (connections, joining, opening, rematches, chat), `view` (the messages and
//! the presence report), `fragments` (the parts of one broadcast's messages written once for all
//! the viewers that share them).

mod batch;
mod bots;
mod command;
mod fragments;
mod play;
mod rebuild;
mod seats;
mod takeback;
mod view;

use command::Reply;
pub use command::{Command, Joined, Outgoing, RematchInfo, Subscription};
pub use plateau_protocol::OfferKind;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plateau_bots::DynBot;
use plateau_engine::{
    ActionInfo, Actor, DynGame, Event, GameEntry, LogEntry, Seat, Seed, ToAct, Viewer,
};
use rand_chacha::ChaCha20Rng;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument as _;

use crate::attendance::Attendance;
use crate::catalogue::Catalogue;
use crate::clock::Clocks;
use crate::model::{ApiError, SeatSpec, Status, TimeControl};
use crate::settings::Settings;
use crate::versions::acting;
use plateau_store::players::{Player, PlayerId};
use plateau_store::{ChatLine, Store};

/// How often a match whose last write failed reads itself back from the store.
const RECOVER_EVERY: Duration = Duration::from_secs(2);

/// How long a finished match nobody watches, with no offer pending, stays in memory (at most
/// `Limits::idle_unload`). Nothing in it can change any more and it is rebuilt from the store
/// when asked for, so it leaves sooner than other idle matches: under load, matches finish
/// faster than the idle time empties memory, and every finished match held meanwhile costs its
/// whole move list (about 135 KB for a Moon Leap game).
const FINISHED_UNLOAD: Duration = Duration::from_secs(5);

/// What the actors of one lobby share: storage, catalogue, settings, presence, bot threads.
pub struct Shared {
    /// Where every match's log and records are committed.
    pub store: Arc<dyn Store>,
    /// The games hosted and the bots offered.
    pub catalogue: Catalogue,
    /// Bot pacing, abandonment, clocks' grace, idle unloading.
    pub settings: Settings,
    /// Who keeps count of the people here (the server's presence registry).
    pub presence: Arc<dyn Attendance>,
    /// The threads the bots think on.
    pub bots: Arc<crate::botpool::BotPool>,
    /// Where the decisions' figures go.
    pub metrics: crate::metrics::Metrics,
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
    let columns = state.seats() + 1;
    if !state.info().hidden_information {
        // Every viewer is shown the same entry (`GameInfo::hidden_information`): one for all.
        let shown = state
            .display_entry(actor, text, Viewer::Spectator)
            .map_err(|e| e.to_string())?
            .map(Arc::new);
        return Ok(vec![shown; columns]);
    }
    let mut out: Vec<Shown> = Vec::with_capacity(columns);
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

/// The channel of the bots' moves: the actor keeps a sender, so it never closes.
type BotMoves = (
    mpsc::UnboundedSender<BotMove>,
    mpsc::UnboundedReceiver<BotMove>,
);

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

/// The actor's state.
pub struct MatchActor {
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
    /// Where the bots' threads send their moves: made when a bot first thinks, since a channel
    /// holds room for 32 moves from its making on and most tables have no bot.
    bot_moves: Option<BotMoves>,
    bot_pending: Option<u64>,
    /// Set when a commit failed: the match stops changing until the service restarts and replays.
    broken: bool,
    /// Set when a write was refused because another node holds the match's lease now: the
    /// actor stops after the command in hand.
    moved: bool,
    shutting_down: bool,
    /// Set while a moderator closes the match (`play::MatchActor::close`): its end changes no
    /// rating.
    closing: bool,
}

impl MatchActor {
    /// Runs the actor until `Shutdown`, until every sender is gone, or until the match is no
    /// longer this node's to drive. Answers whether its lease is to be handed over (the match
    /// must go on elsewhere: it moved, or this node fenced itself, and it cannot rest) rather
    /// than left to rest, to be loaded when asked for, as after an idle unload.
    ///
    /// Each wake's work is boxed while it runs: the future of the loop, which every match in
    /// memory holds for as long as it is there, then keeps only what waits between wakes (a
    /// few timers and the queues), not the state of the deepest handler, several KiB.
    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) -> bool {
        let mut hand_over = false;
        // Nobody is connected yet: a game against bots alone waits for its person.
        self.hold_time();
        Box::pin(self.load_ratings()).await;
        // A match reloaded after a crash may stop at a chance node or a bot's turn.
        Box::pin(self.advance()).await;
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
                Some(bot) = next_bot_move(&mut self.bot_moves) => Wake::Bot(bot),
                () = sleep_until(fence) => Wake::Fence,
            };
            // Whatever woke it, nothing is served from memory, nor done, once the lease may be
            // another node's (a stall past it, a database away): the actor stops, its sockets
            // close and connect again to the node that drives the match.
            if self.fenced() || self.moved {
                self.subs.clear();
                hand_over = !self.can_rest();
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
                        Box::pin(self.handle(command)).await;
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
                        let absent = Box::pin(self.call_off()).await;
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
                        hand_over = !self.can_rest();
                        break;
                    }
                    Some(command) => Box::pin(self.handle(command)).await,
                },
                Wake::Clock => Box::pin(self.on_clock()).await,
                Wake::Abandon => Box::pin(self.on_abandon()).await,
                Wake::Retry => Box::pin(self.recover()).await,
                Wake::Bot(bot) => Box::pin(self.on_bot(bot)).await,
            }
            // A write refused for a lost lease: the match is another node's now.
            if self.moved {
                self.subs.clear();
                hand_over = !self.can_rest();
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
            Command::Subscribe(subscription) => {
                let Subscription {
                    conn,
                    token,
                    player,
                    from,
                    blocks,
                    out,
                    reply,
                } = *subscription;
                if let Some(p) = &player
                    && !blocks.is_empty()
                {
                    self.mutes.entry(p.id).or_default().extend(blocks);
                }
                self.subscribe(conn, token, player, from, out, reply).await;
            }
            Command::Unsubscribe { conn } => self.unsubscribe(conn),
            Command::Snapshot { conn } => self.send_state(conn),
            Command::Act {
                conn,
                seat,
                version,
                actions,
                span,
                reply,
            } => {
                if !self.subs.iter().any(|s| s.conn == conn) {
                    let _ = reply.send(Err(ApiError::new(
                        crate::model::Code::MatchMoved,
                        "this connection was closed to connect again: connect again and act on \
                         the state it is sent",
                    )));
                    return;
                }
                // A span per decision, under the asker's (the request id and the match's): its
                // log lines (the commit) say whose it was. At `debug`, so that it costs nothing
                // unless asked for; else the lines are under the asker's span itself.
                let asker = asker(span);
                let act = tracing::debug_span!(parent: &asker, "act", seat = ?seat, version);
                let span = if act.is_disabled() { asker } else { act };
                let result = self.act(seat, version, &actions).instrument(span).await;
                self.after(result, reply).await;
            }
            Command::Close { reply } => {
                let result = self.close().await;
                self.after(result, reply).await;
            }
            Command::Resign { seat, span, reply } => {
                let asker = asker(span);
                let resign = tracing::debug_span!(parent: &asker, "resign", seat = ?seat);
                let span = if resign.is_disabled() { asker } else { resign };
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
            Command::Renamed { player, name } => {
                if self.renamed(player, &name) {
                    self.broadcast();
                }
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
                    && acting(self.state.to_act()).all(|s| self.specs[s.index()] == SeatSpec::Human)
                    && self.state.to_act() != ToAct::Chance
            }
        }
    }

    /// How long the match stays in memory once nobody watches it and it can rest: a finished
    /// match with no offer pending leaves after `FINISHED_UNLOAD`, the others (and one whose
    /// rematch offer waits for a player to come back) after `Limits::idle_unload`.
    fn idle_time(&self) -> Duration {
        let idle = self.shared.settings.idle_unload;
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

/// The next bot's move; never, for a match whose bots never thought.
async fn next_bot_move(moves: &mut Option<BotMoves>) -> Option<BotMove> {
    match moves {
        Some((_, rx)) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The span an asker's request runs under: its own, or, when it has none (a caller outside
/// any span), the actor's (the match's).
fn asker(span: tracing::Span) -> tracing::Span {
    if span.is_none() {
        tracing::Span::current()
    } else {
        span
    }
}
