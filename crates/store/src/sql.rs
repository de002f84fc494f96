//! The statements SQLite and PostgreSQL run in the same words, one text for each, used by both
//! backends (what differs stays with its backend: see the crate's doc).
//!
//! Placeholders are PostgreSQL's `$N`. SQLite reads `$N` as a named parameter, and numbers its
//! parameters in the order they first appear; so each text here brings in `$1`, `$2`, ... in
//! that order (a later `$1` is the same parameter again), and a backend binds its values by
//! position on either database. The test at the end checks every text for it.

use crate::ratings::PROVISIONAL_GAMES;

/// A match's columns, as `read_match` reads them (over `matches m`): the last but one is the
/// length of its log.
macro_rules! match_columns {
    () => {
        "id, game, config, time_control, seed, status, created_at, started_at, outcome, \
         rematch, rated, ended_at, creator, \
         (SELECT COUNT(*) FROM actions a WHERE a.match_id = m.id), unrated"
    };
}

/// A player's four columns `id, name, kind, created_at` (over `players p`).
macro_rules! player_columns {
    () => {
        "p.id, p.name, p.kind, p.created_at"
    };
}

/// A standing's six columns (over `ratings r`).
macro_rules! standing_columns {
    () => {
        "r.mu, r.sigma, r.games, r.wins, r.losses, r.draws"
    };
}

/// One match, by id.
pub(crate) const MATCH: &str =
    concat!("SELECT ", match_columns!(), " FROM matches m WHERE id = $1");

/// One match, by id, with its seats as `SEATS` reads them: a row per seat in order (one row, its
/// seat's columns null, for a match without seats). PostgreSQL's read of a match without its
/// log, in one statement rather than a transaction of two.
pub(crate) const SEATED_MATCH: &str = concat!(
    "SELECT one.*, s.kind, s.bot, s.level, s.token_hash, s.opened, ",
    player_columns!(),
    " FROM (SELECT ",
    match_columns!(),
    " FROM matches m WHERE id = $1) AS one \
     LEFT JOIN match_seats s ON s.match_id = one.id \
     LEFT JOIN players p ON p.id = s.player_id ORDER BY s.seat"
);

/// The matches `filter` selects (SQL after `WHERE`, over `m`; its one parameter, if any, `$1`),
/// in `order`, at most `limit`.
pub(crate) fn matches_where(filter: &str, order: &str, limit: usize) -> String {
    concat!(
        "SELECT ",
        match_columns!(),
        " FROM matches m WHERE {} ORDER BY {} LIMIT {}"
    )
    .replacen("{}", filter, 1)
    .replacen("{}", order, 1)
    .replacen("{}", &limit.to_string(), 1)
}

/// The filter of `matches_where` for the matches player `$1` sits in.
pub(crate) const OF_PLAYER: &str =
    "m.id IN (SELECT match_id FROM match_seats WHERE player_id = $1)";

/// The open matches created before `$1` that never started, by id.
pub(crate) const EXPIRED_OPEN: &str = "SELECT id FROM matches m WHERE status = 'open' AND created_at < $1 \
     AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.match_id = m.id) ORDER BY id";

/// A new player; gives its id.
pub(crate) const INSERT_PLAYER: &str = "INSERT INTO players (name, name_key, similar_key, kind, password_hash, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";

/// One player, by id.
pub(crate) const PLAYER: &str = concat!(
    "SELECT ",
    player_columns!(),
    " FROM players p WHERE p.id = $1"
);

/// One player and its password hash, by its name's key.
pub(crate) const PLAYER_BY_NAME: &str = concat!(
    "SELECT ",
    player_columns!(),
    ", p.password_hash FROM players p WHERE p.name_key = $1"
);

/// The player a session names and the session's last use, unless unused since `$2`.
pub(crate) const SESSION: &str = concat!(
    "SELECT ",
    player_columns!(),
    ", s.last_seen FROM sessions s JOIN players p ON p.id = s.player_id \
     WHERE s.token_hash = $1 AND s.last_seen > $2"
);

