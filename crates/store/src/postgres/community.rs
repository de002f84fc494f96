//! `PlayerStore`, `RatingStore`, `TournamentStore` and `ModerationStore` for `PgStore`: the
//! players and what they do beside their matches, each call one transaction on a pooled
//! connection (`in_tx!`) or one statement (`one_statement!`), running the statements of
//! `players`, `tournaments` and `moderation`.

use tokio_postgres::IsolationLevel;

use super::query::{db, exec, pool_error};
use super::{PgStore, matches, moderation, players, tournaments};
use crate::model::unix_ms;
use crate::players::{Player, PlayerId, PlayerKind};
use crate::{
    BoxFuture, ChatLine, ModerationStore, PlayerSecret, PlayerStore, RatingEvent, RatingStore,
    Standing, StoreError, TournamentStore, sql,
};

impl PlayerStore for PgStore {
    fn create_player(
        &self,
        name: String,
        kind: PlayerKind,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        one_statement!(self, |c| players::create_player(
            &c,
            &name,
            kind,
            password_hash.as_deref(),
            unix_ms()
        )
        .await)
    }

    fn bot_player(&self, bot: String) -> BoxFuture<'_, Result<Player, StoreError>> {
        in_tx!(self, false, |tx| players::bot_player(&tx, &bot, unix_ms())
            .await)
    }

    fn player_by_name(
        &self,
        name: String,
    ) -> BoxFuture<'_, Result<Option<PlayerSecret>, StoreError>> {
        in_tx!(self, true, |tx| players::player_by_name(&tx, &name).await)
    }

    fn update_player(
        &self,
        id: PlayerId,
        name: Option<String>,
        password_hash: Option<String>,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        in_tx!(self, false, |tx| players::update_player(
            &tx,
            id,
            name.as_deref(),
            password_hash.as_deref()
        )
        .await)
    }

    fn create_session(
        &self,
        hash: String,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| exec(
            &c,
            sql::INSERT_SESSION,
            &[&hash, &player.0, &unix_ms()],
        )
        .await
        .map(|_| ()))
    }

    fn session(&self, hash: String) -> BoxFuture<'_, Result<Option<Player>, StoreError>> {
        in_tx!(self, false, |tx| players::session(&tx, &hash, unix_ms())
            .await)
    }

    fn delete_session(&self, hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| exec(&c, sql::DELETE_SESSION, &[&hash])
            .await
            .map(|_| ()))
    }

    fn set_relation(
        &self,
        player: PlayerId,
        other: PlayerId,
        relation: crate::players::Relation,
        on: bool,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let now = unix_ms();
        in_tx!(self, false, |tx| players::set_relation(
            &tx, player, other, relation, on, now
        )
        .await)
    }

    fn relations(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(crate::players::Relation, Player)>, StoreError>> {
        in_tx!(self, true, |tx| players::relations(&tx, player).await)
    }

    fn blocks_between(
        &self,
        a: PlayerId,
        b: PlayerId,
    ) -> BoxFuture<'_, Result<(bool, bool), StoreError>> {
        in_tx!(self, true, |tx| players::blocks_between(&tx, a, b).await)
    }

    fn player_chat(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, ChatLine)>, StoreError>> {
        in_tx!(self, true, |tx| matches::player_chat(&tx, player).await)
    }

    fn player_sessions(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StoreError>> {
        in_tx!(self, true, |tx| players::sessions_of(&tx, player).await)
    }

    fn delete_player(
        &self,
        player: PlayerId,
        neutral: String,
    ) -> BoxFuture<'_, Result<Player, StoreError>> {
        in_tx!(self, false, |tx| players::delete_player(
            &tx, player, &neutral
        )
        .await)
    }
}

