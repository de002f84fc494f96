//! Who plays: players (guests, accounts, bots), their names, passwords and sessions
//! (docs/protocol.md section 7).
//!
//! A session is a random 256-bit id in an HttpOnly cookie; the store keeps only its SHA-256, as
//! for seat tokens. Passwords are hashed with Argon2id (the `argon2` crate's defaults) and a salt
//! per password. This module holds the rules; the store holds the rows.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use serde::Serialize;

use crate::model::{ApiError, Code};

/// Shortest and longest name, in characters.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 3..=20;
/// Shortest and longest password, in characters.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// The suffix reserved for bots' names (`club-bot`).
pub const BOT_SUFFIX: &str = "-bot";
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "plateau_session";

/// A player's database id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PlayerId(pub i64);

/// What kind of player: a guest (a name and a cookie), an account (a password too) or a bot.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// Plays under a name kept by its session cookie alone.
    Guest,
    /// Has a password: can sign in on another device.
    Account,
    /// One of the server's bots (one player per bot name).
    Bot,
}

impl PlayerKind {
    /// The stored word.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerKind::Guest => "guest",
            PlayerKind::Account => "account",
            PlayerKind::Bot => "bot",
        }
    }

    /// Reads a stored word.
    #[must_use]
    pub fn parse(word: &str) -> Option<PlayerKind> {
        match word {
            "guest" => Some(PlayerKind::Guest),
            "account" => Some(PlayerKind::Account),
            "bot" => Some(PlayerKind::Bot),
            _ => None,
        }
    }
}

/// A player as the service knows it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Player {
    /// The database id (never sent to clients).
    pub id: PlayerId,
    /// The unique name, as written by its owner.
    pub name: String,
    /// Guest, account or bot.
    pub kind: PlayerKind,
    /// Unix ms of creation.
    pub created_at: i64,
}

/// A player as clients see it: `{"name": "Alice", "kind": "guest"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// `"guest"`, `"account"` or `"bot"`.
    pub kind: PlayerKind,
}

impl Player {
    /// The public view.
    #[must_use]
    pub fn view(&self) -> PlayerView {
        PlayerView {
            name: self.name.clone(),
            kind: self.kind,
        }
    }
}

/// The key that makes names unique without regard to case.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a name a person chose: 3 to 20 ASCII letters, digits, `_` or `-`, starting with a letter
/// or a digit, not ending in `-bot` (bots' names).
///
/// # Errors
/// `name/invalid` saying what is wrong. The name is quoted escaped (`{:?}`), so markup or
/// control characters in it reach nobody as such.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let bad = |why: &str| ApiError::new(Code::NameInvalid, format!("the name {name:?} {why}"));
    let len = name.chars().count();
    if !NAME_LEN.contains(&len) {
        return Err(bad("must have 3 to 20 characters"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(bad(
            "may hold only letters a-z and A-Z, digits, `_` and `-`",
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(bad("must start with a letter or a digit"));
    }
    if name_key(name).ends_with(BOT_SUFFIX) {
        return Err(bad("ends in `-bot`, which is kept for the server's bots"));
    }
    Ok(())
}

/// The bot player's name for bot `bot` (`club` → `club-bot`).
#[must_use]
pub fn bot_name(bot: &str) -> String {
    format!("{bot}{BOT_SUFFIX}")
}

/// A generated guest name, `guest-` and 6 hex digits.
#[must_use]
pub fn guest_name() -> String {
    format!("guest-{}", hex::encode(rand::random::<[u8; 3]>()))
}

/// Checks a password's length.
///
/// # Errors
/// `password/invalid`.
pub fn check_password(password: &str) -> Result<(), ApiError> {
    if PASSWORD_LEN.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::new(
            Code::PasswordInvalid,
            "a password has 8 to 128 characters",
        ))
    }
}

/// Hashes a password with Argon2id and a fresh salt (PHC string format). Slow on purpose
/// (tens of milliseconds): call it from a blocking thread.
///
/// # Errors
/// `server/internal` if hashing fails (it does not with these parameters).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("argon2: {e}")))
}

/// A hash of no password anybody has, verified against when the name is unknown, so an unknown
/// name costs the same time as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY
        .get_or_init(|| hash_password(&hex::encode(rand::random::<[u8; 16]>())).unwrap_or_default())
}

/// Whether `password` matches `stored` (a PHC string); `None` (an unknown name or a guest)
/// verifies against a decoy and answers false. Slow on purpose: call it from a blocking thread.
#[must_use]
pub fn verify_password(password: &str, stored: Option<&str>) -> bool {
    let phc = stored.unwrap_or_else(|| decoy_hash());
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let ok = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    ok && stored.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_plain_and_not_a_bots() {
        for good in ["Ann", "alice_99", "Jean-Luc", "x2y", "A1234567890123456789"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            "A12345678901234567890",
            "<script>",
            "a b c",
            "héloïse",
            "-abc",
            "tab\tname",
            "club-bot",
            "Club-BOT",
            "",
        ] {
            let e = check_name(bad).unwrap_err();
            assert_eq!(e.code, Code::NameInvalid, "{bad}");
            assert!(!e.message.contains('<') || e.message.contains("\"<script>\""));
        }
        assert_eq!(name_key("Alice"), name_key("aLICE"));
    }

    #[test]
    fn passwords_verify_and_unknown_names_fail_the_same_way() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", Some(&hash)));
        assert!(!verify_password("wrong horse", Some(&hash)));
        assert!(!verify_password("correct horse", None));
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }
}
