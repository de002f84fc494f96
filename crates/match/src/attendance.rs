//! What a match reports of who sits at it, and asks of whoever keeps count of who is here (the
//! server's presence registry): the match crate owns the trait, the server implements it, so the
//! actor never imports the lobby's side.

use plateau_store::players::PlayerId;

/// One match as its actor last reported it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MatchPresence {
    /// Whether the match is live.
    pub live: bool,
    /// Per seat: a human seat with an open socket (bots: false).
    pub connected: Vec<bool>,
    /// The people sitting here with a socket open (the friend list's "playing").
    pub here: Vec<PlayerId>,
    /// The people whose seat is to act now.
    pub to_act: Vec<PlayerId>,
    /// A match without a clock, played across visits: its turns are announced.
    pub correspondence: bool,
    /// The game's registry name.
    pub game: &'static str,
    /// The version spectators are shown (secret actions not counted).
    pub public_version: u64,
}

impl MatchPresence {
    /// Whether a person sits at the table now.
    #[must_use]
    pub fn someone_here(&self) -> bool {
        self.connected.iter().any(|c| *c)
    }

    /// Whether it counts among the matches being played: live, with a person at the table.
    #[must_use]
    pub fn playing(&self) -> bool {
        self.live && self.someone_here()
    }
}

/// Who keeps count of the people here, as the match actors see it.
pub trait Attendance: Send + Sync {
    /// Match `id` now stands as `now` (who is connected, whose turn it is).
    fn report(&self, id: &str, now: MatchPresence);
    /// Match `id` left memory: it is no longer counted.
    fn forget(&self, id: &str);
    /// `player` took its seat from the address whose key is `key` (the server's
    /// `limits::address_key`), now.
    fn came_from(&self, player: PlayerId, key: String);
    /// Whether two of `players` came from one address lately: their rated match then changes
    /// no rating (`ratings::Unrated::SameAddress`).
    fn shared_address(&self, players: &[PlayerId]) -> bool;
}
