//! Follows and blocks over HTTP (docs/protocol.md section 7.8): `GET /api/me/relations`, and
//! `PUT` or `DELETE` of `/api/me/follows/{name}` and `/api/me/blocks/{name}`. The player's lobby
//! sockets then show its friend list again; a block also withdraws or hides the challenges
//! between the two.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::auth::Session;
use super::state::AppState;
use plateau_community::friends::RELATIONS_PER_PLAYER;
use plateau_lobby::model::{ApiError, Code, HttpError};
use plateau_lobby::players::{Player, PlayerKind, Relation};
use plateau_protocol::server::Relations;

/// The session's player, or `auth/required`.
fn signed(session: Session) -> Result<Player, ApiError> {
    session.player.ok_or_else(|| {
        ApiError::new(
            Code::AuthRequired,
            "choose a name first: follows and blocks belong to a player",
        )
    })
}

/// `GET /api/me/relations`.
pub(super) async fn relations(
    State(app): State<AppState>,
    session: Session,
) -> Result<Response, HttpError> {
    let me = signed(session)?;
    let all = app
        .lobby
        .store()
        .relations(me.id)
        .await
        .map_err(ApiError::store)?;
    let of = |kind: Relation| {
        all.iter()
            .filter(move |(r, _)| *r == kind)
            .map(|(_, p)| p.view())
    };
    Ok(Json(Relations {
        follows: of(Relation::Follow).collect(),
        blocks: of(Relation::Block).collect(),
    })
    .into_response())
}

/// `PUT /api/me/follows/{name}`.
pub(super) async fn follow(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    set(&app, session, &name, Relation::Follow, true).await
}

/// `DELETE /api/me/follows/{name}`.
pub(super) async fn unfollow(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    set(&app, session, &name, Relation::Follow, false).await
}

/// `PUT /api/me/blocks/{name}`.
pub(super) async fn block(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    set(&app, session, &name, Relation::Block, true).await
}

/// `DELETE /api/me/blocks/{name}`.
pub(super) async fn unblock(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    set(&app, session, &name, Relation::Block, false).await
}

/// The session's player's `relation` to `name` begins (`on`) or ends: `204`, also when it
/// already was so.
async fn set(
    app: &AppState,
    session: Session,
    name: &str,
    relation: Relation,
    on: bool,
) -> Result<Response, HttpError> {
    let me = signed(session)?;
    let store = app.lobby.store();
    let (other, _) = store
        .player_by_name(name.to_owned())
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::new(Code::PlayerNotFound, format!("no player named {name:?}")))?;
    if other.id == me.id || other.kind == PlayerKind::Bot {
        return Err(ApiError::new(
            Code::RelationInvalid,
            "one follows or blocks another person, not oneself or a bot",
        )
        .into());
    }
    if on {
        let all = store.relations(me.id).await.map_err(ApiError::store)?;
        let same = all.iter().filter(|(r, _)| *r == relation);
        if !same.clone().any(|(_, p)| p.id == other.id) && same.count() >= RELATIONS_PER_PLAYER {
            return Err(ApiError::new(
                Code::LimitRelations,
                format!(
                    "you already {} {RELATIONS_PER_PLAYER} players: remove one first",
                    relation.as_str()
                ),
            )
            .into());
        }
    }
    store
        .set_relation(me.id, other.id, relation, on)
        .await
        .map_err(ApiError::store)?;
    if relation == Relation::Block && on {
        app.challenges.blocked(me.id, other.id);
    }
    // The player's own list, and a blocked follower's (the blocker now shows offline to it).
    app.friends.reload(store.as_ref(), me.id).await?;
    if relation == Relation::Block {
        app.friends.reload(store.as_ref(), other.id).await?;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
