//! A match's action log in PostgreSQL: its entries as rows, written in one statement (by a
//! call, or by the appends' writer for many at once) and taken back.

use deadpool_postgres::{GenericClient, Transaction};
use plateau_engine::{Actor, Event, LogEntry};

use super::matches::seat_number;
use super::players::apply_ratings;
use super::query::{col, exec, row, to_json};
use crate::sql;
use crate::{Finish, StoreError};

/// The entries as columns `(seq, actor, seat, action, at_ms)`, or `Corrupt` for one without a
/// time: checked before anything is written.
pub(super) type ActionRow = (i64, &'static str, Option<i16>, String, i64);

pub(super) fn action_rows(
    id: &str,
    first: u64,
    entries: &[LogEntry],
) -> Result<Vec<ActionRow>, StoreError> {
    let mut out = Vec::with_capacity(entries.len());
    for (seq, entry) in (first..).zip(entries) {
        let (actor, seat, action) = match &entry.event {
            Event::Action {
                by: Actor::Seat(s),
                action,
            } => ("seat", Some(seat_number(s.0)), action.clone()),
            Event::Action {
                by: Actor::Chance,
                action,
            } => ("chance", None, action.clone()),
            Event::End(e) => ("end", None, to_json(e)),
        };
        let at_ms = entry
            .at_ms
            .ok_or_else(|| StoreError::Invalid(format!("log entry {seq} of {id} has no time")))?;
        let seq = i64::try_from(seq).map_err(|_| StoreError::Invalid(format!("seq {seq}")))?;
        let at_ms =
            i64::try_from(at_ms).map_err(|_| StoreError::Invalid(format!("time {at_ms}")))?;
        out.push((seq, actor, seat, action, at_ms));
    }
    Ok(out)
}

/// Writes `entries` at `first`, `first + 1`, ... in one statement (all or nothing, even outside
/// a transaction); `Conflict` if one of those positions is taken or the match does not exist.
/// With `driver` (a node and its epoch), only while that node holds the match's lease at that
/// epoch (docs/architecture.md section 5.3): the lease row is read and share-locked in the same
/// statement, so a node that lost its lease writes nothing (`LeaseLost`), a node taking the
/// lease over waits for an append in progress to commit before it reads the log, and the match,
/// only read, cannot be deleted before the write commits (`delete_matches` locks and rests the
/// leases of what it deletes). Without `driver`, the match's row is key-share-locked instead, as
/// a foreign key's check would lock it for every row (`actions` has none, see `schema`).
pub(super) async fn insert_actions(
    c: &impl GenericClient,
    id: &str,
    rows: &[ActionRow],
    driver: Option<(&str, i64)>,
) -> Result<(), StoreError> {
    // One statement for the decision and its chance outcomes: one round trip, not one per entry.
    let (mut seqs, mut actors, mut seats, mut actions, mut times) = (
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
    );
    for (seq, actor, seat, action, at_ms) in rows {
        seqs.push(*seq);
        actors.push(*actor);
        seats.push(*seat);
        actions.push(action.as_str());
        times.push(*at_ms);
    }
    let (node, epoch) = driver.unzip();
    // Without a driver, no lease is asked for (`$7` is null).
    let answer = row(
        c,
        "WITH lease AS (SELECT EXISTS (SELECT 1 FROM matches WHERE id = $1) AS known \
         FROM match_leases WHERE match_id = $1 AND node = $7 AND epoch = $8 AND NOT resting \
         FOR SHARE), \
         locked AS (SELECT 1 FROM matches WHERE id = $1 AND $7::TEXT IS NULL FOR KEY SHARE), \
         ok AS (SELECT $7::TEXT IS NULL OR EXISTS (SELECT 1 FROM lease) AS held, \
         EXISTS (SELECT 1 FROM locked) OR COALESCE((SELECT known FROM lease), FALSE) AS known), \
         written AS (INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
         SELECT $1, u.* FROM UNNEST($2::BIGINT[], $3::TEXT[], $4::SMALLINT[], $5::TEXT[], \
         $6::BIGINT[]) AS u WHERE (SELECT held AND known FROM ok) RETURNING 1) \
         SELECT held, known, (SELECT COUNT(*) FROM written) FROM ok",
        &[&id, &seqs, &actors, &seats, &actions, &times, &node, &epoch],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("an append answered no row".into()))?;
    if !col::<bool>(&answer, 0)? {
        return Err(super::leases::lost(id, node.unwrap_or_default()));
    }
    if !col::<bool>(&answer, 1)? {
        return Err(unknown(id));
    }
    Ok(())
}

/// The error of an append to a match that does not exist.
pub(super) fn unknown(id: &str) -> StoreError {
    StoreError::Conflict(format!("match {id} does not exist"))
}

/// Deletes the entries of live match `id` from `from` on; with `driver`, only while that node
/// holds the match's lease at that epoch (as `insert_actions`).
pub(super) async fn take_back(
    tx: &Transaction<'_>,
    id: &str,
    from: u64,
    driver: Option<(&str, i64)>,
) -> Result<(), StoreError> {
    let from = i64::try_from(from).map_err(|_| StoreError::Invalid(format!("seq {from}")))?;
    if let Some((node, epoch)) = driver {
        super::leases::fence(tx, id, node, epoch).await?;
    }
    let deleted = exec(tx, sql::TAKE_BACK, &[&id, &from]).await?;
    if deleted == 0 {
        return Err(StoreError::Conflict(format!(
            "match {id}: no entry at {from} of a live match this node drives to take back"
        )));
    }
    Ok(())
}

pub(super) async fn append(
    tx: &Transaction<'_>,
    id: &str,
    first: u64,
    entries: &[LogEntry],
    finish: Option<&Finish>,
    driver: Option<(&str, i64)>,
) -> Result<(), StoreError> {
    insert_actions(tx, id, &action_rows(id, first, entries)?, driver).await?;
    if let Some(finish) = finish {
        exec(
            tx,
            sql::FINISH,
            &[&to_json(&finish.outcome), &finish.at, &id],
        )
        .await?;
        apply_ratings(tx, id, finish).await?;
    }
    Ok(())
}
