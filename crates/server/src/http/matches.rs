//! The match routes (docs/protocol.md section 3): games, creating, joining, listing, one match, its
//! record, replay, history and chat, and the WebSocket.

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Query, State, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use axum_extra::extract::cookie::CookieJar;
use futures_util::StreamExt;
use plateau_engine::{DynGame, Ending, Event, GameEntry, LogEntry, Record, Viewer, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tracing::Instrument as _;

use super::{AppState, ClientAddr, JsonBody, MatchId, bad_query};
use crate::auth::{Session, player_or_guest};
use crate::lobby::{CreateRequest, SeatGrant, is_match_id};
use crate::model::{ApiError, Code, SeatInfo, SeatSpec, Status, TimeControl};
use crate::net::ConnSlot;
use crate::store::{ChatLine, Derived, Room, StoredMatch};
use crate::ws;

/// The bots "Play the computer" offers, weakest first (docs/protocol.md section 3.1).
pub const LEVELS: [&str; 5] = ["beginner", "casual", "club", "strong", "expert"];

/// One game of `GET /api/games` (docs/protocol.md section 3.1).
#[derive(Serialize)]
pub(super) struct GameView {
    name: &'static str,
    title: &'static str,
    min_seats: usize,
    max_seats: usize,
    default_seats: usize,
    chance: bool,
    hidden_information: bool,
    simultaneous: bool,
    rule_clock: bool,
    default_config: Value,
    bots: &'static [&'static str],
    levels: Vec<&'static str>,
    /// The game has an agreed stop (`Ending::Agreement`).
    agreement: bool,
    /// Agreeing to stop is a draw: every seat shares first place (Chakart), rather than the
    /// game's rule naming a winner (MAD's tie-break).
    agreement_draw: bool,
}

/// The answer of `GET /api/games`.
#[derive(Serialize)]
pub(super) struct Games {
    games: Vec<GameView>,
}

pub(super) async fn games(State(app): State<AppState>) -> Json<Games> {
    let catalogue = app.lobby.catalogue();
    let levels: Vec<&str> = LEVELS
        .into_iter()
        .filter(|l| catalogue.bots.contains(l))
        .collect();
    let games = catalogue
        .games
        .iter()
        .map(|g| {
            let i = g.info;
            // An agreed stop exists where the game accepts one at its start (MAD, Chakart); it
            // is a draw where it leaves every seat first.
            let agreed = g
                .new_game(&Value::Null, i.default_seats)
                .ok()
                .and_then(|mut s| s.end(Ending::Agreement).ok().and_then(|()| s.outcome()));
            GameView {
                name: i.name,
                title: i.title,
                min_seats: i.min_seats,
                max_seats: i.max_seats,
                default_seats: i.default_seats,
                chance: i.chance,
                hidden_information: i.hidden_information,
                simultaneous: i.simultaneous,
                rule_clock: g.rule_clock,
                default_config: g.default_config(),
                bots: catalogue.bots,
                levels: levels.clone(),
                agreement: agreed.is_some(),
                agreement_draw: agreed.is_some_and(|o| o.ranks.iter().all(|r| *r == 1)),
            }
        })
        .collect();
    Json(Games { games })
}

fn grant_json(g: &SeatGrant) -> Value {
    let invites: Vec<Value> = g
        .free
        .iter()
        .map(|s| json!({"seat": s, "url": format!("/m/{}?join={s}", g.id)}))
        .collect();
    json!({
        "id": g.id, "seed_hash": g.seed_hash, "seat": g.seat, "token": g.token,
        "url": format!("/m/{}", g.id), "invites": invites,
    })
}

