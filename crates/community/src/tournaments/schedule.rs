//! The server's own tournaments (docs/protocol.md section 7.9), kept scheduled when
//! `Options::scheduled_tournaments` is on: an arena of `HOURLY_MINUTES` for every game played by
//! two, starting at each next full hour, and rounds of tables for every game of more seats each
//! day at `DAILY_HOUR` UTC, so one of each is always there to join. Hours and days are the
//! rules' clock's (`rules_ms`: real ones, shorter in tests that shorten the minute).
//!
//! Each scheduled tournament's id is made of its game and its slot (`hourly-mad-493487`), so
//! every node, and a node after a restart, that makes it again makes the same row: the second
//! insert is refused by the id's key and changes nothing. There is never two of one slot.

use std::sync::Weak;
use std::time::Duration;

use super::state::{Live, Setup, Tournaments, real_ms, rules_ms};
use plateau_lobby::model::{TimeControl, unix_ms};
use plateau_store::StoreError;
use plateau_tournament::{Fill, Kind, Settings, Tournament};

/// An hour and a day of the rules' clock, in its milliseconds.
const HOUR_MS: u64 = 3_600_000;
const DAY_MS: u64 = 24 * HOUR_MS;
/// The length of the hourly arenas, in minutes: the next one starts soon after each ends.
pub const HOURLY_MINUTES: u32 = 55;
/// The hour (UTC) the daily tables start at.
pub const DAILY_HOUR: u64 = 18;
/// Rounds of the daily tables.
pub const DAILY_ROUNDS: u32 = 4;
/// The name shown as the creator of a scheduled tournament.
const CREATOR: &str = plateau_lobby::players::SERVER_NAME;

/// Keeps the schedule every tick (only the first tick of a new slot writes) until the service
/// shuts down or the tournaments are dropped.
pub(super) async fn run(tournaments: Weak<Tournaments>) {
    let Some(t) = tournaments.upgrade() else {
        return;
    };
    let mut shutdown = t.lobby.shutdown_signal();
    let minute = t.lobby.options().limits.tournament_minute;
    let tick = (minute / 60).clamp(Duration::from_millis(20), Duration::from_secs(1));
    drop(t);
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The next hour kept, once it is: nothing to do until the clock passes it.
    let mut kept: Option<u64> = None;
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            return;
        }
        let Some(t) = tournaments.upgrade() else {
            return;
        };
        let now = rules_ms(unix_ms(), minute);
        let hour = now / HOUR_MS + 1;
        if kept == Some(hour) {
            continue;
        }
        match t.keep_schedule(now).await {
            Ok(()) => kept = Some(hour),
            Err(e) => tracing::warn!("scheduled tournaments: {e}"),
        }
    }
}

impl Tournaments {
    /// Makes the scheduled tournaments of the slots next after `rules_now` (the rules' ms) that
    /// are not made yet: the next full hour's arenas, the next daily tables.
    ///
    /// # Errors
    /// The store's (a tournament already there is no error).
    pub(super) async fn keep_schedule(&self, rules_now: u64) -> Result<(), StoreError> {
        let minute = self.lobby.options().limits.tournament_minute;
        let hour = rules_now / HOUR_MS + 1;
        let day = if rules_now % DAY_MS < DAILY_HOUR * HOUR_MS {
            rules_now / DAY_MS
        } else {
            rules_now / DAY_MS + 1
        };
        let creator = self
            .lobby
            .bot_player(super::run::BOT)
            .await
            .map_err(|e| StoreError::Corrupt(e.message))?;
        let real_now = unix_ms();
        for entry in self.lobby.catalogue().games {
            let info = &entry.info;
            // A game with clocks of its own plays by them; the others blitz, 3 minutes and 2 s.
            let time_control = if entry.rule_clock {
                TimeControl::Game
            } else {
                TimeControl::Fischer {
                    base_seconds: 180,
                    increment_seconds: 2,
                }
            };
            let mut slots = Vec::new();
            if (info.min_seats..=info.max_seats).contains(&2) {
                slots.push((
                    format!("hourly-{}-{hour}", info.name),
                    format!("Hourly {} arena", info.title),
                    Kind::Arena {
                        minutes: HOURLY_MINUTES,
                    },
                    2,
                    hour * HOUR_MS,
                ));
            }
            if info.max_seats >= 3 {
                slots.push((
                    format!("daily-{}-{day}", info.name),
                    format!("Daily {} tables", info.title),
                    Kind::Tables {
                        rounds: DAILY_ROUNDS,
                        fill: Fill::Bots,
                    },
                    u8::try_from(info.max_seats).unwrap_or(plateau_tournament::MAX_SEATS),
                    day * DAY_MS + DAILY_HOUR * HOUR_MS,
                ));
            }
            for (id, name, kind, seats, start) in slots {
                let minutes = match kind {
                    Kind::Arena { minutes } => minutes,
                    _ => 0,
                };
                let Ok(tournament) = Tournament::new(Settings {
                    kind,
                    seats,
                    rated: true,
                    seed: rand::random(),
                }) else {
                    continue;
                };
                let setup = Setup {
                    name,
                    game: info.name.to_owned(),
                    time_control,
                    minutes,
                    rated: true,
                    min_rating: None,
                    creator: CREATOR.to_owned(),
                    scheduled: true,
                };
                let one = Live::new(id, setup, tournament, real_ms(start, minute));
                match self.insert(&one, creator.id, real_now).await {
                    Ok(()) => tracing::info!(id = one.id, "scheduled tournament made"),
                    // Made already, by this node before a restart or by another.
                    Err(StoreError::Conflict(_)) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }
}
