//! The tournaments a lobby socket follows (docs/protocol.md section 7.9): `tournament_follow`,
//! `tournament_unfollow`, `tournaments_follow` and `tournaments_unfollow`, and the `tournament`
//! and `tournaments` messages sent as what is followed changes (`tournaments::Feed`).

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::state::AppState;
use plateau_community::tournaments::{Followed, Latest};
use plateau_lobby::model::{ApiError, Code};

/// Things one lobby socket follows at once (the list counts as one).
pub const FOLLOWS_PER_SOCKET: usize = 8;

/// `{"type": "tournament_follow" | "tournament_unfollow", "id": "…"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OneRequest {
    #[serde(rename = "type")]
    _kind: String,
    id: String,
}

/// What one lobby socket follows, each with its latest message.
#[derive(Default)]
pub(super) struct Follows {
    followed: Vec<(Followed, Latest)>,
}

impl Follows {
    /// Handles a message about following (`kind`, one of the four, of the message `value`):
    /// the answer to send, if any (a follow is answered by what it follows, now).
    pub(super) async fn handle(
        &mut self,
        app: &AppState,
        kind: &str,
        value: Value,
    ) -> Result<Option<String>, ApiError> {
        let what = if kind.starts_with("tournaments_") {
            Followed::List
        } else {
            let request = serde_json::from_value::<OneRequest>(value)
                .map_err(|e| ApiError::new(Code::MsgMalformed, e.to_string()))?;
            Followed::One(request.id)
        };
        if kind.ends_with("_unfollow") {
            self.followed.retain(|(w, _)| *w != what);
            return Ok(None);
        }
        self.follow(app, what).await
    }

    async fn follow(&mut self, app: &AppState, what: Followed) -> Result<Option<String>, ApiError> {
        // Following again sends the latest again: the node's, kept for this socket meanwhile
        // (never the last follower gone for an instant, nor a second place under the limit).
        if let Some((_, latest)) = self.followed.iter_mut().find(|(w, _)| *w == what) {
            return Ok(latest.borrow_and_update().as_deref().map(str::to_owned));
        }
        if self.followed.len() >= FOLLOWS_PER_SOCKET {
            return Err(ApiError::new(
                Code::LimitFollows,
                format!(
                    "this socket follows {FOLLOWS_PER_SOCKET} tournaments, as many as one may: \
                     unfollow one first"
                ),
            ));
        }
        let mut latest = app.tournaments.follow(what.clone()).await?;
        let now = latest.borrow_and_update().as_deref().map(str::to_owned);
        self.followed.push((what, latest));
        Ok(now)
    }

    /// The next message of what is followed, as soon as one changes (never, while nothing is
    /// followed). Only the latest of each is sent: changes that come while the socket is busy
    /// are one message.
    pub(super) async fn next(&mut self) -> Arc<str> {
        loop {
            if self.followed.is_empty() {
                return std::future::pending().await;
            }
            let changes = self
                .followed
                .iter_mut()
                .map(|(_, latest)| Box::pin(latest.changed()));
            let (done, index, _) = futures_util::future::select_all(changes).await;
            if done.is_err() {
                // The node forgot it (no follower left): cannot happen while this one follows.
                self.followed.swap_remove(index);
                continue;
            }
            if let Some(text) = self.followed[index].1.borrow_and_update().clone() {
                return text;
            }
        }
    }
}