/// A player's standing in one game.
pub(crate) const STANDING: &str = concat!(
    "SELECT ",
    standing_columns!(),
    " FROM ratings r WHERE r.player_id = $1 AND r.game = $2"
);

/// A player's standings, by game.
pub(crate) const STANDINGS: &str = concat!(
    "SELECT r.game, ",
    standing_columns!(),
    " FROM ratings r WHERE r.player_id = $1 ORDER BY r.game"
);

/// The rating events' columns, each with its player.
macro_rules! rating_events {
    () => {
        "SELECT player_id, game, match_id, at, mu_before, sigma_before, mu, sigma \
         FROM rating_events"
    };
}

/// A player's rating events, oldest first.
pub(crate) const EVENTS_OF_PLAYER: &str = concat!(
    rating_events!(),
    " WHERE player_id = $1 ORDER BY at, match_id"
);

/// The rating events of one match, by player.
pub(crate) const EVENTS_OF_MATCH: &str =
    concat!(rating_events!(), " WHERE match_id = $1 ORDER BY player_id");

/// The `limit` best-rated people of game `$1` past their provisional games.
pub(crate) fn leaderboard(limit: usize) -> String {
    format!(
        concat!(
            "SELECT ",
            player_columns!(),
            ", ",
            standing_columns!(),
            " FROM ratings r JOIN players p ON p.id = r.player_id \
             WHERE r.game = $1 AND p.kind <> 'bot' AND r.games >= {} \
             ORDER BY r.mu DESC, p.name_key LIMIT {}"
        ),
        PROVISIONAL_GAMES, limit
    )
}

/// A match's seats, each with its player.
pub(crate) const SEATS: &str = "SELECT s.kind, s.bot, s.level, s.token_hash, s.opened, p.id, p.name, p.kind, \
     p.created_at FROM match_seats s LEFT JOIN players p ON p.id = s.player_id WHERE \
     s.match_id = $1 ORDER BY s.seat";

/// A match's log, in order.
pub(crate) const LOG: &str =
    "SELECT seq, actor, seat, action, at_ms FROM actions WHERE match_id = $1 ORDER BY seq";

/// A match's chat, in order, each line with its writer.
pub(crate) const CHAT: &str = "SELECT c.seq, c.room, c.seat, c.text, c.at, p.id, p.name, p.kind, p.created_at FROM chat \
     c JOIN players p ON p.id = c.player_id WHERE c.match_id = $1 ORDER BY c.seq";

/// The chat lines player `$1` wrote, oldest first: the columns of `CHAT`, then the match's id.
pub(crate) const CHAT_OF_PLAYER: &str = "SELECT c.seq, c.room, c.seat, c.text, c.at, p.id, p.name, p.kind, p.created_at, \
     c.match_id FROM chat c JOIN players p ON p.id = c.player_id WHERE c.player_id = $1 \
     ORDER BY c.at, c.match_id, c.seq";

/// The sessions of player `$1`: when each began and was last used, oldest first.
pub(crate) const SESSIONS_OF_PLAYER: &str =
    "SELECT created_at, last_seen FROM sessions WHERE player_id = $1 ORDER BY created_at";

/// How many matches not finished player `$1` sits at.
pub(crate) const UNFINISHED_OF_PLAYER: &str = "SELECT COUNT(*) FROM match_seats s JOIN matches m \
     ON m.id = s.match_id WHERE s.player_id = $1 AND m.status <> 'finished'";

/// A deleted player's row keeps its id (its seats in others' matches) under a neutral name
/// `$1` with its keys, and loses its password.
pub(crate) const FORGET_PLAYER: &str = "UPDATE players SET name = $1, name_key = $2, similar_key = $3, \
     password_hash = NULL WHERE id = $4";

