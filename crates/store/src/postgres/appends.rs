//! Group commit of appends on PostgreSQL, as the SQLite store groups its writes: the appends
//! without an outcome (a decision and its chance outcomes, the common write) that wait together
//! are written by one task in one transaction, with one statement for all their rows, so one
//! commit (one flush of PostgreSQL's write-ahead log) and a handful of round trips serve many
//! matches. Each append still succeeds or fails on its own: its match's lease is checked for it
//! (`LeaseLost`), its rows go in with `ON CONFLICT DO NOTHING`, and an append that found one of
//! its positions taken has its other rows deleted again before the commit (`Conflict`). An append
//! alone in the queue goes as before, in one statement that is its own transaction.

use std::collections::HashSet;

use deadpool_postgres::Pool;
use tokio::sync::{mpsc, oneshot};

use super::leases;
use super::matches::{ActionRow, insert_actions};
use super::query::{db, exec, pool_error, rows};
use crate::StoreError;

/// Most appends committed together.
const GROUP_MAX: usize = 256;

/// One append waiting for the writer.
pub(super) struct Append {
    /// The match.
    pub(super) id: String,
    /// Its entries as rows, checked already.
    pub(super) rows: Vec<ActionRow>,
    /// The node and epoch of the lease the write needs (`PgStore::fence_of`).
    pub(super) fence: Option<(String, i64)>,
    /// Where its result goes.
    pub(super) reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The writer: takes the appends waiting, writes them, answers each, until every sender is gone.
pub(super) async fn writer(pool: Pool, mut queue: mpsc::UnboundedReceiver<Append>) {
    // An append at a position another one of the group writes too waits for the next group, so
    // that the positions of one group are distinct (the rows written tell whose they are).
    let mut later: Vec<Append> = Vec::new();
    loop {
        let mut waiting = std::mem::take(&mut later);
        if waiting.is_empty() {
            match queue.recv().await {
                Some(a) => waiting.push(a),
                None => return,
            }
        }
        let mut keys = HashSet::new();
        let mut group = Vec::new();
        for a in waiting {
            if add_keys(&mut keys, &a) {
                group.push(a);
            } else {
                later.push(a);
            }
        }
        while group.len() < GROUP_MAX {
            match queue.try_recv() {
                Ok(a) if add_keys(&mut keys, &a) => group.push(a),
                Ok(a) => later.push(a),
                Err(_) => break,
            }
        }
        commit(&pool, group).await;
    }
}

/// Adds the `(match, seq)` keys of `a` to `keys` when none of them is there yet; whether it did.
fn add_keys(keys: &mut HashSet<(String, i64)>, a: &Append) -> bool {
    if a.rows.iter().any(|r| keys.contains(&(a.id.clone(), r.0))) {
        return false;
    }
    keys.extend(a.rows.iter().map(|r| (a.id.clone(), r.0)));
    true
}

/// Writes `group` and answers each append.
async fn commit(pool: &Pool, group: Vec<Append>) {
    if group.len() == 1 {
        for a in group {
            let result = alone(pool, &a).await;
            let _ = a.reply.send(result);
        }
        return;
    }
    match together(pool, &group).await {
        Ok(results) => {
            for (a, result) in group.into_iter().zip(results) {
                let _ = a.reply.send(result);
            }
        }
        // The group's statement or its commit failed as a whole (the database went away, or a
        // row no key covers was refused): each append again on its own, for its own answer.
        Err(e) => {
            tracing::debug!(error = %e, appends = group.len(), "group of appends failed: one by one");
            for a in group {
                let result = alone(pool, &a).await;
                let _ = a.reply.send(result);
            }
        }
    }
}

/// One append in its own statement (`matches::insert_actions`).
async fn alone(pool: &Pool, a: &Append) -> Result<(), StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let fence = a.fence.as_ref().map(|(n, e)| (n.as_str(), *e));
    insert_actions(&client, &a.id, &a.rows, fence).await
}

