//! The sanctions in force, as this node knows them (docs/protocol.md section 7.11): who is
//! muted in chat or banned, and until when, read from the store at start and kept up to date
//! from the audit log (`moderation::watch`), so a request or a chat line is checked without a
//! read of the database. A ban is also told to every socket of this node (`bans`), which closes
//! those of the banned player.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use tokio::sync::broadcast;

use crate::model::{ApiError, Code, unix_ms};
use crate::players::PlayerId;
use plateau_store::moderation::{AuditEntry, AuditFrom, FOREVER};
use plateau_store::{Store, StoreError};

/// The close of a banned player's sockets.
pub const BANNED_CLOSE: (u16, &str) = (4003, "banned by a moderator");

/// Muted until, banned until (unix ms; `FOREVER` for a ban without an end), and the audit
/// entries that set them (0: none since the node started).
#[derive(Clone, Copy, Default, Debug)]
struct Sanction {
    muted_until: Option<i64>,
    banned_until: Option<i64>,
    mute_entry: i64,
    ban_entry: i64,
}

/// The sanctions in force and the audit entries applied.
pub struct Sanctions {
    by_player: Mutex<HashMap<PlayerId, Sanction>>,
    /// The last audit entry applied (`moderation::watch` reads those after it).
    applied: AtomicI64,
    bans: broadcast::Sender<PlayerId>,
}

impl Sanctions {
    /// The sanctions in force now, and the audit log's end (what comes after is applied as it
    /// comes).
    ///
    /// # Errors
    /// The store's.
    pub async fn load(store: &dyn Store) -> Result<Sanctions, StoreError> {
        let now = unix_ms();
        let by_player = store
            .sanctioned(now)
            .await?
            .into_iter()
            .map(|(p, muted_until, banned_until)| {
                (
                    p,
                    Sanction {
                        muted_until,
                        banned_until,
                        ..Sanction::default()
                    },
                )
            })
            .collect();
        let last = store
            .audit(AuditFrom::Latest, 1)
            .await?
            .first()
            .map_or(0, |e| e.id);
        Ok(Sanctions {
            by_player: Mutex::new(by_player),
            applied: AtomicI64::new(last),
            bans: broadcast::channel(64).0,
        })
    }

    /// None in force, nothing applied (a node over an empty store).
    #[must_use]
    pub fn empty() -> Sanctions {
        Sanctions {
            by_player: Mutex::new(HashMap::new()),
            applied: AtomicI64::new(0),
            bans: broadcast::channel(64).0,
        }
    }

