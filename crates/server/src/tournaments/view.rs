//! A tournament as the HTTP API shows it (docs/protocol.md section 7.9): settings and phase,
//! standings and games, by the players' names.

use plateau_protocol::server::{
    TournamentDetail, TournamentGame, TournamentInfo, TournamentPhase, TournamentStanding,
};
use plateau_tournament::Seat;

use super::state::{Live, Tournaments, real_ms};

impl Tournaments {
    /// `one` as the API shows it.
    pub(super) fn view(&self, one: &Live) -> TournamentDetail {
        let minute = self.lobby.options().limits.tournament_minute;
        let t = &one.state.tournament;
        let name = |id: i64| {
            one.state
                .members
                .get(&id)
                .map_or_else(|| format!("player {id}"), |m| m.name.clone())
        };
        let length = i64::try_from(minute.as_millis()).unwrap_or(i64::MAX / 2)
            * i64::from(one.setup.minutes);
        let (phase, ends_at) = match t.arena_end_ms() {
            _ if one.finished => (
                TournamentPhase::Finished,
                t.arena_end_ms()
                    .map_or(one.starts_at + length, |end| real_ms(end, minute)),
            ),
            Some(end) => (TournamentPhase::Running, real_ms(end, minute)),
            None => (TournamentPhase::Waiting, one.starts_at + length),
        };
        let active = t.players().iter().filter(|p| p.active).count();
        TournamentDetail {
            tournament: TournamentInfo {
                id: one.id.clone(),
                name: one.setup.name.clone(),
                game: one.setup.game.clone(),
                time_control: one.setup.time_control,
                rated: one.setup.rated,
                min_rating: one.setup.min_rating,
                minutes: one.setup.minutes,
                starts_at: one.starts_at,
                ends_at,
                phase,
                creator: one.setup.creator.clone(),
                players: u32::try_from(active).unwrap_or(u32::MAX),
            },
            standings: t
                .standings()
                .into_iter()
                .map(|s| TournamentStanding {
                    place: s.place,
                    name: name(s.player.0),
                    active: s.active,
                    points: s.points,
                    games: s.games,
                    wins: s.wins,
                    on_fire: s.on_fire,
                })
                .collect(),
            games: t
                .games()
                .iter()
                .map(|g| TournamentGame {
                    match_id: one
                        .state
                        .matches
                        .get(g.id.0 as usize)
                        .filter(|m| m.made)
                        .map(|m| m.id.clone()),
                    players: g
                        .seats
                        .iter()
                        .map(|s| match s {
                            Seat::Player(p) => name(p.0),
                            Seat::Bot => "bot".to_owned(),
                        })
                        .collect(),
                    // The tournament ranks from 0, the API (as an outcome) from 1.
                    ranks: g
                        .result
                        .as_ref()
                        .map(|r| r.ranks.iter().map(|k| k + 1).collect()),
                })
                .collect(),
        }
    }
}
