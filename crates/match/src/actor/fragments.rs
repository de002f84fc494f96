//! The parts of one broadcast's `state` messages that several viewers share, each written once
//! (docs/protocol.md section 4.1): a move-list entry as one distinct view shows it, and the
//! observation's patch from one baseline to the observation now. Viewers shown the same share
//! the same values (`Shown`, `Observed`): in a game without hidden information every viewer
//! does, and each part is written once for all; otherwise each viewer's are its own.

use std::collections::HashMap;
use std::sync::Arc;

use plateau_engine::observation::Field;
use plateau_engine::{ActionInfo, KeptObservation};
use plateau_protocol::server::{MoveView, ObservationPatch};
use serde_json::value::{RawValue, to_raw_value};

use super::Played;
use super::view::{Kept, Observed};

/// A delta's observation fields: the changed ones as one JSON object (`observation_patch`) and
/// the names of those gone (`observation_removed`).
pub(super) struct Patch {
    pub(super) changed: Box<RawValue>,
    /// No field changed and none is gone.
    pub(super) empty: bool,
    pub(super) removed: Vec<String>,
}

/// The parts written so far in one broadcast.
#[derive(Default)]
pub(super) struct Fragments {
    /// Each entry's JSON (a `MoveView`) per distinct view, by the view's address.
    moves: Vec<Box<RawValue>>,
    move_index: HashMap<*const (String, ActionInfo), usize>,
    /// The patches from a baseline to an observation, by the two.
    patches: Vec<(Kept, Observed, Patch)>,
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
                    self.moves
                        .push(to_raw_value(&view).expect("move-list entries serialize"));
                }
                Some(index)
            })
            .collect()
    }

    /// Entry `index` of `add_moves`, as JSON.
    pub(super) fn move_json(&self, index: usize) -> &RawValue {
        &self.moves[index]
    }

    /// The patch from the observation `before` (a viewer's baseline) to `now`, both objects,
    /// written once for every viewer with the same two: an index for `patch`.
    pub(super) fn add_patch(&mut self, before: &Kept, now: &Observed) -> usize {
        let found = self
            .patches
            .iter()
            .position(|(b, n, _)| Arc::ptr_eq(b, before) && Arc::ptr_eq(n, now));
        found.unwrap_or_else(|| {
            let (changed, removed) = changes(before, now.fields().unwrap_or(&[]));
            let patch = Patch {
                empty: changed.is_empty() && removed.is_empty(),
                changed: to_raw_value(&ObservationPatch(&changed))
                    .expect("observation fields serialize"),
                removed,
            };
            self.patches
                .push((Arc::clone(before), Arc::clone(now), patch));
            self.patches.len() - 1
        })
    }

    /// Patch `index` of `add_patch`.
    pub(super) fn patch(&self, index: usize) -> &Patch {
        &self.patches[index].2
    }
}

/// The fields of `now` whose value's text is not that of the same field in `before`, and the
/// names of the fields of `before` that `now` lacks. The texts are compared as written, without
/// reading them back.
fn changes<'a>(
    before: &KeptObservation,
    now: &'a [Field],
) -> (Vec<(&'a str, &'a RawValue)>, Vec<String>) {
    // An observation's fields come in its type's order: each is looked for at its own place
    // first (a field left out shifts the others).
    let was = |i: usize, key: &str| {
        before
            .field(i)
            .filter(|(k, _)| *k == key)
            .or_else(|| before.fields()?.find(|(k, _)| *k == key))
    };
    let changed = now
        .iter()
        .enumerate()
        .filter(|(i, (k, v))| was(*i, k).is_none_or(|(_, old)| old != v.get()))
        .map(|(_, (k, v))| (&**k, &**v))
        .collect();
    let same_keys = before.len() == Some(now.len())
        && now
            .iter()
            .enumerate()
            .all(|(i, (k, _))| before.field(i).is_some_and(|(b, _)| b == k));
    let removed = match before.fields() {
        Some(fields) if !same_keys => fields
            .filter(|(k, _)| !now.iter().any(|(n, _)| n == k))
            .map(|(k, _)| k.to_owned())
            .collect(),
        _ => Vec::new(),
    };
    (changed, removed)
}