/// What a deleted player `$1` leaves nowhere: its sessions, ratings, rating changes, follows
/// and blocks either way, and chat lines; its role and mute; the open reports about it (nothing
/// is left to act on; those handled stay with the audit entries that name them). The audit log
/// names it by its neutral name from then on, a rename's new name too (run after
/// `FORGET_PLAYER`). Its ban, the reports it filed and the audit entries stay: the operator's
/// record (`Store::delete_player`, docs/deploy.md "Players' data").
pub(crate) const FORGET_PLAYER_ROWS: [&str; 8] = [
    "DELETE FROM sessions WHERE player_id = $1",
    "DELETE FROM ratings WHERE player_id = $1",
    "DELETE FROM rating_events WHERE player_id = $1",
    "DELETE FROM relations WHERE player_id = $1 OR other_id = $1",
    "DELETE FROM chat WHERE player_id = $1",
    "UPDATE players SET role = NULL, muted_until = NULL WHERE id = $1",
    "DELETE FROM reports WHERE reported_id = $1 AND status = 'open' AND id NOT IN \
     (SELECT report_id FROM moderation_log WHERE report_id IS NOT NULL)",
    "UPDATE moderation_log SET target_name = (SELECT name FROM players WHERE id = $1), \
     detail = CASE WHEN action = 'rename' THEN (SELECT name FROM players WHERE id = $1) \
     ELSE detail END WHERE target_id = $1",
];

/// The live matches whose time control is not `$1` (no clock), oldest first.
pub(crate) const LIVE_WITH_CLOCK: &str =
    "SELECT id FROM matches WHERE status = 'live' AND time_control <> $1 ORDER BY created_at";

/// A new match (no outcome, no rematch yet).
pub(crate) const INSERT_MATCH: &str = "INSERT INTO matches (id, game, config, time_control, seed, seed_hash, status, \
     created_at, started_at, outcome, rematch, rated, creator, bots_only) VALUES ($1, $2, $3, \
     $4, $5, $6, $7, $8, $9, NULL, NULL, $10, $11, $12)";

/// One seat of a new match.
pub(crate) const INSERT_SEAT: &str = "INSERT INTO match_seats (match_id, seat, kind, bot, level, token_hash, player_id, \
     opened) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// A free human seat taken: nothing changes when it is not free.
pub(crate) const TAKE_SEAT: &str = "UPDATE match_seats SET token_hash = $1, player_id = $2 WHERE match_id = $3 AND seat = $4 \
     AND kind = 'human' AND token_hash IS NULL";

/// An open match made live.
pub(crate) const START: &str =
    "UPDATE matches SET status = 'live', started_at = $1 WHERE id = $2 AND status = 'open'";

/// A match finished with its outcome.
pub(crate) const FINISH: &str =
    "UPDATE matches SET status = 'finished', outcome = $1, ended_at = $2 WHERE id = $3";

/// A takeback's cut of a live match's log.
pub(crate) const TAKE_BACK: &str = "DELETE FROM actions WHERE match_id = $1 AND seq >= $2 AND EXISTS (SELECT 1 FROM matches \
     WHERE id = $1 AND status = 'live')";

/// A match's rematch.
pub(crate) const SET_REMATCH: &str = "UPDATE matches SET rematch = $1 WHERE id = $2";

/// A chat line.
pub(crate) const INSERT_CHAT: &str = "INSERT INTO chat (match_id, seq, room, player_id, seat, text, at) VALUES ($1, $2, $3, \
     $4, $5, $6, $7)";

/// A person renamed, with the keys of the new name.
pub(crate) const RENAME_PLAYER: &str =
    "UPDATE players SET name = $1, name_key = $2, similar_key = $3 WHERE id = $4";

/// A guest made an account: nothing changes for a player that is no guest.
pub(crate) const MAKE_ACCOUNT: &str =
    "UPDATE players SET password_hash = $1, kind = 'account' WHERE id = $2 AND kind = 'guest'";

/// The people stored before their names' look-alike keys.
pub(crate) const MISSING_SIMILAR_KEYS: &str =
    "SELECT id, name FROM players WHERE similar_key IS NULL AND kind <> 'bot' ORDER BY id";

