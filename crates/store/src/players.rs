//! Who plays, as the store keeps it: players (guests, accounts, bots), their ids and kinds, the
//! keys their names are unique under, and how long their sessions last (docs/protocol.md section 7). The rules for names and
//! passwords a person chooses are the server's (`plateau_lobby::players`).

/// The suffix reserved for bots' names (`club-bot`).
pub const BOT_SUFFIX: &str = "-bot";

/// A player's database id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PlayerId(pub i64);

/// What kind of player: a guest (a name and a cookie), an account (a password too) or a bot; the
/// protocol's word, stored as it is sent.
pub use plateau_protocol::server::PlayerKind;

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
pub use plateau_protocol::server::PlayerView;

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

/// A session unused for this long (30 days, in ms) names nobody any more.
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;

/// A session's last use is written again once it is this old (a day, in ms).
pub const SESSION_RENEW_MS: i64 = 24 * 3600 * 1000;

/// The look-alike key a player of `kind` named `name` is stored with: its name's
/// (`players::similar_key`) for a person, none for a bot (bots' names are kept from look-alikes
/// by `players::check_chosen_name`, against the catalogue).
#[must_use]
pub fn stored_similar_key(name: &str, kind: PlayerKind) -> Option<String> {
    (kind != PlayerKind::Bot).then(|| similar_key(name))
}

/// A player with its password hash (accounts only), as sign-in needs it.
pub type PlayerSecret = (Player, Option<String>);

/// What one player keeps of another (docs/protocol.md section 7.8): at most one per pair, so
/// blocking a player one follows ends the following.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Relation {
    /// Follows: the other shows in the friend list, with whether it is online and playing.
    Follow,
    /// Blocks: no challenges, chat or pairing with the other.
    Block,
}

impl Relation {
    /// The word stored: `follow` or `block`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Follow => "follow",
            Relation::Block => "block",
        }
    }

    /// The relation a stored word names.
    #[must_use]
    pub fn parse(word: &str) -> Option<Relation> {
        match word {
            "follow" => Some(Relation::Follow),
            "block" => Some(Relation::Block),
            _ => None,
        }
    }
}
