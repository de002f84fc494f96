//! The service's shared state, which every route is given.

use std::sync::Arc;

use plateau_lobby::limits::PerMinute;
use plateau_lobby::lobby::Lobby;
use plateau_match::analysis::Analyses;
use plateau_match::replays::{Histories, Replays};
use plateau_pairing::Pairing;

/// The service's shared state: the lobby (and through it the store and the actors), the pairing
/// pools and the sign-in rate limit.
#[derive(Clone)]
pub struct AppState {
    /// The lobby.
    pub lobby: Arc<Lobby>,
    /// The quick-pairing pools.
    pub pairing: Arc<Pairing>,
    /// The lobby sockets' `lobby` message, made once per change for all of them.
    pub lobby_counts: Arc<super::lobby_counts::CountsMessage>,
    /// The open challenges to named players.
    pub challenges: Arc<plateau_community::challenges::Challenges>,
    /// The friend lists of the players with a lobby socket open.
    pub friends: Arc<plateau_community::friends::Friends>,
    /// The live tournaments, and the task that runs them.
    pub tournaments: Arc<plateau_community::tournaments::Tournaments>,
    /// Per-minute counts per address (and name): sign-ins, guests, matches.
    pub per_minute: Arc<PerMinute>,
    /// One replay (or history) computed at a time; at most `replays::MAX_REPLAYS_WAITING` wait.
    pub replays: Arc<Replays>,
    /// Histories computed lately, and the addresses computing one.
    pub histories: Arc<Histories>,
    /// Post-game analyses waiting or being computed.
    pub analyses: Arc<Analyses>,
    /// The password hashing threads and their line.
    pub hasher: Arc<plateau_lobby::passwords::Hasher>,
}

impl AppState {
    /// The state of a service over `lobby`, with empty pools and counters.
    ///
    /// # Panics
    /// Outside a tokio runtime, or if the analysis thread cannot start.
    #[must_use]
    pub fn new(lobby: Arc<Lobby>) -> AppState {
        let analyses = Analyses::start(
            lobby.store().clone(),
            tokio::runtime::Handle::current(),
            lobby.options().analysis_iterations,
        );
        let limits = &lobby.options().limits;
        let hasher =
            plateau_lobby::passwords::Hasher::start(limits.password_hashes, limits.hashes_waiting);
        tokio::spawn(plateau_community::moderation::watch(Arc::downgrade(&lobby)));
        let pairing = Pairing::start(lobby.clone(), limits.no_show, limits.no_show_wait);
        let counts = lobby.presence().counts();
        AppState {
            analyses: Arc::new(analyses),
            hasher: Arc::new(hasher),
            lobby_counts: Arc::new(super::lobby_counts::CountsMessage::new(
                counts,
                pairing.pools(),
            )),
            pairing,
            per_minute: lobby.recent().clone(),
            challenges: plateau_community::challenges::Challenges::new(lobby.clone()),
            friends: Arc::new(plateau_community::friends::Friends::default()),
            tournaments: plateau_community::tournaments::Tournaments::new(lobby.clone()),
            lobby,
            replays: Arc::new(Replays::default()),
            histories: Arc::new(Histories::default()),
        }
    }
}