/// `POST /api/matches`: the session's player (a new guest without one) takes the creator's seat.
pub(super) async fn create(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    let table = crate::lobby::Table::of(&req.seats);
    let creator = app.lobby.creation_allowed(addr, table).await?;
    let created = async {
        let (player, jar) = player_or_guest(&app, addr, &session, jar).await?;
        let grant = app.lobby.create(req, player, creator.clone()).await?;
        Ok((StatusCode::CREATED, jar, Json(grant_json(&grant))).into_response())
    }
    .await;
    if created.is_err()
        && let Some(key) = &creator
    {
        app.lobby.creation_refused(key);
    }
    created
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinRequest {
    #[serde(default)]
    seat: Option<u8>,
}

/// `POST /api/matches/{id}/join`: the session's player (a new guest without one) takes the seat.
/// A join counts as a table made (`Lobby::creation_allowed`); a join refused makes no guest.
pub(super) async fn join(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    MatchId(id): MatchId,
    session: Session,
    jar: CookieJar,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Response, ApiError> {
    if session.player.is_none() {
        seat_free(&app, &id, req.seat).await?;
    }
    let counted = app
        .lobby
        .creation_allowed(addr, crate::lobby::Table::People)
        .await?;
    let joined = async {
        let (player, jar) = player_or_guest(&app, addr, &session, jar).await?;
        let grant = app.lobby.join(&id, req.seat, player).await?;
        Ok((jar, Json(grant_json(&grant))).into_response())
    }
    .await;
    if joined.is_err()
        && let Some(key) = &counted
    {
        app.lobby.creation_refused(key);
    }
    joined
}

/// Whether match `id` has the human seat `seat` free (any free one without `seat`), as stored
/// now: checked before a guest is made for the join, so a join bound to fail makes none.
///
/// # Errors
/// `match/not_found`, `match/over`, `seat/invalid`, `seat/taken`.
async fn seat_free(app: &AppState, id: &str, seat: Option<u8>) -> Result<(), ApiError> {
    let m = stored(app, id, false).await?;
    if m.status == Status::Finished {
        return Err(ApiError::new(Code::MatchOver, "the match is over"));
    }
    let free = |s: &crate::store::StoredSeat| s.spec == SeatSpec::Human && s.token_hash.is_none();
    match seat {
        Some(n) => match m.seats.get(usize::from(n)) {
            Some(s) if free(s) => Ok(()),
            Some(s) if s.spec == SeatSpec::Human => Err(ApiError::new(
                Code::SeatTaken,
                format!("seat {} is taken", u16::from(n) + 1),
            )),
            _ => Err(ApiError::new(
                Code::SeatInvalid,
                format!(
                    "seat {} is not a human seat of this match",
                    u16::from(n) + 1
                ),
            )),
        },
        None if m.seats.iter().any(free) => Ok(()),
        None => Err(ApiError::new(Code::SeatTaken, "no free human seat is left")),
    }
}

/// The public facts of a stored match (docs/protocol.md section 3.3), with who sits where and
/// who is connected now.
pub(crate) fn summary(app: &AppState, m: &StoredMatch) -> Value {
    let title = app
        .lobby
        .catalogue()
        .game(&m.game)
        .map_or(m.game.as_str(), |g| g.info.title);
    let here = app.lobby.presence().of_match(&m.id);
    // A public version never counts secret actions: while a game with hidden information runs,
    // it is the spectators' version, known to the match's actor (`null` when not in memory).
    let hidden = app
        .lobby
        .catalogue()
        .game(&m.game)
        .is_some_and(|g| g.info.hidden_information);
    let version = if hidden && m.status == Status::Live {
        here.as_ref().map(|p| p.public_version)
    } else {
        Some(m.version)
    };
    let connected = here.map(|p| p.connected).unwrap_or_default();
    let seats: Vec<SeatInfo> = m
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            SeatInfo::new(
                i,
                &s.spec,
                s.spec != SeatSpec::Human || s.token_hash.is_some(),
                s.player.as_ref(),
                connected.get(i).copied().unwrap_or(false),
            )
        })
        .collect();
    let finished = m.status == Status::Finished;
    json!({
        "id": m.id, "game": m.game, "title": title, "status": m.status, "seats": seats,
        "config": m.config, "time_control": m.time_control, "created_at": m.created_at,
        "version": version, "rated": m.rated, "unrated": m.unrated, "ended_at": m.ended_at,
        "outcome": m.outcome, "seed_hash": m.seed.hash_hex(),
        "seed": finished.then(|| m.seed.to_hex()), "rematch": m.rematch,
    })
}

/// How long an open match is listed although nobody waits at it, in ms.
const OPEN_FRESH_MS: i64 = 10 * 60 * 1000;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    status: Option<String>,
}

