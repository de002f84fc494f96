//! Matches, their seats, action logs and chat in SQLite.

use std::borrow::Cow;

use plateau_engine::{Actor, Ending, Event, LogEntry, Outcome, Seat, Seed};
use rusqlite::{Connection, OptionalExtension, params};

use super::players::{apply_ratings, read_player_columns};
use super::writer::Writes;
use super::{db, from_json, to_json};
use crate::model::{SeatSpec, Status, TimeControl};
use crate::players::PlayerId;
use crate::sql;
use crate::{ChatLine, Created, Finish, Room, StoreError, StoredMatch, StoredSeat};

fn read_match(conn: &Connection, row: &rusqlite::Row<'_>) -> Result<StoredMatch, StoreError> {
    let id: String = row.get(0).map_err(db)?;
    let config: String = row.get(2).map_err(db)?;
    let tc: String = row.get(3).map_err(db)?;
    let seed: String = row.get(4).map_err(db)?;
    let status: String = row.get(5).map_err(db)?;
    let outcome: Option<String> = row.get(8).map_err(db)?;
    let version: i64 = row.get(13).map_err(db)?;
    let seats = read_seats(conn, &id)?;
    Ok(StoredMatch {
        game: row.get(1).map_err(db)?,
        config: from_json("config", &config)?,
        seats,
        time_control: from_json::<TimeControl>("time_control", &tc)?,
        seed: Seed::from_hex(&seed).map_err(StoreError::Corrupt)?,
        status: Status::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("status `{status}`")))?,
        created_at: row.get(6).map_err(db)?,
        started_at: row.get(7).map_err(db)?,
        outcome: outcome
            .map(|o| from_json::<Outcome>("outcome", &o))
            .transpose()?,
        rematch: row.get(9).map_err(db)?,
        rated: row.get(10).map_err(db)?,
        ended_at: row.get(11).map_err(db)?,
        creator: row.get(12).map_err(db)?,
        unrated: row.get(14).map_err(db)?,
        version: version as u64,
        log: Vec::new(),
        chat: Vec::new(),
        id,
    })
}

fn read_seats(conn: &Connection, id: &str) -> Result<Vec<StoredSeat>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::SEATS).map_err(db)?;
    let mut rows = stmt.query([id]).map_err(db)?;
    let mut seats = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        let kind: String = r.get(0).map_err(db)?;
        let bot: Option<String> = r.get(1).map_err(db)?;
        let spec = match (kind.as_str(), bot) {
            ("human", _) => SeatSpec::Human,
            ("bot", Some(bot)) => SeatSpec::Bot {
                bot,
                level: r.get::<_, Option<u8>>(2).map_err(db)?,
            },
            _ => return Err(StoreError::Corrupt(format!("seat kind `{kind}` of {id}"))),
        };
        let player = match r.get::<_, Option<i64>>(5).map_err(db)? {
            Some(_) => Some(read_player_columns(r, 5)?),
            None => None,
        };
        seats.push(StoredSeat {
            spec,
            token_hash: r.get(3).map_err(db)?,
            player,
            opened: r.get(4).map_err(db)?,
        });
    }
    Ok(seats)
}

fn read_log(conn: &Connection, id: &str) -> Result<Vec<LogEntry>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::LOG).map_err(db)?;
    let rows = stmt
        .query_map([id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<u8>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })
        .map_err(db)?;
    let mut log = Vec::new();
    for (i, row) in rows.enumerate() {
        let (seq, actor, seat, action, at_ms) = row.map_err(db)?;
        if seq != i as i64 {
            return Err(StoreError::Corrupt(format!("log of {id} has a gap at {i}")));
        }
        let at_ms = Some(at_ms as u64);
        log.push(match (actor.as_str(), seat) {
            ("seat", Some(s)) => LogEntry::action(Actor::Seat(Seat(s)), action, at_ms),
            ("chance", _) => LogEntry::action(Actor::Chance, action, at_ms),
            ("end", _) => LogEntry::end(from_json::<Ending>("ending", &action)?, at_ms),
            _ => return Err(StoreError::Corrupt(format!("log entry {seq} of {id}"))),
        });
    }
    Ok(log)
}

fn read_chat(conn: &Connection, id: &str) -> Result<Vec<ChatLine>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::CHAT).map_err(db)?;
    let mut rows = stmt.query([id]).map_err(db)?;
    let mut lines = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        lines.push(chat_line(r, id)?);
    }
    Ok(lines)
}

/// A chat line from the columns of `sql::CHAT` (of match `id`, for an error).
fn chat_line(r: &rusqlite::Row<'_>, id: &str) -> Result<ChatLine, StoreError> {
    let room: String = r.get(1).map_err(db)?;
    Ok(ChatLine {
        seq: r.get::<_, i64>(0).map_err(db)? as u64,
        room: match room.as_str() {
            "players" => Room::Players,
            "spectators" => Room::Spectators,
            _ => return Err(StoreError::Corrupt(format!("chat room `{room}` of {id}"))),
        },
        seat: r.get(2).map_err(db)?,
        text: r.get(3).map_err(db)?,
        at: r.get(4).map_err(db)?,
        player: read_player_columns(r, 5)?,
    })
}

