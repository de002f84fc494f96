//! Players, sessions and ratings in SQLite.

use rusqlite::{Connection, OptionalExtension, params};

use super::db;
use crate::players::{Player, PlayerId, PlayerKind, Relation, bot_name, name_key, similar_key};
use crate::ratings::{self, Kind, Rating, Unrated};
use crate::sql;
use crate::{
    Finish, PlayerSecret, RatingEvent, SESSION_IDLE_MS, SESSION_RENEW_MS, Standing, StoreError,
    stored_similar_key,
};

/// Reads a player from four columns `id, name, kind, created_at` starting at `at`.
pub(super) fn read_player_columns(r: &rusqlite::Row<'_>, at: usize) -> Result<Player, StoreError> {
    let kind: String = r.get(at + 2).map_err(db)?;
    Ok(Player {
        id: PlayerId(r.get(at).map_err(db)?),
        name: r.get(at + 1).map_err(db)?,
        kind: PlayerKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("player kind `{kind}`")))?,
        created_at: r.get(at + 3).map_err(db)?,
    })
}

fn player(c: &Connection, id: PlayerId) -> Result<Player, StoreError> {
    c.prepare_cached(sql::PLAYER)
        .map_err(db)?
        .query_row([id.0], |r| Ok(read_player_columns(r, 0)))
        .map_err(db)?
}

pub(super) fn create_player(
    c: &Connection,
    name: &str,
    kind: PlayerKind,
    password_hash: Option<&str>,
    now: i64,
) -> Result<Player, StoreError> {
    let id = c
        .prepare_cached(sql::INSERT_PLAYER)
        .map_err(db)?
        .query_row(
            params![
                name,
                name_key(name),
                stored_similar_key(name, kind),
                kind.as_str(),
                password_hash,
                now
            ],
            |r| r.get(0),
        )
        .map_err(db)?;
    Ok(Player {
        id: PlayerId(id),
        name: name.to_owned(),
        kind,
        created_at: now,
    })
}

pub(super) fn bot_player(c: &Connection, bot: &str, now: i64) -> Result<Player, StoreError> {
    let name = bot_name(bot);
    match player_by_name(c, &name)? {
        Some((p, _)) => Ok(p),
        None => create_player(c, &name, PlayerKind::Bot, None, now),
    }
}

pub(super) fn player_by_name(
    c: &Connection,
    name: &str,
) -> Result<Option<PlayerSecret>, StoreError> {
    let found =
        c.prepare_cached(sql::PLAYER_BY_NAME)
            .map_err(db)?
            .query_row([name_key(name)], |r| {
                Ok(read_player_columns(r, 0)
                    .map(|p| (p, r.get::<_, Option<String>>(4).ok().flatten())))
            })
            .optional()
            .map_err(db)?;
    found.transpose()
}

pub(super) fn update_player(
    c: &Connection,
    id: PlayerId,
    name: Option<&str>,
    password_hash: Option<&str>,
) -> Result<Player, StoreError> {
    if let Some(name) = name {
        // Only people are renamed: the new name gets its look-alike key.
        c.execute(
            sql::RENAME_PLAYER,
            params![name, name_key(name), similar_key(name), id.0],
        )
        .map_err(db)?;
    }
    if let Some(hash) = password_hash {
        // Only a guest becomes an account: of two upgrades at once, the second changes nothing.
        let changed = c
            .execute(sql::MAKE_ACCOUNT, params![hash, id.0])
            .map_err(db)?;
        if changed == 0 {
            return Err(StoreError::NotAGuest);
        }
    }
    player(c, id)
}

/// Gives each person stored without a look-alike key (players made before the key was kept)
/// its name's, in the order they were made: of two such players whose names look alike, the
/// older gets the key and the younger keeps its name without one (its next rename gives it one),
/// so no new name can look like either. Run at each open, after the migrations.
pub(super) fn fill_similar_keys(c: &Connection) -> Result<(), StoreError> {
    let tx = c.unchecked_transaction().map_err(db)?;
    let missing: Vec<(i64, String)> = tx
        .prepare(sql::MISSING_SIMILAR_KEYS)
        .map_err(db)?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    for (id, name) in missing {
        tx.execute(sql::FILL_SIMILAR_KEY, params![similar_key(&name), id])
            .map_err(db)?;
    }
    tx.commit().map_err(db)
}

