//! Replays of stored matches (docs/protocol.md sections 3.7 and 3.9): the engine's record of a
//! stored match, every position of a finished match as a spectator sees it, every position of a
//! match so far as one viewer was shown it, and the lane and the cache where they are computed.

use std::net::IpAddr;

use bytes::Bytes;
use plateau_engine::{DynGame, Event, GameEntry, LogEntry, Record, Viewer, Visitor};
use plateau_protocol::server::{HistoryStep, Replay, ReplayStep, StepText};
use serde_json::Value;

use crate::model::{ApiError, Code, Status};
use plateau_store::StoredMatch;

/// Most requests waiting for the replay lane (`Replays`); past it `limit/replays`.
pub const MAX_REPLAYS_WAITING: usize = 16;

/// The lane where whole games are replayed for the replay and history routes: one at a time, so
/// a burst of them never takes more than a core, and a bounded line, so it never grows without end.
#[derive(Default)]
pub struct Replays {
    turn: tokio::sync::Mutex<()>,
    waiting: std::sync::atomic::AtomicUsize,
}

impl Replays {
    /// Waits for the lane.
    ///
    /// # Errors
    /// `limit/replays` when `MAX_REPLAYS_WAITING` requests already wait or replay.
    pub async fn turn(&self) -> Result<ReplayTurn<'_>, ApiError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_REPLAYS_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                Code::LimitReplays,
                "too many replays are being computed; ask again in a moment",
            ));
        }
        let guard = self.turn.lock().await;
        Ok(ReplayTurn {
            _guard: guard,
            waiting: &self.waiting,
        })
    }
}

/// A turn in the replay lane; the next request goes when it is dropped.
pub struct ReplayTurn<'a> {
    _guard: tokio::sync::MutexGuard<'a, ()>,
    waiting: &'a std::sync::atomic::AtomicUsize,
}

impl Drop for ReplayTurn<'_> {
    fn drop(&mut self) {
        self.waiting
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Bytes of history bodies kept for the next asker (`Histories`).
pub const HISTORY_CACHE: usize = 16 * 1024 * 1024;

/// The histories computed lately (docs/protocol.md section 3.9), by match, viewer and version,
/// so that asking again is free; and who is computing one now, so that one address has at most
/// one in the replay lane and cannot fill it for everyone.
#[derive(Default)]
pub struct Histories {
    inner: std::sync::Mutex<HistoriesInner>,
}

/// A history's key: the match, the viewer's column (a seat, or the seat count for spectators)
/// and the match's version (its log length).
pub type HistoryKey = (String, usize, u64);

#[derive(Default)]
struct HistoriesInner {
    bodies: std::collections::HashMap<HistoryKey, Bytes>,
    /// The keys in the order they came, the oldest first out.
    order: std::collections::VecDeque<HistoryKey>,
    bytes: usize,
    /// Networks (`limits::network`) with a history in the lane.
    computing: std::collections::HashSet<IpAddr>,
}

impl Histories {
    /// The body kept for `key`, if any.
    pub fn get(&self, key: &HistoryKey) -> Option<Bytes> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.bodies.get(key).cloned()
    }

    /// Keeps `body` for `key`, dropping the oldest past `HISTORY_CACHE` bytes.
    pub fn put(&self, key: HistoryKey, body: Bytes) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if body.len() > HISTORY_CACHE || inner.bodies.contains_key(&key) {
            return;
        }
        inner.bytes += body.len();
        inner.bodies.insert(key.clone(), body);
        inner.order.push_back(key);
        while inner.bytes > HISTORY_CACHE {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(b) = inner.bodies.remove(&old) {
                inner.bytes -= b.len();
            }
        }
    }

    /// A place in the lane for `network` (the caller's address as the server's limits count it,
    /// `limits::network`), none for an address the limits do not apply to (`None`).
    ///
    /// # Errors
    /// `limit/replays` when that network already has a history computing or waiting.
    pub fn one_at_a_time(&self, network: Option<IpAddr>) -> Result<HistoryTurn<'_>, ApiError> {
        if let Some(n) = network {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if !inner.computing.insert(n) {
                return Err(ApiError::new(
                    Code::LimitReplays,
                    "a history asked from your address is being computed: ask again once it is there",
                ));
            }
        }
        Ok(HistoryTurn {
            histories: self,
            network,
        })
    }
}

