//! The error codes of docs/protocol.md section 5, from one table: each code's variant, text, HTTP
//! status and meaning.

use http::StatusCode;
use schemars::JsonSchema;

/// Declares `Code` from one table: each code's variant, text, HTTP status and meaning.
macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal, $status:ident;)*) => {
        /// The stable error codes of docs/protocol.md section 5.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the table's order.
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// The code's text, e.g. `"action/stale"`.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)*
                }
            }

            /// The HTTP status of the code when it answers an HTTP request (codes that only a
            /// WebSocket sends have the status they would have over HTTP).
            #[must_use]
            pub fn status(self) -> StatusCode {
                match self {
                    $(Code::$variant => StatusCode::$status,)*
                }
            }
        }
    };
}

codes! {
    /// The HTTP request body or query is not what the route takes.
    RequestMalformed = "request/malformed", BAD_REQUEST;
    /// The HTTP request body is over 16 KiB.
    RequestTooLarge = "request/too_large", PAYLOAD_TOO_LARGE;
    /// The HTTP request body did not arrive in time (docs/protocol.md section 6).
    RequestTimeout = "request/timeout", REQUEST_TIMEOUT;
    /// No API route at that path.
    RequestNotFound = "request/not_found", NOT_FOUND;
    /// The path does not take that HTTP method.
    RequestMethodNotAllowed = "request/method_not_allowed", METHOD_NOT_ALLOWED;
    /// A WebSocket path asked without a WebSocket upgrade.
    RequestUpgradeRequired = "request/upgrade_required", UPGRADE_REQUIRED;
    /// A state-changing request from another site (its `Origin` is not this host).
    RequestCrossSite = "request/cross_site", FORBIDDEN;
    /// A request body that is not `Content-Type: application/json`.
    RequestMediaType = "request/media_type", UNSUPPORTED_MEDIA_TYPE;
    /// No game of that name.
    GameUnknown = "game/unknown", BAD_REQUEST;
    /// The game refused the config or the seat count.
    ConfigInvalid = "config/invalid", BAD_REQUEST;
    /// No bot of that name.
    BotUnknown = "bot/unknown", BAD_REQUEST;
    /// A time control out of range, of an unknown kind, or not suited to the game.
    TimeControlInvalid = "time_control/invalid", BAD_REQUEST;
    /// No such seat, or it is a bot seat.
    SeatInvalid = "seat/invalid", BAD_REQUEST;
    /// The seat already has a player (or no free human seat is left).
    SeatTaken = "seat/taken", CONFLICT;
    /// A fixed seed asked of a server not run for tests.
    SeedNotAllowed = "seed/not_allowed", FORBIDDEN;
    /// No match with that id.
    MatchNotFound = "match/not_found", NOT_FOUND;
    /// The match is finished.
    MatchOver = "match/over", CONFLICT;
    /// The record, the chat or a rematch is only available once finished.
    MatchNotOver = "match/not_over", CONFLICT;
    /// An open match nobody started in time was removed.
    MatchExpired = "match/expired", GONE;
    /// The match still waits for its players.
    MatchNotStarted = "match/not_started", CONFLICT;
    /// No valid seat token (or the seat belongs to another player).
    AuthSeat = "auth/seat", FORBIDDEN;
    /// Wrong name or password (the same answer for both).
    AuthFailed = "auth/failed", UNAUTHORIZED;
    /// Too many sign-in attempts from one address or for one name.
    AuthRateLimited = "auth/rate_limited", TOO_MANY_REQUESTS;
    /// The request needs a player (a session), and has none.
    AuthRequired = "auth/required", UNAUTHORIZED;
    /// A name that breaks the naming rules.
    NameInvalid = "name/invalid", BAD_REQUEST;
    /// A name another player has (without regard to case).
    NameTaken = "name/taken", CONFLICT;
    /// A guest's name once it played a rated game: it stays (an account keeps it too).
    NameLocked = "name/locked", CONFLICT;
    /// A password of the wrong length.
    PasswordInvalid = "password/invalid", BAD_REQUEST;
    /// The player is already an account (sign out first, or it cannot become a guest).
    PlayerAccount = "player/account", CONFLICT;
    /// No player of that name.
    PlayerNotFound = "player/not_found", NOT_FOUND;
    /// Deleting an account that still sits at an unfinished match or is in a tournament not
    /// over (docs/protocol.md section 7.10).
    PlayerPlaying = "player/playing", CONFLICT;
    /// `version` is not the current version (stale or repeated action).
    ActionStale = "action/stale", CONFLICT;
    /// This seat is not to act now.
    ActionNotYourTurn = "action/not_your_turn", CONFLICT;
    /// The action text does not parse.
    ActionMalformed = "action/malformed", BAD_REQUEST;
    /// The action is not legal now.
    ActionIllegal = "action/illegal", BAD_REQUEST;
    /// An offer (agreed stop) the game or the table does not allow.
    OfferUnsupported = "offer/unsupported", BAD_REQUEST;
    /// A chat line that is empty, too long or holds control characters.
    ChatInvalid = "chat/invalid", BAD_REQUEST;
    /// Too many chat lines in a short time.
    ChatRateLimited = "chat/rate_limited", TOO_MANY_REQUESTS;
    /// The player already seeks a game in that pool.
    SeekDuplicate = "seek/duplicate", CONFLICT;
    /// The seek to accept is gone (paired, cancelled) or is the player's own.
    SeekNotFound = "seek/not_found", NOT_FOUND;
    /// The player did not come to its last paired match, and must wait before seeking again.
    SeekNoShow = "seek/no_show", TOO_MANY_REQUESTS;
    /// The player already seeks games in as many pools as one may (`SEEKS_PER_PLAYER`).
    LimitSeeks = "limit/seeks", TOO_MANY_REQUESTS;
    /// The challenge is gone (accepted, declined, withdrawn, expired) or is not the player's to
    /// answer.
    ChallengeNotFound = "challenge/not_found", NOT_FOUND;
    /// A challenge to oneself, to a bot, or for a game not played by two.
    ChallengeInvalid = "challenge/invalid", BAD_REQUEST;
    /// The player already has a challenge open to that player.
    ChallengeDuplicate = "challenge/duplicate", CONFLICT;
    /// Too many challenges open from the player, or waiting for the challenged player.
    LimitChallenges = "limit/challenges", TOO_MANY_REQUESTS;
    /// The player blocks the other one: unblock first (never sent to the blocked player).
    PlayerBlocked = "player/blocked", FORBIDDEN;
    /// The player is banned by a moderator: no play, no chat, no new matches (the message says
    /// until when).
    PlayerBanned = "player/banned", FORBIDDEN;
    /// The player is muted in chat by a moderator (the message says until when).
    ChatMuted = "chat/muted", FORBIDDEN;
    /// The request is a moderator's, and the session's player is none.
    AuthModerator = "auth/moderator", FORBIDDEN;
    /// A report without a known reason, with a text too long, about oneself or a bot, or naming
    /// a chat line the player did not write.
    ReportInvalid = "report/invalid", BAD_REQUEST;
    /// No open report has that number.
    ReportNotFound = "report/not_found", NOT_FOUND;
    /// Too many reports from the player lately.
    LimitReports = "limit/reports", TOO_MANY_REQUESTS;
    /// A moderator action that does not fit (an unknown action, a time out of range, a bot).
    ModerationInvalid = "moderation/invalid", BAD_REQUEST;
    /// Following or blocking oneself or a bot.
    RelationInvalid = "relation/invalid", BAD_REQUEST;
    /// The player already follows (or blocks) as many players as one may.
    LimitRelations = "limit/relations", TOO_MANY_REQUESTS;
    /// No tournament has that id.
    TournamentNotFound = "tournament/not_found", NOT_FOUND;
    /// Settings of a new tournament that break a limit (the message names the field).
    TournamentInvalid = "tournament/invalid", BAD_REQUEST;
    /// Joining a tournament that is over, or withdrawing from one the player is not in.
    TournamentClosed = "tournament/closed", CONFLICT;
    /// The player's rating in the game is below the tournament's minimum.
    TournamentRating = "tournament/rating", FORBIDDEN;
    /// The tournament has as many players as one may hold.
    TournamentFull = "tournament/full", CONFLICT;
    /// Too many tournaments created by the player lately, or live on the server.
    LimitTournaments = "limit/tournaments", TOO_MANY_REQUESTS;
    /// A lobby socket already follows as many tournaments as one may.
    LimitFollows = "limit/follows", TOO_MANY_REQUESTS;
    /// Not a JSON object with a string `type`, bad field types, or a binary frame.
    MsgMalformed = "msg/malformed", BAD_REQUEST;
    /// Unknown message `type`.
    MsgUnknown = "msg/unknown", BAD_REQUEST;
    /// A frame over 16 KiB.
    MsgTooLarge = "msg/too_large", PAYLOAD_TOO_LARGE;
    /// Too many connections from one address, or in all.
    LimitConnections = "limit/connections", TOO_MANY_REQUESTS;
    /// Too many messages on one socket.
    LimitMessages = "limit/messages", TOO_MANY_REQUESTS;
    /// Too many matches created, held open, or of bots alone, from one address.
    LimitMatches = "limit/matches", TOO_MANY_REQUESTS;
    /// Too many new players (guests) from one address.
    LimitPlayers = "limit/players", TOO_MANY_REQUESTS;
    /// Too many renames of one guest in an hour.
    LimitRenames = "limit/renames", TOO_MANY_REQUESTS;
    /// Too many downloads of a player's data in an hour, by the player or from its address.
    LimitDownloads = "limit/downloads", TOO_MANY_REQUESTS;
    /// Too many replays or histories are being computed; ask again in a moment.
    LimitReplays = "limit/replays", TOO_MANY_REQUESTS;
    /// Too many analyses are waiting to be computed; ask again later.
    LimitAnalyses = "limit/analyses", TOO_MANY_REQUESTS;
    /// The line of password checks (sign-ins, new accounts) is full; ask again in a moment.
    LimitBusy = "limit/busy", SERVICE_UNAVAILABLE;
    /// Something failed inside the server (details only in its log).
    Internal = "server/internal", INTERNAL_SERVER_ERROR;
    /// The server is stopping.
    ShuttingDown = "server/shutting_down", SERVICE_UNAVAILABLE;
    /// Another node drives the match now, or the node that drove it stopped answering and its
    /// lease has not expired yet: connect again.
    MatchMoved = "match/moved", SERVICE_UNAVAILABLE;
    /// The database does not answer now: nothing was changed; try again in a moment.
    StoreUnavailable = "store/unavailable", SERVICE_UNAVAILABLE;
}

impl Code {
    /// The code of an engine error code string (`IllegalAction::code`, `ActionError::code`).
    #[must_use]
    pub fn from_engine(code: &str) -> Code {
        match code {
            "match/over" => Code::MatchOver,
            "action/not_your_turn" => Code::ActionNotYourTurn,
            "action/malformed" => Code::ActionMalformed,
            _ => Code::ActionIllegal,
        }
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Code".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({
            "description": "An error code of docs/protocol.md section 5.",
            "type": "string",
            "enum": codes,
        })
    }
}