pub(super) fn create_session(
    c: &Connection,
    hash: &str,
    player: PlayerId,
    now: i64,
) -> Result<(), StoreError> {
    c.execute(sql::INSERT_SESSION, params![hash, player.0, now])
        .map_err(db)?;
    Ok(())
}

/// The player of a session used within `SESSION_IDLE_MS` of `now`, the use written again if it
/// is `SESSION_RENEW_MS` old (on the writer's connection, outside any group: a write a day).
pub(super) fn session(c: &Connection, hash: &str, now: i64) -> Result<Option<Player>, StoreError> {
    let found = c
        .prepare_cached(sql::SESSION)
        .map_err(db)?
        .query_row(params![hash, now - SESSION_IDLE_MS], |r| {
            Ok((read_player_columns(r, 0), r.get::<_, i64>(4)?))
        })
        .optional()
        .map_err(db)?;
    let Some((player, last_seen)) = found else {
        return Ok(None);
    };
    if last_seen < now - SESSION_RENEW_MS {
        c.execute(sql::TOUCH_SESSION, params![now, hash])
            .map_err(db)?;
    }
    player.map(Some)
}

pub(super) fn delete_session(c: &Connection, hash: &str) -> Result<(), StoreError> {
    c.execute(sql::DELETE_SESSION, [hash]).map_err(db)?;
    Ok(())
}

pub(super) fn set_relation(
    c: &Connection,
    player: PlayerId,
    other: PlayerId,
    relation: Relation,
    on: bool,
    now: i64,
) -> Result<(), StoreError> {
    if on {
        c.prepare_cached(sql::SET_RELATION)
            .map_err(db)?
            .execute(params![player.0, other.0, relation.as_str(), now])
            .map_err(db)?;
    } else {
        c.prepare_cached(sql::DROP_RELATION)
            .map_err(db)?
            .execute(params![player.0, other.0, relation.as_str()])
            .map_err(db)?;
    }
    Ok(())
}

pub(super) fn relations(
    c: &Connection,
    player: PlayerId,
) -> Result<Vec<(Relation, Player)>, StoreError> {
    let mut stmt = c.prepare_cached(sql::RELATIONS).map_err(db)?;
    let mut rows = stmt.query([player.0]).map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        let word: String = r.get(0).map_err(db)?;
        let relation = Relation::parse(&word)
            .ok_or_else(|| StoreError::Corrupt(format!("relation `{word}`")))?;
        out.push((relation, read_player_columns(r, 1)?));
    }
    Ok(out)
}

pub(super) fn sessions_of(c: &Connection, player: PlayerId) -> Result<Vec<(i64, i64)>, StoreError> {
    let mut stmt = c.prepare_cached(sql::SESSIONS_OF_PLAYER).map_err(db)?;
    stmt.query_map([player.0], |r| {
        let created: i64 = r.get(0)?;
        Ok((created, r.get::<_, Option<i64>>(1)?.unwrap_or(created)))
    })
    .map_err(db)?
    .collect::<Result<_, _>>()
    .map_err(db)
}

/// `Store::delete_player`, inside the writer's transaction (the check and the renaming first:
/// a player still playing, or a name taken, fails it before anything is deleted).
pub(super) fn delete_player(
    c: &Connection,
    id: PlayerId,
    neutral: &str,
) -> Result<Player, StoreError> {
    // In the writer's transaction: no seat can be taken between this count and the deletion.
    let unfinished: i64 = c
        .query_row(sql::UNFINISHED_OF_PLAYER, [id.0], |r| r.get(0))
        .map_err(db)?;
    if unfinished > 0 {
        return Err(StoreError::Playing);
    }
    c.execute(
        sql::FORGET_PLAYER,
        params![neutral, name_key(neutral), similar_key(neutral), id.0],
    )
    .map_err(db)?;
    for statement in sql::FORGET_PLAYER_ROWS {
        c.execute(statement, [id.0]).map_err(db)?;
    }
    player(c, id)
}

