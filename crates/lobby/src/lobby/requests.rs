//! What a connection asks of a match, passed to its actor: to watch or leave, a state again, an
//! action, a resignation, chat and mutes, declining an offer, and the calling off of a quick
//! pairing's table nobody came to.

use plateau_engine::Seat;
use tokio::sync::{mpsc, oneshot};

use super::state::Lobby;
use crate::limits::address_key;
use crate::model::{ApiError, Status};
use crate::players::Player;
use plateau_match::actor::{Command, OfferKind, Outgoing, Subscription};

impl Lobby {
    /// Connects viewer `conn` (`next_connection`) from `addr`: `token` for a seat; without one,
    /// `player`'s own seat of the match if it has one; else a spectator. The current `state` is
    /// queued on `out` before this returns.
    ///
    /// # Errors
    /// `auth/seat` for a token that is not a seat token of the match or whose seat is another
    /// player's; `match/not_found`.
    pub async fn subscribe(
        &self,
        id: &str,
        conn: u64,
        token: Option<String>,
        player: Option<Player>,
        addr: Option<std::net::IpAddr>,
        out: mpsc::Sender<Outgoing>,
    ) -> Result<Option<Seat>, ApiError> {
        let limits = &self.options.limits;
        let from = addr.filter(|a| limits.applies_to(*a)).map(address_key);
        // The players this one blocks are muted at every table it opens (docs/protocol.md
        // section 7.8).
        let blocks = match &player {
            Some(p) => self
                .store()
                .relations(p.id)
                .await
                .map_err(ApiError::store)?
                .into_iter()
                .filter(|(r, _)| *r == crate::players::Relation::Block)
                .map(|(_, other)| other.id)
                .collect(),
            None => Vec::new(),
        };
        self.call(id, |reply| {
            Command::Subscribe(Box::new(Subscription {
                conn,
                token,
                player,
                from,
                blocks,
                out,
                reply,
            }))
        })
        .await
    }

    /// Calls off match `id` if a seat's player has not opened it (a quick-pairing table nobody
    /// came to): the players who did not come; none if it started or is gone.
    pub async fn call_off(&self, id: &str) -> Vec<crate::players::PlayerId> {
        let Ok(tx) = self.actor(id).await else {
            return Vec::new();
        };
        let (reply, answer) = oneshot::channel();
        if tx.send(Command::CallOff { reply }).await.is_err() {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }

    /// Connection `conn` asks for a whole `state` again.
    pub async fn snapshot(&self, id: &str, conn: u64) {
        if let Some(tx) = self.running(id) {
            let _ = tx.send(Command::Snapshot { conn }).await;
        }
    }

    /// Connection `conn` to match `id` closed.
    pub async fn unsubscribe(&self, id: &str, conn: u64) {
        if let Some(tx) = self.running(id) {
            let _ = tx.send(Command::Unsubscribe { conn }).await;
        }
    }

    /// A chat line from connection `conn` (docs/protocol.md section 7.5).
    ///
    /// # Errors
    /// `chat/invalid`, `chat/rate_limited`, `auth/required`.
    pub async fn chat(&self, id: &str, conn: u64, text: String) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Chat { conn, text, reply })
            .await
    }

    /// Connection `conn`'s player mutes (or unmutes) `name` in match `id`.
    ///
    /// # Errors
    /// `player/not_found`, `auth/required`.
    pub async fn mute(
        &self,
        id: &str,
        conn: u64,
        name: String,
        mute: bool,
    ) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Mute {
            conn,
            name,
            mute,
            reply,
        })
        .await
    }

    /// Plays `actions` (one decision of `seat`, all or nothing) based on `version`, sent on
    /// connection `conn` (`next_connection`).
    ///
    /// # Errors
    /// The coded errors of docs/protocol.md section 4.2; `match/moved` when the match's actor
    /// does not serve `conn` (it was unloaded and loaded again since the connection opened).
    pub async fn act(
        &self,
        id: &str,
        conn: u64,
        seat: Seat,
        version: u64,
        actions: Vec<plateau_protocol::ActionRequest>,
    ) -> Result<(), ApiError> {
        let asked = std::time::Instant::now();
        let answer = self
            .call(id, |reply| Command::Act {
                conn,
                seat,
                version,
                actions,
                span: tracing::Span::current(),
                reply,
            })
            .await;
        self.shared.metrics.acknowledgement.record(asked.elapsed());
        answer
    }

    /// `seat` resigns.
    ///
    /// # Errors
    /// As `act`.
    pub async fn resign(&self, id: &str, seat: Seat) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Resign {
            seat,
            span: tracing::Span::current(),
            reply,
        })
        .await
    }

    /// A moderator ends match `id` (docs/protocol.md section 7.11); it changes no rating.
    ///
    /// # Errors
    /// `match/not_found`, `match/not_started`, `match/over`.
    pub async fn close(&self, id: &str) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Close { reply }).await
    }

    /// `seat` withdraws or declines the offers of `kind`.
    ///
    /// # Errors
    /// `match/not_found`.
    pub async fn decline(&self, id: &str, seat: Seat, kind: OfferKind) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Decline { seat, kind, reply })
            .await
    }

    /// `player` was renamed (by a moderator, or a guest itself): the unfinished matches where
    /// it sits that this node drives now show its new name at once, on their seats and in
    /// their chat. Each stored match is read with its players' names as they are now, so an
    /// old rename told again late tells the latest name; the matches not running here read
    /// that name when they start. Failures are logged: the rename stands.
    pub async fn renamed(&self, player: crate::players::PlayerId) {
        let unfinished = match self
            .store()
            .player_matches(player, vec![Status::Open, Status::Live], 200)
            .await
        {
            Ok(unfinished) => unfinished,
            Err(e) => {
                tracing::warn!(error = %e, "a renamed player's matches not read");
                return;
            }
        };
        for m in unfinished {
            let name = m
                .seats
                .iter()
                .filter_map(|s| s.player.as_ref())
                .find(|p| p.id == player)
                .map(|p| p.name.clone());
            if let (Some(name), Some(tx)) = (name, self.running(&m.id)) {
                let _ = tx.send(Command::Renamed { player, name }).await;
            }
        }
    }
}
