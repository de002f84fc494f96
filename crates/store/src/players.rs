//! Who plays, as the store keeps it: players (guests, accounts, bots), their ids and kinds, and
//! the keys their names are unique under (docs/protocol.md section 7). The rules for names and
//! passwords a person chooses are the server's (`plateau_server::players`).

use serde::Serialize;

/// The suffix reserved for bots' names (`club-bot`).
pub const BOT_SUFFIX: &str = "-bot";

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

/// The key under which names that look alike are one name: Unicode's confusables skeleton
/// (UTS 39 section 4, the `unicode-security` crate) of the name, in lower case, its skeleton again,
/// without `-` and `_`. `AIice` (a capital i) and `Alice` share one, as do `club_bot`,
/// `clubbot` and `club-bot`. The store keeps it with each person and refuses a second person
/// with the same one (`Store::create_player`).
#[must_use]
pub fn similar_key(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let once: String = skeleton(name).collect::<String>().to_lowercase();
    skeleton(&once)
        .filter(|c| !matches!(c, '-' | '_'))
        .collect()
}

/// The bot player's name for bot `bot` (`club` → `club-bot`).
#[must_use]
pub fn bot_name(bot: &str) -> String {
    format!("{bot}{BOT_SUFFIX}")
}
