//! The routes of a match's records (docs/protocol.md sections 3.6 to 3.10 and 7.5): its record,
//! replay, post-game analysis, history and text export, and its chat once over.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use plateau_engine::{Record, Viewer};
use plateau_protocol::server::{ChatLine as LineView, ChatLog, History};

use super::auth::Session;
use super::extract::{ClientAddr, MatchId, SeatToken};
use super::matches::{finished, stored};
use super::state::AppState;
use crate::store::{Derived, Room};
use plateau_lobby::lobby::is_match_id;
use plateau_lobby::model::{ApiError, HttpError, SeatSpec, TimeControl};
use plateau_match::replays::{history_steps, replay_body, to_record};

/// `GET /api/matches/{id}/chat`: both rooms of a finished match, for its replay.
pub(super) async fn chat(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, HttpError> {
    let m = finished(&app, &id, true, "the chat").await?;
    let room = |room: Room| -> Vec<LineView<'_>> {
        m.chat
            .iter()
            .filter(|l| l.room == room)
            .map(plateau_lobby::model::line_view)
            .collect()
    };
    let log = ChatLog {
        players: room(Room::Players),
        spectators: room(Room::Spectators),
    };
    Ok(Json(log).into_response())
}

pub(super) async fn record(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Json<Record>, HttpError> {
    let m = finished(&app, &id, true, "the record").await?;
    Ok(Json(to_record(&m)))
}

/// `GET /api/matches/{id}/export`: the finished game as text (docs/protocol.md section 3.10), in
/// the manner of PGN: tags for people (the players, the date, the clock), the record's own tags,
/// then the moves in the game's notation. `plateau replay` reads it back.
pub(super) async fn export(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, HttpError> {
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
) -> Result<Response, HttpError> {
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
) -> Result<Response, HttpError> {
    analysis_answer(&app, &id, false).await
}

/// `POST /api/matches/{id}/analysis`: as `GET`, and puts a match without an analysis in line for
/// one (docs/protocol.md section 3.8).
pub(super) async fn ask_analysis(
    State(app): State<AppState>,
    MatchId(id): MatchId,
) -> Result<Response, HttpError> {
    analysis_answer(&app, &id, true).await
}

async fn analysis_answer(app: &AppState, id: &str, ask: bool) -> Result<Response, HttpError> {
    if !is_match_id(id) {
        return Err(ApiError::not_found(id).into());
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

/// `GET /api/matches/{id}/history`: every position of a match so far, open, live or finished, as
/// its caller was shown them (docs/protocol.md section 3.9), so a player steps back through a
/// game in play without the page computing rules. The caller is the seat of the token in
/// `Authorization: Bearer`, else the seat its session's player holds, else a spectator (the
/// WebSocket's rule, `tokens::seat_for`); each position is the game's observation for that
/// viewer, one per version it was shown. Replayed from the stored log, one replay at a time with
/// the finished games' replays and at most one for each address, and kept for the next asker of
/// the same match, viewer and version (`Histories`).
pub(super) async fn history(
    State(app): State<AppState>,
    ClientAddr(addr): ClientAddr,
    MatchId(id): MatchId,
    session: Session,
    token: Result<SeatToken, HttpError>,
) -> Result<Response, HttpError> {
    let SeatToken(token) = token?;
    let m = stored(&app, &id, true).await?;
    let hashes: Vec<Option<String>> = m.seats.iter().map(|s| s.token_hash.clone()).collect();
    let players: Vec<_> = m.seats.iter().map(|s| s.player.clone()).collect();
    let specs: Vec<SeatSpec> = m.seats.iter().map(|s| s.spec.clone()).collect();
    let seat = plateau_match::tokens::seat_for(
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
    let _mine = app
        .histories
        .one_at_a_time(limited.map(plateau_lobby::limits::network))?;
    let _turn = app.replays.turn().await?;
    if let Some(body) = app.histories.get(&key) {
        return Ok(json_bytes(body));
    }
    let steps = tokio::task::spawn_blocking(move || history_steps(entry, &m, viewer))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let history = History {
        id: &id,
        seat: seat.map(|s| s.0),
        steps: &steps,
    };
    let body =
        axum::body::Bytes::from(serde_json::to_string(&history).map_err(ApiError::internal)?);
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