pub(super) fn blocks_between(
    c: &Connection,
    a: PlayerId,
    b: PlayerId,
) -> Result<(bool, bool), StoreError> {
    let mut stmt = c.prepare_cached(sql::BLOCKS_BETWEEN).map_err(db)?;
    let blockers = stmt
        .query_map([a.0, b.0], |r| r.get::<_, i64>(0))
        .map_err(db)?
        .collect::<Result<Vec<i64>, _>>()
        .map_err(db)?;
    Ok((blockers.contains(&a.0), blockers.contains(&b.0)))
}

fn read_standing(r: &rusqlite::Row<'_>, at: usize) -> Result<Standing, StoreError> {
    let get = |i: usize| r.get::<_, u32>(at + i).map_err(db);
    Ok(Standing {
        rating: Rating {
            mu: r.get(at).map_err(db)?,
            sigma: r.get(at + 1).map_err(db)?,
        },
        games: get(2)?,
        wins: get(3)?,
        losses: get(4)?,
        draws: get(5)?,
    })
}

fn standing(c: &Connection, player: PlayerId, game: &str) -> Result<Option<Standing>, StoreError> {
    c.prepare_cached(sql::STANDING)
        .map_err(db)?
        .query_row(params![player.0, game], |r| Ok(read_standing(r, 0)))
        .optional()
        .map_err(db)?
        .transpose()
}

pub(super) fn standings(
    c: &Connection,
    player: PlayerId,
) -> Result<Vec<(String, Standing)>, StoreError> {
    let mut stmt = c.prepare_cached(sql::STANDINGS).map_err(db)?;
    let mut rows = stmt.query([player.0]).map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        out.push((r.get(0).map_err(db)?, read_standing(r, 1)?));
    }
    Ok(out)
}

pub(super) fn rating_events(
    c: &Connection,
    player: PlayerId,
) -> Result<Vec<RatingEvent>, StoreError> {
    let found = events(c, sql::EVENTS_OF_PLAYER, &player.0)?;
    Ok(found.into_iter().map(|(_, e)| e).collect())
}

pub(super) fn match_rating_events(
    c: &Connection,
    id: &str,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    events(c, sql::EVENTS_OF_MATCH, &id)
}

/// The rating events `sql` (`sql::EVENTS_OF_PLAYER` or `EVENTS_OF_MATCH`) selects with `param`,
/// each with its player.
fn events(
    c: &Connection,
    sql: &str,
    param: &dyn rusqlite::ToSql,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(db)?;
    let mut rows = stmt.query([param]).map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        let rating = |i: usize| -> Result<Rating, StoreError> {
            Ok(Rating {
                mu: r.get(i).map_err(db)?,
                sigma: r.get(i + 1).map_err(db)?,
            })
        };
        let event = RatingEvent {
            game: r.get(1).map_err(db)?,
            match_id: r.get(2).map_err(db)?,
            at: r.get(3).map_err(db)?,
            before: rating(4)?,
            after: rating(6)?,
        };
        out.push((PlayerId(r.get(0).map_err(db)?), event));
    }
    Ok(out)
}

/// The best-rated people of `game` past their provisional games (`ratings::PROVISIONAL_GAMES`).
pub(super) fn leaderboard(
    c: &Connection,
    game: &str,
    limit: usize,
) -> Result<Vec<(Player, Standing)>, StoreError> {
    let sql = sql::leaderboard(limit);
    let mut stmt = c.prepare_cached(&sql).map_err(db)?;
    let mut rows = stmt.query([game]).map_err(db)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(db)? {
        out.push((read_player_columns(r, 0)?, read_standing(r, 4)?));
    }
    Ok(out)
}