impl RatingStore for PgStore {
    fn standings(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<(String, Standing)>, StoreError>> {
        in_tx!(self, true, |tx| players::standings(&tx, player).await)
    }

    fn rating_events(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<Vec<RatingEvent>, StoreError>> {
        in_tx!(self, true, |tx| players::rating_events(&tx, player).await)
    }

    fn match_rating_events(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Vec<(PlayerId, RatingEvent)>, StoreError>> {
        in_tx!(self, true, |tx| players::match_rating_events(&tx, &id)
            .await)
    }

    fn leaderboard(
        &self,
        game: String,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<(Player, Standing)>, StoreError>> {
        in_tx!(self, true, |tx| players::leaderboard(&tx, &game, limit)
            .await)
    }
}

impl TournamentStore for PgStore {
    fn create_tournament(
        &self,
        t: crate::tournaments::StoredTournament,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        in_tx!(self, false, |tx| tournaments::insert(&tx, &t).await)
    }

    fn save_tournament(
        &self,
        id: String,
        status: crate::tournaments::TournamentStatus,
        state: String,
        version: i64,
        entrant: Option<PlayerId>,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        in_tx!(self, false, |tx| tournaments::save(
            &tx, &id, status, &state, version, entrant
        )
        .await)
    }

    fn player_tournaments(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        in_tx!(self, true, |tx| tournaments::of_player(&tx, player, limit)
            .await)
    }

    fn tournament(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<crate::tournaments::StoredTournament>, StoreError>> {
        in_tx!(self, true, |tx| tournaments::one(&tx, &id).await)
    }

    fn tournaments(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::tournaments::StoredTournament>, StoreError>> {
        in_tx!(self, true, |tx| tournaments::list(&tx, status, limit).await)
    }

    fn tournament_versions(
        &self,
        status: crate::tournaments::TournamentStatus,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
        in_tx!(self, true, |tx| tournaments::versions(&tx, status, limit)
            .await)
    }

    fn set_tournament_settings(
        &self,
        id: String,
        settings: String,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| exec(
            &c,
            sql::SET_TOURNAMENT_SETTINGS,
            &[&settings, &id]
        )
        .await
        .map(|_| ()))
    }

    fn tournaments_created(
        &self,
        creator: PlayerId,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<u32, StoreError>> {
        in_tx!(self, true, |tx| tournaments::created(
            &tx, creator, since_ms
        )
        .await)
    }
}

impl ModerationStore for PgStore {
    fn file_report(
        &self,
        report: crate::moderation::NewReport,
    ) -> BoxFuture<'_, Result<i64, StoreError>> {
        one_statement!(self, |c| moderation::file_report(&c, &report).await)
    }

    fn open_reports(
        &self,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::Report>, StoreError>> {
        one_statement!(self, |c| moderation::open_reports(&c, limit).await)
    }

    fn moderate(
        &self,
        m: crate::moderation::Moderation,
    ) -> BoxFuture<'_, Result<crate::moderation::AuditEntry, StoreError>> {
        in_tx!(self, false, |tx| moderation::moderate(&tx, &m).await)
    }

    fn audit(
        &self,
        from: crate::moderation::AuditFrom,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<crate::moderation::AuditEntry>, StoreError>> {
        one_statement!(self, |c| moderation::audit(&c, from, limit).await)
    }

    fn moderation_standing(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Standing, StoreError>> {
        in_tx!(self, true, |tx| moderation::standing(&tx, player).await)
    }

    fn moderation_record(
        &self,
        player: PlayerId,
    ) -> BoxFuture<'_, Result<crate::moderation::Record, StoreError>> {
        in_tx!(self, true, |tx| moderation::record(&tx, player).await)
    }

    fn ack_warnings(&self, player: PlayerId, up_to: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        one_statement!(self, |c| moderation::ack_warnings(&c, player, up_to).await)
    }

    fn sanctioned(&self, now: i64) -> BoxFuture<'_, Result<Vec<crate::Sanctioned>, StoreError>> {
        one_statement!(self, |c| moderation::sanctioned(&c, now).await)
    }
}