/// A person's look-alike key, unless another person has it already.
pub(crate) const FILL_SIMILAR_KEY: &str = "UPDATE players SET similar_key = $1 WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM players \
     WHERE similar_key = $1)";

/// A new session, used now.
pub(crate) const INSERT_SESSION: &str = "INSERT INTO sessions (token_hash, player_id, created_at, last_seen) VALUES ($1, $2, $3, \
     $3)";

/// A session's last use.
pub(crate) const TOUCH_SESSION: &str = "UPDATE sessions SET last_seen = $1 WHERE token_hash = $2";

/// A session ended.
pub(crate) const DELETE_SESSION: &str = "DELETE FROM sessions WHERE token_hash = $1";

/// A match's game and whether it is rated.
pub(crate) const GAME_AND_RATED: &str = "SELECT game, rated FROM matches WHERE id = $1";

/// The player, bot and kind of each seat of a match, in seat order.
pub(crate) const SEATED_PLAYERS: &str = "SELECT s.player_id, s.bot, p.kind FROM match_seats s LEFT JOIN players p ON p.id = \
     s.player_id WHERE s.match_id = $1 ORDER BY s.seat";

/// A player's new rating in a game, with one more game counted.
pub(crate) const ADD_RATING: &str = "INSERT INTO ratings (player_id, game, mu, sigma, games, wins, losses, draws) VALUES ($1, \
     $2, $3, $4, 1, $5, $6, $7) ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, \
     sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + $5, losses = \
     ratings.losses + $6, draws = ratings.draws + $7";

/// One change of a rating.
pub(crate) const INSERT_RATING_EVENT: &str = "INSERT INTO rating_events (player_id, game, match_id, at, mu_before, sigma_before, mu, \
     sigma) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// Why a rated match changed no rating.
pub(crate) const SET_UNRATED: &str = "UPDATE matches SET unrated = $1 WHERE id = $2";

/// The counted games of a game two players had together since a time.
pub(crate) const COUNTED_TOGETHER: &str = "SELECT COUNT(*) FROM rating_events e JOIN match_seats s ON s.match_id = e.match_id WHERE \
     e.player_id = $1 AND s.player_id = $2 AND e.at > $3 AND e.game = $4";

/// A finished match's document of a kind.
pub(crate) const DERIVED: &str = "SELECT body FROM derived WHERE match_id = $1 AND kind = $2";

/// A finished match's document of a kind; a second one is ignored.
pub(crate) const INSERT_DERIVED: &str =
    "INSERT INTO derived (match_id, kind, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

/// `$1`'s relation to `$2` becomes `$3` (replacing the one it had), since `$4`.
pub(crate) const SET_RELATION: &str = "INSERT INTO relations (player_id, other_id, kind, at_ms) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (player_id, other_id) DO UPDATE SET kind = excluded.kind, at_ms = excluded.at_ms";

/// `$1`'s relation `$3` to `$2` ends (another relation stays).
pub(crate) const DROP_RELATION: &str =
    "DELETE FROM relations WHERE player_id = $1 AND other_id = $2 AND kind = $3";

/// The relations of player `$1`: the word, then the other player, by name.
pub(crate) const RELATIONS: &str = concat!(
    "SELECT r.kind, ",
    player_columns!(),
    " FROM relations r JOIN players p ON p.id = r.other_id WHERE r.player_id = $1 ORDER BY p.name_key"
);

/// Which of `$1` and `$2` blocks the other: the blocker's id, a row each.
pub(crate) const BLOCKS_BETWEEN: &str = "SELECT player_id FROM relations WHERE kind = 'block' \
     AND ((player_id = $1 AND other_id = $2) OR (player_id = $2 AND other_id = $1))";

/// A new tournament: id, creator, status, start, creation, settings, state.
pub(crate) const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments \
     (id, creator_id, status, starts_at, created_at, settings, state) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Tournament `$3`'s status becomes `$1` and its state `$2`, if its version is still `$4` (what
