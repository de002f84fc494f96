//! The lobby socket's `lobby` message (docs/protocol.md section 7.6): the players online, the
//! games in play and the pairing pools, built once per change for every lobby socket of the
//! server. Each socket still sends it at its own instant of the second, and only when it differs
//! from what that socket sent last (`lobby_ws`); thousands of sockets would otherwise each clone
//! the pools, serialise them and hash the text at every change.

use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use plateau_lobby::presence::Counts;
use plateau_pairing::PoolView;
use plateau_protocol::server::LobbyMessage;
use tokio::sync::watch;

/// The `lobby` message as the counts and the pools last stood, made when a socket asks for it
/// after either changed.
pub struct CountsMessage {
    sources: Mutex<Sources>,
}

/// What the message is made of, as this cache last read it, and the message then made.
struct Sources {
    counts: watch::Receiver<Counts>,
    pools: watch::Receiver<Vec<PoolView>>,
    /// The text and its digest (`digest`); `None` before the first.
    built: Option<(Utf8Bytes, u64)>,
}

impl CountsMessage {
    /// The message of `counts` (`Presence::counts`) and `pools` (`Pairing::pools`).
    #[must_use]
    pub fn new(
        counts: watch::Receiver<Counts>,
        pools: watch::Receiver<Vec<PoolView>>,
    ) -> CountsMessage {
        CountsMessage {
            sources: Mutex::new(Sources {
                counts,
                pools,
                built: None,
            }),
        }
    }

    /// The message as the counts and the pools stand now, and its digest (equal digests: the
    /// same text). Made anew only when one of them changed since it was last made.
    pub fn now(&self) -> (Utf8Bytes, u64) {
        let mut sources = self.sources.lock().unwrap_or_else(|e| e.into_inner());
        let Sources {
            counts,
            pools,
            built,
        } = &mut *sources;
        // A source whose sender is gone (the service stopping) keeps its last value.
        let changed = |changed: Result<bool, watch::error::RecvError>| changed.unwrap_or(false);
        match built {
            Some(built) if !changed(counts.has_changed()) && !changed(pools.has_changed()) => {
                built.clone()
            }
            _ => {
                let now = *counts.borrow_and_update();
                // Serialised from the pools' own value (read-locked for that long), not a copy.
                let text = serde_json::to_string(&LobbyMessage::Lobby {
                    online: now.online,
                    playing: now.playing,
                    pools: &pools.borrow_and_update(),
                })
                .unwrap_or_default();
                let digest = digest(&text);
                let made = (Utf8Bytes::from(text), digest);
                *built = Some(made.clone());
                made
            }
        }
    }
}

/// A digest of a message, to tell one that says nothing new.
pub fn digest(message: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    message.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message is the protocol's, follows each change of either source, and is the very
    /// same text (one allocation shared) while nothing changed.
    #[test]
    fn the_message_is_made_once_per_change() {
        let (counts_tx, counts) = watch::channel(Counts {
            online: 3,
            playing: 1,
        });
        let (pools_tx, pools) = watch::channel(Vec::<PoolView>::new());
        let message = CountsMessage::new(counts, pools);
        let (first, digest_first) = message.now();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(first.as_str()).unwrap(),
            serde_json::json!({"type": "lobby", "online": 3, "playing": 1, "pools": []})
        );
        let (again, digest_again) = message.now();
        assert_eq!(again.as_str().as_ptr(), first.as_str().as_ptr());
        assert_eq!(digest_again, digest_first);
        counts_tx.send_replace(Counts {
            online: 4,
            playing: 1,
        });
        let (changed, digest_changed) = message.now();
        assert!(changed.as_str().contains(r#""online":4"#));
        assert_ne!(digest_changed, digest_first);
        // Undone: the same text as before, so the same digest.
        counts_tx.send_replace(Counts {
            online: 3,
            playing: 1,
        });
        pools_tx.send_replace(Vec::new());
        let (undone, digest_undone) = message.now();
        assert_eq!(undone.as_str(), first.as_str());
        assert_eq!(digest_undone, digest_first);
        // The senders gone, the last message stays.
        drop((counts_tx, pools_tx));
        assert_eq!(message.now().0.as_str(), first.as_str());
    }
}