/// The appends of `group` in one transaction: the result of each, or the error that failed the
/// whole transaction.
async fn together(
    pool: &Pool,
    group: &[Append],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut client = pool.get().await.map_err(pool_error)?;
    let tx = client.transaction().await.map_err(db)?;
    // The leases, share-locked until the commit, as `leases::fence` does for one match; in the
    // order of their ids, as a renewal locks them, so the two never wait on each other in a
    // cycle (a deadlock PostgreSQL breaks only after a second, past the renewal's time).
    let (mut ids, mut nodes, mut epochs) = (Vec::new(), Vec::new(), Vec::new());
    for a in group {
        if let Some((node, epoch)) = &a.fence {
            ids.push(a.id.as_str());
            nodes.push(node.as_str());
            epochs.push(*epoch);
        }
    }
    let held: HashSet<String> = if ids.is_empty() {
        HashSet::new()
    } else {
        rows(
            &tx,
            "SELECT l.match_id FROM match_leases l \
             JOIN unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[]) AS f(id, node, epoch) \
             ON l.match_id = f.id AND l.node = f.node AND l.epoch = f.epoch \
             WHERE NOT l.resting ORDER BY l.match_id FOR SHARE OF l",
            &[&ids, &nodes, &epochs],
        )
        .await?
        .iter()
        .map(|r| r.try_get(0).map_err(db))
        .collect::<Result<_, _>>()?
    };
    let allowed = |a: &Append| a.fence.is_none() || held.contains(&a.id);
    // Every row of the appends allowed, in one statement.
    let (mut matches, mut seqs, mut actors, mut seats, mut actions, mut times) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for a in group.iter().filter(|a| allowed(a)) {
        for (seq, actor, seat, action, at_ms) in &a.rows {
            matches.push(a.id.as_str());
            seqs.push(*seq);
            actors.push(*actor);
            seats.push(*seat);
            actions.push(action.as_str());
            times.push(*at_ms);
        }
    }
    let written: HashSet<(String, i64)> = rows(
        &tx,
        "INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
         SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::TEXT[], $4::SMALLINT[], $5::TEXT[], \
         $6::BIGINT[]) ON CONFLICT DO NOTHING RETURNING match_id, seq",
        &[&matches, &seqs, &actors, &seats, &actions, &times],
    )
    .await?
    .iter()
    .map(|r| Ok((r.try_get(0).map_err(db)?, r.try_get(1).map_err(db)?)))
    .collect::<Result<_, StoreError>>()?;
    // An append that found a position taken writes nothing: its other rows go again.
    let mut results = Vec::with_capacity(group.len());
    let (mut undo_ids, mut undo_seqs) = (Vec::new(), Vec::new());
    for a in group {
        if !allowed(a) {
            let node = a.fence.as_ref().map_or("", |(n, _)| n.as_str());
            results.push(Err(leases::lost(&a.id, node)));
            continue;
        }
        let taken: Vec<i64> = a
            .rows
            .iter()
            .map(|r| r.0)
            .filter(|seq| !written.contains(&(a.id.clone(), *seq)))
            .collect();
        if taken.is_empty() {
            results.push(Ok(()));
            continue;
        }
        for r in &a.rows {
            if !taken.contains(&r.0) {
                undo_ids.push(a.id.as_str());
                undo_seqs.push(r.0);
            }
        }
        results.push(Err(StoreError::Conflict(format!(
            "log position {} of {} is taken",
            taken[0], a.id
        ))));
    }
    if !undo_ids.is_empty() {
        exec(
            &tx,
            "DELETE FROM actions WHERE (match_id, seq) IN \
             (SELECT * FROM unnest($1::TEXT[], $2::BIGINT[]))",
            &[&undo_ids, &undo_seqs],
        )
        .await?;
    }
    tx.commit().await.map_err(db)?;
    Ok(results)
}
