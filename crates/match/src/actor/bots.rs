//! The bots of a match's bot seats: each thinks on the bot pool's threads and sends its move
//! back to the actor, which plays it as a seat's action.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use plateau_engine::{Seat, ToAct, Viewer};
use plateau_protocol::ActionRequest;
use rand::RngCore;

use super::{BotMove, MatchActor, SeatBot};
use crate::botpool::Priority;
use crate::model::{SeatSpec, Status};
use crate::settings::Settings;
use crate::versions::acting;

impl MatchActor {
    /// The bot of `seat` (bot name `name`), built when the seat first acts and kept for the
    /// match. `None` (logged) when the catalogue cannot build it: the seat then plays random
    /// actions rather than stall the match.
    pub(super) fn seat_bot(&mut self, seat: Seat, name: &str) -> Option<SeatBot> {
        if self.bots[seat.index()].is_none() {
            // Seeded once, from the seat's own stream of the match key: streams counted down
            // from the top meet neither the chance stream (0) nor a fallback stream.
            let seed = self
                .seed
                .rng_for_stream(u64::MAX - u64::from(seat.0))
                .next_u64();
            match (self.shared.catalogue.new_bot)(self.entry.info.name, name, seed) {
                Ok(bot) => self.bots[seat.index()] = Some(Arc::new(Mutex::new(bot))),
                Err(e) => {
                    tracing::error!(id = %self.id, %seat, bot = name, error = %e, "bot not built: the seat plays random actions");
                }
            }
        }
        self.bots[seat.index()].clone()
    }

    pub(super) fn schedule_bots(&mut self) {
        if self.status != Status::Live || self.broken || self.bot_pending == Some(self.version()) {
            return;
        }
        let version = self.version();
        let simultaneous = matches!(self.state.to_act(), ToAct::Simultaneous(_));
        for seat in acting(self.state.to_act()) {
            let SeatSpec::Bot { bot, .. } = &self.specs[seat.index()] else {
                continue;
            };
            let bot = self.seat_bot(seat, &bot.clone());
            self.bot_pending = Some(version);
            let state = self.state.clone_box();
            let Settings {
                bot_delay,
                bot_budget,
                ..
            } = self.shared.settings;
            // A random action when the bot fails or runs over its budget, from a stream of the
            // match key fixed by (version, seat): never the chance stream (0), nor a bot's.
            let stream = 1 + version * 8 + u64::from(seat.0);
            let seed = self.seed;
            let tx = self
                .bot_moves
                .get_or_insert_with(tokio::sync::mpsc::unbounded_channel)
                .0
                .clone();
            let epoch = self.epoch;
            let pool = self.shared.bots.clone();
            let owner = self.pool_owner.clone();
            let priority = if self.specs.contains(&SeatSpec::Human) {
                Priority::People
            } else {
                Priority::BotsOnly
            };
            // On a clock the bot thinks within its share of the time left, counted from now (the
            // pause and the wait for a thread count against it too), and the hard cap never
            // passes its flag (`Clocks::think_time`).
            let clock = self
                .clocks
                .think_time(seat, self.now_ms())
                .map(|(share, left)| {
                    let now = std::time::Instant::now();
                    (now + share, now + left)
                });
            // No pause at a simultaneous node (Bataille Navale's placement): its moves are
            // secret, so there is nothing to follow, and each seat's move there makes the other
            // bots choose again, so that three bots placing their fleets one move at a time
            // kept a person who was ready waiting about 7 s.
            let pause = if simultaneous {
                Duration::ZERO
            } else {
                bot_delay
            };
            let delay = clock.map_or(pause, |(think_by, _)| {
                pause.min(think_by.saturating_duration_since(std::time::Instant::now()) / 4)
            });
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                let fallback = state.clone_box();
                let (started, on_start) = tokio::sync::oneshot::channel();
                let (done, thinking) = tokio::sync::oneshot::channel();
                pool.submit(priority, owner, move || {
                    let _ = started.send(());
                    let limit = clock.map(|(think_by, _)| {
                        think_by.saturating_duration_since(std::time::Instant::now())
                    });
                    let _ = done.send(bot.map(|bot| {
                        let mut bot = bot.lock().unwrap_or_else(PoisonError::into_inner);
                        bot.act_within(&*state, seat, limit)
                    }));
                });
                // The hard cap counts from when a thread takes the move, not from the line.
                let thinking = async {
                    on_start.await.ok()?;
                    let cap = clock.map_or(bot_budget, |(_, flag)| {
                        bot_budget.min(flag.saturating_duration_since(std::time::Instant::now()))
                    });
                    tokio::time::timeout(cap, thinking).await.ok()
                };
                let action = match thinking.await {
                    Some(Ok(Some(Ok(action)))) => Some(action),
                    Some(Ok(Some(Err(e)))) => {
                        // Never a silent stall: the error is logged with its code and the
                        // seat plays on.
                        tracing::error!(%seat, code = e.code(), error = %e, "bot failed: playing a random action");
                        None
                    }
                    Some(Ok(None)) => None,
                    _ => {
                        tracing::warn!(%seat, "bot over its time budget: playing a random action");
                        None
                    }
                };
                let action = action
                    .or_else(|| fallback.random_action(seat, &mut seed.rng_for_stream(stream)));
                let _ = tx.send(BotMove {
                    epoch,
                    version,
                    seat,
                    action,
                });
            });
        }
    }

    pub(super) async fn on_bot(&mut self, bot: BotMove) {
        if bot.epoch != self.epoch || bot.version != self.version() || self.status != Status::Live {
            return;
        }
        let Some(action) = bot.action else {
            tracing::error!(id = %self.id, seat = %bot.seat, "bot has no legal action");
            return;
        };
        let seen = self.version_of(Viewer::Seat(bot.seat));
        match self
            .act(bot.seat, seen, &[ActionRequest::Text(action.clone())])
            .await
        {
            Ok(()) => {
                self.advance().await;
                self.broadcast();
            }
            Err(e) => {
                tracing::error!(id = %self.id, %action, error = %e.message, "bot move refused")
            }
        }
    }
}
