//! The store's calls about moderation: reports, moderators' actions with their audit log,
//! the sanctions in force.

use super::future::BoxFuture;
use crate::error::StoreError;
use crate::moderation;
use crate::players::PlayerId;

/// A sanctioned player: its id, muted until and banned until (unix ms; `moderation::FOREVER`
/// for a ban with no end).
pub type Sanctioned = (PlayerId, Option<i64>, Option<i64>);

/// Storage of reports, moderators' actions and the audit log (part of `Store`).
pub trait ModerationStore: Send + Sync {
    /// Files a report (docs/protocol.md section 7.11); its number.
    ///
    /// # Errors
    /// `Conflict` if a player or the match it names is unknown.
    fn file_report(&self, report: moderation::NewReport) -> BoxFuture<'_, Result<i64, StoreError>>;

    /// Up to `limit` open reports, oldest first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn open_reports(
        &self,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<moderation::Report>, StoreError>>;

    /// Applies moderator action `m` (a mute, a ban, a rename, a role, a report handled) and
    /// writes its audit entry, in one transaction; the entry written.
    ///
    /// # Errors
    /// `NotFound` for a target player or an open report that is not there, `Invalid` for the
    /// role given to a player that is no account, `Conflict` for a new name that is taken or
    /// looks like one that is (as `create_player`), or an unknown match; nothing is written.
    fn moderate(
        &self,
        m: moderation::Moderation,
    ) -> BoxFuture<'_, Result<moderation::AuditEntry, StoreError>>;

    /// Up to `limit` entries of the audit log, from `from`.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn audit(
        &self,
        from: moderation::AuditFrom,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<moderation::AuditEntry>, StoreError>>;

    /// `player`'s role, mute, ban and unacknowledged warnings.
    ///
    /// # Errors
    /// `NotFound` for an unknown player; `Database`/`Corrupt` on failure.
    fn moderation_standing(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<moderation::Standing, StoreError>>;

    /// What the moderators' records hold about `player`, for its own data (docs/protocol.md
    /// section 7.10): its role, mute and ban as stored, every warning it received, and the
    /// reports it filed (not those about it).
    ///
    /// # Errors
    /// `NotFound` for an unknown player; `Database`/`Corrupt` on failure.
    fn moderation_record(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<moderation::Record, StoreError>>;

    /// `player` has read its warnings up to audit entry `up_to`.
    ///
    /// # Errors
    /// `Database` on failure.
    fn ack_warnings(&self, player: PlayerId, up_to: i64) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The players muted or banned at `now` (unix ms): id, muted until, banned until.
    ///
    /// # Errors
    /// `Database` on failure.
    fn sanctioned(&self, now: i64) -> BoxFuture<'_, Result<Vec<Sanctioned>, StoreError>>;
}
