//! A match rebuilt from its stored log by the engine's one replay (`replay_log`), with its
//! clocks, move list and versions replayed entry by entry; a takeback replays the same way.

use std::collections::HashMap;
use std::sync::Arc;

use plateau_engine::{Actor, DynGame, Event, GameEntry, LogEntry, Seed, Visitor, replay_log};
use rand_chacha::ChaCha20Rng;
use tokio::time::Instant;

use super::{MatchActor, Played, Shared, Shown, displays};
use crate::clock::Clocks;
use crate::model::{SeatSpec, Status};
use crate::versions::seats_to_act;
use plateau_store::StoredMatch;

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
pub(super) struct Replayed {
    pub(super) state: Box<dyn DynGame>,
    pub(super) rng: ChaCha20Rng,
    pub(super) clocks: Clocks,
    pub(super) log: Vec<Played>,
    pub(super) seen: Vec<u64>,
    pub(super) views: Vec<u64>,
}

/// Replays `log` from the start of game `entry` with `config` (`replay_log`, the chance outcomes
/// redrawn from `seed`), the clocks `clocks` running from the start when the match `started`;
/// for a rebuild, and for a takeback (the log up to where it cuts).
///
/// # Errors
/// A message naming the entry that does not replay.
pub(super) fn replayed(
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

impl MatchActor {
    /// Rebuilds a match from its stored form by replaying its log (`replay_log`): every seat
    /// action is checked again, every chance outcome is redrawn from the seed (one draw per chance
    /// node) and must be the logged one, and the clocks, the move list and the versions are
    /// replayed from the entries.
    ///
    /// # Errors
    /// A message naming the entry that does not replay.
    pub fn rebuild(shared: Arc<Shared>, m: StoredMatch) -> Result<MatchActor, String> {
        let entry = shared
            .catalogue
            .game(&m.game)
            .ok_or_else(|| format!("match {}: unknown game `{}`", m.id, m.game))?;
        let clocks = Clocks::new(m.time_control, m.seats.len(), shared.settings.first_move);
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
            closing: false,
            ratings: Vec::new(),
            away_since,
            chat: m.chat,
            chat_times: HashMap::new(),
            mutes: HashMap::new(),
            bot_moves: None,
            bot_pending: None,
            broken: false,
            moved: false,
            shutting_down: false,
        })
    }
}
