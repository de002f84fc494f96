//! `Store` for `SqliteStore`, part by part: each call a job for the writer thread (`write`,
//! `write_value`) or a read between its writes (`read`), running the statements of `matches`,
//! `players`, `tournaments` and `moderation`.

use plateau_engine::LogEntry;
use rusqlite::Connection;

use super::{SqliteStore, db, matches, moderation, players, tournaments};
use crate::model::{Status, unix_ms};
use crate::players::{Player, PlayerId, PlayerKind};
use crate::{
    BoxFuture, ChatLine, Created, Derived, Finish, MatchStore, ModerationStore, NodeStore,
    PlayerSecret, PlayerStore, RatingEvent, RatingStore, Standing, Store, StoreError, StoredMatch,
    TournamentStore, sql,
};

impl Store for SqliteStore {
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        // Through the writer's queue: it answers only if the thread that writes is alive.
        self.read(|c| c.query_row(sql::PING, [], |_| Ok(())).map_err(db))
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        // Dropping the sender lets the thread finish the queued jobs, then stop.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        let path = self.path.clone();
        Box::pin(async move {
            let _ = tokio::task::spawn_blocking(move || {
                for t in threads {
                    let _ = t.join();
                }
                // The writer's and the checkpointer's connections close at nearly the same
                // time, and each may see the other still open: then neither copies the log
                // into the file and removes it. A connection opened alone, then closed, does.
                if path.as_os_str() != ":memory:"
                    && let Ok(c) = Connection::open(&path)
                {
                    let _ = c.query_row("PRAGMA user_version", [], |_| Ok(()));
                }
            })
            .await;
        })
    }
}

impl MatchStore for SqliteStore {
    fn create(&self, m: StoredMatch) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| matches::create(c, &m)))
    }

    fn take_seat(
        &self,
        id: &str,
        seat: u8,
        token_hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            matches::take_seat(c, &id, seat, &token_hash, player)
        }))
    }

    fn open_seat(
        &self,
        id: &str,
        seat: u8,
        start: Option<i64>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::open_seat(c, &id, seat, start)))
    }

    fn append(
        &self,
        id: &str,
        first: u64,
        entries: Vec<LogEntry>,
        finish: Option<Finish>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| {
            matches::append(c, &id, first, &entries, finish.as_ref())
        }))
    }

    fn take_back(&self, id: &str, from: u64) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::take_back(c, &id, from)))
    }

    fn derived(
        &self,
        id: String,
        kind: Derived,
    ) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
        self.read(move |c| {
            use rusqlite::OptionalExtension;
            c.query_row(sql::DERIVED, [id.as_str(), kind.as_str()], |r| r.get(0))
                .optional()
                .map_err(db)
        })
    }

    fn put_derived(
        &self,
        id: String,
        kind: Derived,
        body: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            c.execute(
                sql::INSERT_DERIVED,
                [id.as_str(), kind.as_str(), body.as_str()],
            )
            .map_err(db)?;
            Ok(())
        }))
    }

    fn add_chat(&self, id: &str, line: ChatLine) -> BoxFuture<'_, Result<(), StoreError>> {
        let id = id.to_owned();
        self.write(Box::new(move |c| matches::add_chat(c, &id, &line)))
    }

    fn set_rematch(&self, id: &str, rematch: &str) -> BoxFuture<'_, Result<(), StoreError>> {
        let (id, rematch) = (id.to_owned(), rematch.to_owned());
        self.write(Box::new(move |c| matches::set_rematch(c, &id, &rematch)))
    }

    fn get(
        &self,
        id: &str,
        with_log: bool,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StoreError>> {
        let id = id.to_owned();
        self.read(move |c| matches::get_match(c, &id, with_log))
    }

    fn list(
        &self,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(move |c| matches::list(c, &statuses, limit))
    }

    fn created_by(&self, creator: String) -> BoxFuture<'_, Result<Created, StoreError>> {
        self.read(move |c| matches::created_by(c, &creator))
    }

    fn running_with_clock(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(matches::running_with_clock)
    }

    fn expire_open(&self, created_before: i64) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.write_value(move |c| matches::expire_open(c, created_before))
    }

    fn call_off(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.write_value(move |c| matches::call_off(c, &id))
    }

    fn player_matches(
        &self,
        player: PlayerId,
        statuses: Vec<Status>,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<StoredMatch>, StoreError>> {
        self.read(move |c| matches::player_matches(c, player, &statuses, limit))
    }
}

