//! The actor's run loop: what wakes it (a command, a clock's deadline, a seat away too long, a
//! failed write's retry, a bot's move, the lease's deadline, nobody watching), which part each
//! command goes to, and when the actor stops: shut down, called off or expired, idle (it rests,
//! to be loaded again when asked for) or no longer this node's to drive (it hands its lease over).

use std::collections::BTreeSet;
use std::time::Duration;

use plateau_engine::ToAct;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument as _;

use super::{BotMove, BotMoves, Command, MatchActor, Outgoing, Reply, Subscription};
use crate::model::{ApiError, SeatSpec, Status, TimeControl};
use crate::versions::acting;
use plateau_store::players::PlayerId;

/// How often a match whose last write failed reads itself back from the store.
const RECOVER_EVERY: Duration = Duration::from_secs(2);

/// How long a finished match nobody watches, with no offer pending, stays in memory (at most
/// `Limits::idle_unload`). Nothing in it can change any more and it is rebuilt from the store
/// when asked for, so it leaves sooner than other idle matches: under load, matches finish
/// faster than the idle time empties memory, and every finished match held meanwhile costs its
/// whole move list (about 135 KB for a Moon Leap game).
const FINISHED_UNLOAD: Duration = Duration::from_secs(5);

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
