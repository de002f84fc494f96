//! Seat tokens: random secrets a seat's holder proves itself with, of which the store keeps
//! only the SHA-256 (docs/protocol.md section 7.2), and the seat a caller holds by its token or
//! its session's player. Session ids are made the same way.

use plateau_engine::Seat;
use sha2::{Digest, Sha256};

use crate::model::{ApiError, Code, SeatSpec};
use plateau_store::players::Player;

/// A fresh seat token (64 hex digits) and its stored hash.
pub fn new_token() -> (String, String) {
    let token = hex::encode(rand::random::<[u8; 32]>());
    let hash = token_hash(&token);
    (token, hash)
}

/// SHA-256 of the token text, as stored.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The seat a connection (or a request) is for, from the match's seats (`token_hashes`,
/// `players` and `specs`, one entry per seat): a `token` names its seat, refused (`auth/seat`)
/// when it is no seat token of the match or its seat belongs to another player than the
/// session's `player`; without a token, the human seat the session's player holds, if any (the
/// same player on another device). `None`: a spectator.
///
/// # Errors
/// `auth/seat` as said.
pub fn seat_for(
    token: Option<&str>,
    player: Option<&Player>,
    token_hashes: &[Option<String>],
    players: &[Option<Player>],
    specs: &[SeatSpec],
) -> Result<Option<Seat>, ApiError> {
    let Some(token) = token else {
        return Ok(player.and_then(|p| {
            players
                .iter()
                .zip(specs)
                .position(|(q, spec)| {
                    *spec == SeatSpec::Human && q.as_ref().map(|q| q.id) == Some(p.id)
                })
                .map(|i| Seat(i as u8))
        }));
    };
    let hash = token_hash(token);
    let i = token_hashes
        .iter()
        .position(|h| h.as_deref() == Some(hash.as_str()))
        .ok_or_else(|| {
            ApiError::new(
                Code::AuthSeat,
                "this token is not a seat token of this match",
            )
        })?;
    match (player, &players[i]) {
        (Some(p), Some(owner)) if p.id != owner.id => Err(ApiError::new(
            Code::AuthSeat,
            "this seat belongs to another player: sign in as that player",
        )),
        _ => Ok(Some(Seat(i as u8))),
    }
}
