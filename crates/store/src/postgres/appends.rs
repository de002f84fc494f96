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
use super::matches::{ActionRow, insert_actions, unknown};
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
/// its own transaction). The leases of the fenced ones are share-locked in the order of their
/// ids (as `leases::fence` does for one match, and as a renewal locks them, so the two never
/// wait on each other in a cycle, a deadlock PostgreSQL breaks only after a second), each found
/// by its key in a lateral subquery: a loop over the leases given in that order, whatever
/// statistics the planner has (with a join it scanned the whole small table of leases while it
/// had none, and once it had them too). A fenced append's match is only read: its lease row,
/// share-locked, keeps the match from being deleted until the commit (`matches::delete_matches`
/// locks and rests the leases of what it deletes). The matches of the others are
/// key-share-locked (what a foreign key's check would lock, but once per match rather than once
/// per row: `actions` has none, see `schema`). The rows go in of each append whose lease is
/// held, whose match exists and whose first position is free. Answers the result of each, or
/// the error that failed the statement as a whole.
async fn together(
    pool: &Pool,
    group: &[Append],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    // The fenced appends' leases, and the matches of the others (each once), in the order of
    // their ids: the statement locks them in the order given.
    let mut fences: Vec<(&str, &str, i64)> = group
        .iter()
        .filter_map(|a| {
            a.fence
                .as_ref()
                .map(|(n, e)| (a.id.as_str(), n.as_str(), *e))
        })
        .collect();
    fences.sort_unstable();
    let (mut ids, mut nodes, mut epochs) = (Vec::new(), Vec::new(), Vec::new());
    for (id, node, epoch) in fences {
        ids.push(id);
        nodes.push(node);
        epochs.push(epoch);
    }
    let mut unfenced: Vec<&str> = group
        .iter()
        .filter(|a| a.fence.is_none())
        .map(|a| a.id.as_str())
        .collect();
    unfenced.sort_unstable();
    unfenced.dedup();
    // Every row, with the index of its append in the group, whether that one is fenced, and
    // whether the row is its first.
    let rows_in = group.iter().map(|a| a.rows.len()).sum();
    let mut appends: Vec<i32> = Vec::with_capacity(rows_in);
    let mut fenced = Vec::with_capacity(rows_in);
    let mut first = Vec::with_capacity(rows_in);
    let (mut matches, mut seqs, mut actors, mut seats, mut actions, mut times) = (
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
        Vec::with_capacity(rows_in),
    );
    for (k, a) in group.iter().enumerate() {
        // At most `GROUP_MAX` appends.
        let k = i32::try_from(k).unwrap_or(i32::MAX);
        for (i, (seq, actor, seat, action, at_ms)) in a.rows.iter().enumerate() {
            appends.push(k);
            fenced.push(a.fence.is_some());
            first.push(i == 0);
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
    // log to confirm it.)
    let answer = row(
        &client,
        "WITH held AS (SELECT h.match_id, h.known \
         FROM unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[]) AS f(id, node, epoch) \
         CROSS JOIN LATERAL (SELECT l.match_id, \
         EXISTS (SELECT 1 FROM matches m WHERE m.id = l.match_id) AS known \
         FROM match_leases l WHERE l.match_id = f.id AND l.node = f.node AND l.epoch = f.epoch \
         AND NOT l.resting FOR SHARE OF l) AS h), \
         locked AS (SELECT m.id FROM unnest($13::TEXT[]) AS u(id) \
         CROSS JOIN LATERAL (SELECT id FROM matches m WHERE m.id = u.id FOR KEY SHARE) AS m), \
         known AS (SELECT match_id AS id FROM held WHERE known UNION ALL SELECT id FROM locked), \
         r AS (SELECT * FROM unnest($4::INT[], $5::BOOL[], $6::TEXT[], $7::BIGINT[], \
         $8::TEXT[], $9::SMALLINT[], $10::TEXT[], $11::BIGINT[], $12::BOOL[]) \
         AS r(k, fenced, match_id, seq, actor, seat, action, at_ms, first)), \
         free AS (SELECT k FROM r WHERE first \
         AND (NOT fenced OR match_id IN (SELECT match_id FROM held)) \
         AND match_id IN (SELECT id FROM known) \
         AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.match_id = r.match_id AND a.seq = r.seq)), \
         written AS (INSERT INTO actions (match_id, seq, actor, seat, action, at_ms) \
         SELECT match_id, seq, actor, seat, action, at_ms FROM r WHERE k IN (SELECT k FROM free)) \
         SELECT ARRAY(SELECT match_id FROM held), ARRAY(SELECT id FROM known), \
         ARRAY(SELECT k FROM free)",
        &[
            &ids, &nodes, &epochs, &appends, &fenced, &matches, &seqs, &actors, &seats, &actions,
            &times, &first, &unfenced,
        ],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("a group of appends answered no row".into()))?;
    let held: HashSet<String> = col::<Vec<String>>(&answer, 0)?.into_iter().collect();
    let known: HashSet<String> = col::<Vec<String>>(&answer, 1)?.into_iter().collect();
    let written: HashSet<i32> = col::<Vec<i32>>(&answer, 2)?.into_iter().collect();
    let mut results = Vec::with_capacity(group.len());
    for (k, a) in group.iter().enumerate() {
        let k = i32::try_from(k).unwrap_or(i32::MAX);
        results.push(if a.fence.is_some() && !held.contains(&a.id) {
            let node = a.fence.as_ref().map_or("", |(n, _)| n.as_str());
            Err(leases::lost(&a.id, node))
        } else if !known.contains(&a.id) {
            Err(unknown(&a.id))
        } else if written.contains(&k) || a.rows.is_empty() {
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
