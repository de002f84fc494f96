//! The parts of one broadcast's `state` messages that several viewers share, each written once
//! (docs/protocol.md section 4.1): a move-list entry as one distinct view shows it, and the
//! observation's patch from one baseline to the observation now. Viewers shown the same share
//! the same values (`Shown`, `Observed`): in a game without hidden information every viewer
//! does, and each part is written once for all; otherwise each viewer's are its own.

use std::collections::BTreeMap;
use std::sync::Arc;

use plateau_engine::{ActionInfo, JsonText, ObservationPatch};
use plateau_protocol::server::MoveView;

use super::Played;
use super::view::{Kept, Observed};

/// The room a move-list entry is written into (bytes): most are 100 to 200.
const MOVE_CAPACITY: usize = 256;

/// The parts written so far in one broadcast.
#[derive(Default)]
pub(super) struct Fragments {
    /// Each entry's JSON (a `MoveView`) per distinct view, by the view's address: ordered, as a
    /// broadcast writes a few (one decision's) and comparing addresses costs less than hashing.
    moves: Vec<JsonText>,
    move_index: BTreeMap<*const (String, ActionInfo), usize>,
    /// The patches from a baseline to an observation, by the two.
    patches: Vec<(Kept, Observed, ObservationPatch)>,
}

impl Fragments {
    /// The entries of `log` that viewer column `column` sees in its move list, written: indexes
    /// for `move_json`.
    pub(super) fn add_moves(&mut self, log: &[Played], column: usize) -> Vec<usize> {
        log.iter()
            .filter_map(|p| {
                // An early ending is not a move.
                let by = p.entry.by()?;
                let shown = p.display.get(column)?.as_ref()?;
                let next = self.moves.len();
                let index = *self.move_index.entry(Arc::as_ptr(shown)).or_insert(next);
                if index == next {
                    let (text, info) = &**shown;
                    let view = MoveView { by, text, info };
                    let json =
                        JsonText::of(&view, MOVE_CAPACITY).expect("move-list entries serialize");
                    self.moves.push(json);
                }
                Some(index)
            })
            .collect()
    }

    /// Entry `index` of `add_moves`, as JSON.
    pub(super) fn move_json(&self, index: usize) -> &JsonText {
        &self.moves[index]
    }

    /// The patch from the observation `before` (a viewer's baseline) to `now`, both objects
    /// (`ObservationJson::patch_from`), written once for every viewer with the same two: an
    /// index for `patch`, `None` unless both are objects.
    pub(super) fn add_patch(&mut self, before: &Kept, now: &Observed) -> Option<usize> {
        let found = self
            .patches
            .iter()
            .position(|(b, n, _)| Arc::ptr_eq(b, before) && Arc::ptr_eq(n, now));
        if found.is_some() {
            return found;
        }
        let patch = now.patch_from(before)?;
        self.patches
            .push((Arc::clone(before), Arc::clone(now), patch));
        Some(self.patches.len() - 1)
    }

    /// Patch `index` of `add_patch`.
    pub(super) fn patch(&self, index: usize) -> &ObservationPatch {
        &self.patches[index].2
    }
}