/// its writer read): the version goes one up, so of two writers who read the same version only
/// the first changes the row.
pub(crate) const SAVE_TOURNAMENT: &str = "UPDATE tournaments SET status = $1, state = $2, \
     version = version + 1 WHERE id = $3 AND version = $4";

/// The columns of a tournament, in `StoredTournament`'s order.
macro_rules! tournament_columns {
    () => {
        "id, creator_id, status, starts_at, created_at, settings, state, version"
    };
}

/// Tournament `$1`.
pub(crate) const TOURNAMENT: &str = concat!(
    "SELECT ",
    tournament_columns!(),
    " FROM tournaments WHERE id = $1"
);

/// The tournaments of status `$1`, latest start first, at most `$2`.
pub(crate) const TOURNAMENTS: &str = concat!(
    "SELECT ",
    tournament_columns!(),
    " FROM tournaments WHERE status = $1 ORDER BY starts_at DESC, id LIMIT $2"
);

/// Tournament `$2`'s settings become `$1` (only a deleted creator's name changes them).
pub(crate) const SET_TOURNAMENT_SETTINGS: &str =
    "UPDATE tournaments SET settings = $1 WHERE id = $2";

/// Player `$2` joined tournament `$1` (again: nothing changes).
pub(crate) const ADD_ENTRANT: &str = "INSERT INTO tournament_entrants (tournament_id, player_id) \
     VALUES ($1, $2) ON CONFLICT DO NOTHING";

/// The tournaments player `$1` joined, latest start first, at most `$2`.
pub(crate) const PLAYER_TOURNAMENTS: &str = concat!(
    "SELECT ",
    tournament_columns!(),
    " FROM tournaments JOIN tournament_entrants ON tournament_id = id \
     WHERE player_id = $1 ORDER BY starts_at DESC, id LIMIT $2"
);

/// The id and version of the tournaments of status `$1`, latest start first, at most `$2`: what
/// a node following tournaments reads each second to learn which changed, without their state.
pub(crate) const TOURNAMENT_VERSIONS: &str = "SELECT id, version FROM tournaments \
     WHERE status = $1 ORDER BY starts_at DESC, id LIMIT $2";

/// How many tournaments player `$1` created since `$2` (Unix ms).
pub(crate) const TOURNAMENTS_CREATED: &str =
    "SELECT COUNT(*) FROM tournaments WHERE creator_id = $1 AND created_at >= $2";

/// Whether the database answers.
pub(crate) const PING: &str = "SELECT 1";

/// A player's mute (`$1`: until, unix ms, or NULL).
pub(crate) const SET_MUTED: &str = "UPDATE players SET muted_until = $1 WHERE id = $2";

/// A player's ban (`$1`: until, unix ms, or NULL).
pub(crate) const SET_BANNED: &str = "UPDATE players SET banned_until = $1 WHERE id = $2";

/// A player's role (`$1`: the word, or NULL); only an account gets one.
pub(crate) const SET_ROLE: &str =
    "UPDATE players SET role = $1 WHERE id = $2 AND (kind = 'account' OR CAST($1 AS TEXT) IS NULL)";

/// An open report handled: its status, by whom, when.
pub(crate) const HANDLE_REPORT: &str = "UPDATE reports SET status = $1, handled_by = $2, handled_at = $3 \
     WHERE id = $4 AND status = 'open'";

/// A moderator action's audit entry, with the target's name as it is before the action.
pub(crate) const INSERT_AUDIT: &str = "INSERT INTO moderation_log \
     (at, moderator_id, action, target_id, match_id, report_id, until, detail, reason, target_name) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT name FROM players WHERE id = $4)) \
     RETURNING id";

