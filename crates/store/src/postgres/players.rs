//! Players, sessions and ratings in PostgreSQL (as `sqlite::players`, the shared texts in `sql`).

use deadpool_postgres::{GenericClient, Transaction};
use tokio_postgres::Row;

use super::query::{col, exec, row, rows};
use crate::players::{Player, PlayerId, PlayerKind, Relation, bot_name, name_key, similar_key};
use crate::ratings::{self, Kind, Rating, Unrated};
use crate::sql;
use crate::{
    Finish, PlayerSecret, RatingEvent, SESSION_IDLE_MS, SESSION_RENEW_MS, Standing, StoreError,
    stored_similar_key,
};

/// Reads a player from four columns `id, name, kind, created_at` starting at `at`.
pub(super) fn read_player_columns(r: &Row, at: usize) -> Result<Player, StoreError> {
    let kind: String = col(r, at + 2)?;
    Ok(Player {
        id: PlayerId(col(r, at)?),
        name: col(r, at + 1)?,
        kind: PlayerKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("player kind `{kind}`")))?,
        created_at: col(r, at + 3)?,
    })
}

async fn player(tx: &Transaction<'_>, id: PlayerId) -> Result<Player, StoreError> {
    match row(tx, sql::PLAYER, &[&id.0]).await? {
        Some(r) => read_player_columns(&r, 0),
        None => Err(StoreError::NotFound(format!("player {}", id.0))),
    }
}

pub(super) async fn create_player(
    tx: &impl GenericClient,
    name: &str,
    kind: PlayerKind,
    password_hash: Option<&str>,
    now: i64,
) -> Result<Player, StoreError> {
    let r = row(
        tx,
        sql::INSERT_PLAYER,
        &[
            &name,
            &name_key(name),
            &stored_similar_key(name, kind),
            &kind.as_str(),
            &password_hash,
            &now,
        ],
    )
    .await?
    .ok_or_else(|| StoreError::Corrupt("INSERT ... RETURNING gave no row".into()))?;
    Ok(Player {
        id: PlayerId(col(&r, 0)?),
        name: name.to_owned(),
        kind,
        created_at: now,
    })
}

/// The bot's player, created on first use. Two servers (or two tasks) asking at once both get
/// the same row: the insert that loses the race on the unique name does nothing.
pub(super) async fn bot_player(
    tx: &Transaction<'_>,
    bot: &str,
    now: i64,
) -> Result<Player, StoreError> {
    let name = bot_name(bot);
    exec(
        tx,
        "INSERT INTO players (name, name_key, kind, password_hash, created_at) \
         VALUES ($1, $2, 'bot', NULL, $3) ON CONFLICT (name_key) DO NOTHING",
        &[&name, &name_key(&name), &now],
    )
    .await?;
    match player_by_name(tx, &name).await? {
        Some((p, _)) => Ok(p),
        None => Err(StoreError::NotFound(format!("bot player `{name}`"))),
    }
}

pub(super) async fn player_by_name(
    tx: &Transaction<'_>,
    name: &str,
) -> Result<Option<PlayerSecret>, StoreError> {
    match row(tx, sql::PLAYER_BY_NAME, &[&name_key(name)]).await? {
        Some(r) => Ok(Some((read_player_columns(&r, 0)?, col(&r, 4)?))),
        None => Ok(None),
    }
}

pub(super) async fn update_player(
    tx: &Transaction<'_>,
    id: PlayerId,
    name: Option<&str>,
    password_hash: Option<&str>,
) -> Result<Player, StoreError> {
    if let Some(name) = name {
        // Only people are renamed: the new name gets its look-alike key.
        exec(
            tx,
            sql::RENAME_PLAYER,
            &[&name, &name_key(name), &similar_key(name), &id.0],
        )
        .await?;
    }
    if let Some(hash) = password_hash {
        // Only a guest becomes an account: of two upgrades at once, the second changes nothing
        // (the row is locked by the first until it commits).
        let changed = exec(tx, sql::MAKE_ACCOUNT, &[&hash, &id.0]).await?;
        if changed == 0 {
            return Err(StoreError::NotAGuest);
        }
    }
    player(tx, id).await
}

