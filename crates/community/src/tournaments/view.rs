//! A tournament as the HTTP API shows it (docs/protocol.md section 7.9): settings and phase,
//! standings and games, by the players' names.

use plateau_protocol::server::{
    TieBreaks, TournamentBye, TournamentDetail, TournamentGame, TournamentInfo, TournamentKind,
    TournamentPhase, TournamentStanding,
};
use plateau_tournament::{Fill, Kind, Seat};

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
        let settings = t.settings();
        let (kind, rounds) = match settings.kind {
            Kind::Arena { .. } => (TournamentKind::Arena, None),
            Kind::Swiss { rounds } => (TournamentKind::Swiss, Some(rounds)),
            Kind::Tables { rounds, .. } => (TournamentKind::Tables, Some(rounds)),
        };
        let arena = kind == TournamentKind::Arena;
        let started = t.arena_end_ms().is_some() || !t.rounds().is_empty();
        let phase = if one.finished {
            TournamentPhase::Finished
        } else if started {
            TournamentPhase::Running
        } else {
            TournamentPhase::Waiting
        };
        let ends_at = arena.then(|| {
            t.arena_end_ms()
                .map_or(one.starts_at + length, |end| real_ms(end, minute))
        });
        let active = t.players().iter().filter(|p| p.active).count();
        TournamentDetail {
            tournament: TournamentInfo {
                id: one.id.clone(),
                kind,
                name: one.setup.name.clone(),
                game: one.setup.game.clone(),
                time_control: one.setup.time_control,
                rated: one.setup.rated,
                min_rating: one.setup.min_rating,
                seats: settings.seats,
                minutes: arena.then_some(one.setup.minutes),
                rounds,
                round: u32::try_from(t.rounds().len()).unwrap_or(u32::MAX),
                bots: matches!(
                    settings.kind,
                    Kind::Tables {
                        fill: Fill::Bots,
                        ..
                    }
                ),
                scheduled: one.setup.scheduled,
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
                    tie_breaks: s.tie_breaks.map(|b| TieBreaks {
                        buchholz_cut1: b.buchholz_cut1,
                        buchholz: b.buchholz,
                        sonneborn_berger: b.sonneborn_berger,
                    }),
                })
                .collect(),
            games: t
                .games()
                .iter()
                .map(|g| TournamentGame {
                    round: g.round,
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
            byes: t
                .rounds()
                .iter()
                .filter_map(|r| {
                    r.bye.map(|p| TournamentBye {
                        round: r.number,
                        name: name(p.0),
                    })
                })
                .collect(),
        }
    }
}
