//! Tournaments on SQLite (docs/tournaments.md): the shared statements of `sql`.

use rusqlite::{Connection, OptionalExtension, params};

use super::db;
use crate::StoreError;
use crate::players::PlayerId;
use crate::sql;
use crate::tournaments::{StoredTournament, TournamentStatus};

pub(super) fn insert(c: &Connection, t: &StoredTournament) -> Result<(), StoreError> {
    c.prepare_cached(sql::INSERT_TOURNAMENT)
        .map_err(db)?
        .execute(params![
            t.id,
            t.creator.0,
            t.status.as_str(),
            t.starts_at_ms,
            t.created_at_ms,
            t.settings,
            t.state
        ])
        .map_err(db)?;
    Ok(())
}

pub(super) fn save(
    c: &Connection,
    id: &str,
    status: TournamentStatus,
    state: &str,
    version: i64,
    entrant: Option<PlayerId>,
) -> Result<(), StoreError> {
    let changed = c
        .prepare_cached(sql::SAVE_TOURNAMENT)
        .map_err(db)?
        .execute(params![status.as_str(), state, id, version])
        .map_err(db)?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "tournament `{id}` is not at version {version}"
        )));
    }
    if let Some(player) = entrant {
        c.prepare_cached(sql::ADD_ENTRANT)
            .map_err(db)?
            .execute(params![id, player.0])
            .map_err(db)?;
    }
    Ok(())
}

pub(super) fn of_player(
    c: &Connection,
    player: PlayerId,
    limit: u32,
) -> Result<Vec<StoredTournament>, StoreError> {
    let mut stmt = c.prepare_cached(sql::PLAYER_TOURNAMENTS).map_err(db)?;
    let mut rows = stmt
        .query(params![player.0, i64::from(limit)])
        .map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        out.push(read(r)?);
    }
    Ok(out)
}

fn read(r: &rusqlite::Row<'_>) -> Result<StoredTournament, StoreError> {
    let word: String = r.get(2).map_err(db)?;
    Ok(StoredTournament {
        id: r.get(0).map_err(db)?,
        creator: PlayerId(r.get(1).map_err(db)?),
        status: TournamentStatus::parse(&word)
            .ok_or_else(|| StoreError::Corrupt(format!("tournament status `{word}`")))?,
        starts_at_ms: r.get(3).map_err(db)?,
        created_at_ms: r.get(4).map_err(db)?,
        settings: r.get(5).map_err(db)?,
        state: r.get(6).map_err(db)?,
        version: r.get(7).map_err(db)?,
    })
}

pub(super) fn one(c: &Connection, id: &str) -> Result<Option<StoredTournament>, StoreError> {
    let mut stmt = c.prepare_cached(sql::TOURNAMENT).map_err(db)?;
    let row = stmt
        .query_row([id], |r| Ok(read(r)))
        .optional()
        .map_err(db)?;
    row.transpose()
}

pub(super) fn list(
    c: &Connection,
    status: TournamentStatus,
    limit: u32,
) -> Result<Vec<StoredTournament>, StoreError> {
    let mut stmt = c.prepare_cached(sql::TOURNAMENTS).map_err(db)?;
    let mut rows = stmt
        .query(params![status.as_str(), i64::from(limit)])
        .map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        out.push(read(r)?);
    }
    Ok(out)
}

pub(super) fn versions(
    c: &Connection,
    status: TournamentStatus,
    limit: u32,
) -> Result<Vec<(String, i64)>, StoreError> {
    let mut stmt = c.prepare_cached(sql::TOURNAMENT_VERSIONS).map_err(db)?;
    let rows = stmt
        .query_map(params![status.as_str(), i64::from(limit)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

pub(super) fn created(c: &Connection, creator: PlayerId, since_ms: i64) -> Result<u32, StoreError> {
    let n: i64 = c
        .prepare_cached(sql::TOURNAMENTS_CREATED)
        .map_err(db)?
        .query_row(params![creator.0, since_ms], |r| r.get(0))
        .map_err(db)?;
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}
