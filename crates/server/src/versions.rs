//! The version each viewer is shown (docs/protocol.md section 1): the number of log entries that
//! changed what it is shown. An entry counts for a viewer when the viewer sees it in its move
//! list, when it is an early ending, or when it changes the viewer's observation or legal list.
//! Another seat's secret action changes none of these, so it counts for nobody else: nobody
//! learns how many secret moves a seat made, and it never makes another seat's action stale.
//!
//! In a game without hidden information every entry is seen by all, so every viewer's version is
//! the log's length, and no view needs comparing.

use std::hash::{DefaultHasher, Hash, Hasher};

use plateau_engine::{DynGame, Seat, Viewer};

use crate::actor::seats_to_act;

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
        && seats_to_act(state.to_act()).contains(&s)
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
