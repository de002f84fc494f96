//! The store's calls about players: accounts, sessions, follows and blocks, a player's own
//! data, and an account deleted.

use super::future::BoxFuture;
use crate::error::StoreError;
use crate::players::{self, Player, PlayerId, PlayerKind, PlayerSecret};
use crate::stored::ChatLine;

/// Storage of players, their sessions and relations (part of `Store`).
pub trait PlayerStore: Send + Sync {
    /// Creates a player named `name`; a person (not a bot) is kept with its name's look-alike
    /// key (`players::similar_key`).
    ///
    /// # Errors
    /// `Conflict` if another player has that name without regard to case, or another person a
    /// name that looks like it (`AIice` once `Alice` exists).
    fn create_player(
        &self,
        name: String,
        kind: PlayerKind,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>>;

    /// The player of bot `bot` (named `bot-bot`), created on first use.
    ///
    /// # Errors
    /// `Database` on failure.
    fn bot_player(&self, bot: String) -> BoxFuture<'_, Result<Player, StoreError>>;

    /// The player named `name` (without regard to case) and its password hash, if any.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_by_name(
        &self,
        name: String,
    ) -> BoxFuture<'_, Result<Option<PlayerSecret>, StoreError>>;

    /// Renames player `id` and/or gives it a password (making it an account), all or nothing.
    ///
    /// # Errors
    /// `Conflict` if the name is taken or looks like a person's that is (as `create_player`),
    /// `NotAGuest` for a password given to a player that is no guest (two upgrades at once: the
    /// second).
    fn update_player(
        &self,
        id: PlayerId,
        name: Option<String>,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>>;

    /// Starts a session: `hash` (SHA-256 of the cookie's id) names `player`.
    ///
    /// # Errors
    /// `Conflict` if the hash exists.
    fn create_session(
        &self,
        hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The player of the session whose id hashes to `hash`, if it was used within
    /// `SESSION_IDLE_MS`; a use renews it (at most once per `SESSION_RENEW_MS`, so a session in
    /// use never expires).
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn session(&self, hash: String) -> BoxFuture<'_, Result<Option<Player>, StoreError>>;

    /// Ends the session whose id hashes to `hash`.
    ///
    /// # Errors
    /// `Database` on failure.
    fn delete_session(&self, hash: String) -> BoxFuture<'_, Result<(), StoreError>>;

    /// `player`'s relation to `other` becomes `relation` (`on`), replacing the one it had, or
    /// that relation ends (`!on`; another relation stays).
    ///
    /// # Errors
    /// `Database` on failure (an unknown player's id included).
    fn set_relation(
        &self,
        player: PlayerId,
        other: PlayerId,
        relation: players::Relation,
        on: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The players `player` follows or blocks, by name.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn relations(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(players::Relation, Player)>, StoreError>>;

    /// Whether `a` blocks `b`, and whether `b` blocks `a`.
    ///
    /// # Errors
    /// `Database` on failure.
    fn blocks_between(
        &self,
        a: PlayerId,
        b: PlayerId,
    ) -> BoxFuture<'_, Result<(bool, bool), StoreError>>;

    /// The chat lines `player` wrote, oldest first, each with its match's id (a player's data,
    /// docs/protocol.md section 7.10).
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_chat(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, ChatLine)>, StoreError>>;

    /// When each session of `player` began and was last used (Unix ms), oldest first.
    ///
    /// # Errors
    /// `Database` on failure.
    fn player_sessions(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StoreError>>;

    /// Deletes person `player`'s account (docs/protocol.md section 7.10), in one transaction:
    /// its row stays, so the matches it played keep their seats and replay, but under the name
    /// `neutral` (its keys too, so the old name is free) and without a password (no sign-in
    /// can match it); its sessions, ratings, rating changes, follows and blocks (both ways) and
    /// chat lines are deleted. The matches, their logs and the other players' rating changes
    /// stay. Answers the player as it is now.
    ///
    /// # Errors
    /// `Playing` if it sits at a match not finished, `Conflict` if another player has the name
    /// `neutral` (nothing changed either way); `Database` on failure.
    fn delete_player(
        &self,
        player: PlayerId,
        neutral: String,
    ) -> BoxFuture<'_, Result<Player, StoreError>>;
}
