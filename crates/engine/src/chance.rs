//! Sampling chance nodes, and the match seed whose hash is published before play (fair dice).

use std::fmt;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::game::Game;
use crate::seat::Actor;

/// Picks one outcome from `(outcome, probability)` pairs by drawing exactly one `f64` from `rng`.
///
/// Drawing exactly one number per chance node is part of the record contract: replaying a record
/// with its revealed seed must redraw the same outcomes (see `crate::record`).
///
/// # Panics
/// If `outcomes` is empty.
pub fn sample<A, R: Rng + ?Sized>(outcomes: &[(A, f64)], rng: &mut R) -> usize {
    assert!(
        !outcomes.is_empty(),
        "sample called with no chance outcomes"
    );
    let mut x: f64 = rng.random();
    for (i, (_, p)) in outcomes.iter().enumerate() {
        if x < *p {
            return i;
        }
        x -= p;
    }
    outcomes.len() - 1
}

/// Plays `game`'s chance node: lists its outcomes into `outcomes` (cleared first), draws one by
/// `sample` and applies it. Returns its index and the outcome, or `None` (nothing applied) when
/// the state is not a chance node.
pub fn draw<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    outcomes: &mut Vec<(G::Action, f64)>,
) -> Option<(usize, G::Action)> {
    game.chance_outcomes(outcomes);
    if outcomes.is_empty() {
        return None;
    }
    let index = sample(outcomes, rng);
    let action = outcomes[index].0.clone();
    game.apply_legal(Actor::Chance, &action);
    Some((index, action))
}

/// The 32-byte seed of a match's chance generator (ChaCha20).
///
/// Written as 64 lowercase hex digits. The match service publishes `hash_hex()` when the match is
/// created and the seed itself when it ends, so anyone can check the dice were fixed in advance.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed from a small number, for reproducible command-line games (`--seed 42`): the number's
    /// 8 little-endian bytes followed by zeros.
    #[must_use]
    pub fn from_u64(n: u64) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(bytes)
    }

    /// A fresh seed from the operating system's generator.
    #[must_use]
    pub fn random() -> Seed {
        Seed(rand::random())
    }

    /// The chance generator this seed starts.
    #[must_use]
    pub fn rng(&self) -> ChaCha20Rng {
        ChaCha20Rng::from_seed(self.0)
    }

    /// A generator for another purpose (a bot's own randomness), independent of the chance stream:
    /// ChaCha20 with the same key on stream `stream` (stream 0 is the chance generator).
    #[must_use]
    pub fn rng_for_stream(&self, stream: u64) -> ChaCha20Rng {
        let mut rng = self.rng();
        rng.set_stream(stream);
        rng
    }

    /// SHA-256 of the 32 seed bytes, as 64 lowercase hex digits.
    #[must_use]
    pub fn hash_hex(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// The seed as 64 lowercase hex digits.
    #[must_use]
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Reads 64 hex digits.
    ///
    /// # Errors
    /// A message if the text is not exactly 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Seed, String> {
        let bytes = hex::decode(text).map_err(|e| format!("seed `{text}` is not hex: {e}"))?;
        let bytes: [u8; 32] = bytes
            .try_into()
            .map_err(|_| format!("seed `{text}` must be 64 hex digits (32 bytes)"))?;
        Ok(Seed(bytes))
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Seed::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_follows_the_probabilities() {
        let outcomes = [('a', 0.25), ('b', 0.5), ('c', 0.25)];
        let mut rng = Seed::from_u64(7).rng();
        let mut counts = [0usize; 3];
        for _ in 0..40_000 {
            counts[sample(&outcomes, &mut rng)] += 1;
        }
        // Binomial standard deviation at n = 40,000 is at most 100; allow 5 of them.
        assert!((counts[0] as i64 - 10_000).abs() < 500, "{counts:?}");
        assert!((counts[1] as i64 - 20_000).abs() < 500, "{counts:?}");
    }

    #[test]
    fn seed_hash_is_sha256_of_the_bytes() {
        // SHA-256 of 32 zero bytes, a published test value.
        assert_eq!(
            Seed([0; 32]).hash_hex(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        let seed = Seed::from_u64(42);
        assert_eq!(Seed::from_hex(&seed.to_hex()).unwrap(), seed);
        assert!(Seed::from_hex("abc").is_err());
    }

    #[test]
    fn bot_streams_differ_from_the_chance_stream() {
        let seed = Seed::from_u64(1);
        let a: u64 = seed.rng().random();
        let b: u64 = seed.rng_for_stream(1).random();
        assert_ne!(a, b);
        assert_eq!(a, seed.rng().random::<u64>());
    }
}
