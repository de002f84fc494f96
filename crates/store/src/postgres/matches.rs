//! Matches, their seats, chat and logs as read in PostgreSQL (a log written: `log`): as `sqlite::matches` (the shared
//! texts in `sql`), with PostgreSQL's types (`BIGINT` times and positions, `SMALLINT` seats,
//! `BOOLEAN` flags).

use std::sync::LazyLock;

use deadpool_postgres::{GenericClient, Transaction};
use plateau_engine::{Actor, Ending, LogEntry, Outcome, Seat, Seed};
use tokio_postgres::Row;

use super::players::read_player_columns;
use super::query::{col, exec, from_json, row, rows, to_json, unsigned};
use crate::model::{SeatSpec, Status, TimeControl};
use crate::players::PlayerId;
use crate::sql;
use crate::{ChatLine, Created, Room, StoreError, StoredMatch, StoredSeat};

/// A seat number as stored.
pub(super) fn seat_number(seat: u8) -> i16 {
    i16::from(seat)
}

/// A stored seat number or level back as `u8`.
fn small(what: &str, v: i16) -> Result<u8, StoreError> {
    u8::try_from(v).map_err(|_| StoreError::Corrupt(format!("{what} {v}")))
}

async fn read_match(tx: &Transaction<'_>, r: &Row) -> Result<StoredMatch, StoreError> {
    let id: String = col(r, 0)?;
    let seats = read_seats(tx, &id).await?;
    match_of(r, seats)
}

/// The match of row `r` (`sql::MATCH`'s columns first), with `seats`, without log or chat.
fn match_of(r: &Row, seats: Vec<StoredSeat>) -> Result<StoredMatch, StoreError> {
    let config: String = col(r, 2)?;
    let tc: String = col(r, 3)?;
    let seed: String = col(r, 4)?;
    let status: String = col(r, 5)?;
    let outcome: Option<String> = col(r, 8)?;
    let version: i64 = col(r, 13)?;
    Ok(StoredMatch {
        game: col(r, 1)?,
        config: from_json("config", &config)?,
        seats,
        time_control: from_json::<TimeControl>("time_control", &tc)?,
        seed: Seed::from_hex(&seed).map_err(StoreError::Corrupt)?,
        status: Status::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("status `{status}`")))?,
        created_at: col(r, 6)?,
        started_at: col(r, 7)?,
        outcome: outcome
            .map(|o| from_json::<Outcome>("outcome", &o))
            .transpose()?,
        rematch: col(r, 9)?,
        rated: col(r, 10)?,
        ended_at: col(r, 11)?,
        creator: col(r, 12)?,
        unrated: col(r, 14)?,
        version: unsigned("version", version)?,
        log: Vec::new(),
        chat: Vec::new(),
        id: col(r, 0)?,
    })
}

async fn read_seats(tx: &Transaction<'_>, id: &str) -> Result<Vec<StoredSeat>, StoreError> {
    let found = rows(tx, sql::SEATS, &[&id]).await?;
    found.iter().map(|r| seat_of(r, 0, id)).collect()
}

/// The seat in row `r` at column `at` on (`sql::SEATS`'s columns), of match `id`.
fn seat_of(r: &Row, at: usize, id: &str) -> Result<StoredSeat, StoreError> {
    let kind: String = col(r, at)?;
    let bot: Option<String> = col(r, at + 1)?;
    let spec = match (kind.as_str(), bot) {
        ("human", _) => SeatSpec::Human,
        ("bot", Some(bot)) => SeatSpec::Bot {
            bot,
            level: col::<Option<i16>>(r, at + 2)?
                .map(|l| small("level", l))
                .transpose()?,
        },
        _ => return Err(StoreError::Corrupt(format!("seat kind `{kind}` of {id}"))),
    };
    let player = match col::<Option<i64>>(r, at + 5)? {
        Some(_) => Some(read_player_columns(r, at + 5)?),
        None => None,
    };
    Ok(StoredSeat {
        spec,
        token_hash: col(r, at + 3)?,
        player,
        opened: col(r, at + 4)?,
    })
}

