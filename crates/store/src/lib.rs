//! Plateau's durable, event-sourced storage (docs/architecture.md section 5): a row per match and
//! an append-only action log per match with a unique `(match, seq)` key (a takeback, agreed at
//! the table, deletes its last entries); the live state is never stored but rebuilt by replaying
//! the log. Beside the matches: players, their sessions, their ratings per game with one event per
//! change, and each match's chat.
//!
//! `Store` is the interface; `sqlite::SqliteStore` the embedded implementation and
//! `postgres::PgStore` the one over a PostgreSQL server, with the same tables, keys and
//! transactions. The records they keep are defined here, below the server: a match as stored
//! (`stored`) and the shapes it is made of (`model`), its players and their sessions (`players`)
//! and their ratings (`ratings`, which the store applies in the transaction that finishes a rated
//! match).
//!
//! SQL: each statement the two dialects read alike is one text in `sql` that both backends run
//! (PostgreSQL's `$N` placeholders, which SQLite takes as named parameters numbered in order).
//! What differs stays with its backend, because the databases differ there: the schema and its
//! migrations (each database has its own history of versions already deployed, and its own
//! types: SQLite's `INTEGER` for flags and every number, PostgreSQL's `BOOLEAN`, `SMALLINT`,
//! `BIGINT`, `C` collation and identity ids), the statements that name a flag (`opened = 1`
//! against `opened = TRUE`), PostgreSQL's row locks (`FOR UPDATE`) and arrays (one statement
//! for many rows: `= ANY($1)`, `unnest`), and its leases, which SQLite has no use for (one
//! process opens its file).

pub mod error;
pub mod model;
pub mod moderation;
pub mod players;
pub mod postgres;
pub mod ratings;
mod sql;
pub mod sqlite;
mod stored;
pub mod tournaments;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use plateau_engine::LogEntry;

pub use error::{DatabaseError, StoreError};
pub use players::{PlayerSecret, SESSION_IDLE_MS, SESSION_RENEW_MS, stored_similar_key};
pub use ratings::{RatingEvent, Standing};
pub use stored::{ChatLine, Created, Derived, Finish, Room, StoredMatch, StoredSeat};

use crate::model::Status;
use crate::players::{Player, PlayerId, PlayerKind};

/// A sanctioned player: its id, muted until and banned until (unix ms; `moderation::FOREVER`
/// for a ban with no end).
pub type Sanctioned = (PlayerId, Option<i64>, Option<i64>);

