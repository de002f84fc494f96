//! Players, sessions and ratings in PostgreSQL (the SQL of `store::sqlite::players`).

use deadpool_postgres::Transaction;
use tokio_postgres::Row;

use super::{col, exec, row, rows};
use crate::players::{Player, PlayerId, PlayerKind, bot_name, name_key};
use crate::ratings::{self, Kind, Rating};
use crate::store::{Finish, PlayerSecret, RatingEvent, Standing, StoreError};

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

const PLAYER_COLUMNS: &str = "p.id, p.name, p.kind, p.created_at";

async fn player(tx: &Transaction<'_>, id: PlayerId) -> Result<Player, StoreError> {
    let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.id = $1");
    match row(tx, &sql, &[&id.0]).await? {
        Some(r) => read_player_columns(&r, 0),
        None => Err(StoreError::Database(format!("no player {}", id.0))),
    }
}

pub(super) async fn create_player(
    tx: &Transaction<'_>,
    name: &str,
    kind: PlayerKind,
    password_hash: Option<&str>,
    now: i64,
) -> Result<Player, StoreError> {
    let r = row(
        tx,
        "INSERT INTO players (name, name_key, kind, password_hash, created_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
        &[&name, &name_key(name), &kind.as_str(), &password_hash, &now],
    )
    .await?
    .ok_or_else(|| StoreError::Database("INSERT ... RETURNING gave no row".into()))?;
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
        None => Err(StoreError::Database(format!(
            "bot player `{name}` not found"
        ))),
    }
}

pub(super) async fn player_by_name(
    tx: &Transaction<'_>,
    name: &str,
) -> Result<Option<PlayerSecret>, StoreError> {
    let sql =
        format!("SELECT {PLAYER_COLUMNS}, p.password_hash FROM players p WHERE p.name_key = $1");
    match row(tx, &sql, &[&name_key(name)]).await? {
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
        exec(
            tx,
            "UPDATE players SET name = $1, name_key = $2 WHERE id = $3",
            &[&name, &name_key(name), &id.0],
        )
        .await?;
    }
    if let Some(hash) = password_hash {
        exec(
            tx,
            "UPDATE players SET password_hash = $1, kind = 'account' WHERE id = $2",
            &[&hash, &id.0],
        )
        .await?;
    }
    player(tx, id).await
}

pub(super) async fn session(
    tx: &Transaction<'_>,
    hash: &str,
) -> Result<Option<Player>, StoreError> {
    let sql = format!(
        "SELECT {PLAYER_COLUMNS} FROM sessions s JOIN players p ON p.id = s.player_id \
         WHERE s.token_hash = $1"
    );
    row(tx, &sql, &[&hash])
        .await?
        .map(|r| read_player_columns(&r, 0))
        .transpose()
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

const STANDING_COLUMNS: &str = "r.mu, r.sigma, r.games, r.wins, r.losses, r.draws";

async fn standing(
    tx: &Transaction<'_>,
    player: PlayerId,
    game: &str,
) -> Result<Option<Standing>, StoreError> {
    let sql =
        format!("SELECT {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = $1 AND r.game = $2");
    row(tx, &sql, &[&player.0, &game])
        .await?
        .map(|r| read_standing(&r, 0))
        .transpose()
}

pub(super) async fn standings(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<(String, Standing)>, StoreError> {
    let sql = format!(
        "SELECT r.game, {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = $1 ORDER BY r.game"
    );
    rows(tx, &sql, &[&player.0])
        .await?
        .iter()
        .map(|r| Ok((col(r, 0)?, read_standing(r, 1)?)))
        .collect()
}

pub(super) async fn rating_events(
    tx: &Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<RatingEvent>, StoreError> {
    let found = events(tx, "player_id = $1 ORDER BY at, match_id", &player.0).await?;
    Ok(found.into_iter().map(|(_, e)| e).collect())
}

pub(super) async fn match_rating_events(
    tx: &Transaction<'_>,
    id: &str,
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    events(tx, "match_id = $1 ORDER BY player_id", &id).await
}

/// The rating events `filter` (a condition on `$1`, `param`, and an order) selects, each with
/// its player.
async fn events(
    tx: &Transaction<'_>,
    filter: &str,
    param: &(dyn tokio_postgres::types::ToSql + Sync),
) -> Result<Vec<(PlayerId, RatingEvent)>, StoreError> {
    let sql = format!(
        "SELECT player_id, game, match_id, at, mu_before, sigma_before, mu, sigma \
         FROM rating_events WHERE {filter}"
    );
    let found = rows(tx, &sql, &[param]).await?;
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

pub(super) async fn leaderboard(
    tx: &Transaction<'_>,
    game: &str,
    limit: usize,
) -> Result<Vec<(Player, Standing)>, StoreError> {
    let sql = format!(
        "SELECT {PLAYER_COLUMNS}, {STANDING_COLUMNS} FROM ratings r \
         JOIN players p ON p.id = r.player_id \
         WHERE r.game = $1 AND p.kind <> 'bot' ORDER BY r.mu DESC, p.name_key LIMIT {limit}"
    );
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
    let r = row(tx, "SELECT game, rated FROM matches WHERE id = $1", &[&id])
        .await?
        .ok_or_else(|| StoreError::Database(format!("no match {id}")))?;
    let (game, rated): (String, bool) = (col(&r, 0)?, col(&r, 1)?);
    if !rated {
        return Ok(());
    }
    let seats = rows(
        tx,
        "SELECT s.player_id, s.bot, p.kind FROM match_seats s \
         LEFT JOIN players p ON p.id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat",
        &[&id],
    )
    .await?;
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
            "INSERT INTO ratings (player_id, game, mu, sigma, games, wins, losses, draws) \
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7) \
             ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, \
             sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + $5, \
             losses = ratings.losses + $6, draws = ratings.draws + $7",
            &[&player, &game, &new.mu, &new.sigma, &w, &l, &d],
        )
        .await?;
        if *kind == Kind::Person {
            exec(
                tx,
                "INSERT INTO rating_events (player_id, game, match_id, at, mu_before, \
                 sigma_before, mu, sigma) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
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
