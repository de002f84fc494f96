//! One task per match (docs/architecture.md section 5): it owns the game state, the chance
//! generator, the clocks, the bots of its bot seats, the offers, the chat and the list of connected
//! viewers, and is the only code that changes them. Commands arrive on a channel and are handled
//! one at a time, so every change is: check, commit to the store, then apply and tell everyone (an
//! action is acknowledged only after its commit). The game advances through the engine's driver
//! (docs/architecture.md section 2.3): chance draws and seat actions; a match is rebuilt from its
//! stored log by the engine's one replay, `replay_log` (section 4).
//!
//! Secrecy: the only things built from the state for a viewer are its observation
//! (`observe_fields(viewer)`, the document `observe_json(viewer)` gives), the viewer's own legal
//! list and its own column of the move list.
//!
//! This file holds what the actor owns; the parts: `run` (the loop: what wakes it, which part each
//! command goes to, when it rests or stops), `command` (what the lobby and the sockets send it),
//! `rebuild` (a match from its stored log), `play` (actions, chance, clocks, offers, abandonment),
//! `batch` (the entries of one decision before their commit), `bots` (the bot seats' moves),
//! `takeback` (taking back a seat's last turn), `seats` (connections, joining, opening, rematches,
//! chat), `view` (the messages and the presence report), `fragments` (the parts of one broadcast's
//! messages written once for all the viewers that share them).

mod batch;
mod bots;
mod command;
mod fragments;
mod play;
mod rebuild;
mod run;
mod seats;
mod takeback;
mod view;

use command::Reply;
pub use command::{Command, Joined, Outgoing, RematchInfo, Subscription};
pub use plateau_protocol::OfferKind;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use plateau_bots::DynBot;
use plateau_engine::{ActionInfo, Actor, DynGame, Event, GameEntry, LogEntry, Seat, Seed, Viewer};
use rand_chacha::ChaCha20Rng;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::attendance::Attendance;
use crate::catalogue::Catalogue;
use crate::clock::Clocks;
use crate::model::{SeatSpec, Status, TimeControl};
use crate::settings::Settings;
use plateau_store::players::{Player, PlayerId};
use plateau_store::{ChatLine, Store};

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
    /// The whole log's length: the version of the store (never shown while secrets remain).
    fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// The version `viewer` is shown: the log entries it can see.
    fn version_of(&self, viewer: Viewer) -> u64 {
        self.seen[column(viewer, self.specs.len())]
    }
}