/// The chat lines `player` wrote, each with its match's id.
pub(super) fn player_chat(
    conn: &Connection,
    player: PlayerId,
) -> Result<Vec<(String, ChatLine)>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::CHAT_OF_PLAYER).map_err(db)?;
    let mut rows = stmt.query([player.0]).map_err(db)?;
    let mut lines = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        let id: String = r.get(9).map_err(db)?;
        let line = chat_line(r, &id)?;
        lines.push((id, line));
    }
    Ok(lines)
}

pub(super) fn get_match(
    conn: &Connection,
    id: &str,
    with_log: bool,
) -> Result<Option<StoredMatch>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::MATCH).map_err(db)?;
    let found = stmt
        .query_row([id], |row| Ok(read_match(conn, row)))
        .optional()
        .map_err(db)?;
    let Some(m) = found else { return Ok(None) };
    let mut m = m?;
    if with_log {
        m.log = read_log(conn, id)?;
        m.chat = read_chat(conn, id)?;
    }
    Ok(Some(m))
}

/// Matches selected by `filter` (SQL after `WHERE`, over `m` and parameter `$1`), without logs.
fn select_matches(
    conn: &Connection,
    filter: &str,
    order: &str,
    param: Option<i64>,
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    let sql = sql::matches_where(filter, order, limit);
    let mut stmt = conn.prepare_cached(&sql).map_err(db)?;
    let mut rows = match param {
        Some(p) => stmt.query([p]),
        None => stmt.query([]),
    }
    .map_err(db)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(db)? {
        out.push(read_match(conn, row)?);
    }
    Ok(out)
}

/// `status IN (...)` for `statuses` (words of a closed set, never user text).
fn status_filter(statuses: &[Status]) -> String {
    let words: Vec<String> = statuses
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect();
    format!("m.status IN ({})", words.join(", "))
}

pub(super) fn list(
    conn: &Connection,
    statuses: &[Status],
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    select_matches(
        conn,
        &status_filter(statuses),
        "m.created_at DESC, m.id",
        None,
        limit,
    )
}

pub(super) fn player_matches(
    conn: &Connection,
    player: PlayerId,
    statuses: &[Status],
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    let filter = format!("{} AND {}", status_filter(statuses), sql::OF_PLAYER);
    select_matches(
        conn,
        &filter,
        "COALESCE(m.ended_at, m.created_at) DESC, m.id",
        Some(player.0),
        limit,
    )
}

pub(super) fn created_by(c: &Connection, creator: &str) -> Result<Created, StoreError> {
    c.query_row(
        "SELECT COUNT(*) FILTER (WHERE status = 'open'), \
         COUNT(*) FILTER (WHERE status = 'live' AND bots_only = 1), \
         COUNT(*) FILTER (WHERE bots_only = 0 AND EXISTS \
             (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.kind = 'bot')) \
         FROM matches m WHERE creator = ?1 AND status <> 'finished'",
        [creator],
        |r| {
            let n = |i: usize| r.get::<_, i64>(i).map(|n| n as usize);
            Ok(Created {
                open: n(0)?,
                bots_only: n(1)?,
                with_bots: n(2)?,
            })
        },
    )
    .map_err(db)
}

pub(super) fn running_with_clock(conn: &Connection) -> Result<Vec<StoredMatch>, StoreError> {
    let none = to_json(&TimeControl::None);
    let mut stmt = conn.prepare(sql::LIVE_WITH_CLOCK).map_err(db)?;
    let ids: Vec<String> = stmt
        .query_map([none], |r| r.get(0))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    let mut out = Vec::new();
    for id in ids {
        if let Some(m) = get_match(conn, &id, true)? {
            out.push(m);
        }
    }
    Ok(out)
}

pub(super) fn expire_open(c: &Connection, created_before: i64) -> Result<Vec<String>, StoreError> {
    let mut stmt = c.prepare(sql::EXPIRED_OPEN).map_err(db)?;
    let ids: Vec<String> = stmt
        .query_map([created_before], |r| r.get(0))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    for id in &ids {
        delete_match(c, id)?;
    }
    Ok(ids)
}

pub(super) fn call_off(c: &Connection, id: &str) -> Result<bool, StoreError> {
    let open: bool = c
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM matches m WHERE id = ?1 AND status = 'open' \
             AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.match_id = m.id))",
            [id],
            |r| r.get(0),
        )
        .map_err(db)?;
    if open {
        delete_match(c, id)?;
    }
    Ok(open)
}