/// Gives each person stored without a look-alike key (players made before the key was kept)
/// its name's, in the order they were made: of two such players whose names look alike, the
/// older gets the key and the younger keeps its name without one (its next rename gives it one),
/// so no new name can look like either. Run in the migrations' transaction, after them.
pub(super) async fn fill_similar_keys(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let missing = rows(tx, sql::MISSING_SIMILAR_KEYS, &[]).await?;
    for r in missing {
        let (id, name): (i64, String) = (col(&r, 0)?, col(&r, 1)?);
        exec(tx, sql::FILL_SIMILAR_KEY, &[&similar_key(&name), &id]).await?;
    }
    Ok(())
}

/// The player of a session used within `SESSION_IDLE_MS` of `now`, the use written again if it
/// is `SESSION_RENEW_MS` old.
pub(super) async fn session(
    tx: &Transaction<'_>,
    hash: &str,
    now: i64,
) -> Result<Option<Player>, StoreError> {
    let Some(r) = row(tx, sql::SESSION, &[&hash, &(now - SESSION_IDLE_MS)]).await? else {
        return Ok(None);
    };
    let last_seen: i64 = col(&r, 4)?;
    if last_seen < now - SESSION_RENEW_MS {
        exec(tx, sql::TOUCH_SESSION, &[&now, &hash]).await?;
    }
    read_player_columns(&r, 0).map(Some)
}

fn read_standing(r: &Row, at: usize) -> Result<Standing, StoreError> {
    let count = |i: usize| -> Result<u32, StoreError> {
        let n: i32 = col(r, at + i)?;
        u32::try_from(n).map_err(|_| StoreError::Corrupt(format!("count {n}")))
    };
    Ok(Standing {
        rating: Rating {
            mu: col(r, at)?,
            sigma: col(r, at + 1)?,
        },
        games: count(2)?,
        wins: count(3)?,
        losses: count(4)?,
        draws: count(5)?,
    })
}

async fn standing(
    tx: &Transaction<'_>,
    player: PlayerId,
    game: &str,
) -> Result<Option<Standing>, StoreError> {
    row(tx, sql::STANDING, &[&player.0, &game])
        .await?
        .map(|r| read_standing(&r, 0))
        .transpose()
}

pub(super) async fn set_relation(
    tx: &Transaction<'_>,
    player: PlayerId,
    other: PlayerId,
    relation: Relation,
    on: bool,
    now: i64,
) -> Result<(), StoreError> {
    let word = relation.as_str();
    if on {
        exec(tx, sql::SET_RELATION, &[&player.0, &other.0, &word, &now]).await?;
    } else {
        exec(tx, sql::DROP_RELATION, &[&player.0, &other.0, &word]).await?;
    }
    Ok(())
}