/// A boxed future, so `Store` can be used as `dyn Store`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Storage of matches and their action logs.
///
/// Every write returns only once it is durable (committed). Implementations may group concurrent
/// writes into one transaction, but each write succeeds or fails on its own.
pub trait Store: Send + Sync + 'static {
    /// Stores a new match with its seats (an empty log).
    ///
    /// # Errors
    /// `Conflict` if the id exists.
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Gives human seat `seat` of match `id` to `player` with the token whose hash is
    /// `token_hash`.
    ///
    /// # Errors
    /// `Conflict` if the seat is not a free human seat.
    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Marks seat `seat` of `id` opened (its player connected); with `start = Some(unix_ms)`
    /// also marks the match live from then.
    ///
    /// # Errors
    /// `Database` on failure.
    fn open_seat(
        &self,
        id: &str,
        seat: u8,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Appends `entries` (one client decision and the chance outcomes that follow it) to the log
    /// of `id` at `seq`s `first`, `first + 1`, ... in one transaction; with `finish`, also marks
    /// the match finished with that outcome and, for a rated match, updates the ratings of its
    /// players (`ratings::rate`) with one event each, in the same transaction. All or nothing.
    ///
    /// # Errors
    /// `Conflict` if one of those `seq`s is already written; `Invalid` for an entry without
    /// `at_ms` (the service times every entry); `LeaseLost` when this node no longer holds the
    /// match's lease (`drive_as`).
    fn append(
        &self,
        id: &str,
        first: u64,
        entries: Vec<LogEntry>,
        finish: Option<Finish>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Deletes the log entries of live match `id` from `seq = from` on, in one transaction: a
    /// takeback (docs/protocol.md section 7.4), the one write that is not an append. Fenced as
    /// `append` is on a database several nodes share.
    ///
    /// # Errors
    /// `Conflict` when the match is not live or no entry is at `from`; `LeaseLost` when this
    /// node no longer holds the match's lease (`drive_as`).
    fn take_back(&self, id: &str, from: u64) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The stored `kind` document of finished match `id` (a JSON text), if computed.
    ///
    /// # Errors
    /// `Database` on failure.
    fn derived(
        &self,
        id: String,
        kind: Derived,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>>;

    /// Stores the `kind` document of finished match `id` (a later one of the same kind for the
    /// same match is ignored: a finished match's documents never change).
    ///
    /// # Errors
    /// `Database` on failure.
    fn put_derived(
        &self,
        id: String,
        kind: Derived,
        body: String,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Appends a chat line to match `id`.
    ///
    /// # Errors
    /// `Conflict` if that `seq` is already written.
    fn add_chat(&self, id: &str, line: ChatLine) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Records that `rematch` is the rematch of `id`.
    ///
    /// # Errors
    /// `Database` on failure.
    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>>;

    /// One match, with its log when `with_log`.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>>;

    /// Up to `limit` matches with one of `statuses`, newest first, without logs.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

    /// The unfinished matches created from address key `creator` (`limits::address_key`), as
    /// the limits on creating count them.
    ///
    /// # Errors
    /// `Database` on failure.
    fn created_by(&self, creator: String) -> BoxFuture<'_, Result<Created, StoreError>>;

    /// Every live match with a clock, with its log: what must run from the start (its clocks
    /// and the abandonment rule fire by themselves).
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn running_with_clock(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

    /// Deletes the open matches created before `created_before` (unix ms) that never started,
    /// with their seats and chat; returns their ids.
    ///
    /// # Errors
    /// `Database` on failure.
    fn expire_open(&self, created_before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;

    /// Deletes open match `id` if it never started (a quick-pairing table a player never
    /// came to), with its seats and chat; whether it did.
    ///
    /// # Errors
    /// `Database` on failure.
    fn call_off(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Up to `limit` matches of `player` with one of `statuses`, the latest ended (then created)
    /// first, without logs.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_matches(
        &self,
        player: PlayerId,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>>;

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

    /// Stores a new tournament (docs/tournaments.md).
    ///
    /// # Errors
    /// `Conflict` if the id exists or the creator is unknown.
    fn create_tournament(
        &self,
        t: tournaments::StoredTournament,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Tournament `id`'s status and state become `status` and `state`, and its version one
    /// more, if its version is still `version` (the one its writer read); `entrant`, a player
    /// who joined with this change, is counted among its entrants (`player_tournaments`) in the
    /// same transaction.
    ///
    /// # Errors
    /// `Conflict` if its version is another (it changed since it was read) or there is no such
    /// tournament (nothing is written); `Database` on failure.
    fn save_tournament(
        &self,
        id: String,
        status: tournaments::TournamentStatus,
        state: String,
        version: i64,
        entrant: Option<PlayerId>,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Tournament `id`'s settings (written at its creation) become `settings`: only to name a
    /// deleted creator anew (docs/protocol.md section 7.10); its state and version are left as
    /// they are.
    ///
    /// # Errors
    /// `Database` on failure.
    fn set_tournament_settings(
        &self,
        id: String,
        settings: String,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// At most `limit` tournaments `player` joined (an entrant of a save), latest start first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn player_tournaments(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<tournaments::StoredTournament>, StoreError>>;

    /// Tournament `id`, if stored.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn tournament(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<tournaments::StoredTournament>, StoreError>>;

    /// At most `limit` tournaments of status `status`, latest start first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn tournaments(
        &self,
        status: tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<tournaments::StoredTournament>, StoreError>>;

    /// The id and version of at most `limit` tournaments of status `status`, latest start
    /// first: the tournaments of `tournaments` without their settings and state, to learn
    /// cheaply which changed (each save raises the version).
    ///
    /// # Errors
    /// `Database` on failure.
    fn tournament_versions(
        &self,
        status: tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>>;

    /// How many tournaments `creator` created since `since_ms` (Unix milliseconds).
    ///
    /// # Errors
    /// `Database` on failure.
    fn tournaments_created(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<u32, StoreError>>;

    /// A player's standing in every game it has a rating in.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn standings(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, Standing)>, StoreError>>;

    /// Every rating change of a player, oldest first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn rating_events(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<RatingEvent>, StoreError>>;

    /// The rating changes finished match `id` made, one per player whose rating it changed.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn match_rating_events(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Vec<(PlayerId, RatingEvent)>, StoreError>>;

    /// The `limit` people (not bots) with the best ratings in `game`, best first.
    ///
    /// # Errors
    /// `Database`/`Corrupt` on failure.
    fn leaderboard(
        &self,
        game: String,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<(Player, Standing)>, StoreError>>;

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

    /// A cheap query (`SELECT 1`): whether the database answers now (`GET /health`).
    ///
    /// # Errors
    /// `Database` when it does not.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Finishes the writes in progress and closes the database.
    fn close(&self) -> BoxFuture<'_, ()>;

    /// Takes match `id`'s lease for `node` (docs/architecture.md section 5.3): the lease is
    /// `node`'s for `ttl` from the database's clock, with an epoch one more than the last one
    /// taken for the match, unless another node holds one that has not expired. `None` = it is
    /// `node`'s now (the store remembers its epoch, and conditions this node's writes for the
    /// match on it); `Some(holder)` = `holder` drives the match. A store that only one process
    /// opens (SQLite) always answers `None`.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn lease(
        &self,
        id: &str,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let _ = (id, node, ttl);
        Box::pin(async { Ok(None) })
    }

    /// Renews for `ttl` the leases `node` holds on `ids`, each only if its row still holds the
    /// epoch this store took (never taking or making a row again: a lease another node took, or
    /// one given up, stays so), and only while `node`'s name is still this process's (read, not
    /// beaten: `heartbeat` does that). Answers the ids `node` no longer holds; the store forgets
    /// them.
    ///
    /// # Errors
    /// `Database` when the database does not answer (then nothing was renewed); `LeaseLost` when
    /// another process took `node`'s name (it had not beaten for `ttl`): every lease is lost.
    fn renew(
        &self,
        ids: Vec<String>,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let _ = (ids, node, ttl);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// Beats the heartbeat of `node`'s name (`claim_node`), so no other process may claim it
    /// while this one lives, and answers the live nodes: those whose heartbeat is younger than
    /// `ttl`, `node` among them, by name. Its own statement, apart from the renewals: they only
    /// read the name, so they never queue on its row. A store only one process opens answers
    /// `node` alone.
    ///
    /// # Errors
    /// `Database` when the database does not answer; `LeaseLost` when another process took
    /// `node`'s name (this one had not beaten for the time to live): every lease is lost, and
    /// the store forgets them.
    fn heartbeat(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<Node>, StoreError>> {
        let (live, _) = (vec![node.clone()], ttl);
        Box::pin(async move { Ok(live) })
    }

    /// Until when, by this process's own clock (`tokio::time::Instant`), the lease on match `id`
    /// is surely still this node's: `ttl` after the start of its last taking or renewal that
    /// succeeded (the database counts its `ttl` from a later instant, and another node takes an
    /// expired lease only later still). A past instant when this node does not hold it; `None`
    /// for a store only one process opens (no lease is needed).
    fn lease_deadline(&self, id: &str) -> Option<tokio::time::Instant> {
        let _ = id;
        None
    }

    /// Gives up `node`'s leases on `ids` (its actors stopped), so another node may take them at
    /// once. With `hand_over` they stay as expired leases (`orphans`), so another node takes the
    /// matches over without waiting for a client (a node that stops while its matches run);
    /// without, they rest (no node drives them until one is asked for them). The row stays,
    /// with its epoch, so the next epoch is larger still. The store forgets them either way.
    ///
    /// # Errors
    /// `Database` when the database does not answer (the leases then expire by themselves).
    fn release(
        &self,
        ids: Vec<String>,
        node: &Node,
        hand_over: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let _ = (ids, node, hand_over);
        Box::pin(async { Ok(()) })
    }

    /// The node driving match `id` now, as the database says: `None` when none does (never
    /// driven, resting, or a store only one process opens).
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn holder(&self, id: &str) -> BoxFuture<'_, Result<Option<Node>, StoreError>> {
        let _ = id;
        Box::pin(async { Ok(None) })
    }

    /// Claims `node`'s name for this process: its row in the table of nodes, with a heartbeat
    /// `heartbeat` beats. Taken when free, or when its last heartbeat is older than `ttl` (an
    /// earlier run, killed). `None` = claimed; `Some(address)` = a live process of that name runs
    /// at `address`.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn claim_node(
        &self,
        node: &Node,
        ttl: Duration,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        let _ = (node, ttl);
        Box::pin(async { Ok(None) })
    }

    /// Up to `limit` matches whose lease expired without being given up: their node stopped
    /// renewing (it died, stalled, or lost the database), oldest first. Those of `node` itself
    /// as soon as they expire; another node's only once expired for `grace` more, so that after
    /// an outage each node takes its own matches back first.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn orphans(
        &self,
        node: &Node,
        grace: Duration,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        let _ = (node, grace, limit);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// From now on every write of a match (`append`, `take_back`, a seat taken or opened, a chat
    /// line) commits only while `node` holds the match's lease at the epoch this store took
    /// (docs/architecture.md section 5.3): a node that lost a lease gets `LeaseLost` and writes
    /// nothing. Set once, by the lobby that drives matches through this store; a store only one
    /// process opens ignores it.
    fn drive_as(&self, node: &Node) {
        let _ = node;
    }

    /// Tells every node listening on `channel` (this one included) `payload`: PostgreSQL's
    /// `NOTIFY`, sent once committed. A store only one process opens has nobody to tell.
    ///
    /// # Errors
    /// `Database` when the database does not answer.
    fn notify(
        &self,
        channel: &'static str,
        payload: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let _ = (channel, payload);
        Box::pin(async { Ok(()) })
    }

    /// What every node `notify`s on `channels`, as `(channel, payload)`, from now on: `None`
    /// for a store only one process opens. Listens on a connection of its own, opened again
    /// (every second) while the database does not answer; what was sent meanwhile is missed.
    fn listen(
        &self,
        channels: &[&'static str],
    ) -> Option<tokio::sync::mpsc::UnboundedReceiver<(String, String)>> {
        let _ = channels;
        None
    }

    /// The secret the nodes of one database share, to trust what another node forwards (the
    /// client's address): `None` for a store only one process opens.
    fn node_secret(&self) -> Option<&str> {
        None
    }
}

/// A `plateau serve` process among those on one database: its name and the address
/// (`host:port`) the other nodes reach it at (docs/architecture.md section 5.3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Node {
    /// Unique among the nodes of one database (`--node`).
    pub name: String,
    /// `host:port` the other nodes connect to (`--advertise`), empty if none.
    pub address: String,
}

#[cfg(test)]
mod tests;
