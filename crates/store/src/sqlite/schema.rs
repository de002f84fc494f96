//! The SQLite file and its schema: each connection's settings (WAL, `synchronous = FULL`) and the
//! migrations, counted by `PRAGMA user_version`.

use std::path::Path;

use rusqlite::Connection;
use rusqlite::config::DbConfig;

use super::db;
use crate::StoreError;

/// The schema, one migration per entry; `PRAGMA user_version` counts those applied.
pub(super) const MIGRATIONS: &[&str] = &[
    r"
CREATE TABLE matches (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    config       TEXT NOT NULL,
    time_control TEXT NOT NULL,
    seed         TEXT NOT NULL,
    seed_hash    TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'live', 'finished')),
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    outcome      TEXT,
    rematch      TEXT
);
CREATE INDEX matches_by_status ON matches (status, created_at);
CREATE TABLE match_seats (
    match_id   TEXT NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot        TEXT,
    level      INTEGER,
    token_hash TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE actions (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL CHECK (actor IN ('seat', 'chance', 'end')),
    seat     INTEGER,
    action   TEXT NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
);
",
    // Players (guests, accounts, bots), sessions, ratings per game with their history, chat; the
    // player in each seat and whether it opened the match; rated matches and when they ended.
    r"
CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    kind          TEXT NOT NULL CHECK (kind IN ('guest', 'account', 'bot')),
    password_hash TEXT,
    created_at    INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL
);
CREATE TABLE ratings (
    player_id INTEGER NOT NULL REFERENCES players (id),
    game      TEXT NOT NULL,
    mu        REAL NOT NULL,
    sigma     REAL NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    draws     INTEGER NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_by_game ON ratings (game, mu);
CREATE TABLE rating_events (
    player_id    INTEGER NOT NULL REFERENCES players (id),
    game         TEXT NOT NULL,
    match_id     TEXT NOT NULL REFERENCES matches (id),
    at           INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    PRIMARY KEY (player_id, match_id)
);
CREATE TABLE chat (
    match_id  TEXT NOT NULL REFERENCES matches (id),
    seq       INTEGER NOT NULL,
    room      TEXT NOT NULL CHECK (room IN ('players', 'spectators')),
    player_id INTEGER NOT NULL REFERENCES players (id),
    seat      INTEGER,
    text      TEXT NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
);
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN ended_at INTEGER;
ALTER TABLE match_seats ADD COLUMN player_id INTEGER REFERENCES players (id);
ALTER TABLE match_seats ADD COLUMN opened INTEGER NOT NULL DEFAULT 0;
UPDATE match_seats SET opened = 1 WHERE kind = 'bot' OR token_hash IS NOT NULL;
CREATE INDEX seats_by_player ON match_seats (player_id);
",
    // The creating address's key (limits per address) and the bots-only mark.
    r"
ALTER TABLE matches ADD COLUMN creator TEXT;
ALTER TABLE matches ADD COLUMN bots_only INTEGER NOT NULL DEFAULT 0;
CREATE INDEX matches_by_creator ON matches (creator, status);
",
    // Replays of finished matches, computed once.
    r"
CREATE TABLE replays (
    match_id TEXT PRIMARY KEY REFERENCES matches (id),
    body     TEXT NOT NULL
);
",
    // Every document derived from a finished match (the replay, the analysis), by kind.
    r"
CREATE TABLE derived (
    match_id TEXT NOT NULL REFERENCES matches (id),
    kind     TEXT NOT NULL,
    body     TEXT NOT NULL,
    PRIMARY KEY (match_id, kind)
);
INSERT INTO derived (match_id, kind, body) SELECT match_id, 'replay', body FROM replays;
DROP TABLE replays;
",
    // The log's actor check as comparisons: SQLite checks `IN (three words)` by building a
    // temporary table at every insert, a tenth of the writer's work per decision.
    r"
CREATE TABLE actions_checked (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL CHECK (actor = 'seat' OR actor = 'chance' OR actor = 'end'),
    seat     INTEGER,
    action   TEXT NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO actions_checked SELECT match_id, seq, actor, seat, action, at_ms FROM actions;
DROP TABLE actions;
ALTER TABLE actions_checked RENAME TO actions;
",
    // Why a rated match changed no rating; when a session was last used (sessions expire); the
    // look-alike key of each person's name, unique (filled for existing players by
    // `players::fill_similar_keys`).
    r"
ALTER TABLE matches ADD COLUMN unrated TEXT;
ALTER TABLE sessions ADD COLUMN last_seen INTEGER;
UPDATE sessions SET last_seen = created_at;
ALTER TABLE players ADD COLUMN similar_key TEXT;
CREATE UNIQUE INDEX players_by_similar_key ON players (similar_key);
",
    // Who follows or blocks whom (docs/protocol.md section 7.8): one relation per pair.
    r"
CREATE TABLE relations (
    player_id INTEGER NOT NULL REFERENCES players (id),
    other_id  INTEGER NOT NULL REFERENCES players (id),
    kind      TEXT NOT NULL CHECK (kind = 'follow' OR kind = 'block'),
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (player_id, other_id)
);
",
    // Tournaments (docs/tournaments.md): settings and state as the server writes them.
    r"
CREATE TABLE tournaments (
    id         TEXT PRIMARY KEY,
    creator_id INTEGER NOT NULL REFERENCES players (id),
    status     TEXT NOT NULL CHECK (status IN ('live', 'finished')),
    starts_at  INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    settings   TEXT NOT NULL,
    state      TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (creator_id, created_at);
",
    // Who joined which tournament, for the players' pages (docs/protocol.md section 7.9).
    r"
CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_entrants_by_player ON tournament_entrants (player_id);
",
    // Moderation (docs/protocol.md section 7.11): a player's role, mute, ban and the warnings
    // it has read; the reports players file; the audit log of moderator actions.
    r"
ALTER TABLE players ADD COLUMN role TEXT CHECK (role = 'moderator');
ALTER TABLE players ADD COLUMN muted_until INTEGER;
ALTER TABLE players ADD COLUMN banned_until INTEGER;
ALTER TABLE players ADD COLUMN warned_seen INTEGER NOT NULL DEFAULT 0;
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    reporter_id INTEGER NOT NULL REFERENCES players (id),
    reported_id INTEGER NOT NULL REFERENCES players (id),
    reason      TEXT NOT NULL,
    text        TEXT NOT NULL,
    match_id    TEXT REFERENCES matches (id),
    chat_seq    INTEGER,
    status      TEXT NOT NULL CHECK (status = 'open' OR status = 'resolved' OR status = 'dismissed'),
    handled_by  INTEGER REFERENCES players (id),
    handled_at  INTEGER
);
CREATE INDEX reports_by_status ON reports (status, id);
CREATE TABLE moderation_log (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    moderator_id INTEGER REFERENCES players (id),
    action       TEXT NOT NULL,
    target_id    INTEGER REFERENCES players (id),
    target_name  TEXT,
    match_id     TEXT REFERENCES matches (id),
    report_id    INTEGER REFERENCES reports (id),
    until        INTEGER,
    detail       TEXT,
    reason       TEXT NOT NULL
);
CREATE INDEX moderation_log_by_target ON moderation_log (target_id, action);
",
    // The log as one b-tree keyed by (match, seq): a table with a rowid kept each entry twice, in
    // the table and in its key's index, and each commit wrote both pages to the write-ahead log.
    r"
CREATE TABLE actions_keyed (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL CHECK (actor = 'seat' OR actor = 'chance' OR actor = 'end'),
    seat     INTEGER,
    action   TEXT NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
INSERT INTO actions_keyed SELECT match_id, seq, actor, seat, action, at_ms FROM actions;
DROP TABLE actions;
ALTER TABLE actions_keyed RENAME TO actions;
",
];

/// A connection to the file at `path` in WAL mode with `synchronous = FULL`.
pub(super) fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(db)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(db)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(db)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(db)?;
    // One plan per statement, whatever values are bound: otherwise a statement whose plan may
    // depend on a bound `LIMIT` is marked stale each time the statement cache clears its
    // bindings, and each once-a-second read (the tournaments, the moderation log) is compiled
    // again at every use.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .map_err(db)?;
    Ok(conn)
}

pub(super) fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let applied: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(db)?;
    let applied = usize::try_from(applied).unwrap_or(0);
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;",
            i + 1
        ))
        .map_err(db)?;
    }
    Ok(())
}
