//! Tournaments on PostgreSQL (docs/tournaments.md): the shared statements of `sql`.

use deadpool_postgres::Transaction;
use tokio_postgres::Row;

use super::query::{col, exec, row, rows};
use crate::StoreError;
use crate::players::PlayerId;
use crate::sql;
use crate::tournaments::{StoredTournament, TournamentStatus};

pub(super) async fn insert(tx: &Transaction<'_>, t: &StoredTournament) -> Result<(), StoreError> {
    exec(
        tx,
        sql::INSERT_TOURNAMENT,
        &[
            &t.id,
            &t.creator.0,
            &t.status.as_str(),
            &t.starts_at_ms,
            &t.created_at_ms,
            &t.settings,
            &t.state,
        ],
    )
    .await
    .map(|_| ())
}

pub(super) async fn save(
    tx: &Transaction<'_>,
    id: &str,
    status: TournamentStatus,
    state: &str,
    version: i64,
    entrant: Option<PlayerId>,
) -> Result<(), StoreError> {
    let changed = exec(
        tx,
        sql::SAVE_TOURNAMENT,
        &[&status.as_str(), &state, &id, &version],
    )
    .await?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "tournament `{id}` is not at version {version}"
        )));
    }
    if let Some(player) = entrant {
        exec(tx, sql::ADD_ENTRANT, &[&id, &player.0]).await?;
    }
    Ok(())
}

pub(super) async fn of_player(
    tx: &Transaction<'_>,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<StoredTournament>, StoreError> {
    rows(tx, sql::PLAYER_TOURNAMENTS, &[&player.0, &i64::from(limit)])
        .await?
        .iter()
        .map(read)
        .collect()
}

fn read(r: &Row) -> Result<StoredTournament, StoreError> {
    let word: String = col(r, 2)?;
    Ok(StoredTournament {
        id: col(r, 0)?,
        creator: PlayerId(col(r, 1)?),
        status: TournamentStatus::parse(&word)
            .ok_or_else(|| StoreError::Corrupt(format!("tournament status `{word}`")))?,
        starts_at_ms: col(r, 3)?,
        created_at_ms: col(r, 4)?,
        settings: col(r, 5)?,
        state: col(r, 6)?,
        version: col(r, 7)?,
    })
}

pub(super) async fn one(
    tx: &Transaction<'_>,
    id: &str,
) -> Result<Option<StoredTournament>, StoreError> {
    row(tx, sql::TOURNAMENT, &[&id])
        .await?
        .as_ref()
        .map(read)
        .transpose()
}

pub(super) async fn list(
    tx: &Transaction<'_>,
    status: TournamentStatus,
    limit: u32,
) -> Result<Vec<StoredTournament>, StoreError> {
    rows(tx, sql::TOURNAMENTS, &[&status.as_str(), &i64::from(limit)])
        .await?
        .iter()
        .map(read)
        .collect()
}

pub(super) async fn versions(
    tx: &Transaction<'_>,
    status: TournamentStatus,
    limit: u32,
) -> Result<Vec<(String, i64)>, StoreError> {
    rows(
        tx,
        sql::TOURNAMENT_VERSIONS,
        &[&status.as_str(), &i64::from(limit)],
    )
    .await?
    .iter()
    .map(|r| Ok((col(r, 0)?, col(r, 1)?)))
    .collect()
}

pub(super) async fn created(
    tx: &Transaction<'_>,
    creator: PlayerId,
    since_ms: i64,
) -> Result<u32, StoreError> {
    let n: i64 = match row(tx, sql::TOURNAMENTS_CREATED, &[&creator.0, &since_ms]).await? {
        Some(r) => col(&r, 0)?,
        None => 0,
    };
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}
