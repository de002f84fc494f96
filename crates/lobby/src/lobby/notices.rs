//! Nodes on one database tell each other their presence (docs/architecture.md section 5.3):
//! "your turn" announcements as they happen and the counts every few seconds, over the store's
//! notifications (`Store::notify`, `Store::listen`).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::state::Lobby;

/// The channel of the "your turn" announcements between nodes.
pub const TURNS: &str = "plateau_turns";

/// The channel of each node's counts.
pub const COUNTS: &str = "plateau_counts";

/// A notice between nodes: the service (`cluster_tag`) and the node it comes from, and what it
/// tells (`TurnNotice` on `TURNS`, `CountsNotice` on `COUNTS`) beside them.
#[derive(Serialize, Deserialize)]
struct Notice<T> {
    cluster: String,
    node: String,
    #[serde(flatten)]
    what: T,
}

/// A "your turn" announcement: the player's id, the match and its game's registry name.
#[derive(Serialize, Deserialize)]
struct TurnNotice {
    player: i64,
    id: String,
    game: String,
}

/// A node's counts (`presence::Counts`).
#[derive(Serialize, Deserialize)]
struct CountsNotice {
    online: usize,
    playing: usize,
}

/// How often a node tells the others its counts.
const COUNTS_EVERY: Duration = Duration::from_secs(2);

/// While the lobby lives: tells the other nodes this node's "your turn" announcements as they
/// happen and its counts every `COUNTS_EVERY`, and passes theirs (`notices`, from
/// `Store::listen`) to this node's presence registry, so a player's lobby socket on any node
/// hears of its turn and every lobby shows the counts of all nodes.
pub async fn share_presence(
    lobby: std::sync::Weak<Lobby>,
    mut notices: tokio::sync::mpsc::UnboundedReceiver<(String, String)>,
) {
    let Some(mut turns) = lobby.upgrade().map(|l| l.presence().turns()) else {
        return;
    };
    let mut tick = tokio::time::interval(COUNTS_EVERY);
    loop {
        tokio::select! {
            notice = notices.recv() => {
                let (Some((channel, payload)), Some(lobby)) = (notice, lobby.upgrade()) else {
                    return;
                };
                heard(&lobby, &channel, &payload);
            }
            turn = turns.recv() => {
                let Some(lobby) = lobby.upgrade() else {
                    return;
                };
                // A lagging receiver skips what it missed; a closed one means the lobby is gone.
                let Ok(turn) = turn else {
                    if matches!(turn, Err(tokio::sync::broadcast::error::RecvError::Closed)) {
                        return;
                    }
                    continue;
                };
                let what = TurnNotice {
                    player: turn.player.0,
                    id: turn.id,
                    game: turn.game.to_owned(),
                };
                tell(&lobby, TURNS, what).await;
            }
            _ = tick.tick() => {
                let Some(lobby) = lobby.upgrade() else {
                    return;
                };
                if *lobby.shutdown_signal().borrow() {
                    return;
                }
                let counts = lobby.presence().local_counts();
                let what = CountsNotice {
                    online: counts.online,
                    playing: counts.playing,
                };
                tell(&lobby, COUNTS, what).await;
                lobby.presence().prune_remote();
            }
        }
    }
}

/// Sends `what` from this node on `channel`; a failure is logged (the next change or tick tells
/// again).
async fn tell<T: Serialize>(lobby: &Lobby, channel: &'static str, what: T) {
    // No other node heard from within the lease time: nobody to tell (a node that starts
    // beats at once, and is heard of at the next renewal, within `RENEW_EVERY`).
    if lobby.alone() {
        return;
    }
    let notice = Notice {
        cluster: cluster_tag(lobby),
        node: lobby.node().name.clone(),
        what,
    };
    let payload = serde_json::to_string(&notice).unwrap_or_default();
    if let Err(e) = lobby.store().notify(channel, payload).await {
        tracing::debug!(channel, error = %e, "not told to the other nodes");
    }
}

/// Which nodes a notice is for: those of one database schema (several Plateau services may
/// share one PostgreSQL database, each in its own schema, and notifications are per database).
/// The first 16 hex digits of the node secret's SHA-256, so the secret itself is never sent.
fn cluster_tag(lobby: &Lobby) -> String {
    use sha2::Digest;
    let secret = lobby.store().node_secret().unwrap_or_default();
    hex::encode(sha2::Sha256::digest(secret.as_bytes()))[..16].to_owned()
}

/// Applies another node's notice; this node's own, another service's, and anything malformed
/// are ignored.
fn heard(lobby: &Lobby, channel: &str, payload: &str) {
    /// The notice `payload` if it is of this service and another node.
    fn read<'a, T: Deserialize<'a>>(lobby: &Lobby, payload: &'a str) -> Option<Notice<T>> {
        let notice: Notice<T> = serde_json::from_str(payload).ok()?;
        (notice.cluster == cluster_tag(lobby) && notice.node != lobby.node().name).then_some(notice)
    }
    match channel {
        COUNTS => {
            if let Some(n) = read::<CountsNotice>(lobby, payload) {
                let counts = crate::presence::Counts {
                    online: n.what.online,
                    playing: n.what.playing,
                };
                lobby.presence().remote_counts(&n.node, counts);
            }
        }
        TURNS => {
            let Some(n) = read::<TurnNotice>(lobby, payload) else {
                return;
            };
            let Some(game) = lobby.catalogue().game(&n.what.game).map(|g| g.info.name) else {
                return;
            };
            lobby.presence().announce(&crate::presence::TurnEvent {
                player: crate::players::PlayerId(n.what.player),
                id: n.what.id,
                game,
            });
        }
        _ => {}
    }
}
