//! The record's JSON: the actions, then the endings each with its place among them. Records
//! written before the log was one list read and write unchanged.

use serde::{Deserialize, Serialize};

use crate::chance::Seed;
use crate::game::Ending;
use crate::log::{Event, LogEntry};
use crate::outcome::Outcome;
use crate::seat::Actor;

#[derive(Serialize, Deserialize)]
pub(super) struct Record {
    game: String,
    #[serde(default)]
    config: serde_json::Value,
    seats: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    seed_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<Seed>,
    actions: Vec<Action>,
    /// In order, `after` never decreasing and at most the number of actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    endings: Vec<End>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
}

#[derive(Serialize, Deserialize)]
struct Action {
    by: Actor,
    action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at_ms: Option<u64>,
}

#[derive(Serialize, Deserialize)]
struct End {
    after: usize,
    ending: Ending,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at_ms: Option<u64>,
}

impl From<super::Record> for Record {
    fn from(r: super::Record) -> Record {
        let mut actions = Vec::with_capacity(r.log.len());
        let mut endings = Vec::new();
        for LogEntry { event, at_ms } in r.log {
            match event {
                Event::Action { by, action } => actions.push(Action { by, action, at_ms }),
                Event::End(ending) => endings.push(End {
                    after: actions.len(),
                    ending,
                    at_ms,
                }),
            }
        }
        Record {
            game: r.game,
            config: r.config,
            seats: r.seats,
            start: r.start,
            seed_hash: r.seed_hash,
            seed: r.seed,
            actions,
            endings,
            outcome: r.outcome,
        }
    }
}

impl TryFrom<Record> for super::Record {
    type Error = String;

    /// Puts each ending at its place among the actions.
    fn try_from(r: Record) -> Result<super::Record, String> {
        let count = r.actions.len();
        let mut log = Vec::with_capacity(count + r.endings.len());
        let mut actions = r.actions.into_iter();
        let mut previous = 0;
        for End {
            after,
            ending,
            at_ms,
        } in r.endings
        {
            if after > count {
                return Err(format!(
                    "the ending ({ending}) after {after} actions: the record has only {count} \
                     actions"
                ));
            }
            if after < previous {
                return Err(format!(
                    "the ending ({ending}) after {after} actions comes before the ending \
                     listed ahead of it (after {previous} actions)"
                ));
            }
            log.extend(
                actions
                    .by_ref()
                    .take(after - previous)
                    .map(Action::into_entry),
            );
            log.push(LogEntry::end(ending, at_ms));
            previous = after;
        }
        log.extend(actions.map(Action::into_entry));
        Ok(super::Record {
            game: r.game,
            config: r.config,
            seats: r.seats,
            start: r.start,
            seed_hash: r.seed_hash,
            seed: r.seed,
            log,
            outcome: r.outcome,
        })
    }
}

impl Action {
    fn into_entry(self) -> LogEntry {
        LogEntry::action(self.by, self.action, self.at_ms)
    }
}
