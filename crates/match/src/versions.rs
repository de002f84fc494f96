//! The version each viewer is shown (docs/protocol.md section 1): the number of log entries that
//! changed what it is shown. An entry counts for a viewer when the viewer sees it in its move
//! list, when it is an early ending, or when it changes the viewer's observation or legal list.
//! Another seat's secret action changes none of these, so it counts for nobody else: nobody
//! learns how many secret moves a seat made, and it never makes another seat's action stale.
//!
//! In a game without hidden information every entry is seen by all, so every viewer's version is
//! the log's length, and no view needs comparing.

use std::hash::{DefaultHasher, Hash, Hasher};

use plateau_engine::{
    DynGame, Event, GameEntry, LogEntry, Record, Seat, SeatSet, ToAct, Viewer, Visitor,
};

/// Every viewer of a table of `seats`: the seats in order, then the spectators.
pub fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    Seat::all(seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
}

/// A digest of what `viewer` is shown of `state`: its observation and its legal list.
#[must_use]
pub fn view_of(state: &dyn DynGame, viewer: Viewer) -> u64 {
    let mut h = DefaultHasher::new();
    state.observe_text(viewer).hash(&mut h);
    if let Viewer::Seat(s) = viewer
        && acting(state.to_act()).any(|a| a == s)
    {
        state.legal_texts(s).hash(&mut h);
    }
    h.finish()
}

/// The views of every viewer (`viewers`) of `state`; empty for a game without hidden
/// information, where they need no comparing.
#[must_use]
pub fn views(state: &dyn DynGame) -> Vec<u64> {
    if !state.info().hidden_information {
        return Vec::new();
    }
    viewers(state.seats()).map(|v| view_of(state, v)).collect()
}

/// Adds one log entry to every viewer's version (`versions`, indexed like `viewers`): `shown[i]`
/// tells whether viewer `i` sees the entry in its move list or as an ending; `before` and
/// `after` are the `views` around it (empty: every entry counts for all).
pub fn count(versions: &mut [u64], shown: impl Fn(usize) -> bool, before: &[u64], after: &[u64]) {
    for (i, v) in versions.iter_mut().enumerate() {
        let changed = before.get(i).zip(after.get(i)).is_none_or(|(b, a)| b != a);
        *v += u64::from(shown(i) || changed);
    }
}

/// The seats that may act in `to_act`, increasing.
pub fn seats_to_act(to_act: ToAct) -> Vec<Seat> {
    match to_act {
        ToAct::Player(s) => vec![s],
        ToAct::Simultaneous(set) => set.iter().collect(),
        ToAct::Chance | ToAct::Terminal => Vec::new(),
    }
}

/// `seats_to_act` without collecting them: the actor asks at every decision.
pub fn acting(to_act: ToAct) -> impl Iterator<Item = Seat> {
    let (one, set) = match to_act {
        ToAct::Player(s) => (Some(s), SeatSet::EMPTY),
        ToAct::Simultaneous(set) => (None, set),
        ToAct::Chance | ToAct::Terminal => (None, SeatSet::EMPTY),
    };
    one.into_iter().chain(set.iter())
}

/// Every state of `record`: index `v` is the state after `v` log entries (`Record::log`, each
/// ending an entry at its place among the actions), from one `Record::replay_with`.
///
/// # Errors
/// A message if the record does not replay.
pub fn states(entry: &GameEntry, record: &Record) -> Result<Vec<Box<dyn DynGame>>, String> {
    let mut states = States(Vec::with_capacity(record.log.len() + 1));
    let replay = record
        .replay_with(entry, &mut states)
        .map_err(|e| e.to_string())?;
    if states.0.is_empty() {
        // An empty log: the final state is the start.
        states.0.push(replay.state);
    }
    Ok(states.0)
}

/// A copy of the state before the first entry and after every entry.
struct States(Vec<Box<dyn DynGame>>);

impl Visitor for States {
    fn before(&mut self, _: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if self.0.is_empty() {
            self.0.push(state.clone_box());
        }
        Ok(())
    }

    fn after(&mut self, _: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        self.0.push(state.clone_box());
        Ok(())
    }
}

/// Per log position `p` (0 to the record's length): the version `viewer` is shown after `p`
/// entries (`versions::count`: the entries it saw, or that changed what it is shown). The states
/// a message of version `v` may show are those at the positions with `v`.
///
/// # Errors
/// A message if the record does not replay.
pub fn viewer_versions(
    entry: &GameEntry,
    record: &Record,
    viewer: Viewer,
) -> Result<Vec<u64>, String> {
    versions_of(&states(entry, record)?, record, viewer)
}

/// `viewer_versions` over states already replayed (`states`).
pub fn versions_of(
    states: &[Box<dyn DynGame>],
    record: &Record,
    viewer: Viewer,
) -> Result<Vec<u64>, String> {
    let hidden = states[0].info().hidden_information;
    let mut at = vec![0];
    let mut version = [0u64];
    for (p, logged) in record.log.iter().enumerate() {
        let shown = match &logged.event {
            Event::Action { by, action } => states[p]
                .display_text(*by, action, viewer)
                .map_err(|e| e.to_string())?
                .is_some(),
            Event::End(_) => true,
        };
        let (before, after) = if hidden {
            (
                vec![view_of(&*states[p], viewer)],
                vec![view_of(&*states[p + 1], viewer)],
            )
        } else {
            (Vec::new(), Vec::new())
        };
        count(&mut version, |_| shown, &before, &after);
        at.push(version[0]);
    }
    Ok(at)
}
