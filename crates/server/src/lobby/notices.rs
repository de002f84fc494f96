//! Nodes on one database tell each other their presence (docs/architecture.md section 5.3):
//! "your turn" announcements as they happen and the counts every few seconds, over the store's
//! notifications (`Store::notify`, `Store::listen`).

use std::time::Duration;

use super::state::Lobby;

/// The channel of the "your turn" announcements between nodes.
pub const TURNS: &str = "plateau_turns";

/// The channel of each node's counts.
pub const COUNTS: &str = "plateau_counts";

/// How often a node tells the others its counts.
const COUNTS_EVERY: Duration = Duration::from_secs(2);

/// While the lobby lives: tells the other nodes this node's "your turn" announcements as they
/// happen and its counts every `COUNTS_EVERY`, and passes theirs (`notices`, from
/// `Store::listen`) to this node's presence registry, so a player's lobby socket on any node
/// hears of its turn and every lobby shows the counts of all nodes.
pub(crate) async fn share_presence(
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
                let payload = serde_json::json!({
                    "cluster": cluster_tag(&lobby),
                    "node": lobby.node().name,
                    "player": turn.player.0,
                    "id": turn.id,
                    "game": turn.game,
                });
                tell(&lobby, TURNS, payload).await;
            }
            _ = tick.tick() => {
                let Some(lobby) = lobby.upgrade() else {
                    return;
                };
                if *lobby.shutdown_signal().borrow() {
                    return;
                }
                let counts = lobby.presence().local_counts();
                let payload = serde_json::json!({
                    "cluster": cluster_tag(&lobby),
                    "node": lobby.node().name,
                    "online": counts.online,
                    "playing": counts.playing,
                });
                tell(&lobby, COUNTS, payload).await;
                lobby.presence().prune_remote();
            }
        }
    }
}

/// Sends `payload` on `channel`; a failure is logged (the next change or tick tells again).
async fn tell(lobby: &Lobby, channel: &'static str, payload: serde_json::Value) {
    if let Err(e) = lobby.store().notify(channel, payload.to_string()).await {
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
    let Ok(notice) = serde_json::from_str::<serde_json::Value>(payload) else {
        return;
    };
    if notice["cluster"].as_str() != Some(cluster_tag(lobby).as_str())
        || notice["node"]
            .as_str()
            .is_none_or(|n| n == lobby.node().name)
    {
        return;
    }
    let node = notice["node"].as_str().unwrap_or_default();
    let count = |field: &str| notice[field].as_u64().and_then(|n| usize::try_from(n).ok());
    match channel {
        COUNTS => {
            if let (Some(online), Some(playing)) = (count("online"), count("playing")) {
                let counts = crate::presence::Counts { online, playing };
                lobby.presence().remote_counts(node, counts);
            }
        }
        TURNS => {
            let game = notice["game"]
                .as_str()
                .and_then(|g| lobby.catalogue().game(g))
                .map(|g| g.info.name);
            let (Some(player), Some(id), Some(game)) =
                (notice["player"].as_i64(), notice["id"].as_str(), game)
            else {
                return;
            };
            lobby.presence().announce(&crate::presence::TurnEvent {
                player: crate::players::PlayerId(player),
                id: id.to_owned(),
                game,
            });
        }
        _ => {}
    }
}