pub(super) async fn list(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| bad_query(&e))?;
    let words = q.status.unwrap_or_else(|| "open,live".to_owned());
    let mut statuses = Vec::new();
    for word in words.split(',').filter(|w| !w.is_empty()) {
        statuses.push(Status::parse(word).ok_or_else(|| {
            ApiError::new(
                Code::RequestMalformed,
                format!("unknown status `{word}` (known: open, live, finished)"),
            )
        })?);
    }
    let matches = app
        .lobby
        .store()
        .list(statuses, 100)
        .await
        .map_err(ApiError::store)?;
    let presence = app.lobby.presence();
    let now = crate::model::unix_ms();
    // Only tables people sit at: a live match with a person connected, an open one whose
    // creator waits at it or that is fresh; finished matches all.
    let matches: Vec<Value> = matches
        .iter()
        .filter(|m| {
            let here = presence.of_match(&m.id).is_some_and(|p| p.someone_here());
            match m.status {
                Status::Live => here,
                Status::Open => here || now - m.created_at < OPEN_FRESH_MS,
                Status::Finished => true,
            }
        })
        .map(|m| summary(&app, m))
        .collect();
    Ok(Json(json!({ "matches": matches })))
}

async fn stored(app: &AppState, id: &str, with_log: bool) -> Result<StoredMatch, ApiError> {
    if !is_match_id(id) {
        return Err(ApiError::not_found(id));
    }
    app.lobby
        .store()
        .get(id, with_log)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::not_found(id))
}

/// Finished match `id` from the store (`with_log`: with its log), for `what` is given once the
/// match is over.
///
/// # Errors
/// `match/not_found`; `match/not_over` naming `what` while it runs; `server/internal`.
async fn finished(
    app: &AppState,
    id: &str,
    with_log: bool,
    what: &str,
) -> Result<StoredMatch, ApiError> {
    let m = stored(app, id, with_log).await?;
    if m.status != Status::Finished {
        return Err(ApiError::new(
            Code::MatchNotOver,
            format!("{what} is given once the match is over"),
        ));
    }
    Ok(m)
}

pub(super) async fn one(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Value>, ApiError> {
    let m = stored(&app, &id, false).await?;
    Ok(Json(summary(&app, &m)))
}

/// `GET /api/matches/{id}/chat`: both rooms of a finished match, for its replay.
pub(super) async fn chat(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Value>, ApiError> {
    let m = finished(&app, &id, true, "the chat").await?;
    let room = |room: Room| -> Vec<Value> {
        m.chat
            .iter()
            .filter(|l| l.room == room)
            .map(chat_line)
            .collect()
    };
    Ok(Json(
        json!({"players": room(Room::Players), "spectators": room(Room::Spectators)}),
    ))
}

fn chat_line(l: &ChatLine) -> Value {
    json!({"room": l.room, "name": l.player.name, "seat": l.seat, "text": l.text, "at": l.at})
}

/// The engine's record of a stored match; the seed only once finished.
#[must_use]
pub fn to_record(m: &StoredMatch) -> Record {
    let mut record = Record::new(
        &m.game,
        m.config.clone(),
        m.seats.iter().map(|s| s.spec.record_name()).collect(),
        &m.seed,
    );
    record.log.clone_from(&m.log);
    if m.status == Status::Finished {
        record.seed = Some(m.seed);
        record.outcome.clone_from(&m.outcome);
    }
    record
}

pub(super) async fn record(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Record>, ApiError> {
    let m = finished(&app, &id, true, "the record").await?;
    Ok(Json(to_record(&m)))
}

/// `GET /api/matches/{id}/export`: the finished game as text (docs/protocol.md section 3.10), in
/// the manner of PGN: tags for people (the players, the date, the clock), the record's own tags,
/// then the moves in the game's notation. `plateau replay` reads it back.
pub(super) async fn export(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, ApiError> {
    let m = finished(&app, &id, true, "the text record").await?;
    let title = app
        .lobby
        .catalogue()
        .game(&m.game)
        .map_or("", |g| g.info.title);
    let casual = if m.rated { "rated" } else { "casual" };
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", format!("Plateau {casual} game of {title}")),
        ("Site", format!("/m/{}", m.id)),
        ("Date", date(m.ended_at.unwrap_or(m.created_at))),
    ];
    let players: Vec<(String, String)> = m
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = s
                .player
                .as_ref()
                .map_or_else(|| "?".to_owned(), |p| p.name.clone());
            (format!("Player{}", i + 1), name)
        })
        .collect();
    tags.extend(players.iter().map(|(k, v)| (k.as_str(), v.clone())));
    let clock = match m.time_control {
        TimeControl::None => "-".to_owned(),
        TimeControl::PerMove { seconds } => format!("{seconds} per move"),
        TimeControl::Fischer {
            base_seconds,
            increment_seconds,
        } => format!("{base_seconds}+{increment_seconds}"),
        TimeControl::Game => "the game's own".to_owned(),
    };
    tags.push(("TimeControl", clock));
    tags.push(("Rated", if m.rated { "yes" } else { "no" }.to_owned()));
    let text = to_record(&m).to_text(&tags);
    let file = format!("attachment; filename=\"plateau-{}-{}.txt\"", m.game, m.id);
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_owned(),
            ),
            (axum::http::header::CONTENT_DISPOSITION, file),
        ],
        text,
    )
        .into_response())
}