impl PlayerStore for SqliteStore {
    fn create_player(
        &self,
        name: String,
        kind: PlayerKind,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| {
            players::create_player(c, &name, kind, password_hash.as_deref(), unix_ms())
        })
    }

    fn bot_player(&self, bot: String) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| players::bot_player(c, &bot, unix_ms()))
    }

    fn player_by_name(
        &self,
        name: String,
    ) -> BoxFuture<'_, Result<Option<PlayerSecret>, StoreError>> {
        self.read(move |c| players::player_by_name(c, &name))
    }

    fn update_player(
        &self,
        id: PlayerId,
        name: Option<String>,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| {
            players::update_player(c, id, name.as_deref(), password_hash.as_deref())
        })
    }

    fn create_session(
        &self,
        hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            players::create_session(c, &hash, player, unix_ms())
        }))
    }

    fn session(&self, hash: String) -> BoxFuture<'_, Result<Option<Player>, StoreError>> {
        self.read(move |c| players::session(c, &hash, unix_ms()))
    }

    fn delete_session(&self, hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| players::delete_session(c, &hash)))
    }

    fn set_relation(
        &self,
        player: PlayerId,
        other: PlayerId,
        relation: crate::players::Relation,
        on: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            players::set_relation(c, player, other, relation, on, unix_ms())
        }))
    }

    fn relations(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(crate::players::Relation, Player)>, StoreError>> {
        self.read(move |c| players::relations(c, player))
    }

    fn blocks_between(
        &self,
        a: PlayerId,
        b: PlayerId,
    ) -> BoxFuture<'_, Result<(bool, bool), StoreError>> {
        self.read(move |c| players::blocks_between(c, a, b))
    }

    fn player_chat(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, ChatLine)>, StoreError>> {
        self.read(move |c| matches::player_chat(c, player))
    }

    fn player_sessions(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StoreError>> {
        self.read(move |c| players::sessions_of(c, player))
    }

    fn delete_player(
        &self,
        player: PlayerId,
        neutral: String,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        self.write_value(move |c| players::delete_player(c, player, &neutral))
    }
}

impl RatingStore for SqliteStore {
    fn standings(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, Standing)>, StoreError>> {
        self.read(move |c| players::standings(c, player))
    }

    fn rating_events(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<RatingEvent>, StoreError>> {
        self.read(move |c| players::rating_events(c, player))
    }

    fn match_rating_events(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Vec<(PlayerId, RatingEvent)>, StoreError>> {
        self.read(move |c| players::match_rating_events(c, &id))
    }

    fn leaderboard(
        &self,
        game: String,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<(Player, Standing)>, StoreError>> {
        self.read(move |c| players::leaderboard(c, &game, limit))
    }
}

impl TournamentStore for SqliteStore {
    fn create_tournament(
        &self,
        t: crate::tournaments::StoredTournament,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| tournaments::insert(c, &t)))
    }

    fn save_tournament(
        &self,
        id: String,
        status: crate::tournaments::TournamentStatus,
        state: String,
        version: i64,
        entrant: Option<PlayerId>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            tournaments::save(c, &id, status, &state, version, entrant)
        }))
    }

    fn player_tournaments(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::of_player(c, player, limit))
    }

    fn tournament(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::one(c, &id))
    }

    fn tournaments(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        self.read(move |c| tournaments::list(c, status, limit))
    }

    fn tournament_versions(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
        self.read(move |c| tournaments::versions(c, status, limit))
    }

    fn set_tournament_settings(
        &self,
        id: String,
        settings: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            c.execute(
                sql::SET_TOURNAMENT_SETTINGS,
                rusqlite::params![settings, id],
            )
            .map(drop)
            .map_err(db)
        }))
    }

    fn tournaments_created(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<u32, StoreError>> {
        self.read(move |c| tournaments::created(c, creator, since_ms))
    }
}

impl ModerationStore for SqliteStore {
    fn file_report(
        &self,
        report: crate::moderation::NewReport,
    ) -> BoxFuture<'_, Result<i64, StoreError>> {
        self.write_value(move |c| moderation::file_report(c, &report))
    }

    fn open_reports(
        &self,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::Report>, StoreError>> {
        self.read(move |c| moderation::open_reports(c, limit))
    }

    fn moderate(
        &self,
        m: crate::moderation::Moderation,
    ) -> BoxFuture<'_, Result<crate::moderation::AuditEntry, StoreError>> {
        self.write_value(move |c| moderation::moderate(c, &m))
    }

    fn audit(
        &self,
        from: crate::moderation::AuditFrom,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::AuditEntry>, StoreError>> {
        self.read(move |c| moderation::audit(c, from, limit))
    }

    fn moderation_standing(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Standing, StoreError>> {
        self.read(move |c| moderation::standing(c, player))
    }

    fn moderation_record(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Record, StoreError>> {
        self.read(move |c| moderation::record(c, player))
    }

    fn ack_warnings(&self, player: PlayerId, up_to: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        self.write(Box::new(move |c| {
            moderation::ack_warnings(c, player, up_to)
        }))
    }

    fn sanctioned(&self, now: i64) -> BoxFuture<'_, Result<Vec<crate::Sanctioned>, StoreError>> {
        self.read(move |c| moderation::sanctioned(c, now))
    }
}

/// One process opens the file: the leases' calls answer as a store alone on its database
/// (`NodeStore`'s defaults).
impl NodeStore for SqliteStore {}