/// Match `id` with its seats, without log or chat, in one statement (`sql::SEATED_MATCH`), so
/// outside a transaction: one round trip.
pub(super) async fn get_seated(
    c: &impl GenericClient,
    id: &str,
) -> Result<Option<StoredMatch>, StoreError> {
    /// Where the seat's columns start in a row of `sql::SEATED_MATCH`.
    const SEAT_AT: usize = 15;
    let found = rows(c, sql::SEATED_MATCH, &[&id]).await?;
    let Some(first) = found.first() else {
        return Ok(None);
    };
    let mut seats = Vec::with_capacity(found.len());
    for r in &found {
        // A match without seats: its one row's seat columns are null.
        if col::<Option<String>>(r, SEAT_AT)?.is_some() {
            seats.push(seat_of(r, SEAT_AT, id)?);
        }
    }
    match_of(first, seats).map(Some)
}

async fn read_log(tx: &Transaction<'_>, id: &str) -> Result<Vec<LogEntry>, StoreError> {
    let found = rows(tx, sql::LOG, &[&id]).await?;
    let mut log = Vec::with_capacity(found.len());
    for (i, r) in found.iter().enumerate() {
        let seq: i64 = col(r, 0)?;
        let actor: String = col(r, 1)?;
        let seat: Option<i16> = col(r, 2)?;
        let action: String = col(r, 3)?;
        let at_ms: i64 = col(r, 4)?;
        if usize::try_from(seq).ok() != Some(i) {
            return Err(StoreError::Corrupt(format!("log of {id} has a gap at {i}")));
        }
        let at_ms = Some(unsigned("time", at_ms)?);
        log.push(match (actor.as_str(), seat) {
            ("seat", Some(s)) => {
                LogEntry::action(Actor::Seat(Seat(small("seat", s)?)), action, at_ms)
            }
            ("chance", _) => LogEntry::action(Actor::Chance, action, at_ms),
            ("end", _) => LogEntry::end(from_json::<Ending>("ending", &action)?, at_ms),
            _ => return Err(StoreError::Corrupt(format!("log entry {seq} of {id}"))),
        });
    }
    Ok(log)
}

async fn read_chat(tx: &Transaction<'_>, id: &str) -> Result<Vec<ChatLine>, StoreError> {
    let found = rows(tx, sql::CHAT, &[&id]).await?;
    found.iter().map(|r| chat_line(r, id)).collect()
}

/// A chat line from the columns of `sql::CHAT` (of match `id`, for an error).
fn chat_line(r: &Row, id: &str) -> Result<ChatLine, StoreError> {
    let room: String = col(r, 1)?;
    Ok(ChatLine {
        seq: unsigned("chat position", col::<i64>(r, 0)?)?,
        room: match room.as_str() {
            "players" => Room::Players,
            "spectators" => Room::Spectators,
            _ => return Err(StoreError::Corrupt(format!("chat room `{room}` of {id}"))),
        },
        seat: col::<Option<i16>>(r, 2)?
            .map(|s| small("seat", s))
            .transpose()?,
        text: col(r, 3)?,
        at: col(r, 4)?,
        player: read_player_columns(r, 5)?,
    })
}