/// One address's history in the lane; the address may ask another once it is dropped.
pub struct HistoryTurn<'a> {
    histories: &'a Histories,
    network: Option<IpAddr>,
}

impl Drop for HistoryTurn<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.network {
            let mut inner = self
                .histories
                .inner
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            inner.computing.remove(&n);
        }
    }
}

/// The engine's record of a stored match; the seed only once finished.
#[must_use]
pub fn to_record(m: &StoredMatch) -> Record {
    let mut record = Record::new(
        &m.game,
        m.config.clone(),
        m.seats.iter().map(|s| s.spec.record_name()).collect(),
        &m.seed,
    );
    record.log.clone_from(&m.log);
    if m.status == Status::Finished {
        record.seed = Some(m.seed);
        record.outcome.clone_from(&m.outcome);
    }
    record
}

/// The replay of finished match `m`, from one `Record::replay_with`: `verified` is its check
/// (SHA-256 of the seed equals `seed_hash` and every dice roll is redrawn), and each step the
/// spectator's view after a log entry.
pub fn replay_body(entry: &'static GameEntry, m: &StoredMatch) -> Result<String, String> {
    let record = to_record(m);
    let mut steps = Steps(Vec::with_capacity(record.log.len() + 1));
    let replay = record
        .replay_with(entry, &mut steps)
        .map_err(|e| format!("match {} does not replay: {e}", m.id))?;
    if steps.0.is_empty() {
        // No entry to show the start before: the final state is the start.
        steps.start(&*replay.state);
    }
    let body = Replay {
        id: &m.id,
        game: &m.game,
        seed_hash: &record.seed_hash,
        seed: record.seed.map(|s| s.to_hex()),
        verified: replay.seed_verified,
        outcome: record.outcome.as_ref(),
        steps: steps.0,
    };
    serde_json::to_string(&body).map_err(|e| e.to_string())
}

/// The steps of a replay as the page shows them: the start, then one per log entry, each with who
/// acted, the move-list text and the spectator's observation after it.
struct Steps(Vec<ReplayStep>);

impl Steps {
    /// The first step: the game's start.
    fn start(&mut self, state: &dyn DynGame) {
        let observation = state.observe_json(Viewer::Spectator);
        self.0.push(ReplayStep {
            by: None,
            text: None,
            info: None,
            observation,
        });
    }
}

impl Visitor for Steps {
    fn before(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if self.0.is_empty() {
            self.start(state);
        }
        let step = match &logged.event {
            // What a spectator could not see while the game ran (a secret placement, an order
            // before its turn was fired) is shown in canonical notation with all its parts: the
            // game is over and its record, every action in it, is public.
            Event::Action { by, action } => {
                let (text, info) = match state.display_entry(*by, action, Viewer::Spectator) {
                    Ok(Some(shown)) => shown,
                    _ => (
                        action.clone(),
                        state.text_info(action).map_err(|e| e.to_string())?,
                    ),
                };
                ReplayStep {
                    by: Some(*by),
                    text: Some(StepText::Action(text)),
                    info: Some(info),
                    observation: Value::Null,
                }
            }
            Event::End(ending) => ReplayStep {
                by: None,
                text: Some(StepText::Ending(*ending)),
                info: None,
                observation: Value::Null,
            },
        };
        self.0.push(step);
        Ok(())
    }

    fn after(&mut self, _: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if let Some(step) = self.0.last_mut() {
            step.observation = state.observe_json(Viewer::Spectator);
        }
        Ok(())
    }
}

