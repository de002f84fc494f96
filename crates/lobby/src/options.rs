//! The service's settings: bot pacing and budget, test seeds, abandonment, limits, this node.

use std::time::Duration;

/// The service's settings, which the lobby and every match actor share.
#[derive(Clone, Debug)]
pub struct Options {
    /// Pause before a bot plays, so people can follow (0 in tests); none at a simultaneous
    /// node, where the moves are secret.
    pub bot_delay: Duration,
    /// Hard cap on a bot's thinking (each bot also has its own budget, at most 1 s for the
    /// lobby's bots); past it the seat plays a random legal action.
    pub bot_budget: Duration,
    /// For tests only (`plateau serve --test-seeds`): a match may be created with a fixed `seed`,
    /// and one created without gets a seed derived from its creation order
    /// (`Lobby::test_seed`), so a test that starts from an empty database plays the same games
    /// every run. Never on a public server: its dice would be known in advance.
    pub test_seeds: bool,
    /// In a live match with a clock, a human seat with no open socket for this long resigns by
    /// the game's rule (docs/protocol.md section 7.4).
    pub abandon_after: Duration,
    /// How long a seat's per-move or Fischer clock waits for the seat's first move before it
    /// runs anyway (docs/protocol.md section 4.1); 0 runs it at once.
    pub first_move: Duration,
    /// What a stranger may make the server hold.
    pub limits: crate::limits::Limits,
    /// Search iterations per judged decision of a post-game analysis; `None` = each game's
    /// expert level (`plateau_registry::expert_judge`).
    pub analysis_iterations: Option<u64>,
    /// Whether the server is reached only over TLS (a proxy in front that terminates it): every
    /// answer then carries HSTS and its cookies `Secure` (`http::auth::transport_security`).
    pub secure_cookies: bool,
    /// This process among the nodes of a database several share (docs/architecture.md section
    /// 5.3): its name and the address the others reach it at. `None` = a name of its own made at
    /// start and no address (no other node can forward to it).
    pub node: Option<plateau_store::Node>,
    /// Whether the server keeps tournaments of its own scheduled: an hourly arena per game of
    /// two, daily tables per game of more (docs/protocol.md section 7.9). On for `plateau serve`,
    /// off by default here so that tests see only the tournaments they make.
    pub scheduled_tournaments: bool,
    /// Words no chosen name may hold (`plateau serve --name-deny-list`, read by
    /// `players::read_deny_list`), compared by their look-alike keys (`players::similar_key`).
    pub name_deny_list: Vec<String>,
}

impl Options {
    /// What the match actors are set to: the bot, abandonment and first-move settings, and
    /// `limits.idle_unload`.
    #[must_use]
    pub fn match_settings(&self) -> plateau_match::Settings {
        plateau_match::Settings {
            bot_delay: self.bot_delay,
            bot_budget: self.bot_budget,
            abandon_after: self.abandon_after,
            first_move: self.first_move,
            idle_unload: self.limits.idle_unload,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bot_delay: Duration::from_millis(250),
            bot_budget: Duration::from_secs(5),
            test_seeds: false,
            abandon_after: Duration::from_secs(90),
            first_move: Duration::from_secs(30),
            limits: crate::limits::Limits::default(),
            analysis_iterations: None,
            secure_cookies: false,
            node: None,
            scheduled_tournaments: false,
            name_deny_list: Vec::new(),
        }
    }
}