pub(super) async fn relations(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<(Relation, Player)>, StoreError> {
    rows(tx, sql::RELATIONS, &[&player.0])
        .await?
        .iter()
        .map(|r| {
            let word: String = col(r, 0)?;
            let relation = Relation::parse(&word)
                .ok_or_else(|| StoreError::Corrupt(format!("relation `{word}`")))?;
            Ok((relation, read_player_columns(r, 1)?))
        })
        .collect()
}

pub(super) async fn sessions_of(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<(i64, i64)>, StoreError> {
    rows(tx, sql::SESSIONS_OF_PLAYER, &[&player.0])
        .await?
        .iter()
        .map(|r| {
            let created: i64 = col(r, 0)?;
            Ok((created, col::<Option<i64>>(r, 1)?.unwrap_or(created)))
        })
        .collect()
}

/// `Store::delete_player` in transaction `tx` (the check and the renaming first: a player
/// still playing, or a name taken, fails it before anything is deleted).
pub(super) async fn delete_player(
    tx: &Transaction<'_>,
    id: PlayerId,
    neutral: &str,
) -> Result<Player, StoreError> {
    // Checked in the deletion's own transaction, before anything is written.
    let unfinished: i64 = match row(tx, sql::UNFINISHED_OF_PLAYER, &[&id.0]).await? {
        Some(r) => col(&r, 0)?,
        None => 0,
    };
    if unfinished > 0 {
        return Err(StoreError::Playing);
    }
    exec(
        tx,
        sql::FORGET_PLAYER,
        &[&neutral, &name_key(neutral), &similar_key(neutral), &id.0],
    )
    .await?;
    for statement in sql::FORGET_PLAYER_ROWS {
        exec(tx, statement, &[&id.0]).await?;
    }
    player(tx, id).await
}

pub(super) async fn blocks_between(
    tx: &Transaction<'_>,
    a: PlayerId,
    b: PlayerId,
) -> Result<(bool, bool), StoreError> {
    let blockers: Vec<i64> = rows(tx, sql::BLOCKS_BETWEEN, &[&a.0, &b.0])
        .await?
        .iter()
        .map(|r| col(r, 0))
        .collect::<Result<_, _>>()?;
    Ok((blockers.contains(&a.0), blockers.contains(&b.0)))
}

pub(super) async fn standings(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<(String, Standing)>, StoreError> {
    rows(tx, sql::STANDINGS, &[&player.0])
        .await?
        .iter()
        .map(|r| Ok((col(r, 0)?, read_standing(r, 1)?)))
        .collect()
}

pub(super) async fn rating_events(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<RatingEvent>, StoreError> {
    let found = events(tx, sql::EVENTS_OF_PLAYER, &player.0).await?;
    Ok(found.into_iter().map(|(_, e)| e).collect())
}

pub(super) async fn match_rating_events(
    tx: &Transaction<'_>,
    id: &str,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    events(tx, sql::EVENTS_OF_MATCH, &id).await
}

/// The rating events `sql` (`sql::EVENTS_OF_PLAYER` or `EVENTS_OF_MATCH`) selects with `param`,
/// each with its player.
async fn events(
    tx: &Transaction<'_>,
    sql: &str,
    param: &(dyn tokio_postgres::types::ToSql + Sync),
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    let found = rows(tx, sql, &[param]).await?;
    found
        .iter()
        .map(|r| {
            let event = RatingEvent {
                game: col(r, 1)?,
                match_id: col(r, 2)?,
                at: col(r, 3)?,
                before: Rating {
                    mu: col(r, 4)?,
                    sigma: col(r, 5)?,
                },
                after: Rating {
                    mu: col(r, 6)?,
                    sigma: col(r, 7)?,
                },
            };
            Ok((PlayerId(col(r, 0)?), event))
        })
        .collect()
}

/// The best-rated people of `game` past their provisional games (`ratings::PROVISIONAL_GAMES`).
pub(super) async fn leaderboard(
    tx: &Transaction<'_>,
    game: &str,
    limit: usize,
) -> Result<Vec<(Player, Standing)>, StoreError> {
    let sql = sql::leaderboard(limit);
    rows(tx, &sql, &[&game])
        .await?
        .iter()
        .map(|r| Ok((read_player_columns(r, 0)?, read_standing(r, 4)?)))
        .collect()
}

/// In the transaction that finishes rated match `id`: the new rating of every seat's player
/// (`ratings::rate`), written with its counts, and one rating event per person. A casual match,
/// a seat without a player, or one player in two seats changes nothing.
///
/// The players' rows are locked first (in id order, so two finishing matches never wait for each
/// other in a circle): a player finishing two matches at once gets both changes, one after the
/// other, where reading both ratings before either write would lose one.
pub(super) async fn apply_ratings(
    tx: &Transaction<'_>,
    id: &str,
    finish: &Finish,
) -> Result<(), StoreError> {
    let r = row(tx, sql::GAME_AND_RATED, &[&id])
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("match {id}")))?;
    let (game, rated): (String, bool) = (col(&r, 0)?, col(&r, 1)?);
    if !rated {
        return Ok(());
    }
    if let Some(why) = finish.unrated {
        return mark_unrated(tx, id, why).await;
    }
    let seats = rows(tx, sql::SEATED_PLAYERS, &[&id]).await?;
    let mut ids: Vec<i64> = Vec::new();
    let mut seated = Vec::new();
    for r in &seats {
        let Some(player) = col::<Option<i64>>(r, 0)? else {
            return Ok(());
        };
        if ids.contains(&player) {
            return Ok(());
        }
        ids.push(player);
        seated.push((col::<Option<String>>(r, 1)?, col::<Option<String>>(r, 2)?));
    }
    rows(
        tx,
        "SELECT id FROM players WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        &[&ids],
    )
    .await?;
    let mut table = Vec::with_capacity(ids.len());
    for (player, (bot, kind)) in ids.iter().zip(&seated) {
        let before = standing(tx, PlayerId(*player), &game).await?;
        table.push(match (kind.as_deref(), bot) {
            (Some("bot"), Some(bot)) => (ratings::bot_anchor(&game, bot), Kind::Anchor),
            _ => (
                before.map_or_else(Rating::default, |s| s.rating),
                Kind::Person,
            ),
        });
    }
    if table.len() != finish.outcome.ranks.len() {
        return Err(StoreError::Corrupt(format!(
            "match {id}: {} seats but {} ranks",
            table.len(),
            finish.outcome.ranks.len()
        )));
    }
    let persons: Vec<bool> = table.iter().map(|(_, k)| *k == Kind::Person).collect();
    if daily_cap_reached(tx, &game, &ids, &persons, finish.at).await? {
        return mark_unrated(tx, id, Unrated::DailyCap).await;
    }
    let after = ratings::rate(&table, &finish.outcome.ranks);
    for (seat, ((before, kind), new)) in table.iter().zip(&after).enumerate() {
        let player = ids[seat];
        let (w, l, d): (i32, i32, i32) = match ratings::result_word(&finish.outcome.ranks, seat) {
            "win" => (1, 0, 0),
            "draw" => (0, 0, 1),
            _ => (0, 1, 0),
        };
        exec(
            tx,
            sql::ADD_RATING,
            &[&player, &game, &new.mu, &new.sigma, &w, &l, &d],
        )
        .await?;
        if *kind == Kind::Person {
            exec(
                tx,
                sql::INSERT_RATING_EVENT,
                &[
                    &player,
                    &game,
                    &id,
                    &finish.at,
                    &before.mu,
                    &before.sigma,
                    &new.mu,
                    &new.sigma,
                ],
            )
            .await?;
        }
    }
    Ok(())
}

/// Records why rated match `id` changed no rating.
async fn mark_unrated(tx: &Transaction<'_>, id: &str, why: Unrated) -> Result<(), StoreError> {
    exec(tx, sql::SET_UNRATED, &[&why.as_str(), &id]).await?;
    Ok(())
}

/// Whether two of the players `ids` (a person where `persons` says so) already had
/// `ratings::SAME_OPPONENT_PER_DAY` counted games of `game` together in the 24 hours before
/// `at`: the person's rating events in matches where the other sat.
async fn daily_cap_reached(
    tx: &Transaction<'_>,
    game: &str,
    ids: &[i64],
    persons: &[bool],
    at: i64,
) -> Result<bool, StoreError> {
    let since = at - ratings::CAP_WINDOW_MS;
    for (a, b) in ratings::capped_pairs(ids, persons) {
        let r = row(tx, sql::COUNTED_TOGETHER, &[&a, &b, &since, &game])
            .await?
            .ok_or_else(|| StoreError::Corrupt("COUNT gave no row".into()))?;
        let n: i64 = col(&r, 0)?;
        if usize::try_from(n).unwrap_or(usize::MAX) >= ratings::SAME_OPPONENT_PER_DAY {
            return Ok(true);
        }
    }
    Ok(false)
}