/// The columns of an audit entry (over `moderation_log l`), as `moderation::audit_entry` takes
/// them: id, at, the moderator's name, the action, the target's id and name then, the match,
/// the report, until, detail, reason.
macro_rules! audit_columns {
    () => {
        "SELECT l.id, l.at, mp.name, l.action, l.target_id, l.target_name, l.match_id, \
         l.report_id, l.until, l.detail, l.reason FROM moderation_log l \
         LEFT JOIN players mp ON mp.id = l.moderator_id"
    };
}

/// One audit entry by id.
pub(crate) const AUDIT_ENTRY: &str = concat!(audit_columns!(), " WHERE l.id = $1");

/// The latest audit entries, newest first.
pub(crate) const AUDIT_LATEST: &str = concat!(audit_columns!(), " ORDER BY l.id DESC LIMIT $1");

/// The audit entries after id `$1`, oldest first.
pub(crate) const AUDIT_AFTER: &str =
    concat!(audit_columns!(), " WHERE l.id > $1 ORDER BY l.id LIMIT $2");

/// A player's warnings after id `$2` (those it acknowledged end there), oldest first.
pub(crate) const WARNINGS: &str = concat!(
    audit_columns!(),
    " WHERE l.target_id = $1 AND l.action = 'warn' AND l.id > $2 ORDER BY l.id"
);

/// A player's role, mute, ban and the last warning it acknowledged.
pub(crate) const MODERATION_STANDING: &str =
    "SELECT role, muted_until, banned_until, warned_seen FROM players WHERE id = $1";

/// The warnings a player acknowledged, up to id `$1`.
pub(crate) const ACK_WARNINGS: &str =
    "UPDATE players SET warned_seen = $1 WHERE id = $2 AND warned_seen < $1";

/// The players muted or banned after `$1` (unix ms): id, muted until, banned until.
pub(crate) const SANCTIONED: &str = "SELECT id, muted_until, banned_until FROM players \
     WHERE muted_until > $1 OR banned_until > $1 ORDER BY id";

/// The reports player `$1` filed, oldest first, with the reported player's name now.
pub(crate) const FILED_REPORTS: &str = "SELECT r.id, r.at, tp.name, r.reason, r.text, r.match_id, \
     r.chat_seq, r.status FROM reports r JOIN players tp ON tp.id = r.reported_id \
     WHERE r.reporter_id = $1 ORDER BY r.id";

/// A new report; its id.
pub(crate) const INSERT_REPORT: &str = "INSERT INTO reports \
     (at, reporter_id, reported_id, reason, text, match_id, chat_seq, status) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open') RETURNING id";