/// Deletes match `id` with its seats and chat (one that never started: it has no log).
fn delete_match(c: &Connection, id: &str) -> Result<(), StoreError> {
    for table in ["chat", "match_seats", "matches"] {
        let key = if table == "matches" { "id" } else { "match_id" };
        c.execute(&format!("DELETE FROM {table} WHERE {key} = ?1"), [id])
            .map_err(db)?;
    }
    Ok(())
}

pub(super) fn create(c: &Connection, m: &StoredMatch) -> Result<(), StoreError> {
    c.execute(
        sql::INSERT_MATCH,
        params![
            m.id,
            m.game,
            to_json(&m.config),
            to_json(&m.time_control),
            m.seed.to_hex(),
            m.seed.hash_hex(),
            m.status.as_str(),
            m.created_at,
            m.started_at,
            m.rated,
            m.creator,
            m.seats.iter().all(|s| s.spec != SeatSpec::Human),
        ],
    )
    .map_err(db)?;
    for (i, seat) in m.seats.iter().enumerate() {
        let (kind, bot, level) = match &seat.spec {
            SeatSpec::Human => ("human", None, None),
            SeatSpec::Bot { bot, level } => ("bot", Some(bot.as_str()), *level),
        };
        c.execute(
            sql::INSERT_SEAT,
            params![
                m.id,
                i as i64,
                kind,
                bot,
                level,
                seat.token_hash,
                seat.player.as_ref().map(|p| p.id.0),
                seat.opened,
            ],
        )
        .map_err(db)?;
    }
    Ok(())
}

pub(super) fn take_seat(
    c: &Connection,
    id: &str,
    seat: u8,
    token_hash: &str,
    player: PlayerId,
) -> Result<(), StoreError> {
    let n = c
        .execute(sql::TAKE_SEAT, params![token_hash, player.0, id, seat])
        .map_err(db)?;
    if n == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "seat {seat} of {id} is not free"
        )))
    }
}

pub(super) fn open_seat(
    c: &Connection,
    id: &str,
    seat: u8,
    start: Option<i64>,
) -> Result<(), StoreError> {
    c.execute(
        "UPDATE match_seats SET opened = 1 WHERE match_id = ?1 AND seat = ?2",
        params![id, seat],
    )
    .map_err(db)?;
    if let Some(at) = start {
        c.execute(sql::START, params![at, id]).map_err(db)?;
    }
    Ok(())
}

/// One entry of a match's log (the writer holds it prepared: `Writes::insert_action`). One row a
/// statement: the decision and the chance outcome after it in one statement of two rows cost
/// more than two statements.
pub(super) const INSERT_ACTION: &str = "INSERT INTO actions \
     (match_id, seq, actor, seat, action, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

pub(super) fn append(
    c: &mut Writes<'_>,
    id: &str,
    first: u64,
    entries: &[LogEntry],
    finish: Option<&Finish>,
) -> Result<(), StoreError> {
    for (seq, entry) in (first..).zip(entries) {
        let (actor, seat, action) = match &entry.event {
            Event::Action {
                by: Actor::Seat(s),
                action,
            } => ("seat", Some(s.0), Cow::Borrowed(action.as_str())),
            Event::Action {
                by: Actor::Chance,
                action,
            } => ("chance", None, Cow::Borrowed(action.as_str())),
            Event::End(e) => ("end", None, Cow::Owned(to_json(e))),
        };
        let at_ms = entry
            .at_ms
            .ok_or_else(|| StoreError::Invalid(format!("log entry {seq} of {id} has no time")))?;
        c.insert_action
            .execute(params![id, seq as i64, actor, seat, action, at_ms as i64])
            .map_err(db)?;
    }
    if let Some(finish) = finish {
        c.execute(
            sql::FINISH,
            params![to_json(&finish.outcome), finish.at, id],
        )
        .map_err(db)?;
        apply_ratings(c, id, finish)?;
    }
    Ok(())
}

pub(super) fn take_back(c: &Connection, id: &str, from: u64) -> Result<(), StoreError> {
    let n = c
        .execute(sql::TAKE_BACK, params![id, from as i64])
        .map_err(db)?;
    if n == 0 {
        return Err(StoreError::Conflict(format!(
            "match {id}: no entry at {from} of a live match to take back"
        )));
    }
    Ok(())
}

pub(super) fn set_rematch(c: &Connection, id: &str, rematch: &str) -> Result<(), StoreError> {
    c.execute(sql::SET_REMATCH, params![rematch, id])
        .map_err(db)?;
    Ok(())
}

pub(super) fn add_chat(c: &Connection, id: &str, line: &ChatLine) -> Result<(), StoreError> {
    c.execute(
        sql::INSERT_CHAT,
        params![
            id,
            line.seq as i64,
            line.room.as_str(),
            line.player.id.0,
            line.seat,
            line.text,
            line.at
        ],
    )
    .map_err(db)?;
    Ok(())
}
