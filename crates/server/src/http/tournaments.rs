//! Tournaments over HTTP (docs/protocol.md section 7.9): `GET` and `POST /api/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join` and `.../withdraw`, and a
//! player's tournaments, `GET /api/players/{name}/tournaments`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::auth::Session;
use super::extract::JsonBody;
use super::state::AppState;
use plateau_community::tournaments::CreateTournament;
use plateau_lobby::model::{ApiError, Code, HttpError};
use plateau_lobby::players::Player;

/// The session's player, or `auth/required`.
fn signed(session: Session) -> Result<Player, ApiError> {
    session.player.ok_or_else(|| {
        ApiError::new(
            Code::AuthRequired,
            "choose a name first: tournaments are played by players",
        )
    })
}

/// `GET /api/tournaments`.
pub(super) async fn list(State(app): State<AppState>) -> Result<Response, HttpError> {
    Ok(Json(app.tournaments.list().await?).into_response())
}

/// `POST /api/tournaments`.
pub(super) async fn create(
    State(app): State<AppState>,
    session: Session,
    JsonBody(request): JsonBody<CreateTournament>,
) -> Result<Response, HttpError> {
    let me = signed(session)?;
    let made = app.tournaments.create(&me, request).await?;
    Ok((StatusCode::CREATED, Json(made)).into_response())
}

/// `GET /api/tournaments/{id}`.
pub(super) async fn one(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HttpError> {
    Ok(Json(app.tournaments.one(&id).await?).into_response())
}

/// `GET /api/players/{name}/tournaments`.
pub(super) async fn of_player(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    Ok(Json(app.tournaments.of_player(&name).await?).into_response())
}

/// `POST /api/tournaments/{id}/join`.
pub(super) async fn join(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, HttpError> {
    let me = signed(session)?;
    Ok(Json(app.tournaments.join(&me, &id).await?).into_response())
}

/// `POST /api/tournaments/{id}/withdraw`.
pub(super) async fn withdraw(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, HttpError> {
    let me = signed(session)?;
    Ok(Json(app.tournaments.withdraw(&me, &id).await?).into_response())
}
