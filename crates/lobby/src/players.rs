//! Who plays: players (guests, accounts, bots), their names, passwords and sessions
//! (docs/protocol.md section 7).
//!
//! A session is a random 256-bit id in an HttpOnly cookie; the store keeps only its SHA-256, as
//! for seat tokens. Passwords are hashed with Argon2id (the `argon2` crate's defaults) and a salt
//! per password, on the threads of `passwords`. This module holds the rules; the store holds the
//! rows.

use plateau_protocol::{Code, WireError};

pub use plateau_store::players::{
    BOT_SUFFIX, Player, PlayerId, PlayerKind, PlayerView, Relation, bot_name, name_key, similar_key,
};

/// Shortest and longest name, in characters.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 3..=20;
/// Shortest and longest password, in characters.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "plateau_session";

/// Checks a name a person chose: 3 to 20 ASCII letters, digits, `_` or `-`, starting with a letter
/// or a digit, not ending in `-bot` (bots' names).
///
/// # Errors
/// `name/invalid` saying what is wrong. The name is quoted escaped (`{:?}`), so markup or
/// control characters in it reach nobody as such.
pub fn check_name(name: &str) -> Result<(), WireError> {
    let bad = |why: &str| WireError::new(Code::NameInvalid, format!("the name {name:?} {why}"));
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

/// The name the server itself goes by, e.g. as the creator of the tournaments it schedules: no
/// person may take it or one that passes for it.
pub const SERVER_NAME: &str = "Plateau";

/// Names no person may take, whole, in any case or look-alike letters (`check_chosen_name`):
/// the server's own and those that would pass for its staff (docs/protocol.md section 7.1).
pub const RESERVED_NAMES: [&str; 9] = [
    SERVER_NAME,
    "server",
    "system",
    "admin",
    "administrator",
    "moderator",
    "root",
    "staff",
    "support",
];

/// Checks a name a person chose (`check_name`), and that it does not pass for a bot's name or a
/// bot level's (`bots`: the catalogue's bot names, which are the levels' names: `club`,
/// `club-bot`), is not one of `RESERVED_NAMES` (the server's own, its staff's) nor passes for a name the server makes for guests
/// (`guest-` and 6 hex digits), gives a renamed player (`player-` and 6 hex digits) or shows for
/// a deleted one (`deleted player` and 6 digits, without its spaces), and holds
/// no word of `deny` (the operator's list, `Options::name_deny_list`). Look-alikes are found by
/// their keys (`similar_key`: case, `0`/`O`, `1`/`l`/`I`, Cyrillic letters, ...).
///
/// # Errors
/// `name/invalid` saying which, in words.
pub fn check_chosen_name(name: &str, bots: &[&str], deny: &[String]) -> Result<(), WireError> {
    check_name(name)?;
    let bad = |why: &str| WireError::new(Code::NameInvalid, format!("the name {name:?} {why}"));
    let key = similar_key(name);
    if bots.iter().any(|b| similar_key(&bot_name(b)) == key) {
        return Err(bad("looks like a bot's name"));
    }
    if bots.iter().any(|b| similar_key(b) == key) {
        return Err(bad("looks like the name of a bot level"));
    }
    // In lower case too: the skeleton reads a capital I as an l (`ADMIN` as `admln`).
    let lower = similar_key(&name_key(name));
    if RESERVED_NAMES
        .iter()
        .map(|r| similar_key(r))
        .any(|r| r == key || r == lower)
    {
        return Err(bad("is kept for the server and its staff"));
    }
    // Compared on the look-alike keys, so `PIayer-a1b2c3` and `guest-abcdeO` count too.
    let generated = |prefix: &str, digits: &str, count: std::ops::RangeInclusive<usize>| {
        let digits: Vec<String> = digits
            .chars()
            .map(|d| similar_key(&d.to_string()))
            .collect();
        key.strip_prefix(&similar_key(prefix))
            .is_some_and(|rest| spelled_with(rest, &digits, &count))
    };
    if generated("guest", "0123456789abcdef", 6..=6) {
        return Err(bad("looks like a name the server gives guests"));
    }
    if generated("player", "0123456789abcdef", 6..=6) {
        return Err(bad("looks like a name the moderators give"));
    }
    // `deleted player` and 6 digits has spaces no chosen name has: the name without them.
    if generated("deletedplayer", "0123456789", 1..=6) {
        return Err(bad("looks like the name a deleted player's games show"));
    }
    if deny
        .iter()
        .map(|w| similar_key(w))
        .any(|w| !w.is_empty() && key.contains(&w))
    {
        return Err(bad("holds a word this server does not allow in names"));
    }
    Ok(())
}

/// Whether `text` is `count` pieces of `pieces` in a row (a digit's look-alike key may have
/// more than one letter).
fn spelled_with(text: &str, pieces: &[String], count: &std::ops::RangeInclusive<usize>) -> bool {
    fn from(
        text: &str,
        pieces: &[String],
        count: &std::ops::RangeInclusive<usize>,
        n: usize,
    ) -> bool {
        if text.is_empty() {
            return count.contains(&n);
        }
        n < *count.end()
            && pieces.iter().any(|p| {
                !p.is_empty()
                    && text
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| from(rest, pieces, count, n + 1))
            })
    }
    from(text, pieces, count, 0)
}

