//! Group commit of appends on PostgreSQL, as the SQLite store groups its writes: the appends
//! without an outcome (a decision and its chance outcomes, the common write) that wait together
//! are written by one task in one statement, its own transaction, so one commit (one flush of
//! PostgreSQL's write-ahead log) and one round trip serve many matches. Each append still
//! succeeds or fails on its own: its match's lease is checked for it (`LeaseLost`), and an
//! append one of whose positions is taken writes none of its rows (`Conflict`). An append alone
//! in the queue goes in a statement of its own too.

use std::collections::HashSet;

use deadpool_postgres::Pool;
use tokio::sync::{mpsc, oneshot};

use super::leases;
use super::log::{ActionRow, insert_actions, unknown};
use super::query::{col, pool_error, row};
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
/// `pool` is its own (one connection, whose statements are planned once: `PgStore::open_pooled`),
/// so the group's statement is not planned again at every call, which cost about as much as
/// running it.
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
        // row was refused: a position taken past an append's first): each append again on its
        // own, for its own answer.
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

/// The appends of `group` in one statement, so one round trip and one commit (the statement is
/// its own transaction), planned once per connection (`writer_pool`). One row per append, in
/// the order of their match ids, the fenced ones first, looks up by key (lateral subqueries
/// and subqueries in the select list, so index probes whatever statistics the planner has, in a
/// loop over the appends in the order given):
/// - a fenced append's lease, share-locked (as `leases::fence` does for one match, and in the
///   order of the ids as a renewal locks them, so the two never wait on each other in a cycle,
///   a deadlock PostgreSQL breaks only after a second), and its match, only read: the lease
///   row, share-locked, keeps the match from being deleted until the commit
///   (`matches::delete_matches` locks and rests the leases of what it deletes, before it locks
///   the matches);
/// - an unfenced append's match, key-share-locked (what a foreign key's check would lock, but
///   once per append rather than once per row: `actions` has none, see `schema`);
/// - whether its first position is free.
///
/// The rows go in of each append whose lease is held, whose match exists and whose first
/// position is free. Answers the result of each, or the error that failed the statement as a
/// whole.
async fn together(
    pool: &Pool,
    group: &[Append],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    // The appends, the fenced ones first, each kind in the order of the match ids: the
    // statement locks in the order given (leases, then matches, as `delete_matches` does).
    let mut order: Vec<usize> = (0..group.len()).collect();
    order.sort_by_key(|&k| (group[k].fence.is_none(), group[k].id.as_str()));
    let (mut ks, mut ids, mut nodes, mut epochs, mut firsts) = (
        Vec::with_capacity(group.len()),
        Vec::with_capacity(group.len()),
        Vec::with_capacity(group.len()),
        Vec::with_capacity(group.len()),
        Vec::with_capacity(group.len()),
    );
    for k in order {
        let a = &group[k];
        // At most `GROUP_MAX` appends.
        ks.push(i32::try_from(k).unwrap_or(i32::MAX));
        ids.push(a.id.as_str());
        nodes.push(a.fence.as_ref().map(|(n, _)| n.as_str()));
        epochs.push(a.fence.as_ref().map(|(_, e)| *e));
        // An append without rows asks for no position (none is at -1).
        firsts.push(a.rows.first().map_or(-1, |r| r.0));
    }
    // Every row, with the index of its append in the group.
    let rows_in = group.iter().map(|a| a.rows.len()).sum();
    let mut appends: Vec<i32> = Vec::with_capacity(rows_in);
    let (mut matches, mut seqs, mut actors, mut seats, mut actions, mut times) = (
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
    );
    for (k, a) in group.iter().enumerate() {
        let k = i32::try_from(k).unwrap_or(i32::MAX);
        for (seq, actor, seat, action, at_ms) in &a.rows {
            appends.push(k);
            matches.push(a.id.as_str());
            seqs.push(*seq);
            actors.push(*actor);
            seats.push(*seat);
            actions.push(action.as_str());
            times.push(*at_ms);
        }
    }
    // Whether an append's positions are free is asked of its first alone: a log has no gaps
    // (appends go at its end, a takeback cuts its end), so when the first is free the others
    // are too. A plain `INSERT`: a row whose position is taken all the same (a log with a gap,
    // or another writer of the match, which the lease excludes) fails the whole statement, and
    // `commit` writes each append again on its own. (`ON CONFLICT DO NOTHING` would have cost
    // every row a speculative insertion: an index probe, and a record more in the write-ahead
    // log to confirm it.) The match and the position are asked in scalar subqueries, each an
    // index probe (an `EXISTS` there becomes a hash of the whole table). `ok` holds each
    // append's verdict at its index, for the `INSERT` to look up rather than join.
    let answer = row(
        &client,
        "WITH a AS MATERIALIZED (SELECT f.k, \
         f.node IS NULL OR h.held IS NOT NULL AS held, \
         CASE WHEN f.node IS NULL THEN m.locked IS NOT NULL \
         ELSE (SELECT TRUE FROM matches x WHERE x.id = f.id) IS NOT NULL END AS known, \
         (SELECT TRUE FROM actions x WHERE x.match_id = f.id AND x.seq = f.seq) IS NULL AS free \
         FROM unnest($1::INT[], $2::TEXT[], $3::TEXT[], $4::BIGINT[], $5::BIGINT[]) \
         AS f(k, id, node, epoch, seq) \
         LEFT JOIN LATERAL (SELECT TRUE AS held FROM match_leases l \
         WHERE l.match_id = f.id AND l.node = f.node AND l.epoch = f.epoch AND NOT l.resting \
         FOR SHARE) AS h ON TRUE \
         LEFT JOIN LATERAL (SELECT TRUE AS locked FROM matches l \
         WHERE l.id = f.id AND f.node IS NULL FOR KEY SHARE) AS m ON TRUE), \
         ok AS (SELECT array_agg(held AND known AND free ORDER BY k) AS v FROM a), \
         written AS (INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
         SELECT r.match_id, r.seq, r.actor, r.seat, r.action, r.at_ms \
         FROM unnest($6::INT[], $7::TEXT[], $8::BIGINT[], $9::TEXT[], $10::SMALLINT[], \
         $11::TEXT[], $12::BIGINT[]) AS r(k, match_id, seq, actor, seat, action, at_ms), ok \
         WHERE ok.v[r.k + 1]) \
         SELECT array_agg(held ORDER BY k), array_agg(known ORDER BY k), \
         array_agg(free ORDER BY k) FROM a",
        &[
            &ks, &ids, &nodes, &epochs, &firsts, &appends, &matches, &seqs, &actors, &seats,
            &actions, &times,
        ],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("a group of appends answered no row".into()))?;
    let (held, known, free): (Vec<bool>, Vec<bool>, Vec<bool>) =
        (col(&answer, 0)?, col(&answer, 1)?, col(&answer, 2)?);
    if held.len() != group.len() || known.len() != group.len() || free.len() != group.len() {
        return Err(StoreError::Corrupt(format!(
            "a group of {} appends answered {} verdicts",
            group.len(),
            held.len()
        )));
    }
    let mut results = Vec::with_capacity(group.len());
    for (k, a) in group.iter().enumerate() {
        results.push(if !held[k] {
            let node = a.fence.as_ref().map_or("", |(n, _)| n.as_str());
            Err(leases::lost(&a.id, node))
        } else if !known[k] {
            Err(unknown(&a.id))
        } else if free[k] || a.rows.is_empty() {
            Ok(())
        } else {
            Err(StoreError::Conflict(format!(
                "log position {} of {} is taken",
                a.rows.first().map_or(0, |r| r.0),
                a.id
            )))
        });
    }
    Ok(results)
}