/// The chat lines `player` wrote, each with its match's id.
pub(super) async fn player_chat(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<(String, ChatLine)>, StoreError> {
    let found = rows(tx, sql::CHAT_OF_PLAYER, &[&player.0]).await?;
    found
        .iter()
        .map(|r| {
            let id: String = col(r, 9)?;
            let line = chat_line(r, &id)?;
            Ok((id, line))
        })
        .collect()
}

pub(super) async fn get_match(
    tx: &Transaction<'_>,
    id: &str,
    with_log: bool,
) -> Result<Option<StoredMatch>, StoreError> {
    let Some(r) = row(tx, sql::MATCH, &[&id]).await? else {
        return Ok(None);
    };
    let mut m = read_match(tx, &r).await?;
    if with_log {
        m.log = read_log(tx, id).await?;
        m.chat = read_chat(tx, id).await?;
    }
    Ok(Some(m))
}

/// Matches selected by `filter` (SQL after `WHERE`, over `m` and parameter `$1` when `param`),
/// without logs.
async fn select_matches(
    tx: &Transaction<'_>,
    filter: &str,
    order: &str,
    param: Option<i64>,
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    let sql = sql::matches_where(filter, order, limit);
    let found = match param {
        Some(p) => rows(tx, &sql, &[&p]).await?,
        None => rows(tx, &sql, &[]).await?,
    };
    let mut out = Vec::with_capacity(found.len());
    for r in &found {
        out.push(read_match(tx, r).await?);
    }
    Ok(out)
}

/// `status IN (...)` for `statuses` (words of a closed set, never user text).
fn status_filter(statuses: &[Status]) -> String {
    let words: Vec<String> = statuses
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect();
    if words.is_empty() {
        return "FALSE".into();
    }
    format!("m.status IN ({})", words.join(", "))
}

pub(super) async fn list(
    tx: &Transaction<'_>,
    statuses: &[Status],
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    select_matches(
        tx,
        &status_filter(statuses),
        "m.created_at DESC, m.id",
        None,
        limit,
    )
    .await
}

pub(super) async fn player_matches(
    tx: &Transaction<'_>,
    player: PlayerId,
    statuses: &[Status],
    limit: usize,
) -> Result<Vec<StoredMatch>, StoreError> {
    let filter = format!("{} AND {}", status_filter(statuses), sql::OF_PLAYER);
    select_matches(
        tx,
        &filter,
        "COALESCE(m.ended_at, m.created_at) DESC, m.id",
        Some(player.0),
        limit,
    )
    .await
}

pub(super) async fn created_by(tx: &Transaction<'_>, creator: &str) -> Result<Created, StoreError> {
    let r = row(
        tx,
        "SELECT COUNT(*) FILTER (WHERE status = 'open'), \
         COUNT(*) FILTER (WHERE status = 'live' AND bots_only), \
         COUNT(*) FILTER (WHERE NOT bots_only AND EXISTS \
             (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.kind = 'bot')) \
         FROM matches m WHERE creator = $1 AND status <> 'finished'",
        &[&creator],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("COUNT gave no row".into()))?;
    let count = |i: usize| -> Result<usize, StoreError> {
        let n = unsigned("count", col::<i64>(&r, i)?)?;
        usize::try_from(n).map_err(|_| StoreError::Corrupt(format!("count {n}")))
    };
    Ok(Created {
        open: count(0)?,
        bots_only: count(1)?,
        with_bots: count(2)?,
    })
}

pub(super) async fn running_with_clock(
    tx: &Transaction<'_>,
) -> Result<Vec<StoredMatch>, StoreError> {
    let none = to_json(&TimeControl::None);
    let ids = rows(tx, sql::LIVE_WITH_CLOCK, &[&none]).await?;
    let mut out = Vec::with_capacity(ids.len());
    for r in &ids {
        let id: String = col(r, 0)?;
        if let Some(m) = get_match(tx, &id, true).await? {
            out.push(m);
        }
    }
    Ok(out)
}

pub(super) async fn expire_open(
    tx: &Transaction<'_>,
    created_before: i64,
) -> Result<Vec<String>, StoreError> {
    let found = rows(tx, sql::EXPIRED_OPEN, &[&created_before]).await?;
    let ids: Vec<String> = found.iter().map(|r| col(r, 0)).collect::<Result<_, _>>()?;
    delete_matches(tx, &ids).await
}

pub(super) async fn call_off(tx: &Transaction<'_>, id: &str) -> Result<bool, StoreError> {
    Ok(!delete_matches(tx, &[id.to_owned()]).await?.is_empty())
}

/// Deletes those of matches `ids` that are open and have no log, with their seats and chat;
/// the ids deleted. `actions` has no foreign key (`schema`), and a fenced append only reads its
/// match (`insert_actions`), so: the matches' lease rows are locked first (every match has one
/// from its creation, `create`), which waits for a fenced append in progress (it share-locks its
/// lease) and keeps a lease from being taken meanwhile; then the match rows, which waits for an
/// unfenced append (it key-share-locks its match); only then, in a statement of its own and so
/// over a snapshot that sees what those appends committed, is the log found empty; and the
/// leases of the matches deleted are given up to rest, so an append waiting on one finds it no
/// longer held (`LeaseLost`) and writes nothing. Leases before matches, as an append that ends
/// a match locks them, so the two never wait on each other in a cycle.
async fn delete_matches(tx: &Transaction<'_>, ids: &[String]) -> Result<Vec<String>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    for sql in [
        "SELECT 1 FROM match_leases WHERE match_id = ANY($1) ORDER BY match_id FOR UPDATE",
        "SELECT 1 FROM matches WHERE id = ANY($1) ORDER BY id FOR UPDATE",
    ] {
        exec(tx, sql, &[&ids]).await?;
    }
    let ids: Vec<String> = rows(
        tx,
        "SELECT id FROM matches m WHERE id = ANY($1) AND status = 'open' \
         AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.match_id = m.id)",
        &[&ids],
    )
    .await?
    .iter()
    .map(|r| col(r, 0))
    .collect::<Result<_, _>>()?;
    if !ids.is_empty() {
        for sql in [
            "DELETE FROM chat WHERE match_id = ANY($1)",
            "DELETE FROM match_seats WHERE match_id = ANY($1)",
            "DELETE FROM matches WHERE id = ANY($1)",
            "UPDATE match_leases SET resting = TRUE, expires_at = now() - interval '1 hour' \
             WHERE match_id = ANY($1)",
        ] {
            exec(tx, sql, &[&ids]).await?;
        }
    }
    Ok(ids)
}