/// The words of a deny list file (`plateau serve --name-deny-list`): one a line, blank lines
/// and lines starting with `#` left out, each trimmed.
#[must_use]
pub fn read_deny_list(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
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
pub fn check_password(password: &str) -> Result<(), WireError> {
    if PASSWORD_LEN.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(WireError::new(
            Code::PasswordInvalid,
            "a password has 8 to 128 characters",
        ))
    }
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
    fn names_that_pass_for_others_are_known() {
        assert_eq!(similar_key("AIice"), similar_key("Alice"));
        assert_eq!(similar_key("A1ice"), similar_key("alice"));
        assert_eq!(similar_key("club_bot"), similar_key("club-bot"));
        assert_ne!(similar_key("Alice"), similar_key("Alicia"));
        let bots = ["club", "expert", "random"];
        for bad in [
            "club_bot",
            "clubbot",
            "CIub_bot",
            "expertbot",
            "guest-abcdef",
            "guest_0a1b2c",
            "plateau",
            "P1ateau",
        ] {
            let e = check_chosen_name(bad, &bots, &[]).unwrap_err();
            assert_eq!(e.code, Code::NameInvalid, "{bad}");
        }
        for good in [
            "Alice",
            "clubber",
            "guestbook",
            "guest-xyz123",
            "Robot",
            "Plateaux",
        ] {
            assert!(check_chosen_name(good, &bots, &[]).is_ok(), "{good}");
        }
    }

    #[test]
    fn level_names_and_denied_words_are_refused_with_their_look_alikes() {
        let bots = ["club", "expert"];
        for (bad, why) in [
            ("Expert", "bot level"),
            ("EXPERT", "bot level"),
            ("CIub", "bot level"),
            ("c1ub", "bot level"),
            ("player-0a1b2c", "moderators give"),
        ] {
            let e = check_chosen_name(bad, &bots, &[]).unwrap_err();
            assert!(e.message.contains(why), "{bad}: {}", e.message);
        }
        let deny = read_deny_list("# words\n\n  Badword \nrude\n");
        assert_eq!(deny, ["Badword", "rude"]);
        // The word anywhere in the name (so a word inside a longer one counts too: keep the
        // list to words that are never innocent), in any case or look-alike letters; a name's
        // letters are ASCII (`check_name`), so a Cyrillic look-alike is shown on the key.
        for bad in ["badword", "xBADWORDx", "BADW0RD", "ru_de", "RUDE99"] {
            let e = check_chosen_name(bad, &bots, &deny).expect_err(bad);
            assert!(e.message.contains("does not allow"), "{bad}: {}", e.message);
        }
        assert_eq!(similar_key("rud\u{0435}"), similar_key("rude"));
        for good in ["Alice", "Expertise", "clubs", "Rodeo"] {
            assert!(check_chosen_name(good, &bots, &deny).is_ok(), "{good}");
        }
    }

    #[test]
    fn the_names_the_server_gives_are_refused_in_look_alike_letters() {
        for (bad, why) in [
            ("PIayer-a1b2c3", "moderators give"),
            ("p1ayer-a1b2c3", "moderators give"),
            ("player-abcdeo", "moderators give"),
            ("guest-abcdeO", "server gives guests"),
            ("GUEST_0A1B2C", "server gives guests"),
            ("deletedplayer123456", "deleted player"),
            ("Deleted_PIayer_12345", "deleted player"),
        ] {
            let e = check_chosen_name(bad, &[], &[]).expect_err(bad);
            assert!(e.message.contains(why), "{bad}: {}", e.message);
        }
        for good in [
            "player-xyz123",
            "guest-abcdefg",
            "players-abcdef",
            "deletedplayer",
            "Deleted99",
        ] {
            assert!(check_chosen_name(good, &[], &[]).is_ok(), "{good}");
        }
    }

    #[test]
    fn the_server_s_and_its_staff_s_names_are_kept_in_any_spelling() {
        for bad in [
            "Plateau",
            "P1ateau",
            "server",
            "SERVER",
            "system",
            "sys_tem",
            "admin",
            "Adm_in",
            "ADMINISTRATOR",
            "moderator",
            "M0derator",
            "mod-erator",
            "r00t",
            "Staff",
            "support",
        ] {
            let e = check_chosen_name(bad, &[], &[]).expect_err(bad);
            assert_eq!(e.code, Code::NameInvalid, "{bad}");
            assert!(
                e.message.contains("kept for the server"),
                "{bad}: {}",
                e.message
            );
        }
        for good in [
            "Admiral",
            "admin2",
            "TheModerator",
            "Servers",
            "Systemic",
            "Rooter",
        ] {
            assert!(check_chosen_name(good, &[], &[]).is_ok(), "{good}");
        }
    }

    #[test]
    fn passwords_have_a_length() {
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
    }
}
