//! Reading a stored tournament back (docs/tournaments.md section 2.1): the value is checked as
//! the operations would have built it, so a tournament that reads is one they can reach, and
//! every method may rely on it (games where their ids say, players known, ranks that fit).

use std::collections::HashSet;

use serde::Deserialize;

use crate::{Fill, Game, Kind, Player, Round, Seat, Settings, Tournament, TournamentError};

/// A tournament as stored, before its checks.
#[derive(Deserialize)]
pub(crate) struct Stored {
    settings: Settings,
    players: Vec<Player>,
    games: Vec<Game>,
    rounds: Vec<Round>,
    started_ms: Option<u64>,
    recorded: u32,
}

impl TryFrom<Stored> for Tournament {
    type Error = TournamentError;

    fn try_from(stored: Stored) -> Result<Self, TournamentError> {
        let bad = |why: &'static str| Err(TournamentError::Stored(why));
        let Stored {
            settings,
            players,
            games,
            rounds,
            started_ms,
            recorded,
        } = stored;
        settings.check()?;
        let known: HashSet<_> = players.iter().map(|p| p.id).collect();
        if known.len() != players.len() {
            return bad("players: a player twice");
        }
        if players
            .iter()
            .any(|p| p.joined_round as usize > rounds.len())
        {
            return bad("players: joined in a round not paired");
        }
        let arena = matches!(settings.kind, Kind::Arena { .. });
        if started_ms.is_some() && !arena {
            return bad("started_ms: only an arena is started");
        }
        let seats = usize::from(settings.seats);
        let mut orders = HashSet::new();
        for (i, game) in games.iter().enumerate() {
            if game.id.0 as usize != i {
                return bad("games: an id out of place");
            }
            if game.round.is_some() == arena
                || game
                    .round
                    .is_some_and(|r| r == 0 || r as usize > rounds.len())
            {
                return bad("games: a round that does not exist");
            }
            let size_fits = match settings.kind {
                Kind::Tables {
                    fill: Fill::ShortTables,
                    ..
                } => game.seats.len() + 1 >= seats,
                _ => game.seats.len() == seats,
            };
            if !size_fits || game.seats.len() > seats {
                return bad("games: seats that do not fit the game");
            }
            let bots_allowed = matches!(
                settings.kind,
                Kind::Tables {
                    fill: Fill::Bots,
                    ..
                }
            );
            if game.seats.contains(&Seat::Bot) && !bots_allowed {
                return bad("games: a bot where none may sit");
            }
            let players: Vec<_> = game.players().collect();
            let distinct: HashSet<_> = players.iter().collect();
            if distinct.len() != players.len() || players.iter().any(|p| !known.contains(p)) {
                return bad("games: an unknown player, or one in two seats");
            }
            if let Some(result) = &game.result {
                result
                    .check(game.seats.len())
                    .map_err(|_| TournamentError::Stored("games: ranks that do not fit"))?;
            }
            match game.finished_order {
                Some(order)
                    if game.result.is_some() && order < recorded && orders.insert(order) => {}
                None if game.result.is_none() => {}
                _ => return bad("games: the order of results does not hold"),
            }
        }
        if orders.len() != recorded as usize {
            return bad("recorded: not the number of results");
        }
        let mut listed = 0;
        for (i, round) in rounds.iter().enumerate() {
            if round.number as usize != i + 1 {
                return bad("rounds: a number out of place");
            }
            let mut seated = HashSet::new();
            for id in &round.games {
                let Some(game) = games.get(id.0 as usize) else {
                    return bad("rounds: an unknown game");
                };
                if game.round != Some(round.number) {
                    return bad("rounds: a game of another round");
                }
                if i + 1 < rounds.len() && game.result.is_none() {
                    return bad("rounds: a result missing before the last round");
                }
                if !game.players().all(|p| seated.insert(p)) {
                    return bad("rounds: a player twice in a round");
                }
                listed += 1;
            }
            if let Some(bye) = round.bye
                && (!matches!(settings.kind, Kind::Swiss { .. })
                    || !known.contains(&bye)
                    || !seated.insert(bye))
            {
                return bad("rounds: a bye that cannot be");
            }
        }
        if listed != games.iter().filter(|g| g.round.is_some()).count() {
            return bad("rounds: a game in no round, or in two");
        }
        if arena {
            let mut playing = HashSet::new();
            let running = games.iter().filter(|g| g.result.is_none());
            if !running.flat_map(|g| g.players()).all(|p| playing.insert(p)) {
                return bad("games: a player in two running games");
            }
        }
        Ok(Tournament {
            settings,
            players,
            games,
            rounds,
            started_ms,
            recorded,
        })
    }
}
