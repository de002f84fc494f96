//! Players, sessions and ratings in SQLite.

use rusqlite::{Connection, OptionalExtension, params};

use super::db;
use crate::players::{Player, PlayerId, PlayerKind, bot_name, name_key, similar_key};
use crate::ratings::{self, Kind, PROVISIONAL_GAMES, Rating, Unrated};
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

const PLAYER_COLUMNS: &str = "p.id, p.name, p.kind, p.created_at";

fn player(c: &Connection, id: PlayerId) -> Result<Player, StoreError> {
    let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.id = ?1");
    c.prepare_cached(&sql)
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
    c.execute(
        "INSERT INTO players (name, name_key, similar_key, kind, password_hash, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            name,
            name_key(name),
            stored_similar_key(name, kind),
            kind.as_str(),
            password_hash,
            now
        ],
    )
    .map_err(db)?;
    Ok(Player {
        id: PlayerId(c.last_insert_rowid()),
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
    let sql =
        format!("SELECT {PLAYER_COLUMNS}, p.password_hash FROM players p WHERE p.name_key = ?1");
    let found =
        c.prepare_cached(&sql)
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
            "UPDATE players SET name = ?1, name_key = ?2, similar_key = ?3 WHERE id = ?4",
            params![name, name_key(name), similar_key(name), id.0],
        )
        .map_err(db)?;
    }
    if let Some(hash) = password_hash {
        // Only a guest becomes an account: of two upgrades at once, the second changes nothing.
        let changed = c
            .execute(
                "UPDATE players SET password_hash = ?1, kind = 'account' \
                 WHERE id = ?2 AND kind = 'guest'",
                params![hash, id.0],
            )
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
        .prepare(
            "SELECT id, name FROM players WHERE similar_key IS NULL AND kind <> 'bot' ORDER BY id",
        )
        .map_err(db)?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    for (id, name) in missing {
        tx.execute(
            "UPDATE players SET similar_key = ?1 WHERE id = ?2 \
             AND NOT EXISTS (SELECT 1 FROM players WHERE similar_key = ?1)",
            params![similar_key(&name), id],
        )
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
    c.execute(
        "INSERT INTO sessions (token_hash, player_id, created_at, last_seen) \
         VALUES (?1, ?2, ?3, ?3)",
        params![hash, player.0, now],
    )
    .map_err(db)?;
    Ok(())
}

/// The player of a session used within `SESSION_IDLE_MS` of `now`, the use written again if it
/// is `SESSION_RENEW_MS` old (on the writer's connection, outside any group: a write a day).
pub(super) fn session(c: &Connection, hash: &str, now: i64) -> Result<Option<Player>, StoreError> {
    let sql = format!(
        "SELECT {PLAYER_COLUMNS}, s.last_seen FROM sessions s \
         JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?1 AND s.last_seen > ?2"
    );
    let found = c
        .prepare_cached(&sql)
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
        c.execute(
            "UPDATE sessions SET last_seen = ?1 WHERE token_hash = ?2",
            params![now, hash],
        )
        .map_err(db)?;
    }
    player.map(Some)
}

pub(super) fn delete_session(c: &Connection, hash: &str) -> Result<(), StoreError> {
    c.execute("DELETE FROM sessions WHERE token_hash = ?1", [hash])
        .map_err(db)?;
    Ok(())
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

const STANDING_COLUMNS: &str = "r.mu, r.sigma, r.games, r.wins, r.losses, r.draws";

fn standing(c: &Connection, player: PlayerId, game: &str) -> Result<Option<Standing>, StoreError> {
    let sql =
        format!("SELECT {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = ?1 AND r.game = ?2");
    c.prepare_cached(&sql)
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
    let sql = format!(
        "SELECT r.game, {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = ?1 ORDER BY r.game"
    );
    let mut stmt = c.prepare_cached(&sql).map_err(db)?;
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
    let found = events(c, "player_id = ?1 ORDER BY at, match_id", &player.0)?;
    Ok(found.into_iter().map(|(_, e)| e).collect())
}

pub(super) fn match_rating_events(
    c: &Connection,
    id: &str,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    events(c, "match_id = ?1 ORDER BY player_id", &id)
}

/// The rating events `filter` (a condition on `?1`, `param`, and an order) selects, each with
/// its player.
fn events(
    c: &Connection,
    filter: &str,
    param: &dyn rusqlite::ToSql,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    let sql = format!(
        "SELECT player_id, game, match_id, at, mu_before, sigma_before, mu, sigma \
         FROM rating_events WHERE {filter}"
    );
    let mut stmt = c.prepare_cached(&sql).map_err(db)?;
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
    let sql = format!(
        "SELECT {PLAYER_COLUMNS}, {STANDING_COLUMNS} FROM ratings r \
         JOIN players p ON p.id = r.player_id \
         WHERE r.game = ?1 AND p.kind <> 'bot' AND r.games >= {PROVISIONAL_GAMES} \
         ORDER BY r.mu DESC, p.name_key LIMIT {limit}"
    );
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
        .query_row("SELECT game, rated FROM matches WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(db)?;
    if !rated {
        return Ok(());
    }
    if let Some(why) = finish.unrated {
        return mark_unrated(c, id, why);
    }
    let mut stmt = c
        .prepare_cached(
            "SELECT s.player_id, s.bot, p.kind FROM match_seats s \
             LEFT JOIN players p ON p.id = s.player_id WHERE s.match_id = ?1 ORDER BY s.seat",
        )
        .map_err(db)?;
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
            "INSERT INTO ratings (player_id, game, mu, sigma, games, wins, losses, draws) \
             VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7) \
             ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, \
             sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + ?5, \
             losses = ratings.losses + ?6, draws = ratings.draws + ?7",
            params![player, game, new.mu, new.sigma, w, l, d],
        )
        .map_err(db)?;
        if *kind == Kind::Person {
            c.execute(
                "INSERT INTO rating_events (player_id, game, match_id, at, mu_before, \
                 sigma_before, mu, sigma) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
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
    c.execute(
        "UPDATE matches SET unrated = ?1 WHERE id = ?2",
        params![why.as_str(), id],
    )
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
    let mut stmt = c
        .prepare_cached(
            "SELECT COUNT(*) FROM rating_events e JOIN match_seats s ON s.match_id = e.match_id \
             WHERE e.player_id = ?1 AND s.player_id = ?2 AND e.at > ?3 AND e.game = ?4",
        )
        .map_err(db)?;
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