/// Writes match `m` and its seats in one statement, its own transaction (one round trip), with
/// a lease row at rest (epoch 0, nobody's: the first taking is epoch 1), so every match has one
/// for `delete_matches` to lock; `Conflict` when its id is taken.
pub(super) async fn create(c: &impl GenericClient, m: &StoredMatch) -> Result<(), StoreError> {
    let mut numbers = Vec::with_capacity(m.seats.len());
    let (mut kinds, mut bots, mut levels) = (Vec::new(), Vec::new(), Vec::new());
    let (mut tokens, mut players, mut opened) = (Vec::new(), Vec::new(), Vec::new());
    for (i, seat) in m.seats.iter().enumerate() {
        let (kind, bot, level) = match &seat.spec {
            SeatSpec::Human => ("human", None, None),
            SeatSpec::Bot { bot, level } => ("bot", Some(bot.as_str()), level.map(i16::from)),
        };
        numbers.push(i16::try_from(i).map_err(|_| StoreError::Invalid(format!("seat {i}")))?);
        kinds.push(kind);
        bots.push(bot);
        levels.push(level);
        tokens.push(seat.token_hash.as_deref());
        players.push(seat.player.as_ref().map(|p| p.id.0));
        opened.push(seat.opened);
    }
    static CREATE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "WITH m AS ({} RETURNING id), \
             lease AS (INSERT INTO match_leases (match_id, node, address, expires_at, epoch, \
             resting) SELECT id, '', '', now() - interval '1 hour', 0, TRUE FROM m \
             ON CONFLICT (match_id) DO NOTHING) \
             INSERT INTO match_seats (match_id, seat, kind, bot, level, token_hash, player_id, \
             opened) SELECT m.id, s.* FROM m, UNNEST($13::SMALLINT[], $14::TEXT[], $15::TEXT[], \
             $16::SMALLINT[], $17::TEXT[], $18::BIGINT[], $19::BOOL[]) AS s",
            sql::INSERT_MATCH
        )
    });
    exec(
        c,
        &CREATE,
        &[
            &m.id,
            &m.game,
            &to_json(&m.config),
            &to_json(&m.time_control),
            &m.seed.to_hex(),
            &m.seed.hash_hex(),
            &m.status.as_str(),
            &m.created_at,
            &m.started_at,
            &m.rated,
            &m.creator,
            &m.seats.iter().all(|s| s.spec != SeatSpec::Human),
            &numbers,
            &kinds,
            &bots,
            &levels,
            &tokens,
            &players,
            &opened,
        ],
    )
    .await?;
    Ok(())
}