/// In the transaction that finishes rated match `id`: the new rating of every seat's player
/// (`ratings::rate`), written with its counts, and one rating event per person. A casual match,
/// a seat without a player, or one player in two seats changes nothing.
pub(super) fn apply_ratings(c: &Connection, id: &str, finish: &Finish) -> Result<(), StoreError> {
    let (game, rated): (String, bool) = c
        .query_row(sql::GAME_AND_RATED, [id], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    if !rated {
        return Ok(());
    }
    if let Some(why) = finish.unrated {
        return mark_unrated(c, id, why);
    }
    let mut stmt = c.prepare_cached(sql::SEATED_PLAYERS).map_err(db)?;
    let seats: Vec<(Option<i64>, Option<String>, Option<String>)> = stmt
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    let mut ids: Vec<i64> = Vec::new();
    let mut table = Vec::new();
    for (player, bot, kind) in &seats {
        let Some(player) = *player else {
            return Ok(());
        };
        if ids.contains(&player) {
            return Ok(());
        }
        ids.push(player);
        let before = standing(c, PlayerId(player), &game)?;
        let entry = match (kind.as_deref(), bot) {
            (Some("bot"), Some(bot)) => (ratings::bot_anchor(&game, bot), Kind::Anchor),
            _ => (
                before.map_or_else(Rating::default, |s| s.rating),
                Kind::Person,
            ),
        };
        table.push(entry);
    }
    if table.len() != finish.outcome.ranks.len() {
        return Err(StoreError::Corrupt(format!(
            "match {id}: {} seats but {} ranks",
            table.len(),
            finish.outcome.ranks.len()
        )));
    }
    let persons: Vec<bool> = table.iter().map(|(_, k)| *k == Kind::Person).collect();
    if daily_cap_reached(c, &game, &ids, &persons, finish.at)? {
        return mark_unrated(c, id, Unrated::DailyCap);
    }
    let after = ratings::rate(&table, &finish.outcome.ranks);
    for (seat, ((before, kind), new)) in table.iter().zip(&after).enumerate() {
        let player = ids[seat];
        let word = ratings::result_word(&finish.outcome.ranks, seat);
        let (w, l, d) = match word {
            "win" => (1, 0, 0),
            "draw" => (0, 0, 1),
            _ => (0, 1, 0),
        };
        c.execute(
            sql::ADD_RATING,
            params![player, game, new.mu, new.sigma, w, l, d],
        )
        .map_err(db)?;
        if *kind == Kind::Person {
            c.execute(
                sql::INSERT_RATING_EVENT,
                params![
                    player,
                    game,
                    id,
                    finish.at,
                    before.mu,
                    before.sigma,
                    new.mu,
                    new.sigma
                ],
            )
            .map_err(db)?;
        }
    }
    Ok(())
}

/// Records why rated match `id` changed no rating.
fn mark_unrated(c: &Connection, id: &str, why: Unrated) -> Result<(), StoreError> {
    c.execute(sql::SET_UNRATED, params![why.as_str(), id])
        .map_err(db)?;
    Ok(())
}

/// Whether two of the players `ids` (a person where `persons` says so) already had
/// `ratings::SAME_OPPONENT_PER_DAY` counted games of `game` together in the 24 hours before
/// `at`: the person's rating events in matches where the other sat.
fn daily_cap_reached(
    c: &Connection,
    game: &str,
    ids: &[i64],
    persons: &[bool],
    at: i64,
) -> Result<bool, StoreError> {
    let since = at - ratings::CAP_WINDOW_MS;
    let mut stmt = c.prepare_cached(sql::COUNTED_TOGETHER).map_err(db)?;
    for (a, b) in ratings::capped_pairs(ids, persons) {
        let n: i64 = stmt
            .query_row(params![a, b, since, game], |r| r.get(0))
            .map_err(db)?;
        if usize::try_from(n).unwrap_or(usize::MAX) >= ratings::SAME_OPPONENT_PER_DAY {
            return Ok(true);
        }
    }
    Ok(false)
}