    fn get(&self, p: PlayerId) -> Sanction {
        self.by_player
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&p)
            .copied()
            .unwrap_or_default()
    }

    /// `Some(until)` while `p` is banned (`until`: unix ms, `None` without an end).
    #[must_use]
    pub fn banned(&self, p: PlayerId) -> Option<Option<i64>> {
        let until = self.get(p).banned_until.filter(|u| *u > unix_ms())?;
        Some((until != FOREVER).then_some(until))
    }

    /// `Some(until)` (unix ms) while `p` is muted in chat.
    #[must_use]
    pub fn muted(&self, p: PlayerId) -> Option<i64> {
        self.get(p).muted_until.filter(|u| *u > unix_ms())
    }

    /// The refusal of anything but reading to a banned `p`: `player/banned`, until when.
    ///
    /// # Errors
    /// `player/banned` while `p` is banned.
    pub fn check_not_banned(&self, p: PlayerId) -> Result<(), ApiError> {
        match self.banned(p) {
            None => Ok(()),
            Some(until) => Err(ApiError::new(
                Code::PlayerBanned,
                match until {
                    Some(ms) => format!(
                        "a moderator banned you until {}: you cannot play, chat or make matches",
                        when(ms)
                    ),
                    None => "a moderator banned you: you cannot play, chat or make matches".into(),
                },
            )),
        }
    }

    /// The refusal of a chat line of `p` while it is muted or banned.
    ///
    /// # Errors
    /// `chat/muted` while `p` is muted, `player/banned` while banned.
    pub fn check_may_chat(&self, p: PlayerId) -> Result<(), ApiError> {
        self.check_not_banned(p)?;
        match self.muted(p) {
            None => Ok(()),
            Some(until) => Err(ApiError::new(
                Code::ChatMuted,
                format!("a moderator muted you in chat until {}", when(until)),
            )),
        }
    }

    /// Takes the effect of audit entry `e` on mutes and bans; a ban is told to the sockets
    /// (`bans`). An entry older than the one that last set the same sanction changes nothing:
    /// the node that served an entry applies it at once and its watcher reads the log's older
    /// entries later, so a ban read back after its unban was applied must not ban again (the
    /// same entry twice changes nothing either).
    pub fn note(&self, e: &AuditEntry) {
        let Some((target, _)) = &e.target else {
            return;
        };
        let mut by_player = self.by_player.lock().unwrap_or_else(|e| e.into_inner());
        let s = by_player.entry(*target).or_default();
        // The entry that last set the sanction, the sanction, and what this entry sets it to.
        let (entry, sanction, until) = match e.action.as_str() {
            "mute" => (&mut s.mute_entry, &mut s.muted_until, e.until),
            "unmute" => (&mut s.mute_entry, &mut s.muted_until, None),
            "ban" => (
                &mut s.ban_entry,
                &mut s.banned_until,
                Some(e.until.unwrap_or(FOREVER)),
            ),
            "unban" => (&mut s.ban_entry, &mut s.banned_until, None),
            _ => return,
        };
        if e.id <= *entry {
            return;
        }
        *entry = e.id;
        *sanction = until;
        if e.action == "ban" {
            let _ = self.bans.send(*target);
        }
    }

    /// The last audit entry applied here.
    #[must_use]
    pub fn applied(&self) -> i64 {
        self.applied.load(Ordering::Relaxed)
    }

    /// Audit entries up to `id` are applied.
    pub fn applied_up_to(&self, id: i64) {
        self.applied.fetch_max(id, Ordering::Relaxed);
    }

    /// The players banned from now on, as they are: each socket of this node with a player
    /// listens, and closes with `BANNED_CLOSE` when its player is named.
    #[must_use]
    pub fn bans(&self) -> broadcast::Receiver<PlayerId> {
        self.bans.subscribe()
    }
}

/// Completes once `player` is banned (`Sanctions::bans`); never without a player. A receiver
/// that fell behind (more bans at once than its queue) asks the sanctions again.
pub async fn banned_now(
    bans: &mut broadcast::Receiver<PlayerId>,
    sanctions: &Sanctions,
    player: Option<PlayerId>,
) {
    let Some(player) = player else {
        return std::future::pending().await;
    };
    loop {
        match bans.recv().await {
            Ok(p) if p == player => return,
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => {
                if sanctions.banned(player).is_some() {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Closed) => return std::future::pending().await,
        }
    }
}

/// A time for the words of a refusal, as HTTP writes dates (`Sun, 06 Dec 2026 14:05:30 GMT`).
fn when(ms: i64) -> String {
    let at =
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    httpdate::fmt_http_date(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i64, action: &str, until: Option<i64>) -> AuditEntry {
        AuditEntry {
            id,
            at: 0,
            moderator: None,
            action: action.into(),
            target: Some((PlayerId(7), "Rude".into())),
            match_id: None,
            report: None,
            until,
            detail: None,
            reason: "why".into(),
        }
    }

    #[test]
    fn an_entry_read_back_after_a_newer_one_changes_nothing() {
        let sanctions = Sanctions::empty();
        let later = unix_ms() + 3_600_000;
        let ban = entry(2, "ban", Some(later));
        sanctions.note(&ban);
        assert_eq!(sanctions.banned(PlayerId(7)), Some(Some(later)));
        sanctions.note(&entry(3, "unban", None));
        assert_eq!(sanctions.banned(PlayerId(7)), None);
        // The watcher reads the ban from the log after the unban was applied here.
        sanctions.note(&ban);
        assert_eq!(sanctions.banned(PlayerId(7)), None);
        // A mute older than the ban is a sanction of its own: it applies when read.
        sanctions.note(&entry(1, "mute", Some(later)));
        assert_eq!(sanctions.muted(PlayerId(7)), Some(later));
        sanctions.note(&entry(4, "ban", None));
        assert_eq!(sanctions.banned(PlayerId(7)), Some(None));
    }
}