/// The open reports, oldest first, with the names and the chat line they point at.
pub(crate) const OPEN_REPORTS: &str = "SELECT r.id, r.at, rp.name, r.reported_id, tp.name, r.reason, \
     r.text, r.match_id, r.chat_seq, c.text FROM reports r \
     JOIN players rp ON rp.id = r.reporter_id JOIN players tp ON tp.id = r.reported_id \
     LEFT JOIN chat c ON c.match_id = r.match_id AND c.seq = r.chat_seq \
     WHERE r.status = 'open' ORDER BY r.id LIMIT $1";

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of the `$N` placeholders of `sql`, in the order they appear.
    fn placeholders(sql: &str) -> Vec<usize> {
        let mut found = Vec::new();
        let mut rest = sql;
        while let Some(at) = rest.find('$') {
            rest = &rest[at + 1..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            found.push(digits.parse().expect("a `$` starts a placeholder"));
        }
        found
    }

    /// Every shared text prepares on SQLite with its parameters numbered as PostgreSQL numbers
    /// them (`$n` is the `n`-th value bound), so both backends bind the same values by position.
    /// (PostgreSQL runs every text in the store's tests.)
    #[test]
    fn placeholders_are_numbered_in_the_order_they_first_appear() {
        let texts = [
            MATCH.to_owned(),
            SEATED_MATCH.to_owned(),
            matches_where(OF_PLAYER, "m.id", 3),
            EXPIRED_OPEN.to_owned(),
            INSERT_PLAYER.to_owned(),
            PLAYER.to_owned(),
            PLAYER_BY_NAME.to_owned(),
            SESSION.to_owned(),
            STANDING.to_owned(),
            STANDINGS.to_owned(),
            EVENTS_OF_PLAYER.to_owned(),
            EVENTS_OF_MATCH.to_owned(),
            leaderboard(10),
            SEATS.to_owned(),
            LOG.to_owned(),
            CHAT.to_owned(),
            CHAT_OF_PLAYER.to_owned(),
            SET_TOURNAMENT_SETTINGS.to_owned(),
            SESSIONS_OF_PLAYER.to_owned(),
            FORGET_PLAYER.to_owned(),
            UNFINISHED_OF_PLAYER.to_owned(),
            LIVE_WITH_CLOCK.to_owned(),
            INSERT_MATCH.to_owned(),
            INSERT_SEAT.to_owned(),
            TAKE_SEAT.to_owned(),
            START.to_owned(),
            FINISH.to_owned(),
            TAKE_BACK.to_owned(),
            SET_REMATCH.to_owned(),
            INSERT_CHAT.to_owned(),
            RENAME_PLAYER.to_owned(),
            MAKE_ACCOUNT.to_owned(),
            MISSING_SIMILAR_KEYS.to_owned(),
            FILL_SIMILAR_KEY.to_owned(),
            INSERT_SESSION.to_owned(),
            TOUCH_SESSION.to_owned(),
            DELETE_SESSION.to_owned(),
            GAME_AND_RATED.to_owned(),
            SEATED_PLAYERS.to_owned(),
            ADD_RATING.to_owned(),
            INSERT_RATING_EVENT.to_owned(),
            SET_UNRATED.to_owned(),
            COUNTED_TOGETHER.to_owned(),
            DERIVED.to_owned(),
            INSERT_DERIVED.to_owned(),
            PING.to_owned(),
            SET_RELATION.to_owned(),
            DROP_RELATION.to_owned(),
            RELATIONS.to_owned(),
            BLOCKS_BETWEEN.to_owned(),
            INSERT_TOURNAMENT.to_owned(),
            SAVE_TOURNAMENT.to_owned(),
            TOURNAMENT.to_owned(),
            TOURNAMENTS.to_owned(),
            TOURNAMENTS_CREATED.to_owned(),
            ADD_ENTRANT.to_owned(),
            PLAYER_TOURNAMENTS.to_owned(),
            SET_MUTED.to_owned(),
            SET_BANNED.to_owned(),
            SET_ROLE.to_owned(),
            HANDLE_REPORT.to_owned(),
            INSERT_AUDIT.to_owned(),
            AUDIT_ENTRY.to_owned(),
            AUDIT_LATEST.to_owned(),
            AUDIT_AFTER.to_owned(),
            WARNINGS.to_owned(),
            MODERATION_STANDING.to_owned(),
            ACK_WARNINGS.to_owned(),
            SANCTIONED.to_owned(),
            INSERT_REPORT.to_owned(),
            OPEN_REPORTS.to_owned(),
            FILED_REPORTS.to_owned(),
        ]
        .into_iter()
        .chain(FORGET_PLAYER_ROWS.map(str::to_owned));
        let dir = crate::tests::TempDir::new();
        let path = dir.db();
        let store = crate::sqlite::SqliteStore::open(&path).unwrap();
        drop(store);
        let conn = rusqlite::Connection::open(&path).unwrap();
        for sql in &texts.collect::<Vec<_>>() {
            // SQLite binds value `n` to the parameter it numbered `n`: its `$n` here.
            let stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{e}: {sql}"));
            let highest = placeholders(sql).into_iter().max().unwrap_or(0);
            assert_eq!(stmt.parameter_count(), highest, "{sql}");
            for n in 1..=highest {
                assert_eq!(
                    stmt.parameter_name(n),
                    Some(format!("${n}").as_str()),
                    "{sql}"
                );
            }
        }
    }
}