/// A unix time in ms as PGN writes a date, `YYYY.MM.DD` (UTC).
fn date(unix_ms: i64) -> String {
    // Days to a civil date (the proleptic Gregorian calendar), after Howard Hinnant's
    // `civil_from_days`.
    let z = unix_ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Every position of a finished match as a spectator sees it (docs/protocol.md section 3.7), so
/// the replay page steps through a game without computing rules. Computed once, under one lock
/// for all matches (it replays the whole game), then stored and served from the store.
pub(super) async fn replay(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, ApiError> {
    finished(&app, &id, false, "the replay").await?;
    let store = app.lobby.store();
    let cached = || async {
        store
            .derived(id.clone(), Derived::Replay)
            .await
            .map_err(ApiError::store)
    };
    if let Some(body) = cached().await? {
        return Ok(json_text(body));
    }
    let _turn = app.replays.turn().await?;
    if let Some(body) = cached().await? {
        return Ok(json_text(body));
    }
    let m = stored(&app, &id, true).await?;
    let entry = app
        .lobby
        .catalogue()
        .game(&m.game)
        .ok_or_else(|| ApiError::internal(format!("match {id}: unknown game `{}`", m.game)))?;
    let body = tokio::task::spawn_blocking(move || replay_body(entry, &m))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    store
        .put_derived(id.clone(), Derived::Replay, body.clone())
        .await
        .map_err(ApiError::store)?;
    Ok(json_text(body))
}

/// `GET /api/matches/{id}/analysis`: where the post-game analysis of a finished match stands, and
/// the analysis once computed (docs/protocol.md section 3.8).
pub(super) async fn analysis(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, ApiError> {
    analysis_answer(&app, &id, false).await
}

/// `POST /api/matches/{id}/analysis`: as `GET`, and puts a match without an analysis in line for
/// one (docs/protocol.md section 3.8).
pub(super) async fn ask_analysis(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, ApiError> {
    analysis_answer(&app, &id, true).await
}

async fn analysis_answer(app: &AppState, id: &str, ask: bool) -> Result<Response, ApiError> {
    if !is_match_id(id) {
        return Err(ApiError::not_found(id));
    }
    let body = app
        .analyses
        .status(app.lobby.store().as_ref(), id, ask)
        .await?;
    Ok(json_text(body))
}

/// A stored JSON text as a response.
fn json_text(body: String) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// The replay of finished match `m`, from one `Record::replay_with`: `verified` is its check
/// (SHA-256 of the seed equals `seed_hash` and every dice roll is redrawn), and each step the
/// spectator's view after a log entry.
fn replay_body(entry: &'static GameEntry, m: &StoredMatch) -> Result<String, String> {
    let record = to_record(m);
    let mut steps = Steps(Vec::with_capacity(record.log.len() + 1));
    let replay = record
        .replay_with(entry, &mut steps)
        .map_err(|e| format!("match {} does not replay: {e}", m.id))?;
    if steps.0.is_empty() {
        // No entry to show the start before: the final state is the start.
        steps.start(&*replay.state);
    }
    Ok(json!({
        "id": m.id,
        "game": m.game,
        "seed_hash": record.seed_hash,
        "seed": record.seed,
        "verified": replay.seed_verified,
        "outcome": record.outcome,
        "steps": steps.0,
    })
    .to_string())
}

/// The steps of a replay as the page shows them: the start, then one per log entry, each with who
/// acted, the move-list text and the spectator's observation after it.
struct Steps(Vec<Value>);

impl Steps {
    /// The first step: the game's start.
    fn start(&mut self, state: &dyn DynGame) {
        let observation = state.observe_json(Viewer::Spectator);
        self.0
            .push(json!({"by": null, "text": null, "observation": observation}));
    }
}

impl Visitor for Steps {
    fn before(&mut self, _: usize, logged: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if self.0.is_empty() {
            self.start(state);
        }
        let step = match &logged.event {
            // What a spectator could not see while the game ran (a secret placement, an order
            // before its turn was fired) is shown in canonical notation with all its parts: the
            // game is over and its record, every action in it, is public.
            Event::Action { by, action } => {
                let (text, info) = match state.display_entry(*by, action, Viewer::Spectator) {
                    Ok(Some(shown)) => shown,
                    _ => (
                        action.clone(),
                        state.text_info(action).map_err(|e| e.to_string())?,
                    ),
                };
                json!({"by": by, "text": text, "info": info})
            }
            Event::End(ending) => json!({"by": null, "text": ending}),
        };
        self.0.push(step);
        Ok(())
    }

    fn after(&mut self, _: usize, _: &LogEntry, state: &dyn DynGame) -> Result<(), String> {
        if let Some(Value::Object(step)) = self.0.last_mut() {
            step.insert("observation".into(), state.observe_json(Viewer::Spectator));
        }
        Ok(())
    }
}

/// `GET /api/matches/{id}/history`: every position of a match so far, open, live or finished, as
/// its caller was shown them (docs/protocol.md section 3.9), so a player steps back through a
/// game in play without the page computing rules. The caller is the seat of the token in
/// `Authorization: Bearer`, else the seat its session's player holds, else a spectator (the
/// WebSocket's rule, `actor::seat_for`); each position is the game's observation for that
/// viewer, one per version it was shown. Replayed from the stored log, one replay at a time with
/// the finished games' replays and at most one for each address, and kept for the next asker of
/// the same match, viewer and version (`Histories`).
pub(super) async fn history(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    MatchId(id): MatchId,
    session: Session,
    token: Result<SeatToken, ApiError>,
) -> Result<Response, ApiError> {
    let SeatToken(token) = token?;
    let m = stored(&app, &id, true).await?;
    let hashes: Vec<Option<String>> = m.seats.iter().map(|s| s.token_hash.clone()).collect();
    let players: Vec<_> = m.seats.iter().map(|s| s.player.clone()).collect();
    let specs: Vec<SeatSpec> = m.seats.iter().map(|s| s.spec.clone()).collect();
    let seat = crate::actor::seat_for(
        token.as_deref(),
        session.player.as_ref(),
        &hashes,
        &players,
        &specs,
    )?;
    let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
    let key = (
        id.clone(),
        seat.map_or(m.seats.len(), |s| s.index()),
        m.version,
    );
    if let Some(body) = app.histories.get(&key) {
        return Ok(json_bytes(body));
    }
    let entry = app
        .lobby
        .catalogue()
        .game(&m.game)
        .ok_or_else(|| ApiError::internal(format!("match {id}: unknown game `{}`", m.game)))?;
    let limited = addr.filter(|a| app.lobby.options().limits.applies_to(*a));
    let _mine = app.histories.one_at_a_time(limited)?;
    let _turn = app.replays.turn().await?;
    if let Some(body) = app.histories.get(&key) {
        return Ok(json_bytes(body));
    }
    let steps = tokio::task::spawn_blocking(move || history_steps(entry, &m, viewer))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let body = axum::body::Bytes::from(
        json!({"id": id, "seat": seat.map(|s| s.0), "steps": steps}).to_string(),
    );
    app.histories.put(key, body.clone());
    Ok(json_bytes(body))
}

/// A JSON body kept as bytes, as a response.
fn json_bytes(body: axum::body::Bytes) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// The positions of match `m` as `viewer` was shown them: one per version of that viewer
/// (docs/protocol.md section 1), 0 to its current one, as the WebSocket would have sent them:
/// `observation` is the viewer's, `moves` how many entries of its move list are played by then,
/// and `by`/`text` the entry that made the version (`null` when the viewer may not see it, a
/// secret action whose effect it was shown; an early ending has `by: null` and the ending as
/// `text`, as in the record).
fn history_steps(
    entry: &'static plateau_engine::GameEntry,
    m: &StoredMatch,
    viewer: Viewer,
) -> Result<Vec<Value>, String> {
    let record = to_record(m);
    let fail = |e: String| format!("match {} does not replay: {e}", m.id);
    let states = crate::secrecy::states(entry, &record).map_err(fail)?;
    let versions = crate::secrecy::viewer_versions(entry, &record, viewer).map_err(fail)?;
    let mut steps = vec![json!({
        "by": null, "text": null, "moves": 0, "observation": states[0].observe_json(viewer),
    })];
    let mut moves = 0;
    for (p, logged) in record.log.iter().enumerate() {
        let (by, text, info) = match &logged.event {
            Event::Action { by, action } => {
                let shown = states[p]
                    .display_entry(*by, action, viewer)
                    .map_err(|e| fail(e.to_string()))?;
                moves += usize::from(shown.is_some());
                match shown {
                    Some((text, info)) => (json!(by), json!(text), Some(info)),
                    None => (Value::Null, Value::Null, None),
                }
            }
            Event::End(ending) => (Value::Null, json!(ending), None),
        };
        if versions[p + 1] == versions[p] {
            // Nothing this viewer is shown changed: the step stands as it was.
            continue;
        }
        let observation = states[p + 1].observe_json(viewer);
        let mut step = json!({"by": by, "text": text, "moves": moves, "observation": observation});
        if let Some(info) = info {
            step["info"] = json!(info);
        }
        steps.push(step);
    }
    Ok(steps)
}

/// The seat token a program sends in `Authorization: Bearer …` (a page sends it in an `auth`
/// message once connected to the WebSocket, and in the header for `history`). A token in the URL
/// is refused, as is any other query.
pub(super) struct SeatToken(Option<String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for SeatToken {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<SeatToken, ApiError> {
        if let Some(query) = parts.uri.query() {
            let message = if query.split('&').any(|kv| kv.starts_with("token=")) {
                "a seat token never goes in the URL: send it in an `auth` message once \
                 connected, or in the `Authorization: Bearer` header"
                    .to_owned()
            } else {
                format!("this route takes no query (`{query}`)")
            };
            return Err(ApiError::new(Code::RequestMalformed, message));
        }
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(SeatToken(None));
        };
        // `Bearer TOKEN`, the scheme in any case (RFC 9110 section 11.1). Anything else is
        // refused rather than read as no token: a client that meant a seat must not be served
        // quietly as a spectator.
        let token = header
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && !token.is_empty())
            .map(|(_, token)| token.trim().to_owned());
        match token {
            Some(token) => Ok(SeatToken(Some(token))),
            None => Err(ApiError::new(
                Code::AuthSeat,
                "the Authorization header must be `Bearer` and a seat token",
            )),
        }
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "one argument per extractor, as axum passes them"
)]
pub(super) async fn websocket(
    State(app): State<AppState>,
    MatchId(id): MatchId,
    ClientAddr(peer): ClientAddr,
    session: Session,
    token: Result<SeatToken, ApiError>,
    slot: Option<Extension<ConnSlot>>,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let place = match app.lobby.locate(&id).await {
        Ok(place) => place,
        Err(e) => return e.into_response(),
    };
    let SeatToken(token) = match token {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(e) => {
            let message = format!(
                "this is the match's WebSocket: open it with a WebSocket upgrade ({})",
                e.body_text()
            );
            return ApiError::new(Code::RequestUpgradeRequired, message).into_response();
        }
    };
    let lobby = app.lobby.clone();
    let slot = slot.map(|Extension(s)| s);
    // A match another node drives: the socket is piped there (docs/architecture.md section 5.3).
    if let crate::cluster::Place::There(holder) = place {
        match crate::cluster::socket_to(&lobby, &id, holder, &headers, peer).await {
            Ok(Some((upstream, holder))) => {
                let span = tracing::Span::current();
                return ws::sized(upgrade).on_upgrade(move |socket| {
                    async move {
                        crate::cluster::pipe(socket, upstream, &lobby, slot, &id, &holder).await;
                    }
                    .instrument(span)
                });
            }
            // Taken over here meanwhile.
            Ok(None) => {}
            Err(e) => return e.into_response(),
        }
    }
    // The socket's log lines keep the request's span (its id) for the socket's whole life.
    let span = tracing::Span::current();
    ws::sized(upgrade).on_upgrade(move |socket| {
        async move {
            // The connection's place under the caps lasts as long as the socket.
            let (sink, stream) = socket.split();
            ws::session(lobby, id, token, session.player, peer, slot, sink, stream).await;
        }
        .instrument(span)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_read_as_pgn_writes_them() {
        assert_eq!(super::date(0), "1970.01.01");
        // 2000-02-29T12:00:00Z and 2025-11-30T23:59:59Z.
        assert_eq!(super::date(951_825_600_000), "2000.02.29");
        assert_eq!(super::date(1_764_547_199_000), "2025.11.30");
    }
}