/// The positions of match `m` as `viewer` was shown them: one per version of that viewer
/// (docs/protocol.md section 1), 0 to its current one, as the WebSocket would have sent them:
/// `observation` is the viewer's, `moves` how many entries of its move list are played by then,
/// and `by`/`text` the entry that made the version (`null` when the viewer may not see it, a
/// secret action whose effect it was shown; an early ending has `by: null` and the ending as
/// `text`, as in the record).
pub fn history_steps(
    entry: &'static plateau_engine::GameEntry,
    m: &StoredMatch,
    viewer: Viewer,
) -> Result<Vec<HistoryStep>, String> {
    let record = to_record(m);
    let fail = |e: String| format!("match {} does not replay: {e}", m.id);
    let states = crate::versions::states(entry, &record).map_err(fail)?;
    // The states are replayed once; the versions are read from them.
    let versions = crate::versions::versions_of(&states, &record, viewer).map_err(fail)?;
    let mut steps = vec![HistoryStep {
        by: None,
        text: None,
        moves: 0,
        observation: states[0].observe_json(viewer),
        info: None,
    }];
    let mut moves = 0;
    for (p, logged) in record.log.iter().enumerate() {
        let (by, text, info) = match &logged.event {
            Event::Action { by, action } => {
                let shown = states[p]
                    .display_entry(*by, action, viewer)
                    .map_err(|e| fail(e.to_string()))?;
                moves += usize::from(shown.is_some());
                match shown {
                    Some((text, info)) => (Some(*by), Some(StepText::Action(text)), Some(info)),
                    None => (None, None, None),
                }
            }
            Event::End(ending) => (None, Some(StepText::Ending(*ending)), None),
        };
        if versions[p + 1] == versions[p] {
            // Nothing this viewer is shown changed: the step stands as it was.
            continue;
        }
        steps.push(HistoryStep {
            by,
            text,
            moves,
            observation: states[p + 1].observe_json(viewer),
            info,
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    use super::*;

    /// The replay lane serves one request at a time, lets `MAX_REPLAYS_WAITING` wait in all, refuses
    /// the next with `limit/replays`, and serves every one that waited once the first is done.
    #[tokio::test]
    async fn the_replay_lane_refuses_past_its_line_and_serves_the_rest() {
        let lane = Arc::new(Replays::default());
        let first = lane.turn().await.unwrap();
        let waiters: Vec<_> = (1..MAX_REPLAYS_WAITING)
            .map(|_| {
                let lane = lane.clone();
                tokio::spawn(async move { lane.turn().await.map(|_| ()) })
            })
            .collect();
        while lane.waiting.load(Ordering::SeqCst) < MAX_REPLAYS_WAITING {
            tokio::task::yield_now().await;
        }
        let refused = lane.turn().await.err().map(|e| e.code);
        assert_eq!(refused, Some(Code::LimitReplays));
        drop(first);
        for waiter in waiters {
            assert!(waiter.await.unwrap().is_ok());
        }
        assert_eq!(lane.waiting.load(Ordering::SeqCst), 0);
        assert!(lane.turn().await.is_ok());
    }

    /// One history at a time per network (the server's `limits::network` tells it), none for an
    /// exempt client; what is kept comes back, the oldest leaving past `HISTORY_CACHE`.
    #[test]
    fn histories_are_one_at_a_time_per_address_and_kept() {
        let histories = Histories::default();
        let net = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let first = histories.one_at_a_time(net("2001:db8::")).unwrap();
        let again = histories.one_at_a_time(net("2001:db8::"));
        assert_eq!(again.err().map(|e| e.code), Some(Code::LimitReplays));
        assert!(histories.one_at_a_time(net("2001:db8:0:1::")).is_ok());
        assert!(histories.one_at_a_time(None).is_ok());
        assert!(histories.one_at_a_time(None).is_ok());
        drop(first);
        assert!(histories.one_at_a_time(net("2001:db8::")).is_ok());
        let key = |n: u64| ("0123456789abcdef".to_owned(), 0, n);
        histories.put(key(1), Bytes::from(vec![b'x'; HISTORY_CACHE / 2]));
        histories.put(key(2), Bytes::from(vec![b'y'; HISTORY_CACHE / 2]));
        assert_eq!(
            histories.get(&key(1)).map(|b| b.len()),
            Some(HISTORY_CACHE / 2)
        );
        histories.put(key(3), Bytes::from_static(b"{}"));
        assert!(histories.get(&key(1)).is_none(), "the oldest left");
        assert!(histories.get(&key(2)).is_some() && histories.get(&key(3)).is_some());
    }
}