/// Takes free human seat `seat` of match `id` for `player` in one statement, its own
/// transaction; with `driver` (a node and its epoch), only while that node holds the match's
/// lease at that epoch, the lease row share-locked as `leases::fence` does (`LeaseLost`
/// otherwise). `Conflict` when the seat is not free.
pub(super) async fn take_seat(
    c: &impl GenericClient,
    id: &str,
    seat: u8,
    token_hash: &str,
    player: PlayerId,
    driver: Option<(&str, i64)>,
) -> Result<(), StoreError> {
    static TAKE_SEAT: LazyLock<String> = LazyLock::new(|| {
        format!(
            "WITH lease AS (SELECT 1 FROM match_leases WHERE match_id = $3 AND node = $5 \
             AND epoch = $6 AND NOT resting FOR SHARE), \
             ok AS (SELECT $5::TEXT IS NULL OR EXISTS (SELECT 1 FROM lease) AS held), \
             taken AS ({} AND (SELECT held FROM ok) RETURNING 1) \
             SELECT held, EXISTS (SELECT 1 FROM taken) FROM ok",
            sql::TAKE_SEAT
        )
    });
    let (node, epoch) = driver.unzip();
    // Without a driver, no lease is asked for (`$5` is null).
    let answer = row(
        c,
        &TAKE_SEAT,
        &[
            &token_hash,
            &player.0,
            &id,
            &seat_number(seat),
            &node,
            &epoch,
        ],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("taking a seat answered no row".into()))?;
    if !col::<bool>(&answer, 0)? {
        return Err(super::leases::lost(id, node.unwrap_or_default()));
    }
    if col::<bool>(&answer, 1)? {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "seat {seat} of {id} is not free"
        )))
    }
}

pub(super) async fn open_seat(
    tx: &Transaction<'_>,
    id: &str,
    seat: u8,
    start: Option<i64>,
) -> Result<(), StoreError> {
    exec(
        tx,
        "UPDATE match_seats SET opened = TRUE WHERE match_id = $1 AND seat = $2",
        &[&id, &seat_number(seat)],
    )
    .await?;
    if let Some(at) = start {
        exec(tx, sql::START, &[&at, &id]).await?;
    }
    Ok(())
}

/// `open_seat` with the lease of `node` at `epoch` checked and share-locked, as `leases::fence`
/// does, in one statement that is its own transaction: one round trip rather than a
/// transaction's four or five (this runs twice as each match begins). `LeaseLost` when the
/// lease is not held so; then nothing is written.
pub(super) async fn open_seat_fenced(
    c: &impl GenericClient,
    id: &str,
    seat: u8,
    start: Option<i64>,
    (node, epoch): (&str, i64),
) -> Result<(), StoreError> {
    let held = row(
        c,
        "WITH lease AS (SELECT 1 FROM match_leases WHERE match_id = $1 AND node = $3 \
         AND epoch = $4 AND NOT resting FOR SHARE), \
         seat AS (UPDATE match_seats SET opened = TRUE WHERE match_id = $1 AND seat = $2 \
         AND EXISTS (SELECT 1 FROM lease)), \
         started AS (UPDATE matches SET status = 'live', started_at = $5 WHERE id = $1 \
         AND status = 'open' AND $5::BIGINT IS NOT NULL AND EXISTS (SELECT 1 FROM lease)) \
         SELECT EXISTS (SELECT 1 FROM lease)",
        &[&id, &seat_number(seat), &node, &epoch, &start],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("opening a seat answered no row".into()))?;
    if col::<bool>(&held, 0)? {
        Ok(())
    } else {
        Err(super::leases::lost(id, node))
    }
}

pub(super) async fn add_chat(
    tx: &Transaction<'_>,
    id: &str,
    line: &ChatLine,
) -> Result<(), StoreError> {
    let seq = i64::try_from(line.seq)
        .map_err(|_| StoreError::Invalid(format!("chat position {}", line.seq)))?;
    exec(
        tx,
        sql::INSERT_CHAT,
        &[
            &id,
            &seq,
            &line.room.as_str(),
            &line.player.id.0,
            &line.seat.map(seat_number),
            &line.text,
            &line.at,
        ],
    )
    .await?;
    Ok(())
}
